"""sch.placeSymbol and sch.power: symbols from the libraries, placed as KiCad 9 places
them (`documents.schematic.placing`; the definition copied into ``lib_symbols``).
Coordinates mm, angles degrees."""

from __future__ import annotations

import posixpath
from typing import Literal

from pydantic import Field, field_validator

from ...documents.library.lookup import symbol_definition
from ...documents.schematic import Placement, Schematic, canonical_orientation
from ...errors import InvalidArgs, NotFound
from ...registry import Context, command
from ...services.schematic import design_of, editable
from ..common import EditArgs, Point, mm_pt, pt
from .results import SymbolPlaced

UNITS = "mm, degrees"
Quarter = Literal[0, 90, 180, 270]
Mirror = Literal["none", "x", "y"]


class PlaceArgs(EditArgs):
    symbol: str = Field(pattern=r"^[^:/\\]+:[^:/\\]+$", max_length=500,
                        description="Library id Lib:Name, e.g. Device:R")
    at: Point = Field(description="Symbol anchor [x, y] mm")
    angle: Quarter = Field(0, description="Degrees, counter-clockwise")
    mirror: Mirror = Field("none", description="x: mirrored top-bottom (about the X axis); y: left-right")
    unit: int = Field(1, ge=1, le=1000)
    reference: str | None = Field(None, min_length=1, max_length=1000,
                                  description="Default: the library prefix and ?, e.g. R? (see sch.annotate)")
    value: str | None = Field(None, max_length=10000, description="Default: the library's value")
    footprint: str | None = Field(None, max_length=1000, pattern=r"^[^:/\\]+:[^:/\\]+$",
                                  description="Lib:Name of a footprint")
    fields: dict[str, str] = Field(default_factory=dict, max_length=100,
                                   description="Other fields; a new one is added hidden")

    @field_validator("fields")
    @classmethod
    def _other_fields(cls, v: dict[str, str]) -> dict[str, str]:
        # these have their own arguments (and checks); given twice they could disagree
        taken = sorted(k for k in v if k.lower() in ("reference", "value", "footprint"))
        if taken:
            raise ValueError(f"give {', '.join(taken)} as its own argument, not in fields")
        return v


def _place(ctx: Context, a: PlaceArgs, power: bool) -> dict:
    od = editable(ctx, a.path)
    doc: Schematic = od.doc
    where = ctx.session.workspace.resolve(posixpath.dirname(od.path) or ".")
    entry = doc.library_entry(symbol_definition(a.symbol, where), a.symbol)
    info = entry.info
    if info is None:
        raise NotFound(f"{a.symbol} could not be read from its library")
    if power and not info.power:
        raise InvalidArgs(f"{a.symbol} is not a power symbol; use sch.placeSymbol",
                          errors=[{"loc": "symbol", "msg": "not a power symbol", "type": "value"}])
    if a.unit > info.unit_count:
        n = info.unit_count
        raise InvalidArgs(f"{a.symbol} has {n} unit{'s' if n != 1 else ''}; unit {a.unit} does not exist",
                          errors=[{"loc": "unit", "msg": f"1..{n}", "type": "value"}])
    reference = a.reference or entry.fields.get("Reference", "U") + "?"
    design = design_of(ctx, od.path)
    if a.reference and not reference.endswith("?"):
        # another unit of the same part may share the reference; anything else is a duplicate
        clash = [x for x in design.conn.symbols if x.reference == reference
                 and (x.view.lib_id != a.symbol or x.unit == a.unit or x.view.value != (a.value or x.view.value))]
        if clash:
            raise InvalidArgs(f"{reference} is already used (on {clash[0].sheet.path})",
                              errors=[{"loc": "reference", "msg": "reference exists", "type": "value"}],
                              hint="Leave reference out (PREFIX?) and run sch.annotate, or pick a free one")
    paths = design.instance_paths(od.path) or ([f"/{doc.uuid}"] if doc.uuid else [])
    angle, mirror = canonical_orientation(a.angle, None if a.mirror == "none" else a.mirror)
    placement = Placement(a.symbol, pt(a.at), angle, mirror, a.unit, reference, a.value,
                          a.footprint, dict(a.fields), design.project, paths)
    added = doc.ensure_library_symbol(entry)
    view = doc.add_symbol(entry, placement)
    pins = [{"number": n, "at": mm_pt(p)} for n, p in doc.pin_positions(view)]
    ctx.created(view.uuid)
    return {"summary": f"placed {reference} ({a.symbol}) at {a.at}"
                       + (f", {angle}°" if angle else "") + (f", mirror {mirror}" if mirror else "")
                       + ("" if added else f"; {a.symbol} was already in lib_symbols"),
            "id": view.uuid, "reference": reference, "value": view.value, "angle": angle,
            "mirror": mirror or "none", "pins": pins, "instances": design.human_paths(od.path) or ["/"]}


@command("sch.placeSymbol", kind="edit", args=PlaceArgs, result=SymbolPlaced, units=UNITS,
         examples=({"path": "board.kicad_sch", "symbol": "Device:R", "at": [101.6, 50.8], "angle": 90,
                    "value": "10k", "footprint": "Resistor_SMD:R_0603_1608Metric"},))
def place_symbol(ctx: Context, a: PlaceArgs) -> dict:
    """Place a library symbol (via sym-lib-table; its definition copied into lib_symbols, flattened) as KiCad places it: fields moved with the symbol, one pin entry per library pin, one instance path per placement of this sheet file (reference default PREFIX?, e.g. R?). angle 0/90/180/270 counter-clockwise. Returns the pins' positions (mm). Errors: not-found (library, symbol), invalid-args (unit it lacks, reference in use), unsupported-format (before KiCad 8)."""
    return _place(ctx, a, power=False)


class PowerArgs(EditArgs):
    symbol: str = Field("power:GND", pattern=r"^[^:/\\]+:[^:/\\]+$", max_length=500,
                        description="A power symbol, e.g. power:GND, power:+3V3")
    at: Point
    angle: Quarter = 0
    mirror: Mirror = "none"
    reference: str | None = Field(None, min_length=1, max_length=1000, description="Default #PWR?")
    value: str | None = Field(None, max_length=1000, description="The net name; default the library's")


@command("sch.power", kind="edit", args=PowerArgs, result=SymbolPlaced, units=UNITS,
         examples=({"path": "board.kicad_sch", "symbol": "power:+3V3", "at": [101.6, 40.64]},))
def power(ctx: Context, a: PowerArgs) -> dict:
    """Place a power symbol (power:GND, power:+3V3...): its pin joins the global net named by its value. Errors as sch.placeSymbol; invalid-args for a symbol that is not a power symbol."""
    args = PlaceArgs(path=a.path, revision=a.revision, symbol=a.symbol, at=a.at, angle=a.angle,
                     mirror=a.mirror, reference=a.reference, value=a.value)
    return _place(ctx, args, power=True)
