"""sch.connect: a schematic drawn from connections (nets as pin lists), and the text
overlaps of a sheet. The plan is layout/sch_connect's; the edits are the sch.* ones."""

from __future__ import annotations

import posixpath

from pydantic import Field

from ...documents.library.lookup import library_item
from ...documents.schematic.extent import overlaps, sheet_extents
from ...documents.schematic.page import off_page_items
from ...documents.units import mm
from ...errors import InvalidArgs, NotFound
from ...layout.sch_connect import PinError, is_ground, is_power_name, plan_sheet
from ...registry import Context, command
from ...services.schematic import editable
from ..common import EditArgs, NetName
from .results import Connected


class ConnectArgs(EditArgs):
    nets: dict[NetName, list[str]] = Field(max_length=2000, description='Net name -> pins "REF.PIN", e.g. {"LED": ["U1.3", "R1.1"]}')
    power: list[NetName] | None = Field(None, description="Nets drawn as power symbols; default GND*, +*, VCC, VDD, VBUS...")
    no_connect: list[str] = Field(default_factory=list, description='Pins "REF.PIN" to flag as unconnected')
    flags: bool = Field(True, description="PWR_FLAG on power nets without a power output pin")


def _power_symbol(where):
    def pick(net: str) -> tuple[str, str | None]:
        try:
            library_item("symbol", f"power:{net}", where)
            return f"power:{net}", None
        except NotFound:
            return ("power:GND" if is_ground(net) else "power:VCC"), net
    return pick


def _mm(p) -> list[float]:
    return [mm(p[0]), mm(p[1])]


def overlap_rows(doc) -> list[str]:
    return [f"{a.what} / {b.what}" for a, b in overlaps(sheet_extents(doc))]


@command("sch.connect", kind="edit", args=ConnectArgs, result=Connected, units="mm",
         examples=({"path": "board.kicad_sch", "nets": {"LED": ["U1.3", "R1.1"], "GND": ["U1.1", "C1.2"]},
                    "no_connect": ["U1.5"]},))
def connect(ctx: Context, a: ConnectArgs) -> dict:
    """Connect placed symbols' pins by net: a short wire and a net label at each pin, power symbols for power nets (ground down, supplies up), PWR_FLAGs where a power net has no source (beside the net, else apart with the net drawn again; flags_missing names nets with no room for one), no-connect flags; on the 50 mil grid, wires lengthened until no label, field or symbol box overlaps another, inside the paper's frame and off its title block when the symbols are. Result: counts, any overlaps left, off_page items. Then sch.annotate for #PWR references. Errors: invalid-args for an unknown reference or pin, or a pin in two nets."""
    from ...registry import REGISTRY

    od = editable(ctx, a.path)
    where = ctx.session.workspace.resolve(posixpath.dirname(od.path) or ".")
    power = set(a.power) if a.power is not None else {n for n in a.nets if is_power_name(n)}
    unknown = power - set(a.nets)
    if unknown:
        raise InvalidArgs(f"power names nets not in nets: {', '.join(sorted(unknown))}",
                          errors=[{"loc": "power", "msg": "unknown net", "type": "value"}])
    try:
        plan = plan_sheet(od.doc, a.nets, power, a.no_connect, a.flags, _power_symbol(where))
    except PinError as e:
        raise InvalidArgs(str(e), errors=[{"loc": "nets", "msg": str(e), "type": "value"}],
                          hint="Read a symbol's pins with query.pins.") from None
    counts = {"wire": 0, "label": 0, "power": 0, "no_connect": 0}
    for op in plan.ops:
        sub = Context(ctx.session, ctx.actor, None, ctx.cancel)
        if op.kind == "wire":
            REGISTRY.call("sch.wire", {"path": a.path, "points": [_mm(p) for p in op.points]}, sub)
        elif op.kind == "label":
            REGISTRY.call("sch.label", {"path": a.path, "text": op.text, "at": _mm(op.at), "angle": op.angle}, sub)
        elif op.kind == "power":
            args = {"path": a.path, "symbol": op.symbol, "at": _mm(op.at), "angle": op.angle}
            if op.text and op.symbol.split(":")[1] != op.text:
                args["value"] = op.text
            REGISTRY.call("sch.power", args, sub)
        else:
            REGISTRY.call("sch.noConnect", {"path": a.path, "at": _mm(op.at)}, sub)
        counts[op.kind] += 1
        ctx.new_ids.extend(sub.new_ids)
    left = overlap_rows(od.doc)
    missing = plan.missing_flags
    off = off_page_items(od.doc)
    return {"summary": f"{len(a.nets)} nets: {counts['wire']} wires, {counts['label']} labels, "
                       f"{counts['power']} power symbols, {counts['no_connect']} no-connects; "
                       + (f"{len(left)} overlaps left" if left else "no overlaps")
                       + (f"; NO ROOM for the PWR_FLAG of {', '.join(missing)}: ERC will find its power inputs "
                          "undriven" if missing else "")
                       + (f"; {len(off)} items off the page: {', '.join(off[:5])}" if off else ""),
            "counts": counts, "overlaps": left[:20], "unplaced": plan.overlaps[:20], "flags_missing": missing,
            "off_page": off[:20]}
