"""The ``(symbol ...)`` list eeschema 9 writes for a symbol placed from a library
definition.

Measured on the KiCad 9 demos (/usr/share/kicad/demos); writer
``SCH_IO_KICAD_SEXPR::saveSymbol``. A placed symbol writes ``(at x y angle)`` with the
angle always present, then ``(mirror x|y)`` when mirrored, ``(unit N)``, the library's
``exclude_from_sim``, ``in_bom``, ``on_board``, ``(dnp no)``, its uuid, its fields, one
``(pin "N" (uuid))`` per library pin of its body style (every unit: the list is shared
by the units), and ``(instances (project "NAME" (path "/root-uuid[/sheet-uuid...]"
(reference ..) (unit N))))`` with one path per instance of the sheet file in the
hierarchy. Field positions are on the sheet: the library position (y up) through the
symbol's transform, plus ``at``; field text angles and justification stay the
library's. A KiCad 10 schematic gets KiCad 10's tokens on top (`upgrade`).
Coordinates are integer nanometres, angles degrees.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...sexpr import atoms
from ...sexpr.atoms import mm, quote
from ...sexpr.node import SList
from ..board.library_copy import _strip_ws
from ..ids import new_uuid
from ..sexpr_doc import make
from ..views import Point
from .lib_entry import LibEntry, downgrade
from .orientation import pin_world, symbol_transform
from .upgrade import upgrade


@dataclass
class Placement:
    """A symbol to place: library id, anchor (nm), canonical orientation, unit, field
    values (None: the library's), the project name and the sheet-instance paths
    (``/root-uuid[/sheet-uuid...]``) it gets a reference in."""

    lib_id: str
    at: Point
    angle: int = 0
    mirror: str | None = None
    unit: int = 1
    reference: str = ""
    value: str | None = None
    footprint: str | None = None
    fields: dict[str, str] = field(default_factory=dict)
    project: str = ""
    paths: list[str] = field(default_factory=list)


def _flag_value(entry: SList, name: str, default: bytes) -> bytes:
    c = entry.find(name)
    if c is not None and c.atoms():
        return c.atoms()[0]
    return default


def _set_at(node: SList, at: Point, angle_atom: bytes | None) -> None:
    old = node.find("at")
    kids = [b"at", mm(at[0]), mm(at[1])] + ([angle_atom] if angle_atom is not None else [])
    new = SList(kids)
    new.parent = node
    node.kids[node.kids.index(old)] = new


def placed_symbol(entry: LibEntry, p: Placement, version: int, uid: str | None = None) -> SList:
    """The ``(symbol ...)`` list for a symbol placed from ``entry`` (a ``lib_symbols``
    definition) in a schematic of format ``version``."""
    t = symbol_transform(p.angle, p.mirror)
    props = []
    names = []
    for prop in entry.node.lists("property"):
        vals = prop.atoms()
        name = atoms.text(vals[0]) if vals else ""
        if name.startswith("ki_"):
            continue  # keywords and footprint filters stay in the library definition
        node = _strip_ws(prop)
        value = {"Reference": p.reference, "Value": p.value,
                 "Footprint": p.footprint}.get(name)
        if name in p.fields:
            value = p.fields[name]
        if value is not None:
            node.kids[node.kids.index(node.atoms()[1])] = quote(value)
        at = node.find("at")
        if at is not None:
            xy = at.atoms()
            world = pin_world(p.at, t, (atoms.to_nm(xy[0]), atoms.to_nm(xy[1])))
            _set_at(node, world, xy[2] if len(xy) > 2 else b"0")
        props.append(node)
        names.append(name)
    for name, value in p.fields.items():
        if name not in names:  # a field the library does not have: hidden, at the anchor
            props.append(make("property", quote(name), quote(value),
                              make("at", mm(p.at[0]), mm(p.at[1]), b"0"),
                              make("effects", make("font", make("size", b"1.27", b"1.27")),
                                   make("hide", b"yes"))))
    info = entry.info
    pins = []
    for lp in (info.pins if info is not None else []):
        if lp.body in (0, 1):
            pins.append(make("pin", quote(lp.number), make("uuid", quote(new_uuid()))))
    ref_paths = [make("path", quote(path), make("reference", quote(p.reference)),
                      make("unit", str(p.unit).encode())) for path in p.paths]
    instances = make("instances", make("project", quote(p.project), *ref_paths)) if ref_paths else None
    node = make("symbol",
                make("lib_id", quote(p.lib_id)),
                make("at", mm(p.at[0]), mm(p.at[1]), str(p.angle).encode()),
                make("mirror", p.mirror.encode()) if p.mirror else None,
                make("unit", str(p.unit).encode()),
                make("exclude_from_sim", _flag_value(entry.node, "exclude_from_sim", b"no")),
                make("in_bom", _flag_value(entry.node, "in_bom", b"yes")),
                make("on_board", _flag_value(entry.node, "on_board", b"yes")),
                make("dnp", b"no"),
                make("uuid", quote(uid or new_uuid())),
                *props, *pins, instances)
    return downgrade(upgrade(node, version, placed=True), version)
