#!/usr/bin/env bash
# Install the bare-metal ESP32-C3 toolchain the firmware tests build with: Debian's
# RISC-V GCC, binutils (addr2line decodes panics) and picolibc, plus make. Does
# nothing when they are present. (esptool, pyserial, the panic decoder and the mock
# bootloader come from pip, through the test extra.)
set -euo pipefail

if command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 \
   && [ -d /usr/lib/picolibc/riscv64-unknown-elf ]; then
    echo "install-firmware-tools: $(riscv64-unknown-elf-gcc --version | head -n1) and picolibc already present"
    exit 0
fi

SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends \
    gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf picolibc-riscv64-unknown-elf make
riscv64-unknown-elf-gcc --version | head -n1
