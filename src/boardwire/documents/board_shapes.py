"""The shapes of a board's items as plain data, for geometry and design-rule checks.

What KiCad's board file stores about copper, holes, outlines and courtyards, read into
small records in board coordinates (integer nanometres, degrees; KiCad's axes, y down):

* `read_track` / `read_via`: tracks, arcs and vias (``segment``, ``arc``, ``via``).
* `read_footprint`: a footprint's pads (every shape KiCad 4 to 9 writes: circle, rect,
  oval, roundrect, chamfered_rect, trapezoid, custom primitives), its drawings (copper,
  Edge.Cuts, courtyards) in board coordinates, and its local clearance and net-tie pad
  groups.
* `read_drawing`: a board drawing (``gr_line``, ``gr_arc`` ... and ``fp_*`` inside a
  footprint): segment, arc, circle, rect, polygon, bezier, with stroke width and fill.
* `read_zone`: a zone's layers, net, priority, clearance, minimum width, keep-out
  flags, outline and filled polygons per layer.
* `legacy_rules`: the design rules a KiCad 5 board keeps in its ``setup`` section.

Sources: KiCad's "Board File Format" and "Footprint Library File Format" pages and the
format history in `versions`. Arcs written before KiCad 6 (``(start centre) (end
point) (angle degrees)``) are turned into start, mid and end points as KiCad 6 does on
load. A ``custom`` padstack (KiCad 9 per-layer pad shapes) is read as its default
(front) shape.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from ..sexpr import atoms
from ..sexpr.node import SList
from .board import Footprint, rotate
from .views import Point, View

_NM = atoms.IU_PER_MM


def _nm(atom: bytes) -> int:
    """Millimetres to nanometres, rounded half away from zero (KiCad's KiROUND)."""
    v = float(atom) * _NM
    return int(v + 0.5) if v >= 0 else -int(0.5 - v)


def _kids(node: SList) -> dict[bytes, SList]:
    """The first child list of each keyword."""
    out: dict[bytes, SList] = {}
    for k in node.kids:
        if type(k) is SList:
            h = k.head_bytes()
            if h not in out:
                out[h] = k
    return out


def _vals(node: SList | None) -> list[bytes]:
    return node.atoms() if node is not None else []


def _pt(node: SList | None) -> Point | None:
    v = _vals(node)
    return (_nm(v[0]), _nm(v[1])) if len(v) >= 2 else None


def _text(atom: bytes) -> str:
    return atoms.text(atom)


def _net_of(kids: dict[bytes, SList]) -> tuple[int | None, str | None]:
    """Net number and name of an item (``(net 3)``, ``(net 3 "GND")``, KiCad 10's
    ``(net "GND")``)."""
    v = _vals(kids.get(b"net"))
    number, name = None, None
    if v:
        if v[0][:1] == b'"':
            name = _text(v[0])
        else:
            try:
                number = int(v[0])
            except ValueError:
                name = _text(v[0])
            if len(v) > 1:
                name = _text(v[1])
    return number, name


def _uuid(kids: dict[bytes, SList]) -> str | None:
    v = _vals(kids.get(b"uuid")) or _vals(kids.get(b"tstamp"))
    return _text(v[0]) if v else None


def _layers(kids: dict[bytes, SList]) -> tuple[str, ...]:
    v = _vals(kids.get(b"layers")) or _vals(kids.get(b"layer"))
    return tuple(_text(a) for a in v)


def _flag(node: SList, kids: dict[bytes, SList], name: bytes) -> bool:
    """``(name yes)``, ``(name)`` or a bare ``name`` atom."""
    c = kids.get(name)
    if c is not None:
        v = c.atoms()
        return not v or v[0] in (b"yes", b"true")
    return name in node.kids[1:]


# -- tracks and vias -------------------------------------------------------------------


@dataclass(slots=True)
class TrackData:
    """A straight track (``segment``) or a track arc (``arc``, with ``mid``)."""

    kind: str
    start: Point
    end: Point
    mid: Point | None
    width: int
    layer: str
    net: int | None
    net_name: str | None
    uuid: str | None
    locked: bool = False


def read_track(view: View) -> TrackData:
    node = view.node
    start = end = (0, 0)
    mid = None
    width, layer, net, name, uid, locked = 0, "", None, None, None, False
    for k in node.kids:
        if type(k) is not SList:
            if k == b"locked":
                locked = True
            continue
        kk = k.kids
        h = kk[0]
        if h == b"start":
            start = (_nm(kk[1]), _nm(kk[2]))
        elif h == b"end":
            end = (_nm(kk[1]), _nm(kk[2]))
        elif h == b"mid":
            mid = (_nm(kk[1]), _nm(kk[2]))
        elif h == b"width":
            width = _nm(kk[1])
        elif h == b"layer":
            layer = _text(kk[1])
        elif h == b"net":
            net, name = _net_of({b"net": k})
        elif h in (b"uuid", b"tstamp") and uid is None:
            uid = _text(kk[1])
        elif h == b"locked":
            locked = len(kk) < 2 or kk[1] == b"yes"
    return TrackData(node.head, start, end, mid, width, layer, net, name, uid, locked)


@dataclass(slots=True)
class ViaData:
    """A via: ``via_type`` through, blind (blind or buried) or micro; ``layers`` its two
    end layers as written."""

    at: Point
    size: int
    drill: int
    layers: tuple[str, ...]
    via_type: str
    net: int | None
    net_name: str | None
    uuid: str | None
    remove_unused_layers: bool = False
    keep_end_layers: bool = False


def read_via(view: View) -> ViaData:
    node = view.node
    kids = _kids(node)
    top = node.atoms()
    via_type = "blind" if b"blind" in top else "micro" if b"micro" in top else "through"
    size = _vals(kids.get(b"size"))
    drill = _vals(kids.get(b"drill"))
    net, name = _net_of(kids)
    return ViaData(_pt(kids.get(b"at")) or (0, 0), _nm(size[0]) if size else 0,
                   _nm(drill[0]) if drill else 0, _layers(kids), via_type, net, name, _uuid(kids),
                   _flag(node, kids, b"remove_unused_layers"), _flag(node, kids, b"keep_end_layers"))


# -- drawings ----------------------------------------------------------------------------


@dataclass(slots=True)
class DrawingData:
    """A drawing in board coordinates.

    ``shape``: segment (2 points), arc (start, mid, end), circle (centre, a point on
    it), rect (2 opposite corners, axis-aligned in its own footprint frame: 4 corners
    when the footprint is turned, then read as a polygon), poly (the points; arcs inside
    a polygon are given as their start, mid, end in ``arcs``), bezier (4 control points).
    ``width`` is the stroke width (0: none), ``filled`` whether the inside is copper.
    """

    shape: str
    points: list[Point]
    width: int
    filled: bool
    layers: tuple[str, ...]
    net: int | None = None
    net_name: str | None = None
    uuid: str | None = None
    kind: str = ""  # the keyword: gr_line, fp_arc, ...


_SHAPES = {"line": "segment", "arc": "arc", "circle": "circle", "rect": "rect",
           "poly": "poly", "curve": "bezier", "bezier": "bezier"}


def _legacy_arc(centre: Point, start: Point, angle: float) -> tuple[Point, Point, Point]:
    """KiCad 5's arc (centre, start point, sweep in degrees, y down as stored) as
    start, mid and end points."""
    cx, cy = centre
    r = math.dist(centre, start)
    a0 = math.atan2(start[1] - cy, start[0] - cx)
    sweep = math.radians(angle)  # positive: clockwise on screen, as KiCad 5 stored it

    def at(t: float) -> Point:
        a = a0 + sweep * t
        return atoms.kiround(cx + r * math.cos(a)), atoms.kiround(cy + r * math.sin(a))

    return start, at(0.5), at(1.0)


def read_drawing(view: View, fp: FootprintPlace | None = None) -> DrawingData | None:
    """A ``gr_*`` drawing, or an ``fp_*`` one placed by ``fp`` (None for shapes this
    reader does not know, e.g. images)."""
    node = view.node
    head = node.head
    kind = _SHAPES.get(head[3:])
    if kind is None:
        return None
    kids = _kids(node)
    stroke = kids.get(b"stroke")
    w = _vals(_kids(stroke).get(b"width")) if stroke is not None else _vals(kids.get(b"width"))
    width = _nm(w[0]) if w else 0
    fill = _vals(kids.get(b"fill"))
    filled = bool(fill) and fill[0] in (b"yes", b"solid", b"true")
    pts: list[Point] = []
    if kind == "segment":
        pts = [_pt(kids.get(b"start")) or (0, 0), _pt(kids.get(b"end")) or (0, 0)]
    elif kind == "arc":
        start, end, mid = _pt(kids.get(b"start")), _pt(kids.get(b"end")), _pt(kids.get(b"mid"))
        if mid is not None:
            pts = [start, mid, end]
        else:
            angle = _vals(kids.get(b"angle"))
            pts = list(_legacy_arc(start, end, float(angle[0]) if angle else 0.0))
    elif kind == "circle":
        pts = [_pt(kids.get(b"center")) or (0, 0), _pt(kids.get(b"end")) or (0, 0)]
    elif kind == "rect":
        (x0, y0), (x1, y1) = _pt(kids.get(b"start")) or (0, 0), _pt(kids.get(b"end")) or (0, 0)
        pts = [(x0, y0), (x1, y1)]
        if fp is not None and fp.angle % 360:
            kind, pts = "poly", [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    elif kind in ("poly", "bezier"):
        p = kids.get(b"pts")
        if p is not None:
            for xy in p.lists():
                h = xy.head_bytes()
                if h == b"xy":
                    pts.append(_pt(xy))
                elif h == b"arc":  # an arc inside a polygon: its start, mid, end
                    ak = _kids(xy)
                    pts.extend(q for q in (_pt(ak.get(b"start")), _pt(ak.get(b"mid")), _pt(ak.get(b"end"))) if q)
        if kind == "poly" and not fill:
            filled = True  # KiCad 5 and 6 polygons have no fill token and are filled
    if fp is not None:
        pts = [fp.place(p) for p in pts]
    net, name = _net_of(kids)
    return DrawingData(kind, pts, width, filled, _layers(kids), net, name, _uuid(kids), head)


# -- footprints and pads -------------------------------------------------------------------


@dataclass(slots=True)
class FootprintPlace:
    """Where a footprint is: its anchor (nm) and angle (degrees)."""

    at: Point
    angle: float

    def place(self, p: Point) -> Point:
        """A footprint-local point in board coordinates."""
        dx, dy = rotate(p, self.angle)
        return self.at[0] + dx, self.at[1] + dy


@dataclass(slots=True)
class PadData:
    """A pad in board coordinates.

    ``at`` is the pad's anchor (the hole's centre), ``angle`` its absolute angle;
    ``offset`` moves the copper shape from the anchor in the pad's own frame. ``size``
    is (x, y) in the pad's frame; ``drill`` (x, y) or None (x == y: round). Custom pads
    carry their ``primitives`` in the pad's own frame (relative to the shape's centre,
    unrotated). ``local_clearance`` is the pad's own clearance override (nm) or None.
    """

    number: str
    pad_type: str  # smd, thru_hole, np_thru_hole, connect
    shape: str  # circle, rect, oval, roundrect, chamfered_rect, trapezoid, custom
    at: Point
    angle: float
    size: Point
    drill: Point | None
    offset: Point
    layers: tuple[str, ...]
    net: int | None
    net_name: str | None
    uuid: str | None
    roundrect_rratio: float = 0.0
    chamfer_ratio: float = 0.0
    chamfer: frozenset = frozenset()
    rect_delta: Point = (0, 0)
    anchor: str = "circle"
    primitives: list[DrawingData] = field(default_factory=list)
    local_clearance: int | None = None
    castellated: bool = False
    remove_unused_layers: bool = False
    keep_end_layers: bool = False


_PAD_DEFAULT_RRATIO = 0.25


def _read_pad(node: SList, place: FootprintPlace) -> PadData:
    kids = _kids(node)
    vals = node.atoms()
    number = _text(vals[0]) if vals else ""
    pad_type = _text(vals[1]) if len(vals) > 1 else ""
    shape = _text(vals[2]) if len(vals) > 2 else ""
    at = _vals(kids.get(b"at"))
    local = (_nm(at[0]), _nm(at[1])) if len(at) >= 2 else (0, 0)
    angle = float(at[2]) if len(at) > 2 else 0.0
    size = _pt(kids.get(b"size")) or (0, 0)
    drill, offset = None, (0, 0)
    d = kids.get(b"drill")
    if d is not None:
        dv = d.atoms()
        oval = bool(dv) and dv[0] == b"oval"
        nums = [v for v in dv if v != b"oval"]
        if nums:
            dx = _nm(nums[0])
            dy = _nm(nums[1]) if oval and len(nums) > 1 else dx
            drill = (dx, dy) if dx or dy else None
        offset = _pt(_kids(d).get(b"offset")) or (0, 0)
    rr = _vals(kids.get(b"roundrect_rratio"))
    cr = _vals(kids.get(b"chamfer_ratio"))
    corners = frozenset(_text(v) for v in _vals(kids.get(b"chamfer")))
    delta = _pt(kids.get(b"rect_delta")) or (0, 0)
    anchor, prims = "circle", []
    if shape == "custom":
        opts = kids.get(b"options")
        if opts is not None:
            a = _vals(_kids(opts).get(b"anchor"))
            anchor = _text(a[0]) if a else "circle"
        p = kids.get(b"primitives")
        if p is not None:
            for prim in p.lists():
                dd = read_drawing(View(None, prim))
                if dd is not None:
                    if dd.shape == "circle" and dd.width == 0:
                        dd.filled = True  # KiCad 5 and 6: a primitive circle without width is a disc
                    prims.append(dd)
    clearance = _vals(kids.get(b"clearance"))
    net, name = _net_of(kids)
    prop = _vals(kids.get(b"property"))
    return PadData(number, pad_type, shape, place.place(local), angle, size, drill, offset,
                   _layers(kids), net, name, _uuid(kids),
                   float(rr[0]) if rr else (_PAD_DEFAULT_RRATIO if shape == "roundrect" else 0.0),
                   float(cr[0]) if cr else 0.0, corners, delta, anchor, prims,
                   _nm(clearance[0]) if clearance and _nm(clearance[0]) > 0 else None,
                   b"pad_prop_castellated" in prop,
                   _flag(node, kids, b"remove_unused_layers"), _flag(node, kids, b"keep_end_layers"))


@dataclass(slots=True)
class FootprintData:
    """A footprint's copper-relevant content in board coordinates."""

    reference: str
    uuid: str | None
    at: Point
    angle: float
    side: str  # front or back
    pads: list[PadData]
    drawings: list[DrawingData]
    local_clearance: int | None
    net_tie_pad_groups: list[list[str]]
    attributes: tuple[str, ...]
    zones: list[View]


def read_footprint(fp: Footprint) -> FootprintData:
    """A footprint's pads and drawings (every layer) in board coordinates."""
    node = fp.node
    kids = _kids(node)
    at = _vals(kids.get(b"at"))
    place = FootprintPlace((_nm(at[0]), _nm(at[1])) if len(at) >= 2 else (0, 0),
                           float(at[2]) if len(at) > 2 else 0.0)
    pads, drawings, zones = [], [], []
    for k in node.kids:
        if type(k) is not SList:
            continue
        h = k.head_bytes()
        if h == b"pad":
            pads.append(_read_pad(k, place))
        elif h.startswith(b"fp_") and h not in (b"fp_text", b"fp_text_box"):
            d = read_drawing(View(fp.doc, k), place)
            if d is not None:
                drawings.append(d)
        elif h == b"zone":
            zones.append(View(fp.doc, k))
    clearance = _vals(kids.get(b"clearance"))
    groups = [[n.strip() for n in _text(v).split(",") if n.strip()]
              for v in _vals(kids.get(b"net_tie_pad_groups"))]
    tags = _vals(kids.get(b"tags"))
    version = getattr(fp.doc, "version", None) or 0
    if not groups and tags and _text(tags[0]).lower().startswith("net tie") and version < 20221018:
        # before KiCad 7 a footprint tagged "net tie" tied all its pads together
        groups = [sorted({p.number for p in pads if p.number})]
    layer = _vals(kids.get(b"layer"))
    side = "back" if layer and _text(layer[0]).startswith("B.") else "front"
    return FootprintData(fp.reference, _uuid(kids), place.at, place.angle, side, pads, drawings,
                         _nm(clearance[0]) if clearance and _nm(clearance[0]) > 0 else None,
                         groups, tuple(_text(v) for v in _vals(kids.get(b"attr"))), zones)


# -- zones ----------------------------------------------------------------------------------


@dataclass(slots=True)
class ZoneData:
    """A zone: ``fills`` maps each copper layer to its filled polygons (lists of
    points; KiCad stores each island as one polygon, holes joined to the outline by
    zero-width cuts). ``keepout`` is None for a copper zone, else the rule area's
    flags (tracks, vias, pads, copperpour, footprints: True when not allowed).
    ``fill_thickness``: a KiCad 5 fill, whose copper reaches ``min_thickness / 2``
    beyond its polygons."""

    uuid: str | None
    net: int | None
    net_name: str | None
    layers: tuple[str, ...]
    name: str | None
    priority: int
    clearance: int
    min_thickness: int
    keepout: dict | None
    outline: list[list[Point]]
    fills: dict[str, list]  # layer -> N x 2 float arrays (nm)
    fill_thickness: bool
    teardrop: bool


def read_zone(view: View) -> ZoneData:
    node = view.node
    kids = _kids(node)
    net, name = _net_of(kids)
    if name is None:
        nn = _vals(kids.get(b"net_name"))
        name = _text(nn[0]) if nn else None
    layers = _layers(kids)
    pr = _vals(kids.get(b"priority"))
    clearance = 0
    cp = kids.get(b"connect_pads")
    if cp is not None:
        cv = _vals(_kids(cp).get(b"clearance"))
        clearance = _nm(cv[0]) if cv else 0
    mt = _vals(kids.get(b"min_thickness"))
    keepout = None
    ko = kids.get(b"keepout")
    if ko is not None:
        keepout = {}
        for rule in ko.lists():
            v = rule.atoms()
            keepout[rule.head] = bool(v) and v[0] == b"not_allowed"
    outline = []
    fills: dict[str, list] = {}
    for k in node.kids:
        if type(k) is not SList:
            continue
        h = k.head_bytes()
        if h == b"polygon":
            outline.append(_pts_nm(_kids(k).get(b"pts")))
        elif h == b"filled_polygon":
            kk = _kids(k)
            lv = _vals(kk.get(b"layer"))
            layer = _text(lv[0]) if lv else (layers[0] if layers else "")
            pts = _pts_float(kk.get(b"pts"))
            if len(pts) >= 3:
                fills.setdefault(layer, []).append(pts)
    fat = _vals(kids.get(b"filled_areas_thickness"))
    # KiCad 5 fills (no filled_areas_thickness token) were stroked with min_thickness
    thick = (fat[0] in (b"yes", b"true")) if fat else (kids.get(b"fill") is not None
                                                       and view.doc is not None
                                                       and (view.doc.version or 0) < 20200000)
    attr = kids.get(b"attr")
    teardrop = attr is not None and any(k.head == "teardrop" for k in attr.lists())
    zname = _vals(kids.get(b"name"))
    return ZoneData(_uuid(kids), net, name, layers, _text(zname[0]) if zname else None,
                    int(pr[0]) if pr else 0, clearance, _nm(mt[0]) if mt else 0, keepout,
                    outline, fills, thick and bool(fills), teardrop)


def _pts_nm(pts: SList | None) -> list[Point]:
    if pts is None:
        return []
    out = []
    for xy in pts.lists():
        if xy.head_bytes() == b"xy":
            v = xy.atoms()
            out.append((_nm(v[0]), _nm(v[1])))
        elif xy.head_bytes() == b"arc":
            ak = _kids(xy)
            out.extend(q for q in (_pt(ak.get(b"start")), _pt(ak.get(b"mid")), _pt(ak.get(b"end"))) if q)
    return out


def _pts_float(pts: SList | None):
    """Zone fill points in nm as an N x 2 float array (fills hold up to 100k points:
    converted at once, without per-point nanometre rounding)."""
    if pts is None:
        return np.zeros((0, 2))
    flat = [v for xy in pts.kids[1:] if type(xy) is SList for v in xy.kids[1:3]]
    return (np.array(flat).astype(float) * _NM).reshape(-1, 2)


# -- texts ------------------------------------------------------------------------------


@dataclass(slots=True)
class TextData:
    """Text on a layer: its anchor, angle, font size and stroke thickness, the text,
    and whether it is shown. Geometry treats it as its box (an approximation)."""

    text: str
    at: Point
    angle: float
    size: Point
    thickness: int
    layer: str
    hidden: bool
    uuid: str | None
    knockout: bool = False


def read_text(view: View, fp: FootprintPlace | None = None) -> TextData | None:
    node = view.node
    kids = _kids(node)
    vals = node.atoms()
    text = _text(vals[-1]) if vals else ""
    if node.head in ("property", "fp_text") and len(vals) >= 2:
        text = _text(vals[1])
    at = _vals(kids.get(b"at"))
    local = (_nm(at[0]), _nm(at[1])) if len(at) >= 2 else (0, 0)
    pos = fp.place(local) if fp is not None and node.head != "gr_text" else local
    eff = kids.get(b"effects")
    size, thick = (1_000_000, 1_000_000), 150_000
    hidden = _flag(node, kids, b"hide")
    if eff is not None:
        ek = _kids(eff)
        font = ek.get(b"font")
        if font is not None:
            fk = _kids(font)
            size = _pt(fk.get(b"size")) or size
            t = _vals(fk.get(b"thickness"))
            thick = _nm(t[0]) if t else thick
        hidden = hidden or _flag(eff, ek, b"hide")
    layer = _vals(kids.get(b"layer"))
    knock = layer and b"knockout" in layer[1:]
    return TextData(text, pos, float(at[2]) if len(at) > 2 else 0.0, size, thick,
                    _text(layer[0]) if layer else "", hidden, _uuid(kids), bool(knock))


def footprint_texts(fp: Footprint) -> Iterator[TextData]:
    """The footprint's texts and fields (reference, value, user fields, fp_text) in board
    coordinates."""
    kids = _kids(fp.node)
    at = _vals(kids.get(b"at"))
    place = FootprintPlace((_nm(at[0]), _nm(at[1])) if len(at) >= 2 else (0, 0),
                           float(at[2]) if len(at) > 2 else 0.0)
    for k in fp.node.kids:
        if type(k) is SList and k.head in ("property", "fp_text") and k.find("at") is not None:
            t = read_text(View(fp.doc, k), place)
            if t is not None:
                yield t


# -- design rules kept in a KiCad 5 board ----------------------------------------------------

# setup keyword -> the KiCad 9 project rule it became (values in mm)
_LEGACY_SETUP = {
    "trace_min": "min_track_width", "via_min_size": "min_via_diameter",
    "via_min_drill": "min_through_hole_diameter", "uvia_min_size": "min_microvia_diameter",
    "uvia_min_drill": "min_microvia_drill", "hole_to_hole_min": "min_hole_to_hole",
    "edge_clearance": "min_copper_edge_clearance", "min_via_annulus": "min_via_annular_width",
    "via_min_annulus": "min_via_annular_width",
}


def legacy_rules(board) -> dict:
    """Design rules from a board's ``setup`` section (KiCad 5 kept them there): the
    KiCad 9 rule names of `_LEGACY_SETUP` in mm, plus ``trace_clearance`` (the Default
    net class's clearance). Empty for KiCad 6+ boards, whose rules are in the project."""
    setup = board.root.find("setup")
    out: dict = {}
    if setup is None:
        return out
    defaults = setup.find("defaults")  # KiCad 5.99: (defaults (edge_clearance ..) ...)
    for k in list(setup.lists()) + (list(defaults.lists()) if defaults is not None else []):
        v = k.atoms()
        if not v:
            continue
        key = _LEGACY_SETUP.get(k.head)
        try:
            if key:
                out[key] = float(v[0])
            elif k.head == "trace_clearance":
                out["trace_clearance"] = float(v[0])
        except ValueError:
            continue
    return out


# -- following edits ---------------------------------------------------------------------


def item_view(board, node: SList) -> View:
    """A view of a top-level board list (footprints as `Footprint`)."""
    from .board import BoardItem

    return Footprint(board, node) if node.head in ("footprint", "module") else BoardItem(board, node)


def pending_items(board, log) -> list[View]:
    """The top-level items a `ChangeLog` of ``board`` holds, without emptying it."""
    return [item_view(board, node) for node in log.peek()]


def touched_items(board, log) -> list[tuple[View, bool]]:
    """The top-level items a `ChangeLog` of ``board`` recorded since it was last read,
    each with whether it is still on the board (False: deleted)."""
    return [(item_view(board, node), alive) for node, alive in log.take()]


def legacy_net_classes(board) -> list[dict]:
    """The net classes a KiCad 5 board keeps in its own file (``net_class`` lists):
    name, rule values in mm (clearance, trace_width, via_dia ...), ``nets``. Empty for
    KiCad 6+ boards, whose classes are in the project."""
    if board.root.find("net_class") is None:
        return []
    return board.net_classes
