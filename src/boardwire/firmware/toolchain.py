"""Which firmware tools this machine has (fw.doctor), found offline: build systems
(ESP-IDF's idf.py, PlatformIO, Arduino CLI, cargo with espflash, make), flashing
tools (esptool, espflash), compilers (Debian's bare-metal RISC-V GCC with picolibc for
ESP32-C3, Espressif's Xtensa and RISC-V GCC) and the Python pieces the monitor uses."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
from pathlib import Path

RISCV_PREFIX = "riscv64-unknown-elf-"

# (name, executables tried in order, what it is for)
EXECUTABLES = (
    ("idf.py", ("idf.py",), "ESP-IDF builds (idf.py build)"),
    ("platformio", ("pio", "platformio"), "PlatformIO builds (pio run)"),
    ("arduino-cli", ("arduino-cli",), "Arduino builds (arduino-cli compile)"),
    ("cargo", ("cargo",), "Rust builds (cargo build --release)"),
    ("espflash", ("espflash",), "Rust images and flashing"),
    ("make", ("make",), "make builds (the bare-metal template)"),
    ("riscv-gcc", (RISCV_PREFIX + "gcc",), "bare-metal RISC-V (ESP32-C3) compiler"),
    ("riscv-esp-gcc", ("riscv32-esp-elf-gcc",), "Espressif's RISC-V compiler"),
    ("xtensa-esp32-gcc", ("xtensa-esp32-elf-gcc", "xtensa-esp-elf-gcc"), "Espressif's Xtensa compiler (ESP32, S2, S3)"),
)
MODULES = (
    ("esptool", "esptool", "flashing, board info, erase, reset"),
    ("pyserial", "pyserial", "serial ports and the monitor"),
    ("esp-idf-panic-decoder", "esp-idf-panic-decoder", "panic addresses to source lines"),
    ("esp-idf-monitor", "esp-idf-monitor", "ESP-IDF's own monitor (not required)"),
    ("esp32-mock-bootloader", "esp32-mock-bootloader", "a ROM bootloader to flash without a board (tests)"),
)


def require(module: str):
    """Import ``module`` (esptool, serial, esp_idf_panic_decoder); raises
    ServiceUnavailable naming the extra that installs it."""
    import importlib

    from ..errors import ServiceUnavailable

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ServiceUnavailable(f"the Python package {module} is not installed",
                                 hint="pip install 'boardwire[firmware]' (esptool, pyserial, the panic decoder)") from None


def which(names: tuple[str, ...]) -> str | None:
    for n in names:
        found = shutil.which(n)
        if found:
            return found
    if "idf.py" in names and os.environ.get("IDF_PATH"):
        p = Path(os.environ["IDF_PATH"]) / "tools" / "idf.py"
        if p.is_file():
            return str(p)
    return None


def _version(path: str) -> str | None:
    try:
        r = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    first = (r.stdout or r.stderr).strip().splitlines()
    return first[0][:120] if first else None


def picolibc_specs() -> str | None:
    """picolibc's GCC specs file for the RISC-V compiler (Debian's
    picolibc-riscv64-unknown-elf), or None."""
    gcc = shutil.which(RISCV_PREFIX + "gcc")
    if gcc is None:
        return None
    try:
        r = subprocess.run([gcc, "-print-file-name=picolibc.specs"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    p = r.stdout.strip()
    return p if os.path.isabs(p) and os.path.isfile(p) else None


def addr2line_for(chip: str | None) -> str | None:
    """The addr2line that reads this chip's ELF files: Espressif's own when installed,
    else Debian's RISC-V one for the RISC-V chips (ESP32-C*, H*, P4)."""
    xtensa = chip in ("esp32", "esp32s2", "esp32s3")
    names = (("xtensa-esp32-elf-addr2line", "xtensa-esp-elf-addr2line") if xtensa
             else ("riscv32-esp-elf-addr2line", RISCV_PREFIX + "addr2line"))
    return which(names)


def doctor() -> dict:
    """Each tool: found, path, version (one line), and what it is for."""
    tools = []
    for name, exes, purpose in EXECUTABLES:
        path = which(exes)
        row = {"tool": name, "found": path is not None, "for": purpose}
        if path:
            row["path"] = path
            v = _version(path)
            if v:
                row["version"] = v
        tools.append(row)
    for name, dist, purpose in MODULES:
        try:
            version = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            version = None
        tools.append({"tool": name, "found": version is not None, "for": purpose,
                      **({"version": version} if version else {})})
    specs = picolibc_specs()
    tools.append({"tool": "picolibc", "found": specs is not None,
                  "for": "C library for the bare-metal RISC-V template", **({"path": specs} if specs else {})})
    return {"tools": tools, "bare_metal_esp32c3": bool(which((RISCV_PREFIX + "gcc",)) and specs
                                                        and which(("make",)))}
