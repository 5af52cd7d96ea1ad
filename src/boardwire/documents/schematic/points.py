"""What connects at a point of one sheet file: pins (every placed unit), wire
segments, labels, sheet pins, no-connect flags and junctions, by position.

KiCad's rules (``SCH_SCREEN``, measured with kicad-cli): a wire end connects to a pin,
a label, a sheet pin, a no-connect flag, a junction or another wire (end or middle)
at exactly its position; ``IsExplicitJunctionNeeded`` asks for a junction where three
or more directions meet or a wire's middle meets something else; adding one there
breaks the wires through it (``BreakSegments``). Coordinates are integer nanometres.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..views import Point
from .items import Wire
from .lib_info import lib_info
from .orientation import pin_world, symbol_transform
from .symbol import SymbolInstance


@dataclass
class SheetPoints:
    """Where things connect on one sheet file (nm): pins as ``REF.NUMBER``, wire
    segments (with their wire), label texts, sheet pin names, no-connect flags,
    junctions."""

    pins: dict[Point, list[str]]
    wires: list[tuple[Point, Point, Wire]]
    labels: dict[Point, list[str]]
    sheet_pins: dict[Point, list[str]]
    no_connects: set[Point]
    junctions: set[Point]

    def what_is_at(self, p: Point, ignore: Wire | None = None) -> list[str]:
        """What a wire end at ``p`` would connect to (empty: it would dangle), not
        counting wire ``ignore``."""
        out = []
        out += [f"pin {x}" for x in self.pins.get(p, [])]
        out += [f"label {x}" for x in self.labels.get(p, [])]
        out += [f"sheet pin {x}" for x in self.sheet_pins.get(p, [])]
        if p in self.no_connects:
            out.append("no-connect")
        if p in self.junctions:
            out.append("junction")
        for a, b, wire in self.wires:
            if wire == ignore:
                continue
            if p in (a, b):
                out.append("wire end")
            elif on_segment(p, a, b):
                out.append("wire")
        return out

    def junction_needed(self, p: Point) -> bool:
        """KiCad's SCH_SCREEN::IsExplicitJunctionNeeded for wires: three or more
        distinct directions leave ``p`` (wire ends and pins), or a wire passes through
        ``p`` and something else ends there."""
        if p in self.junctions:
            return False
        exits: set = set()
        middle = False
        for a, b, _ in self.wires:
            if p == a or p == b:
                o = b if p == a else a
                dx, dy = o[0] - p[0], o[1] - p[1]
                g = max(abs(dx), abs(dy)) or 1
                exits.add((round(dx / g, 6), round(dy / g, 6)))
            elif on_segment(p, a, b):
                middle = True
        unique = len(self.pins.get(p, [])) + len(self.sheet_pins.get(p, []))
        n = len(exits) + unique
        return n >= 3 or (middle and n >= 1)

    def dangling_ends(self) -> dict[Point, list[Wire]]:
        """Wire ends that connect to nothing, with the wires they belong to."""
        out: dict[Point, list[Wire]] = {}
        for a, b, wire in self.wires:
            for p in (a, b):
                if not self.what_is_at(p, ignore=wire):
                    out.setdefault(p, []).append(wire)
        return out


def on_segment(p: Point, a: Point, b: Point) -> bool:
    """True if ``p`` lies on the segment from ``a`` to ``b`` (ends included)."""
    if not (min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])):
        return False
    return (b[0] - a[0]) * (p[1] - a[1]) == (b[1] - a[1]) * (p[0] - a[0])


def placed_pins(sym: SymbolInstance, table: dict):
    """(library pin, sheet position, the symbol's transform) for each pin of a placed
    symbol's units (its own unit, and the units its instances give it), body style 1;
    ``table``: the sheet's lib_symbols entries by name."""
    info = lib_info(table, sym.lib_key)
    if info is None:
        return
    t = symbol_transform(sym.orientation, sym.mirror)
    for unit in sorted(sym.units_placed):
        for lp in info.pins_of(unit, 1):
            yield lp, pin_world(sym.position, t, lp.at), t


def symbol_pins(sym: SymbolInstance, table: dict) -> list[tuple[str, Point]]:
    """(pin number, sheet position) of the pins of a placed symbol (`placed_pins`),
    but its no-connect pins."""
    return [(lp.number, at) for lp, at, _ in placed_pins(sym, table) if lp.type != "no_connect"]


def sheet_points(doc) -> SheetPoints:
    """The connection points of schematic ``doc`` (one sheet file)."""
    table = doc.lib_symbol_table()
    pins: dict[Point, list[str]] = {}
    for sym in doc.symbols:
        for number, p in symbol_pins(sym, table):
            pins.setdefault(p, []).append(f"{sym.reference}.{number}")
    wires = []
    for w in doc.wires:
        pts = w.points
        for a, b in zip(pts, pts[1:]):
            wires.append((a, b, w))
    labels: dict[Point, list[str]] = {}
    for lab in doc.labels:
        labels.setdefault(lab.position, []).append(lab.text)
    sheet_pins: dict[Point, list[str]] = {}
    for sh in doc.sheets:
        for sp in sh.pins:
            sheet_pins.setdefault(sp.position, []).append(sp.name)
    return SheetPoints(pins, wires, labels, sheet_pins, {m.position for m in doc.no_connects},
                       {m.position for m in doc.junctions})
