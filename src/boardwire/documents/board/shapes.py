"""The shapes of a board's items as plain data, for geometry and design-rule checks.

What KiCad's board file stores about copper, holes, outlines and courtyards, read into
small records in board coordinates (integer nanometres, degrees; KiCad's axes, y down):

* `read_track` / `read_via`: tracks, arcs and vias (``segment``, ``arc``, ``via``).
* footprints and their pads: `footprint_shapes.read_footprint`.
* `read_drawing`: a board drawing (``gr_line``, ``gr_arc`` ... and ``fp_*`` inside a
  footprint): segment, arc, circle, rect, polygon, bezier, with stroke width and fill.
* `read_zone`: a zone's layers, net, priority, clearance, minimum width, keep-out
  flags, outline and filled polygons per layer.
* `pending_items` / `touched_items`: the top-level items a change log recorded.

Sources: KiCad's "Board File Format" and "Footprint Library File Format" pages and the
format history in `versions`. Arcs written before KiCad 6 (``(start centre) (end
point) (angle degrees)``) are turned into start, mid and end points as KiCad 6 does on
load.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...sexpr import atoms
from ...sexpr.node import SList
from ..units import rotate
from ..versions import STROKED_FILLS_BEFORE, zone_fill_stroked
from ..views import Point, View
from .footprint import Footprint

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


_LAYER_NAMES: dict[tuple, tuple[str, ...]] = {}  # atoms -> names: boards repeat a few lists


def _layers(kids: dict[bytes, SList]) -> tuple[str, ...]:
    v = tuple(_vals(kids.get(b"layers")) or _vals(kids.get(b"layer")))
    names = _LAYER_NAMES.get(v)
    if names is None:
        names = tuple(_text(a) for a in v)
        if len(_LAYER_NAMES) < 4096:
            _LAYER_NAMES[v] = names
    return names


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
    thick = zone_fill_stroked(view.doc.version if view.doc is not None else STROKED_FILLS_BEFORE,
                              fat[0] if fat else None, kids.get(b"fill") is not None)
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


# -- following edits ---------------------------------------------------------------------


def item_view(board, node: SList) -> View:
    """A view of a top-level board list (footprints as `Footprint`)."""
    from . import BoardItem

    return Footprint(board, node) if node.head in ("footprint", "module") else BoardItem(board, node)


def pending_items(board, log) -> list[View]:
    """The top-level items a `ChangeLog` of ``board`` holds, without emptying it."""
    return [item_view(board, node) for node in log.peek()]


def touched_items(board, log) -> list[tuple[View, bool]]:
    """The top-level items a `ChangeLog` of ``board`` recorded since it was last read,
    each with whether it is still on the board (False: deleted)."""
    return [(item_view(board, node), alive) for node, alive in log.take()]
