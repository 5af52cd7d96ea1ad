"""fw.new: a firmware project folder bound to a board, with an AGENTS.md naming the
board's pins.

With a framework installed the folder is made by the framework's own project
creation (``idf.py create-project``, ``pio project init``, ``arduino-cli sketch
new``); otherwise (or with ``framework="baremetal"``) it is the bare-metal ESP32-C3
template in ``templates/esp32c3-baremetal``, built by make with Debian's RISC-V GCC
and picolibc, imaged by esptool's ``elf2image`` and flashed at offset 0, where the
ROM loads it."""

from __future__ import annotations

import re
import shutil
from importlib import resources
from pathlib import Path

from ..errors import InvalidArgs, ServiceUnavailable
from .process import run_streaming
from .project import write_config
from .toolchain import which

TEMPLATE = "esp32c3-baremetal"
FRAMEWORKS = ("auto", "baremetal", "idf", "platformio", "arduino")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")


def pick_framework(framework: str, chip: str) -> str:
    """``auto``: the first installed of ESP-IDF, PlatformIO, Arduino CLI, else the
    bare-metal template (ESP32-C3 only)."""
    if framework != "auto":
        return framework
    for name, exes in (("idf", ("idf.py",)), ("platformio", ("pio", "platformio")), ("arduino", ("arduino-cli",))):
        if which(exes):
            return name
    return "baremetal"


def create(folder: Path, *, name: str, chip: str, framework: str, binding: dict, pins_md: str,
           board_label: str, led_gpio: int | None, kicad: str | None, cancel=None) -> dict:
    """Create the project in ``folder`` (which must not exist or be empty); returns
    {framework, files}. Raises InvalidArgs (bad name, a non-empty folder, bare metal for
    a chip other than ESP32-C3) and ServiceUnavailable (the framework is missing)."""
    if not _NAME.match(name):
        raise InvalidArgs(f"project name {name!r}: letters, digits, _ and -, starting with a letter")
    if folder.exists() and any(folder.iterdir()):
        raise InvalidArgs(f"{folder.name} exists and is not empty", hint="Pick a new folder name.")
    fw = pick_framework(framework, chip)
    firmware: dict = {"chip": chip}
    if fw == "baremetal":
        if chip != "esp32c3":
            raise InvalidArgs(f"the bare-metal template is for esp32c3 (Debian's RISC-V compiler); {chip} needs "
                              "ESP-IDF, PlatformIO or Arduino", hint="Install a framework (fw.doctor) or use esp32c3.")
        _copy_template(folder, name, board_label, 8 if led_gpio is None else led_gpio)
        firmware.update(build="make", elf="build/app.elf", image="build/app.bin", offset="0x0", max_size="48K")
    else:
        _framework_create(fw, folder, name, chip, cancel)
        firmware["build"] = fw
        if fw == "arduino":
            firmware["fqbn"] = f"esp32:esp32:{chip}"
    if kicad:
        firmware["kicad"] = kicad
    write_config(folder, firmware, binding)
    (folder / "AGENTS.md").write_text(agents_md(name, chip, fw, binding, board_label, pins_md), encoding="utf-8")
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    return {"framework": fw, "files": files[:50]}


def _copy_template(folder: Path, name: str, board: str, led: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    src = resources.files("boardwire.firmware") / "templates" / TEMPLATE
    for item in src.iterdir():
        if not item.is_file():
            continue
        text = item.read_text(encoding="utf-8")
        text = text.replace("@NAME@", name).replace("@BOARD@", board).replace("@LED_GPIO@", str(led))
        (folder / item.name).write_text(text, encoding="utf-8")


def _framework_create(fw: str, folder: Path, name: str, chip: str, cancel) -> None:
    exes = {"idf": ("idf.py",), "platformio": ("pio", "platformio"), "arduino": ("arduino-cli",)}
    if fw not in exes:
        raise InvalidArgs(f"unknown framework {fw!r}; known: {', '.join(FRAMEWORKS)}")
    exe = which(exes[fw])
    if exe is None:
        raise ServiceUnavailable(f"framework {fw} is not installed", hint="fw.doctor lists what is found.")
    parent = folder.parent
    if fw == "idf":
        argv = [exe, "create-project", "--path", str(folder), name]
    elif fw == "platformio":
        folder.mkdir(parents=True, exist_ok=True)
        board = {"esp32c3": "esp32-c3-devkitm-1", "esp32s3": "esp32-s3-devkitc-1"}.get(chip, "esp32dev")
        argv = [exe, "project", "init", "--board", board, "--project-option", "framework=arduino"]
        parent = folder
    else:
        argv = [exe, "sketch", "new", str(folder)]
    fin = run_streaming(argv, cwd=str(parent), cancel=cancel, timeout=600)
    if fin.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise ServiceUnavailable(f"{' '.join(argv[:2])} failed: {fin.lines[-1] if fin.lines else fin.returncode}")


def agents_md(name: str, chip: str, framework: str, binding: dict, board: str, pins_md: str) -> str:
    bound = ", ".join(f"{k} {v}" for k, v in binding.items()) or "none yet (set [board] in boardwire.toml)"
    how = {"baremetal": "`make` (Debian's riscv64-unknown-elf-gcc + picolibc; esptool elf2image); "
                        "the image goes to flash offset 0x0",
           "idf": "`idf.py build`", "platformio": "`pio run`", "arduino": "`arduino-cli compile`"}[framework]
    return f"""# {name}

Firmware for {board} ({chip}), created by boardwire's fw.new.

- Build: {how}. Through boardwire: `fw.build`, then `fw.flash` or `fw.run`.
- Bound board: {bound}. An agent may flash, reset or erase only this board
  unless boardwire.toml's `[agent]` table allows more (docs/firmware.md).
- Read the board's output with `fw.monitor.start` and `fw.monitor.read`; panics are
  decoded against this project's ELF.

## The board's pins (from the KiCad schematic, `fw.pins`)

{pins_md or "No schematic was named: pass `kicad` to fw.new or fw.pins to list the MCU's pins."}
"""
