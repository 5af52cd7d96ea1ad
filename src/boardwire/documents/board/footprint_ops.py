"""Turning and flipping a placed footprint the way pcbnew does.

Measured against pcbnew (SetOrientation, Flip with FLIP_DIRECTION_TOP_BOTTOM, then
SaveBoard), in terms of what the file stores:

* rotate: the footprint's angle becomes the new one, normalised to (-180, 180]; pad and
  text angles (stored absolute) move by the same amount, pads normalised to [0, 360)
  and written only when not 0, texts always written; drawings are footprint-relative
  and stay; zones (board coordinates) turn about the footprint's anchor.
* flip: the footprint goes to the other side: its angle is negated; every layer F.x
  becomes B.x and back; footprint-relative y is negated for drawings, texts and pads;
  a pad's angle is negated ([0, 360)); a text's angle a becomes 180 - a, normalised to
  (-180, 180], and its ``justify mirror`` flag is toggled; zones mirror about the
  anchor's y.
Coordinates are nm, angles degrees. Edits go through the document so they are undoable.
"""

from __future__ import annotations

from ...sexpr import atoms
from ...sexpr.atoms import mm, quote
from ...sexpr.node import SList
from ..sexpr_doc import make
from ..units import rotate as rotate_point
from ..views import at_angle, split_at

_POINT_HEADS = ("start", "end", "mid", "center", "at")
_TEXTS = ("property", "fp_text", "fp_text_box")
_DRAWINGS = ("fp_line", "fp_rect", "fp_circle", "fp_arc", "fp_poly", "fp_curve")


def norm180(a: float) -> float:
    a = a % 360.0
    return (a - 360.0 if a > 180.0 else a) + 0.0


def norm360(a: float) -> float:
    return a % 360.0 + 0.0


def flip_layer(name: str) -> str:
    if name.startswith("F."):
        return "B." + name[2:]
    if name.startswith("B."):
        return "F." + name[2:]
    return name


def _set_angle(doc, at: SList, angle: float, always: bool) -> None:
    """Set the angle of ``(at x y [angle] [unlocked])``, keeping a text's trailing
    "unlocked" (KiCad 5-7 write it with or without an angle)."""
    vals = at.atoms()
    xy, _, tail = split_at(vals)
    new = xy + ([atoms.num(angle)] if angle or always else []) + tail
    if new != vals:
        doc.set_atoms(at, new)


def rotate(fp, new_angle: float) -> None:
    """Turn footprint ``fp`` (a Footprint view) to ``new_angle`` degrees."""

    doc, node = fp.doc, fp.node
    old = fp.orientation
    delta = new_angle - old
    if not delta % 360:
        return
    at = node.find("at")
    _set_angle(doc, at, norm180(new_angle), always=False)
    for kid in list(node.lists()):
        head = kid.head
        if head in _TEXTS or head == "pad":
            a = kid.find("at")
            if a is not None:
                cur = at_angle(a.atoms())
                _set_angle(doc, a, norm360(cur + delta), always=head != "pad")
        elif head == "zone":
            fx, fy = fp.position
            for xy in _zone_points(kid):
                v = xy.atoms()
                x, y = rotate_point((atoms.to_nm(v[0]) - fx, atoms.to_nm(v[1]) - fy), delta)
                doc.set_atoms(xy, [mm(x + fx), mm(y + fy)])


def _zone_points(zone: SList):
    for poly in zone.lists():
        pts = poly.find("pts")
        if pts is not None:
            yield from pts.lists("xy")


def _negate_y(doc, node: SList) -> None:
    """Negate the y of every point list directly in ``node`` (and in its pts)."""
    for kid in node.lists():
        if kid.head in _POINT_HEADS or kid.head == "xy":
            v = kid.atoms()
            if len(v) >= 2:
                doc.set_atoms(kid, [v[0], mm(-atoms.to_nm(v[1]))] + v[2:])
        elif kid.head == "pts":
            _negate_y(doc, kid)


def _flip_layers(doc, node: SList) -> None:
    for head in ("layer", "layers"):
        lst = node.find(head)
        if lst is not None:
            vals = lst.atoms()
            new = [quote(flip_layer(atoms.text(v))) if atoms.is_quoted(v) else
                   flip_layer(atoms.text(v)).encode() for v in vals]
            if new != vals:
                doc.set_atoms(lst, new)


def _toggle_mirror(doc, text: SList) -> None:
    effects = text.find("effects")
    if effects is None:
        return
    justify = effects.find("justify")
    if justify is None:
        doc.insert(effects, make("justify", b"mirror"))
        return
    vals = justify.atoms()
    if b"mirror" in vals:
        rest = [v for v in vals if v != b"mirror"]
        if rest:
            doc.set_atoms(justify, rest)
        else:
            doc.remove(justify)
    else:
        doc.set_atoms(justify, vals + [b"mirror"])


def flip(fp) -> None:
    """Move footprint ``fp`` to the other side of the board (top-bottom flip)."""
    doc, node = fp.doc, fp.node
    fx, fy = fp.position
    _set_angle(doc, node.find("at"), norm180(-fp.orientation), always=False)
    _flip_layers(doc, node)
    for kid in list(node.lists()):
        head = kid.head
        if head in _TEXTS:
            at = kid.find("at")
            if at is not None:
                v = at.atoms()
                cur = float(v[2]) if len(v) > 2 else 0.0
                doc.set_atoms(at, [v[0], mm(-atoms.to_nm(v[1])), atoms.num(norm180(180.0 - cur))])
            _flip_layers(doc, kid)
            _toggle_mirror(doc, kid)
        elif head in _DRAWINGS:
            _negate_y(doc, kid)
            _flip_layers(doc, kid)
        elif head == "pad":
            at = kid.find("at")
            v = at.atoms()
            cur = float(v[2]) if len(v) > 2 else 0.0
            ang = norm360(-cur)
            doc.set_atoms(at, [v[0], mm(-atoms.to_nm(v[1]))] + ([atoms.num(ang)] if ang else []))
            _flip_layers(doc, kid)
            prims = kid.find("primitives")
            if prims is not None:
                for p in prims.lists():
                    _negate_y(doc, p)
        elif head == "zone":
            for xy in _zone_points(kid):
                v = xy.atoms()
                doc.set_atoms(xy, [v[0], mm(2 * fy - atoms.to_nm(v[1]))])
            _flip_layers(doc, kid)
            for fill in kid.lists("filled_polygon"):
                _flip_layers(doc, fill)
