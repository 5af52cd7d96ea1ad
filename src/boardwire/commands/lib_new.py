"""lib.newFootprint and lib.newSymbol: draw a footprint from a package description, or
a symbol from a pin table, into a project library (``<project>/<library>.pretty`` or
``<project>/<library>.kicad_sym``), registered in the project's library table when it
is not yet (`documents.library.register`).

The geometry is `documents.library.land_patterns` (IPC-7351B land patterns) and
`documents.library.symbol_draw` (KiCad's symbol conventions); the files are KiCad 9's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from ..documents.fileio import atomic_write
from ..documents.library import land_patterns as lp
from ..documents.library.footprint_write import footprint_text
from ..documents.library.register import register, registered
from ..documents.library.symbol_draw import (
    ELECTRICAL_TYPES,
    EMPTY_LIBRARY,
    SIDES,
    PinSpec,
    draw_symbol,
)
from ..documents.schematic import SymbolLibrary
from ..errors import InvalidArgs
from ..registry import Context, command
from .common import WRITE, Args, Role, project_dir
from .results import LibNewFootprint, LibNewSymbol

LIBRARY = r"^[A-Za-z0-9_+\-][A-Za-z0-9_.+\-]{0,99}$"
ITEM_NAME = r"^[^/\\:*?\"<>|\x00-\x1f]{1,100}$"
ProjectFolder = Annotated[str, Role(WRITE)]


def _invalid(loc: str, message: str, hint: str = "") -> InvalidArgs:
    return InvalidArgs(message, errors=[{"loc": loc, "msg": message, "type": "value"}], hint=hint or None)


def _library_path(kind: str, library: str, project: Path, path: Path) -> bool:
    """Whether the library ``library`` needs a table row (it is in no table yet);
    InvalidArgs when the nickname names another library."""
    where = registered(kind, library, project)
    if where is None:
        return True
    if where.resolve() != path.resolve():
        table = "fp-lib-table" if kind == "fp" else "sym-lib-table"
        raise _invalid("library", f"the library {library!r} of {table} is {where}, not {path.name} of this project",
                       "Choose another library name.")
    return False


class FootprintArgs(Args):
    package: Literal["chip", "soic", "sot23", "qfn", "pin_header", "castellated"] = Field(
        description="chip: 2-terminal SMD (size); soic: JEDEC MS-012 (pins 8/14/16); sot23: pins 3/5/6; "
                    "qfn: pins, body, pitch, exposed_pad; pin_header: 2.54 mm, rows 1/2, pins per row; "
                    "castellated: module with edge pads (body, pitch, sides)")
    size: Literal["0402", "0603", "0805", "1206"] | None = Field(None, description="chip: EIA size")
    prefix: str = Field("R", pattern=r"^[A-Za-z]{1,10}$", description="chip: name prefix (R, C, L...)")
    pins: int | None = Field(None, ge=1, le=400, description="Pins (pin_header: per row)")
    rows: Literal[1, 2] = Field(1, description="pin_header: rows")
    body: list[Annotated[float, Field(gt=0, le=200)]] | None = Field(
        None, min_length=1, max_length=2, description="qfn: [side] mm; castellated: [width, length] mm")
    pitch: float | None = Field(None, gt=0, le=10, description="qfn: 0.4/0.5/0.65 (default 0.5); castellated: mm")
    exposed_pad: float | None = Field(None, gt=0, le=100, description="qfn: exposed pad side, mm")
    sides: list[Annotated[int, Field(ge=0, le=100)]] | None = Field(
        None, min_length=3, max_length=4, description="castellated: pads on [left, bottom, right, top?]")
    pad: list[Annotated[float, Field(gt=0, le=20)]] | None = Field(
        None, min_length=2, max_length=2, description="castellated: pad [length across the edge, width] mm; "
                                                       "default [1.5, 0.9]")
    name: str | None = Field(None, pattern=ITEM_NAME, description="Footprint name; default from the package")
    library: str = Field("Project", pattern=LIBRARY,
                         description="Footprint library nickname: the project's LIBRARY.pretty")
    project: ProjectFolder | None = Field(None, min_length=1, max_length=4096,
                                          description="Project folder (or a file in it); default: the working directory")
    overwrite: bool = Field(False, description="Replace a footprint of that name")


def _need(a: FootprintArgs, *names: str) -> None:
    missing = [n for n in names if getattr(a, n) is None]
    if missing:
        raise _invalid(missing[0], f"package {a.package} needs {', '.join(missing)}")


def land_pattern(a: FootprintArgs) -> lp.LandPattern:
    """The land pattern the arguments describe; InvalidArgs for one not made."""
    try:
        if a.package == "chip":
            _need(a, "size")
            return lp.chip(a.size, a.prefix)
        if a.package == "soic":
            _need(a, "pins")
            if a.pins not in lp.SOIC_LENGTH:
                raise _invalid("pins", f"SOIC (JEDEC MS-012) has 8, 14 or 16 pins, not {a.pins}")
            return lp.soic(a.pins)
        if a.package == "sot23":
            _need(a, "pins")
            if a.pins not in lp.SOT23:
                raise _invalid("pins", f"SOT-23 has 3, 5 or 6 pins, not {a.pins}")
            return lp.sot23(a.pins)
        if a.package == "qfn":
            _need(a, "pins", "body", "exposed_pad")
            pitch = a.pitch or 0.5
            if a.pins % 4 or a.pins < 8:
                raise _invalid("pins", f"a QFN has pins on four sides: a multiple of 4 (8 or more), not {a.pins}")
            if pitch not in lp.QFN_WIDTH:
                raise _invalid("pitch", f"QFN pitch is 0.4, 0.5 or 0.65 mm (JEDEC MO-220), not {pitch}")
            return lp.qfn(a.pins, a.body[0], pitch, a.exposed_pad)
        if a.package == "pin_header":
            _need(a, "pins")
            return lp.pin_header(a.rows, a.pins)
        _need(a, "body", "pitch", "sides")
        if len(a.body) != 2:
            raise _invalid("body", "a castellated module's body is [width, length] mm")
        left, bottom, right, *top = a.sides
        return lp.castellated_module(a.body[0], a.body[1], a.pitch, left, bottom, right, top[0] if top else 0,
                                     tuple(a.pad) if a.pad else (1.5, 0.9))
    except ValueError as e:
        raise _invalid("package", str(e)) from e


@command("lib.newFootprint", kind="session", args=FootprintArgs, result=LibNewFootprint, units="mm",
         examples=({"package": "chip", "size": "0603"}, {"package": "qfn", "pins": 16, "body": [3], "exposed_pad": 1.7},
                   {"package": "pin_header", "pins": 4, "library": "Connectors"}))
def new_footprint(ctx: Context, a: FootprintArgs) -> dict:
    """Draw a footprint from a package description into the project library LIBRARY.pretty (registered in fp-lib-table if it is not; KiCad 9 format): chip 0402/0603/0805/1206, SOIC-8/14/16 (JEDEC MS-012), SOT-23/-5/-6, QFN-n with exposed pad (JEDEC MO-220), 2.54 mm pin headers 1xN/2xN, modules with castellated edge pads. SMD pads are IPC-7351B nominal (level B) land patterns; pads of different numbers stay 0.2 mm apart; courtyard 0.25 mm (0.5 mm for headers and modules) around body and pads; silkscreen clear of pads with a pin 1 mark; F.Fab outline with ${REFERENCE}. Returns the id (LIBRARY:NAME for pcb.placeFootprint, design.build), the file, pad count, courtyard size and the sources of the dimensions. Errors: invalid-args (a package value it lacks or that does not fit; a footprint of that name exists and overwrite is false; the library nickname names another library), path-outside-workspace (project)."""
    pattern = lp.finish(land_pattern(a))
    if a.name:
        pattern.name = a.name
    project = project_dir(ctx, a.project)
    folder = project / f"{a.library}.pretty"
    needs_row = _library_path("fp", a.library, project, folder)
    path = folder / f"{pattern.name}.kicad_mod"
    if path.exists() and not a.overwrite:
        raise _invalid("name", f"{ctx.session.workspace.relative(path)} exists", "Pass overwrite: true, or another name.")
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(path, footprint_text(pattern))
    ws = ctx.session.workspace
    table = ws.relative(register("fp", [(a.library, folder)], project)[0]) if needs_row else None
    x1, y1, x2, y2 = pattern.courtyard
    size = [round(x2 - x1, 3), round(y2 - y1, 3)]
    out = {"summary": f"{a.library}:{pattern.name}: {len(pattern.pads)} pads, courtyard {size[0]} x {size[1]} mm"
                      + (f"; {a.library} added to {table}" if table else ""),
           "id": f"{a.library}:{pattern.name}", "path": ws.relative(path), "pads": len(pattern.pads),
           "courtyard": size, "sources": pattern.sources}
    if table:
        out["table"] = table
    return out


class PinArg(Args):
    number: str = Field(min_length=1, max_length=20, pattern=r"^[^\s\"]+$")
    name: str = Field("~", max_length=100, description="Pin name; ~ for none")
    type: Literal[ELECTRICAL_TYPES] = Field("passive", description="KiCad electrical type")  # type: ignore[valid-type]
    side: Literal[SIDES] | None = Field(  # type: ignore[valid-type]
        None, description="Default: power_in top (ground bottom), inputs left, outputs right")


class SymbolArgs(Args):
    name: str = Field(pattern=ITEM_NAME, description="Symbol name (the Value by default)")
    pins: list[PinArg] = Field(min_length=1, max_length=1000)
    reference: str = Field("U", pattern=r"^[A-Za-z#]{1,10}$", description="Reference prefix")
    value: str | None = Field(None, max_length=1000)
    footprint: str = Field("", max_length=500, description="Default footprint, Lib:Name")
    datasheet: str = Field("", max_length=2000)
    description: str = Field("", max_length=2000)
    keywords: str = Field("", max_length=500)
    library: str = Field("Project", pattern=LIBRARY,
                         description="Symbol library nickname (the project's library of that name, made if absent)")
    project: ProjectFolder | None = Field(None, min_length=1, max_length=4096,
                                          description="Project folder (or a file in it); default: the working directory")
    overwrite: bool = Field(False, description="Replace a symbol of that name")


@command("lib.newSymbol", kind="session", args=SymbolArgs, result=LibNewSymbol, units="mm",
         examples=({"name": "TMP117", "pins": [{"number": "1", "name": "SCL", "type": "input"},
                                               {"number": "2", "name": "GND", "type": "power_in"},
                                               {"number": "5", "name": "V+", "type": "power_in"},
                                               {"number": "6", "name": "SDA", "type": "bidirectional"}],
                    "footprint": "Package_SON:WSON-6-1EP_2x2mm_P0.65mm_EP1x1.6mm"},))
def new_symbol(ctx: Context, a: SymbolArgs) -> dict:
    """Draw a one-unit schematic symbol from a pin table into the project library LIBRARY.kicad_sym (created, and registered in sym-lib-table, if it is not; KiCad 9 format), as KiCad's library conventions draw one: rectangle body, 2.54 mm (100 mil) pins on the 100 mil grid, power_in pins at the top (ground: GND, VSS, VEE... at the bottom), inputs/passive left, outputs right, bidirectional on the shorter side, each side grouped by type with a gap between groups, body sized to the pin names; Reference, Value, Footprint, Datasheet, Description fields. A pin's side overrides. Returns the id (LIBRARY:NAME for sch.placeSymbol, design.build), the file, the body size and each side's pin numbers. Errors: invalid-args (a pin number twice, a symbol of that name exists and overwrite is false, the nickname names another library), path-outside-workspace (project)."""
    pins = [PinSpec(p.number, p.name, p.type, p.side) for p in a.pins]
    try:
        drawn = draw_symbol(a.name, pins, a.reference, a.value, a.footprint, a.datasheet, a.description, a.keywords)
    except ValueError as e:
        raise _invalid("pins", str(e)) from e
    project = project_dir(ctx, a.project)
    path = project / f"{a.library}.kicad_sym"
    needs_row = _library_path("sym", a.library, project, path)
    library = SymbolLibrary(path.read_bytes() if path.is_file() else EMPTY_LIBRARY, str(path))
    try:
        library.put_symbol(drawn.node, replace=a.overwrite)
    except ValueError as e:
        raise _invalid("name", f"{ctx.session.workspace.relative(path)}: {e}", "Pass overwrite: true, or another name.") from e
    atomic_write(path, library.to_bytes())
    ws = ctx.session.workspace
    table = ws.relative(register("sym", [(a.library, path)], project)[0]) if needs_row else None
    size = [round(drawn.width, 3), round(drawn.height, 3)]
    out = {"summary": f"{a.library}:{a.name}: {len(pins)} pins, body {size[0]} x {size[1]} mm"
                      + (f"; {a.library} added to {table}" if table else ""),
           "id": f"{a.library}:{a.name}", "path": ws.relative(path), "body": size,
           "sides": {k: v for k, v in drawn.sides.items() if v}}
    if table:
        out["table"] = table
    return out
