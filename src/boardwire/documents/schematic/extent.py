"""Where a sheet's items lie: boxes of symbol bodies, visible fields and labels, pins
with the direction they point out of their symbol, and the overlaps between boxes.

Boxes are estimates from the file alone (no font rendering): a text of ``n`` characters
at font size ``h`` is ``n * 0.8 * h`` wide and ``h`` high (KiCad's stroke font averages
about 0.8 of the size per character, plus pen width); a label's box starts at its
connection point and runs in its text direction; a field's follows its justification
(centre by default); a symbol's body is the box of its pins' connection points and
its library drawing (graphics and pins with their lengths, `symbol_box`; at least
2.54 mm across), a power symbol's also reaches its value field.
Field text turns with the symbol (90 and 270 swap width and height). Coordinates are
integer nanometres, y down.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...sexpr import atoms
from ..views import Point
from .lib_info import lib_info
from .library import unit_body
from .orientation import apply, pin_world, symbol_transform
from .points import placed_pins

MM = 1_000_000
CHAR = 0.8
DEFAULT_SIZE = int(1.27 * MM)
Box = tuple[int, int, int, int]  # x1, y1, x2, y2


@dataclass(frozen=True)
class PinSide:
    """A placed pin: number, name, electrical type, sheet position, and ``out``, the
    unit step pointing away from the body ((1, 0) right, (0, -1) up)."""

    reference: str
    number: str
    name: str
    type: str
    at: Point
    out: tuple[int, int]


@dataclass(frozen=True)
class Extent:
    kind: str   # "body", "field", "label"
    owner: str  # a symbol's uuid, or a label's
    what: str   # "U1", "U1 Value", "label GND"
    box: Box


# a library pin's angle: the direction from its connection point into the body (y up)
_INTO = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}


def pin_sides(sym, table: dict) -> list[PinSide]:
    """The pins of placed symbol ``sym`` (its placed units, body style 1)."""
    out = []
    for lp, at, t in placed_pins(sym, table):
        ix, iy = _INTO.get(lp.angle % 360, (1, 0))
        wx, wy = apply(t, (-ix, iy))  # outward is -into; library y is flipped as in pin_world
        out.append(PinSide(sym.reference, lp.number, lp.name, lp.type, at, (int(wx), int(wy))))
    return out


def text_box(at: Point, text: str, size: int, angle: int, justify: str = "center") -> Box:
    """The box of ``text`` anchored at ``at``; ``justify`` left/right/center along the
    text direction (``angle`` 0 or 90 reads left-right or bottom-top)."""
    w, h = int(len(text) * CHAR * size), size
    vertical = angle % 180 == 90
    if justify == "left":
        a, b = 0, w
    elif justify == "right":
        a, b = -w, 0
    else:
        a, b = -w // 2, w - w // 2
    if not vertical:
        return (at[0] + a, at[1] - h // 2, at[0] + b, at[1] + h // 2)
    return (at[0] - h // 2, at[1] - b, at[0] + h // 2, at[1] - a)


def label_box(at: Point, text: str, angle: int, size: int = DEFAULT_SIZE) -> Box:
    """A local label's text box: from its point in its direction (0 right, 90 up,
    180 left, 270 down), just above the wire it names (KiCad draws it there)."""
    w = int(len(text) * CHAR * size) + size // 4
    h = size
    x, y = at
    if angle % 360 == 0:
        return (x, y - h - size // 8, x + w, y)
    if angle % 360 == 180:
        return (x - w, y - h - size // 8, x, y)
    if angle % 360 == 90:
        return (x - h - size // 8, y - w, x, y)
    return (x - h - size // 8, y, x, y + w)


def _prop_effects(prop) -> tuple[bool, int, str]:
    """(hidden, font size, horizontal justification) of a property node."""
    eff = prop.find("effects")
    hidden = False
    size = DEFAULT_SIZE
    justify = "center"
    h = prop.find("hide")
    if h is not None and (not h.atoms() or h.atoms()[0] in (b"yes", b"true")):
        hidden = True
    if eff is not None:
        if b"hide" in eff.kids[1:]:
            hidden = True
        h = eff.find("hide")
        if h is not None and (not h.atoms() or h.atoms()[0] in (b"yes", b"true")):
            hidden = True
        font = eff.find("font")
        sz = font.find("size") if font is not None else None
        if sz is not None and sz.atoms():
            size = atoms.to_nm(sz.atoms()[0])
        j = eff.find("justify")
        if j is not None:
            words = [atoms.text(a) for a in j.atoms()]
            justify = "left" if "left" in words else "right" if "right" in words else "center"
    return hidden, size, justify


def field_extents(sym) -> list[Extent]:
    """Boxes of the visible, non-empty fields of placed symbol ``sym``."""
    out = []
    turned = sym.orientation % 180 == 90
    for prop in sym.node.lists("property"):
        vals = prop.atoms()
        if len(vals) < 2:
            continue
        name, text = atoms.text(vals[0]), atoms.text(vals[1])
        hidden, size, justify = _prop_effects(prop)
        at = prop.find("at")
        if hidden or not text or at is None or name.startswith("ki_"):
            continue
        xy = at.atoms()
        angle = int(float(atoms.text(xy[2]))) if len(xy) > 2 else 0
        if turned:
            angle += 90
        p = (atoms.to_nm(xy[0]), atoms.to_nm(xy[1]))
        out.append(Extent("field", sym.uuid, f"{sym.reference} {name}", text_box(p, text, size, angle, justify)))
    return out


_SHAPES = ("rectangle", "polyline", "circle", "arc", "bezier", "pin")


def _shape_points(node) -> list[Point]:
    """Library points (nm, y up) that bound one graphic item or pin."""
    def xy(n):
        v = n.atoms() if n is not None else []
        return (atoms.to_nm(v[0]), atoms.to_nm(v[1])) if len(v) >= 2 else None

    head = node.head
    if head == "rectangle":
        return [p for p in (xy(node.find("start")), xy(node.find("end"))) if p]
    if head in ("polyline", "bezier"):
        pts = node.find("pts")
        return [p for p in (xy(q) for q in (pts.lists("xy") if pts is not None else ())) if p]
    if head == "circle":
        c, r = xy(node.find("center")), node.find("radius")
        if c is None or r is None or not r.atoms():
            return []
        rad = atoms.to_nm(r.atoms()[0])
        return [(c[0] - rad, c[1] - rad), (c[0] + rad, c[1] + rad)]
    if head == "arc":  # its three points (a bulge past them is under a millimetre for KiCad's symbols)
        return [p for p in (xy(node.find(k)) for k in ("start", "mid", "end")) if p]
    at, length = node.find("at"), node.find("length")
    if at is None or len(at.atoms()) < 2 or (b"hide" in node.kids[1:]):
        return []
    x, y = atoms.to_nm(at.atoms()[0]), atoms.to_nm(at.atoms()[1])
    angle = int(float(atoms.text(at.atoms()[2]))) % 360 if len(at.atoms()) > 2 else 0
    n = atoms.to_nm(length.atoms()[0]) if length is not None and length.atoms() else 0
    dx, dy = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}.get(angle, (1, 0))
    return [(x, y), (x + dx * n, y + dy * n)]


def lib_points(table: dict, name: str, units: set[int], _seen: tuple = ()) -> list[Point]:
    """The bounding points (library nm, y up) of the graphics and pins of ``units`` (and
    unit 0), body style 1, of ``lib_symbols`` entry ``name`` (following ``extends``)."""
    node = table.get(name)
    if node is None:
        return []
    ext = node.find("extends")
    if ext is not None and ext.atoms() and name not in _seen:
        base = atoms.text(ext.atoms()[0])
        return lib_points(table, base if base in table else name.split(":")[0] + ":" + base, units, _seen + (name,))
    out: list[Point] = []
    for sub in node.lists("symbol"):
        unit, body = unit_body(atoms.text(sub.atoms()[0]) if sub.atoms() else "")
        if unit not in (0, *units) or body not in (0, 1):
            continue
        for item in sub.lists():
            if item.head in _SHAPES:
                out += _shape_points(item)
    return out


def symbol_box(sym, table: dict) -> Box | None:
    """The sheet box (nm) of placed symbol ``sym``'s drawing: its library graphics and
    pins (with their lengths) of its placed units, turned and mirrored as placed; None
    when its library entry is missing or draws nothing."""
    pts = lib_points(table, sym.lib_key, set(sym.units_placed))
    if not pts:
        return None
    t = symbol_transform(sym.orientation, sym.mirror)
    world = [pin_world(sym.position, t, p) for p in pts]
    return (min(p[0] for p in world), min(p[1] for p in world), max(p[0] for p in world), max(p[1] for p in world))


def body_extent(sym, pins: list[PinSide], power: bool, drawn: Box | None = None) -> Extent:
    """The body box of a placed symbol (see the module)."""
    pts = [p.at for p in pins] or [sym.position]
    if power:
        value = sym._property("Value")
        at = value.find("at") if value is not None else None
        if at is not None:
            xy = at.atoms()
            pts = pts + [(atoms.to_nm(xy[0]), atoms.to_nm(xy[1]))]
    x1, y1 = min(p[0] for p in pts), min(p[1] for p in pts)
    x2, y2 = max(p[0] for p in pts), max(p[1] for p in pts)
    if drawn is not None:  # the library drawing (`symbol_box`) too
        x1, y1, x2, y2 = min(x1, drawn[0]), min(y1, drawn[1]), max(x2, drawn[2]), max(y2, drawn[3])
    half = int(1.27 * MM)
    if x2 - x1 < 2 * half:
        c = (x1 + x2) // 2
        x1, x2 = c - half, c + half
    if y2 - y1 < 2 * half:
        c = (y1 + y2) // 2
        y1, y2 = c - half, c + half
    return Extent("body", sym.uuid, sym.reference, (x1, y1, x2, y2))


def sheet_extents(doc) -> list[Extent]:
    """Boxes of every symbol body, visible symbol field and local label of a sheet."""
    table = doc.lib_symbol_table()
    out = []
    for sym in doc.symbols:
        info = lib_info(table, sym.lib_key)
        pins = pin_sides(sym, table)
        power = bool(info and info.power)
        out.append(body_extent(sym, pins, power, symbol_box(sym, table)))
        out += field_extents(sym)
    for lab in doc.labels:
        angle = int(lab.node.find("at").atoms()[2]) if len(lab.node.find("at").atoms()) > 2 else 0
        out.append(Extent("label", lab.uuid, f"label {lab.text}", label_box(lab.position, lab.text, angle)))
    return out


def boxes_overlap(a: Box, b: Box) -> bool:
    """True if two boxes share area (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def overlaps(extents: list[Extent]) -> list[tuple[Extent, Extent]]:
    """Pairs of boxes of different owners that overlap (a symbol's own fields may sit on
    its body)."""
    out = []
    ext = sorted(extents, key=lambda e: e.box[0])
    for i, a in enumerate(ext):
        for b in ext[i + 1:]:
            if b.box[0] >= a.box[2]:
                break
            if a.owner != b.owner and boxes_overlap(a.box, b.box):
                out.append((a, b))
    return out
