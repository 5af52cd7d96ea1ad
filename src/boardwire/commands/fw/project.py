"""fw.*: firmware for ESP32-class boards: the tools found, a new project bound to a
board, the build, and the MCU's pins from the KiCad schematic (`boardwire.firmware`).
Board commands are in `fw_board`, the monitor in `fw_monitor`."""

from __future__ import annotations

import os
from typing import Annotated, Literal

from pydantic import Field

from ...errors import InvalidArgs, NotFound
from ...firmware import pins as fwpins
from ...firmware import scaffold, toolchain
from ...registry import Context, command
from ...services.schematic import connectivity_of
from ..common import WRITE, Args, OutputPath, Role, SchematicPath
from .common import BuiltDirArgs, DirArgs, project_of, run_build
from .results import Doctor, FirmwareBuilt, FirmwareCreated, McuPins


@command("fw.doctor", kind="query", args=Args, result=Doctor, idempotent=True)
def doctor(ctx: Context, a: Args) -> dict:
    """Firmware tools found offline: ESP-IDF, PlatformIO, Arduino CLI, cargo/espflash, make, RISC-V/Xtensa compilers, picolibc, esptool, pyserial."""
    d = toolchain.doctor()
    found = [t["tool"] for t in d["tools"] if t["found"]]
    missing = [t["tool"] for t in d["tools"] if not t["found"]]
    d["summary"] = (f"found {', '.join(found) or 'nothing'}; missing {', '.join(missing) or 'nothing'}; "
                    f"bare-metal ESP32-C3 builds {'work' if d['bare_metal_esp32c3'] else 'need riscv64-unknown-elf-gcc, picolibc and make'}")
    return d


# -- pins -------------------------------------------------------------------------------

class PinsArgs(DirArgs):
    path: SchematicPath | None = Field(None, min_length=1, max_length=4096,
                                       description="Root .kicad_sch (default: the project's)")
    reference: str | None = Field(None, min_length=1, max_length=100, description="MCU reference (default: the ESP32)")
    gpio_only: bool = Field(True, description="Only pins with a GPIO number")


def schematic_path(ctx: Context, a_path: str | None, folder: str) -> str:
    """The root schematic as a working-directory path: ``path``, else the project's
    ``[firmware] kicad``, else the only .kicad_sch beside a .kicad_pro in the project or
    its parent."""
    ws = ctx.session.workspace
    if a_path:
        return a_path
    root = ws.resolve(folder)
    proj = project_of(ctx, folder) if root.is_dir() else None
    if proj is not None and proj.kicad() is not None:
        return ws.relative(ws.resolve(proj.kicad()))
    for base in (root, root.parent):
        if not base.is_dir() or ws.root not in (base, *base.parents):
            continue
        for pro in sorted(base.glob("*.kicad_pro")):
            sch = pro.with_suffix(".kicad_sch")
            if sch.is_file():
                return ws.relative(sch)
    raise NotFound("no schematic named and none found beside the project",
                   hint="Pass path (the root .kicad_sch) or set [firmware] kicad in the project's boardwire.toml.")


def _pin_line(r: dict) -> str:
    head = f"GPIO{r['gpio']}" if "gpio" in r else r["name"]
    return f"{head} (pin {r['number']}) {r.get('net', 'unconnected')}" + (
        f": {'; '.join(r['on_net'])}" if r.get("on_net") else "")


def pin_table(ctx: Context, path: str, reference: str | None, gpio_only: bool) -> dict:
    return fwpins.mcu_pins(connectivity_of(ctx, path), reference, gpio_only=gpio_only)


@command("fw.pins", kind="query", args=PinsArgs, result=McuPins, idempotent=True,
         examples=({"dir": "firmware"}, {"path": "hw/board.kicad_sch", "reference": "U1"}))
def pins(ctx: Context, a: PinsArgs) -> dict:
    """The MCU's pins from the KiCad schematic: GPIO, net, and what is on it (LED D1 through R3, pull-up R4 to +3.3V, button to GND, a chip's pin)."""
    path = schematic_path(ctx, a.path, a.dir)
    t = pin_table(ctx, path, a.reference, a.gpio_only)
    m = t["mcu"]
    used = [r for r in t["pins"] if r.get("on_net")]
    return {"summary": f"{m['reference']} {m.get('value', '')}: {len(t['pins'])} pins, {len(used)} connected to parts "
                       f"(schematic {path})", "schematic": path, **t,
            "lines": [_pin_line(r) for r in t["pins"] if not r.get("power")]}


# -- new --------------------------------------------------------------------------------

class NewArgs(Args):
    name: Annotated[str, Role(WRITE, within="dir")] = Field(min_length=1, max_length=64,
                                                           description="Folder dir/name is created")
    dir: OutputPath = Field(".", min_length=1, max_length=4096, description="Parent folder")
    chip: str = Field("esp32c3", min_length=1, max_length=32, description="esptool chip name")
    framework: Literal["auto", "baremetal", "idf", "platformio", "arduino"] = Field(
        "auto", description="auto: an installed one, else bare-metal ESP32-C3")
    port: str | None = Field(None, min_length=1, max_length=4096, description="Bound port")
    board_id: str | None = Field(None, min_length=1, max_length=64, description="Bound board id (MAC)")
    kicad: SchematicPath | None = Field(None, min_length=1, max_length=4096,
                                        description="The board's root .kicad_sch")


@command("fw.new", kind="export", args=NewArgs, result=FirmwareCreated, long=True,
         examples=({"name": "blinky", "chip": "esp32c3", "port": "/dev/ttyUSB0",
                    "kicad": "hw/board.kicad_sch"},))
def new(ctx: Context, a: NewArgs) -> dict:
    """New firmware project bound to a board, with AGENTS.md listing its pins from the schematic; by the installed framework, else bare-metal ESP32-C3 (Debian's RISC-V GCC)."""
    ws = ctx.session.workspace
    folder = ws.resolve(os.path.join(a.dir, a.name))
    pins_md, led, label = "", None, a.chip
    kicad_rel = None
    if a.kicad:
        table = pin_table(ctx, a.kicad, None, True)
        pins_md = fwpins.markdown(table)
        led = next((r["gpio"] for r in table["pins"] if any(s.startswith("LED") for s in r.get("on_net", []))), None)
        label = f"{table['mcu'].get('value') or table['mcu']['reference']} on {os.path.basename(a.kicad)}"
        kicad_rel = os.path.relpath(ws.resolve(a.kicad), folder)
    binding = {"port": a.port, "id": a.board_id}
    binding = {k: v for k, v in binding.items() if v}
    ctx.progress(0.1, "creating the project")
    out = scaffold.create(folder, name=a.name, chip=a.chip, framework=a.framework, binding=binding,
                          pins_md=pins_md, board_label=label, led_gpio=led, kicad=kicad_rel, cancel=ctx.cancel)
    ctx.progress(1.0, "done")
    rel = ws.relative(folder)
    return {"summary": f"created {rel} ({out['framework']}, {a.chip})"
                       + (f", bound to {', '.join(binding.values())}" if binding else ", no board bound")
                       + (f"; LED on GPIO{led}" if led is not None else ""),
            "dir": rel, **out, "bound": binding}


# -- build ------------------------------------------------------------------------------

class BuildArgs(BuiltDirArgs):
    timeout_s: float = Field(1800, gt=0, le=7200, description="Seconds before it is stopped")


@command("fw.build", kind="export", args=BuildArgs, result=FirmwareBuilt, long=True,
         examples=({"dir": "blinky"},))
def build(ctx: Context, a: BuildArgs) -> dict:
    """Build with the project's build system: compiler messages as diagnostics (file, line, column, code), image size against the app partition (too large: image-too-large)."""
    project = project_of(ctx, a.dir)
    if not project.root.is_dir():
        raise InvalidArgs(f"{a.dir} is not a folder")
    ctx.progress(0.01, "building")
    out = run_build(ctx, project, a.timeout_s)
    ctx.progress(1.0, "done")
    return out
