"""What connectivity and placement need of a ``lib_symbols`` entry, flattened through
``extends``: its pins per unit and body style, unit count, power flag, jumper pins.

Source: the schematic file format (dev-docs.kicad.org/en/file-formats/sexpr-schematic/)
and KiCad's ``LIB_SYMBOL``: a pin of unit 0 or body style 0 belongs to every unit or
style; ``duplicate_pin_numbers_are_jumpers`` and ``jumper_pin_groups`` (KiCad 9) join
pins inside the symbol. Pin positions are library coordinates (nm, y up).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...sexpr import atoms
from ...sexpr.node import SList
from ..views import Point
from .library import LibSymbol, unit_body


def _text(node: SList | None, head: str) -> str | None:
    if node is None:
        return None
    c = node.find(head)
    if c is None or not c.atoms():
        return None
    return atoms.text(c.atoms()[0])


@dataclass
class LibPinInfo:
    number: str
    name: str
    type: str
    at: Point  # library coordinates, y up
    hidden: bool
    unit: int
    body: int
    angle: int = 0  # the pin's direction from its connection point into the body (0 right, 90 up)


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


def _lib_pins(node: SList) -> list[LibPinInfo]:
    out = []
    subs = [(0, 0, node)] + [(*unit_body(atoms.text(s.atoms()[0]) if s.atoms() else ""), s)
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
                hidden=hidden, unit=unit, body=body,
                angle=int(float(atoms.text(xy[2]))) % 360 if len(xy) >= 3 else 0))
    return out


def _flag(node: SList, name: str) -> bool:
    c = node.find(name)
    if c is not None:
        vals = c.atoms()
        return not vals or vals[0] in (b"yes", b"true")
    return name.encode() in node.kids[1:]


def lib_info(table: dict[str, SList], name: str, _seen: tuple = ()) -> LibInfo | None:
    """Resolve a schematic's ``lib_symbols`` entry ``name`` (following ``extends``)
    in ``table`` (name -> entry, `Schematic.lib_symbol_table`); None if missing."""
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
        units = max([p.unit for p in pins] + [unit_body(atoms.text(s.atoms()[0]))[0]
                                              for s in node.lists("symbol") if s.atoms()] + [1])
    power = LibSymbol(None, node).is_power  # type: ignore[arg-type]
    groups = []
    jg = node.find("jumper_pin_groups")
    if jg is not None:
        for g in jg.lists():
            groups.append({atoms.text(a) for a in g.kids if type(a) is bytes})
        groups = [g for g in groups if g]
    return LibInfo(name, power, pins, units, groups, _flag(node, "duplicate_pin_numbers_are_jumpers"))
