"""Library symbols as placed in a schematic: KiCad's orientation transform, pin
positions, and a flattened view of a ``lib_symbols`` entry (units, body styles,
``extends``). Used by connectivity (netlist/) and by placement (documents/).

Source: KiCad's eeschema TRANSFORM and the schematic file format
(https://dev-docs.kicad.org/en/file-formats/sexpr-schematic/): library pins are
stored y up; KiCad flips y on load, then rotates, then mirrors.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..sexpr import atoms
from ..sexpr.node import SList
from .schematic import LibSymbol, Schematic
from .views import Point


def _text(node: SList | None, head: str) -> str | None:
    if node is None:
        return None
    c = node.find(head)
    if c is None or not c.atoms():
        return None
    return atoms.text(c.atoms()[0])


# KiCad's symbol orientations as TRANSFORM(x1, y1, x2, y2): world = (x1*x + y1*y,
# x2*x + y2*y) for a library point (x, y) read with y flipped to point down, as KiCad's
# parser stores it.
_ORIENT = {0: (1, 0, 0, 1), 90: (0, 1, -1, 0), 180: (-1, 0, 0, -1), 270: (0, -1, 1, 0)}
_MIRROR = {"x": (1, 0, 0, -1), "y": (-1, 0, 0, 1)}


def symbol_transform(angle: float, mirror: str | None) -> tuple[int, int, int, int]:
    """KiCad's transform matrix for a placed symbol: orientation first, then mirror
    (``"x"`` or ``"y"``) composed on the right, as the schematic parser does."""
    t = _ORIENT.get(int(round(angle)) % 360, _ORIENT[0])
    m = _MIRROR.get(mirror or "")
    if m is None:
        return t
    x1, y1, x2, y2 = t
    a1, b1, a2, b2 = m
    return (x1 * a1 + x2 * b1, y1 * a1 + y2 * b1, x1 * a2 + x2 * b2, y1 * a2 + y2 * b2)


def pin_world(at: Point, transform: tuple[int, int, int, int], lib: Point) -> Point:
    """World position (nm, y down) of a library pin at ``lib`` (nm, y up in the file)."""
    x1, y1, x2, y2 = transform
    x, y = lib[0], -lib[1]
    return (at[0] + x1 * x + y1 * y, at[1] + x2 * x + y2 * y)


@dataclass
class LibPinInfo:
    number: str
    name: str
    type: str
    at: Point  # library coordinates, y up
    hidden: bool
    unit: int
    body: int


@dataclass
class LibInfo:
    """What connectivity needs of a library symbol (flattened through ``extends``)."""

    name: str
    power: bool
    pins: list[LibPinInfo]
    unit_count: int
    jumper_groups: list[set[str]]
    duplicate_jumpers: bool

    def pins_of(self, unit: int, body: int) -> list[LibPinInfo]:
        return [p for p in self.pins if p.unit in (0, unit) and p.body in (0, body)]


def _unit_body(sub_name: str) -> tuple[int, int]:
    parts = sub_name.rsplit("_", 2)
    try:
        return int(parts[-2]), int(parts[-1])
    except (ValueError, IndexError):
        return 0, 0


def _lib_pins(node: SList) -> list[LibPinInfo]:
    out = []
    subs = [(0, 0, node)] + [(*_unit_body(atoms.text(s.atoms()[0]) if s.atoms() else ""), s)
                             for s in node.lists("symbol")]
    for unit, body, s in subs:
        for p in s.lists("pin"):
            vals = p.atoms()
            at = p.find("at")
            xy = at.atoms() if at is not None else []
            hide = p.find("hide")
            hidden = (b"hide" in p.kids[1:]) or (hide is not None and (not hide.atoms() or hide.atoms()[0] in (b"yes", b"true")))
            number = _text(p, "number") or ""
            out.append(LibPinInfo(
                number="" if number == "~" else number,  # KiCad shows "~" as no number
                name=_text(p, "name") or "",
                type=atoms.text(vals[0]) if vals else "",
                at=(atoms.to_nm(xy[0]), atoms.to_nm(xy[1])) if len(xy) >= 2 else (0, 0),
                hidden=hidden, unit=unit, body=body))
    return out


def _flag(node: SList, name: str) -> bool:
    c = node.find(name)
    if c is not None:
        vals = c.atoms()
        return not vals or vals[0] in (b"yes", b"true")
    return name.encode() in node.kids[1:]


def lib_table(doc: Schematic) -> dict[str, SList]:
    """A schematic's ``lib_symbols`` entries by name (the table `lib_info` reads)."""
    table = doc.root.find("lib_symbols")
    return {atoms.text(s.atoms()[0]): s for s in (table.lists("symbol") if table is not None else ())
            if s.atoms()}


def lib_info(table: dict[str, SList], name: str, _seen: tuple = ()) -> LibInfo | None:
    """Resolve a schematic's ``lib_symbols`` entry (following ``extends``)."""
    node = table.get(name)
    if node is None:
        return None
    ext = _text(node, "extends")
    if ext and ext not in _seen:
        base_name = ext if ext in table else (name.split(":")[0] + ":" + ext if ":" in name else ext)
        base = lib_info(table, base_name, _seen + (name,))
        pins = base.pins if base is not None else []
        units = base.unit_count if base is not None else 1
    else:
        pins = _lib_pins(node)
        units = max([p.unit for p in pins] + [_unit_body(atoms.text(s.atoms()[0]))[0]
                                              for s in node.lists("symbol") if s.atoms()] + [1])
    power = LibSymbol(None, node).is_power  # type: ignore[arg-type]
    groups = []
    jg = node.find("jumper_pin_groups")
    if jg is not None:
        for g in jg.lists():
            groups.append({atoms.text(a) for a in g.kids if type(a) is bytes})
        groups = [g for g in groups if g]
    return LibInfo(name, power, pins, units, groups, _flag(node, "duplicate_pin_numbers_are_jumpers"))
