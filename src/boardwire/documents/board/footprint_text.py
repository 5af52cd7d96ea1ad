"""A footprint's texts: its fields (reference, value, user fields; ``property`` from
KiCad 8, ``fp_text reference/value`` before) and its free texts (``fp_text user``),
read in board coordinates and placed, turned or hidden as pcbnew does.

A text's ``(at x y angle)`` is stored relative to the footprint's anchor in the
footprint's own (unturned) frame, its angle absolute (the footprint's turn included);
hidden is ``(hide yes)`` from KiCad 8, a bare ``hide`` before. Units: nm, degrees.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...sexpr import atoms
from ...sexpr.node import SList
from ..sexpr_doc import make
from ..units import rotate
from ..views import Point, at_angle, split_at
from .footprint import Footprint

_FP_TEXT_NAMES = {b"reference": "Reference", b"value": "Value", b"user": "user"}


@dataclass
class FootprintText:
    """One text of a footprint: ``name`` is the field name (Reference, Value, a user
    field) or "user" for a free text; ``at`` in board coordinates; ``size`` the
    font's (height, width) as written, ``justify`` and ``thickness`` from its
    ``effects`` (nm)."""

    name: str
    text: str
    uuid: str | None
    at: Point
    angle: float
    layer: str | None
    visible: bool
    size: Point | None
    node: SList
    justify: tuple[str, ...] = ()  # KiCad's words: left, right, top, bottom, mirror
    thickness: int | None = None  # the stroke width (nm); None: left to the font


def _hidden(node: SList) -> bool:
    h = node.find("hide")
    if h is not None:
        v = h.atoms()
        return not v or v[0] in (b"yes", b"true")
    if b"hide" in node.atoms():
        return True
    eff = node.find("effects")
    if eff is not None:
        eh = eff.find("hide")
        if eh is not None:
            v = eh.atoms()
            return not v or v[0] in (b"yes", b"true")
        return b"hide" in eff.atoms()
    return False


def footprint_texts(fp: Footprint) -> list[FootprintText]:
    """Every field and free text of ``fp`` that has a position."""
    fx, fy = fp.position
    turn = fp.orientation
    out = []
    for node in fp.node.lists():
        head = node.head
        if head not in ("property", "fp_text"):
            continue
        at = node.find("at")
        if at is None:
            continue
        vals = node.atoms()
        if head == "property":
            name = atoms.text(vals[0]) if vals else ""
            text = atoms.text(vals[1]) if len(vals) > 1 else ""
        else:
            name = _FP_TEXT_NAMES.get(vals[0], "user") if vals else "user"
            text = atoms.text(vals[1]) if len(vals) > 1 else ""
        av = at.atoms()
        local = (atoms.to_nm(av[0]), atoms.to_nm(av[1])) if len(av) >= 2 else (0, 0)
        dx, dy = rotate(local, turn)
        layer = node.find("layer")
        uid = node.find("uuid") or node.find("tstamp")
        size = None
        eff = node.find("effects")
        font = eff.find("font") if eff is not None else None
        sz = font.find("size") if font is not None else None
        if sz is not None and len(sz.atoms()) >= 2:
            size = (atoms.to_nm(sz.atoms()[0]), atoms.to_nm(sz.atoms()[1]))
        th = font.find("thickness") if font is not None else None
        just = eff.find("justify") if eff is not None else None
        out.append(FootprintText(name, text, atoms.text(uid.atoms()[0]) if uid is not None and uid.atoms() else None,
                                 (fx + dx, fy + dy), at_angle(av),
                                 atoms.text(layer.atoms()[0]) if layer is not None and layer.atoms() else None,
                                 not _hidden(node), size, node,
                                 tuple(atoms.text(v) for v in just.atoms()) if just is not None else (),
                                 atoms.to_nm(th.atoms()[0]) if th is not None and th.atoms() else None))
    return out


def find_text(fp: Footprint, name: str) -> FootprintText | None:
    """The field ``name`` of ``fp`` (Reference, Value, any field), or a free text by
    its uuid."""
    for t in footprint_texts(fp):
        if t.name == name or (t.uuid and t.uuid == name):
            return t
    return None


def part_by_uuid(footprints, uid: str) -> tuple[Footprint, FootprintText | None] | None:
    """The footprint holding the item whose uuid is ``uid`` (the ids KiCad's DRC names
    for silkscreen and clearance findings: fields, texts, pads, graphics), with the
    text for a field or free text (else None); None if no footprint holds it."""
    for fp in footprints:
        for node in fp.node.lists():
            u = node.find("uuid") or node.find("tstamp")
            if u is None or not u.atoms() or atoms.text(u.atoms()[0]) != uid:
                continue
            if node.head in ("property", "fp_text"):
                return fp, next((t for t in footprint_texts(fp) if t.node is node), None)
            return fp, None
    return None


def place_text(fp: Footprint, text: FootprintText, at: Point | None = None,
               angle: float | None = None, visible: bool | None = None) -> None:
    """Move text ``text`` of ``fp`` to board position ``at`` (nm), turn it to the
    absolute ``angle`` (degrees), show or hide it; what is None stays."""
    doc, node = fp.doc, text.node
    if at is not None or angle is not None:
        at_node = node.find("at")
        old_xy, rest, tail = split_at(at_node.atoms())  # a trailing "unlocked" is kept
        if at is not None:
            fx, fy = fp.position
            lx, ly = rotate((at[0] - fx, at[1] - fy), -fp.orientation)
            xy = [atoms.mm(lx), atoms.mm(ly)]
        else:
            xy = old_xy
        if angle is not None:
            rest = [atoms.num(angle)] if angle or rest else []
        doc.set_atoms(at_node, xy + rest + tail)
    if visible is not None and visible == _hidden(node):
        _set_hidden(doc, node, not visible)


def _set_hidden(doc, node: SList, hide: bool) -> None:
    h = node.find("hide")
    if h is not None:
        doc.set_atoms(h, [b"yes" if hide else b"no"])
        return
    vals = node.atoms()
    if b"hide" in vals:  # KiCad 7 and earlier: a bare atom
        if not hide:
            doc.set_atoms(node, [v for v in vals if v != b"hide"])
        return
    eff = node.find("effects")
    if eff is not None:
        eh = eff.find("hide")
        if eh is not None:
            doc.set_atoms(eh, [b"yes" if hide else b"no"])
            return
        if b"hide" in eff.atoms():
            if not hide:
                doc.set_atoms(eff, [v for v in eff.atoms() if v != b"hide"])
            return
    if not hide:
        return
    if node.head == "property":  # KiCad 8+: (hide yes) after the layer
        layer = node.find("layer")
        index = node.index(layer) + 1 if layer is not None else None
        doc.insert(node, make("hide", b"yes"), index)
    else:
        doc.set_atoms(node, vals + [b"hide"])
