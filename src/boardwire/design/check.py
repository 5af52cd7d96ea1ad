"""Checking a design document before it is built: each component resolved to a KiCad
symbol, footprint, value and fields (from the catalogue when it names a part), and the
problems a model can act on, each with where, a stable code and a fix:

=====================  ==========================================================
code                   meaning
=====================  ==========================================================
unknown-part           the catalogue has no such LCSC code
no-symbol              a part with no KiCad symbol named after it (give symbol)
unknown-symbol         the symbol is in no library
no-footprint           neither the component, the part nor the symbol names one
unknown-footprint      the footprint is in no library
footprint-mismatch     symbol pins with no pad of that number on the footprint
unknown-pin            a net, no_connect or decouple names a pin the symbol lacks
unknown-ref            a net or a constraint (edge, pinned, decouple) names a reference
                       that is not a component
duplicate-ref          two components share a reference
pin-twice              a pin in two nets (or in a net and no_connect)
single-pin-net         a net of one pin (use no_connect)
unconnected-pin        a visible pin in no net and not in no_connect (ERC would fail)
no-power-source        a power net without a power output, a connector or a PWR_FLAG
bad-outline            board.outline is not a simple polygon (it crosses itself)
pinned-and-edge        a reference both pinned and bound to an edge (give one)
not-decoupling         constraints.decouple maps a capacitor that is not a two-pin part
                       between that pin's net and a ground net
off-board              a pinned part whose courtyard is not inside the outline
board-too-small        the parts' courtyards do not fit in the outline (their total
                       area is larger, or one part is wider than the board both ways)
=====================  ==========================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BoardwireError
from ..layout.place.decoupling import Pads, explicit_problems
from ..layout.sch_connect import is_power_name
from ..parts.catalogue import Catalogue
from ..parts.kicad_source import footprint_box, footprint_pads, symbol_for, symbol_pins
from ..parts.values import text_values
from .document import Design
from .placement import default_size

CONNECTOR_PREFIXES = ("J", "P", "CN", "USB")


@dataclass
class Resolved:
    """A component as it will be placed."""

    ref: str
    symbol: str
    footprint: str
    value: str
    fields: dict[str, str]
    pins: list[dict]
    units: int = 1
    box: tuple[float, float, float, float] | None = None  # courtyard, mm around the anchor


@dataclass
class Report:
    components: dict[str, Resolved] = field(default_factory=dict)
    errors: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    power: set[str] = field(default_factory=set)

    def add(self, code: str, where: str, message: str, fix: str, warning: bool = False) -> None:
        (self.warnings if warning else self.errors).append({"code": code, "where": where, "message": message, "fix": fix})


def _part_value(row: dict) -> str:
    values = text_values(row.get("description") or "")
    if row.get("kind") in ("resistor", "capacitor", "inductor") and values:
        return values[0]
    return row.get("mpn") or row["lcsc"]


def _resolve(design: Design, root: Path, report: Report) -> None:
    cat = Catalogue.of(root)  # the imported catalogue, else the bundled sample
    seen = set()
    for i, c in enumerate(design.components):
        where = f"components[{i}] {c.ref}"
        if c.ref in seen:
            report.add("duplicate-ref", where, f"{c.ref} is given twice", "Give each component its own reference.")
            continue
        seen.add(c.ref)
        fields = dict(c.fields)
        symbol, footprint, value = c.symbol, c.footprint, c.value
        if c.part:
            row = cat.get(c.part)
            if row is None and not cat.exists():
                report.add("unknown-part", where, f"{c.part}: no parts catalogue in this folder (.boardwire/parts.sqlite)",
                           "Import one first: `boardwire parts import FILE` (or parts.import). "
                           "Or give symbol and footprint.")
                continue
            if row is None:
                report.add("unknown-part", where, f"no part {c.part} in the {cat.describe()} catalogue",
                           "Find one with parts.search" + (", or import a fuller catalogue with parts.import"
                                                            if cat.sample else "") + "; or give symbol and footprint.")
                continue
            symbol = symbol or symbol_for(row, root)
            footprint = footprint or row["footprint"]
            value = value or _part_value(row)
            fields.setdefault("LCSC", row["lcsc"])
            fields.setdefault("MPN", row["mpn"])
            if row["manufacturer"]:
                fields.setdefault("Manufacturer", row["manufacturer"])
            if symbol is None:
                report.add("no-symbol", where, f"{c.part} ({row['mpn']}): no KiCad symbol is named after it",
                           "Give symbol (lib.search) beside part.")
                continue
        try:
            pins = symbol_pins(symbol, root)
            from ..documents.library.lookup import symbol_definition

            d = symbol_definition(symbol, root)
            sym_fields = {**d.base.fields, **d.symbol.fields}
        except BoardwireError as e:
            report.add("unknown-symbol", where, e.message, "Find the symbol with lib.search.")
            continue
        footprint = footprint or sym_fields.get("Footprint") or None
        value = value or sym_fields.get("Value") or symbol.split(":")[1]
        if not footprint:
            report.add("no-footprint", where, f"{symbol} names no footprint", "Give footprint (lib.search, kind footprint).")
            continue
        try:
            pads = set(footprint_pads(footprint, root))
        except BoardwireError as e:
            report.add("unknown-footprint", where, e.message, "Find the footprint with lib.search.")
            continue
        missing = sorted({p["number"] for p in pins if p["number"] not in pads})
        if missing:
            report.add("footprint-mismatch", where, f"{footprint} has no pad for pins {', '.join(missing)} of {symbol}",
                       "Choose a footprint whose pad numbers match the symbol's pins (parts.pins shows both).")
        units = max([p["unit"] for p in pins] + [1])
        report.components[c.ref] = Resolved(c.ref, symbol, footprint, value, fields, pins, units,
                                            footprint_box(footprint, root))


def check(design: Design, root: Path) -> Report:
    """Resolve and check ``design`` (paths and the catalogue relative to ``root``)."""
    report = Report()
    _resolve(design, root, report)
    comps = report.components
    known_refs = {c.ref for c in design.components}
    where_pin: dict[str, str] = {}
    for net, pins in list(design.nets.items()) + [("no_connect", design.no_connect)]:
        loc = f"nets.{net}" if net != "no_connect" else "no_connect"
        if net != "no_connect" and len(pins) < 2:
            report.add("single-pin-net", loc, f"net {net} has {len(pins)} pin", "Add the pins it connects, or move the pin to no_connect.")
        for pin in pins:
            ref, number = pin.split(".", 1)
            if ref not in known_refs:
                report.add("unknown-ref", loc, f"{pin}: no component {ref}", "Add the component or fix the reference.")
                continue
            if ref in comps and number not in {p["number"] for p in comps[ref].pins}:
                have = ", ".join(sorted({p["number"] for p in comps[ref].pins}, key=lambda x: (len(x), x)))
                report.add("unknown-pin", loc, f"{pin}: {comps[ref].symbol} has pins {have}", "Use parts.pins or lib.symbol for pin numbers.")
            if pin in where_pin:
                report.add("pin-twice", loc, f"{pin} is also in {where_pin[pin]}", "A pin belongs to one net.")
            where_pin[pin] = net
    for ref, r in comps.items():
        for p in r.pins:
            name = f"{ref}.{p['number']}"
            if name not in where_pin and not p.get("hidden") and p["type"] != "no_connect":
                report.add("unconnected-pin", f"components {ref}", f"{name} ({p['name']}, {p['type']}) is in no net",
                           "Add it to a net or to no_connect.")
    _check_constraints(design, report, known_refs)
    _check_decouple(design, report, known_refs, where_pin)
    _check_board(design, report)
    power = set(design.power) if design.power is not None else {n for n in design.nets if is_power_name(n)}
    report.power = power
    types = {f"{ref}.{p['number']}": p["type"] for ref, r in comps.items() for p in r.pins}
    for net in sorted(power):
        pins = design.nets.get(net, [])
        has_out = any(types.get(p) == "power_out" for p in pins)
        from_connector = any(p.split(".")[0].rstrip("0123456789").startswith(CONNECTOR_PREFIXES) for p in pins)
        if not has_out and not from_connector:
            report.add("no-power-source", f"nets.{net}", f"power net {net} has no power output pin and no connector",
                       "Connect a regulator output or a connector pin to it.")
    return report


def _check_constraints(design: Design, report: Report, known_refs: set[str]) -> None:
    fix = "Name a component's reference (components[].ref), or remove the entry."
    edge = design.constraints.edge
    for i, ref in enumerate(edge):
        where = f"constraints.edge.{ref}" if isinstance(edge, dict) else f"constraints.edge[{i}]"
        if ref not in known_refs:
            report.add("unknown-ref", where, f"edge connector {ref}: no component {ref}", fix)
        elif ref in design.constraints.pinned:
            report.add("pinned-and-edge", where, f"{ref} is both pinned and bound to an edge",
                       "Pin it at the edge yourself, or remove it from constraints.pinned.")
    for ref in design.constraints.pinned:
        if ref not in known_refs:
            report.add("unknown-ref", f"constraints.pinned.{ref}", f"pinned {ref}: no component {ref}", fix)


def _check_decouple(design: Design, report: Report, known_refs: set[str], net_of: dict[str, str]) -> None:
    """constraints.decouple by the placer's own rule (`decoupling.explicit_problems`),
    over the resolved components' pins and the design's nets."""
    given = design.constraints.decouple
    if not given:
        return
    comps = report.components
    parts = []
    for ref, r in comps.items():
        hidden = {p["number"] for p in r.pins if p.get("hidden")}
        numbers = list(dict.fromkeys(p["number"] for p in r.pins))
        nets = [net_of.get(f"{ref}.{n}", None if n in hidden else "") for n in numbers]
        parts.append(Pads(ref, numbers, ["" if n == "no_connect" else n for n in nets], "", r.value))
    skip = known_refs - set(comps)  # not resolved: reported already
    fixes = {"unknown-ref": "Name a component's reference (components[].ref).",
             "unknown-pin": "Use parts.pins or lib.symbol for pin numbers.",
             "not-decoupling": "Map a two-pin capacitor with one pin on the IC pin's net and one on ground."}
    for code, cap, message in explicit_problems(parts, {c: t for c, t in given.items()
                                                        if c not in skip and t.split(".", 1)[0] not in skip}):
        report.add(code, f"constraints.decouple.{cap}", message, fixes[code])


def _turned(box: tuple[float, float, float, float], angle: int) -> tuple[float, float, float, float]:
    """``box`` turned ``angle`` degrees as pcb.rotate turns a footprint (counter-clockwise
    on screen, y down: (x, y) -> (y, -x) for 90)."""
    x1, y1, x2, y2 = box
    for _ in range(angle // 90 % 4):
        x1, y1, x2, y2 = y1, -x2, y2, -x1
    return x1, y1, x2, y2


def _check_board(design: Design, report: Report) -> None:
    """Pinned parts inside the outline, and room for every part (mm, the outline's
    frame: its top-left corner at 0, 0; the default size as the build makes it)."""
    from shapely.geometry import Polygon, box

    boxes = {ref: c.box for ref, c in report.components.items() if c.box is not None}
    b = design.board
    if b.outline:
        outline = Polygon(b.outline)
        if not outline.is_valid or outline.area <= 0:
            report.add("bad-outline", "board.outline", "the outline is not a simple polygon (it crosses itself or has no area)",
                       "List the corners in order around the board.")
            return
        where = "board.outline"
    else:
        w, h = b.size or default_size(boxes)
        outline, where = box(0, 0, w, h), "board.size"
    ox1, oy1, ox2, oy2 = outline.bounds
    frame = f"{ox2 - ox1:g} x {oy2 - oy1:g} mm, ({ox1:g}, {oy1:g}) to ({ox2:g}, {oy2:g})"
    for ref, p in design.constraints.pinned.items():
        if ref not in boxes:
            continue
        x1, y1, x2, y2 = _turned(boxes[ref], p.angle)
        crt = box(p.at[0] + x1, p.at[1] + y1, p.at[0] + x2, p.at[1] + y2)
        if not outline.buffer(1e-6).contains(crt):
            report.add("off-board", f"constraints.pinned.{ref}",
                       f"{ref} pinned at {p.at} has its courtyard ({crt.bounds[0]:g}, {crt.bounds[1]:g}) to "
                       f"({crt.bounds[2]:g}, {crt.bounds[3]:g}) mm outside the outline ({frame})",
                       "Pin it inside: positions are mm from the outline's top-left corner (x right, y down).")
    need = sum((c[2] - c[0]) * (c[3] - c[1]) for c in boxes.values())
    if need > outline.area:
        report.add("board-too-small", where, f"the parts' courtyards take {need:.0f} mm², the outline has {outline.area:.0f} mm²",
                   "Make the board larger (board.size, or leave it out for a size from the parts' area).")
    side = sorted((ox2 - ox1, oy2 - oy1))
    for ref, c in sorted(boxes.items()):
        dims = sorted((c[2] - c[0], c[3] - c[1]))
        if dims[0] > side[0] or dims[1] > side[1]:
            report.add("board-too-small", where, f"{ref}'s courtyard ({dims[1]:g} x {dims[0]:g} mm) does not fit in {frame}",
                       "Make the board larger, or choose a smaller footprint.")
