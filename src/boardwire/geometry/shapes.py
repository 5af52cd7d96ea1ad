"""Copper shapes as a *core* and a *radius*.

Every copper shape KiCad draws is a core geometry swept by a disc: a track is its
centre line and half its width, a via or a round pad a point and a radius, an oval pad
a segment, a rounded rectangle its inner rectangle and the corner radius, a polygon
itself with radius 0. The distance between two shapes is then exactly
``distance(core_a, core_b) - radius_a - radius_b`` (0 when they touch or overlap),
which shapely computes on whole arrays at once, without the error of turning round
ends into polygons.

Units: nanometres (floats), degrees. Rotation follows KiCad's ``RotatePoint`` (y down,
positive angles turn counter-clockwise on screen). Pad shapes follow KiCad 9's
``PAD::BuildEffectiveShapes`` (pcbnew/pad.cpp): circle, oval, rect, roundrect
(radius = ratio * smaller side), chamfered_rect (chamfer = ratio * smaller side on the
listed corners, rounded corners as well when a radius ratio is set), trapezoid (corners
moved by half the ``rect_delta``), custom (anchor pad plus primitives).
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPolygon, Point, Polygon

from ..documents.board.footprint_shapes import PadData
from ..documents.board.shapes import DrawingData

# Largest distance between a true arc and the chords that stand for it (nm): below
# KiCad's DRC epsilon (0.5 um) so the approximation never decides a violation.
ARC_ERROR = 250.0
# Quarter-circle segments of rounded corners built as polygons (custom pad strokes).
QUAD_SEGS = 16


def rotate(xy: np.ndarray, degrees: float) -> np.ndarray:
    """Rotate points (N x 2) about the origin as KiCad's RotatePoint does."""
    if not degrees % 360:
        return xy
    r = math.radians(degrees)
    c, s = math.cos(r), math.sin(r)
    x, y = xy[:, 0], xy[:, 1]
    return np.column_stack((x * c + y * s, -x * s + y * c))


def place(xy, at, degrees: float) -> np.ndarray:
    """Points in a frame turned by ``degrees`` and anchored at ``at``, in board axes."""
    pts = rotate(np.asarray(xy, dtype=float).reshape(-1, 2), degrees)
    return pts + np.asarray(at, dtype=float)


def arc_centre(start, mid, end) -> tuple[float, float, float] | None:
    """Centre (x, y) and radius of the circle through three points; None if they are
    on one line."""
    (ax, ay), (bx, by), (cx, cy) = start, mid, end
    d = 2.0 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if not d:
        return None
    a2, b2, c2 = ax * ax + ay * ay, bx * bx + by * by, cx * cx + cy * cy
    ux = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d
    uy = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d
    return ux, uy, math.hypot(ax - ux, ay - uy)


def arc_points(start, mid, end, error: float = ARC_ERROR) -> np.ndarray:
    """Points along the arc from ``start`` through ``mid`` to ``end`` whose chords stay
    within ``error`` nm of it (N x 2, first and last exactly the ends)."""
    c = arc_centre(start, mid, end)
    if c is None:
        return np.array([start, end], dtype=float)
    ux, uy, r = c
    a0 = math.atan2(start[1] - uy, start[0] - ux)
    a1 = math.atan2(end[1] - uy, end[0] - ux)
    am = math.atan2(mid[1] - uy, mid[0] - ux)
    sweep = (a1 - a0) % (2 * math.pi)
    if (am - a0) % (2 * math.pi) > sweep:  # the arc runs the other way round
        sweep -= 2 * math.pi
    step = 2 * math.acos(max(-1.0, 1 - error / r)) if r > error else math.pi / 2
    n = max(2, math.ceil(abs(sweep) / max(step, 1e-6)))
    t = a0 + sweep * np.linspace(0.0, 1.0, n + 1)
    pts = np.column_stack((ux + r * np.cos(t), uy + r * np.sin(t)))
    pts[0], pts[-1] = start, end
    return pts


def circle_points(centre, r: float, error: float = ARC_ERROR) -> np.ndarray:
    """A closed ring of points on a circle (chords within ``error``)."""
    step = 2 * math.acos(max(-1.0, 1 - error / r)) if r > error else math.pi / 2
    n = max(8, math.ceil(2 * math.pi / max(step, 1e-6)))
    t = np.linspace(0.0, 2 * math.pi, n + 1)
    return np.column_stack((centre[0] + r * np.cos(t), centre[1] + r * np.sin(t)))


def segment(a, b):
    """A centre line: a point when both ends coincide."""
    if a[0] == b[0] and a[1] == b[1]:
        return Point(a)
    return LineString([a, b])


# -- pads ---------------------------------------------------------------------------------


def _box(w: float, h: float) -> np.ndarray:
    return np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)])


def _chamfered(w: float, h: float, c: float, corners: frozenset, r: float = 0.0) -> np.ndarray:
    """A w x h rectangle (pad frame, y down: top is -y) whose listed corners are cut by
    ``c`` along both edges and whose other corners are rounded with radius ``r``
    (KiCad's chamfered_rect: the cuts stay sharp)."""
    x, y = w / 2, h / 2
    r = min(r, x, y)
    spec = (("top_left", (-x, -y), (-x, -y + c), (-x + c, -y), (-x + r, -y + r), math.pi),
            ("top_right", (x, -y), (x - c, -y), (x, -y + c), (x - r, -y + r), 1.5 * math.pi),
            ("bottom_right", (x, y), (x, y - c), (x - c, y), (x - r, y - r), 0.0),
            ("bottom_left", (-x, y), (-x + c, y), (-x, y - c), (-x + r, y - r), 0.5 * math.pi))
    pts: list = []
    for name, corner, enter, leave, centre, t0 in spec:
        if name in corners and c > 0:
            pts.extend((enter, leave))
        elif r > 0:
            step = 2 * math.acos(max(-1.0, 1 - ARC_ERROR / r)) if r > ARC_ERROR else math.pi / 2
            n = max(2, math.ceil((math.pi / 2) / max(step, 1e-6)))
            t = t0 + (math.pi / 2) * np.linspace(0.0, 1.0, n + 1)
            pts.extend(zip(centre[0] + r * np.cos(t), centre[1] + r * np.sin(t)))
        else:
            pts.append(corner)
    return np.array(pts, dtype=float)


def pad_shape_name(pad: PadData) -> str:
    """The shape KiCad gives a pad: a roundrect with chamfered corners is KiCad's
    chamfered_rect (its file writes it as roundrect plus ``chamfer``)."""
    if pad.shape == "roundrect" and pad.chamfer and pad.chamfer_ratio > 0:
        return "chamfered_rect"
    return pad.shape


def _local_pad(pad: PadData, size=None, shape=None):
    """The pad's copper in its own frame, centred on its shape centre: (core, r)."""
    w, h = (size or pad.size)
    shape = shape or pad_shape_name(pad)
    if shape == "circle":
        return Point(0.0, 0.0), w / 2
    if shape == "oval":
        if w == h:
            return Point(0.0, 0.0), w / 2
        if w > h:
            return LineString([(-(w - h) / 2, 0.0), ((w - h) / 2, 0.0)]), h / 2
        return LineString([(0.0, -(h - w) / 2), (0.0, (h - w) / 2)]), w / 2
    if shape == "roundrect":
        r = pad.roundrect_rratio * min(w, h)
        return _rounded_box(w, h, r)
    if shape == "chamfered_rect":
        c = pad.chamfer_ratio * min(w, h)
        r = pad.roundrect_rratio * min(w, h)
        return Polygon(_chamfered(w, h, c, pad.chamfer, r)), 0.0
    if shape == "trapezoid":
        dx, dy = pad.rect_delta[0] / 2, pad.rect_delta[1] / 2
        hx, hy = w / 2, h / 2
        # KiCad's corners (pad frame, y down): delta.x narrows the left/right edges,
        # delta.y the top/bottom ones
        pts = [(-hx - dy, hy + dx), (hx + dy, hy - dx), (hx - dy, -hy + dx), (-hx + dy, -hy - dx)]
        return Polygon(pts), 0.0
    return Polygon(_box(w, h)), 0.0


def _rounded_box(w: float, h: float, r: float):
    r = min(r, w / 2, h / 2)
    iw, ih = w - 2 * r, h - 2 * r
    if r <= 0:
        return Polygon(_box(w, h)), 0.0
    if iw <= 0 and ih <= 0:
        return Point(0.0, 0.0), r
    if iw <= 0:
        return LineString([(0.0, -ih / 2), (0.0, ih / 2)]), r
    if ih <= 0:
        return LineString([(-iw / 2, 0.0), (iw / 2, 0.0)]), r
    return Polygon(_box(iw, ih)), r


def _transform(geom, pad: PadData):
    """Pad-frame geometry (about the shape centre) into board coordinates."""
    off = rotate(np.array([pad.offset], dtype=float), pad.angle)[0]
    cx, cy = pad.at[0] + off[0], pad.at[1] + off[1]
    a = pad.angle % 360
    if not a:
        return shapely.transform(geom, lambda xy: xy + (cx, cy))
    return shapely.transform(geom, lambda xy: rotate(xy, a) + (cx, cy))


def pad_copper(pad: PadData):
    """A pad's copper in board coordinates: (core, radius)."""
    if pad.shape == "custom":
        return _transform(custom_pad(pad), pad), 0.0
    core, r = _local_pad(pad)
    return _transform(core, pad), r


def pad_coppers(pads: list[PadData]) -> list:
    """`pad_copper` of many pads (one footprint's), each pad definition's shape made
    once and placed for all its pads in one vectorised call: a list of (core, radius),
    None for a pad left to `pad_copper` (custom shapes, zero sizes). The coordinates
    are those `pad_copper` gives, to the bit."""
    out: list = [None] * len(pads)
    groups: dict[tuple, list[int]] = {}
    for k, pad in enumerate(pads):
        if pad.shape == "custom" or pad.size[0] <= 0 or pad.size[1] <= 0:
            continue
        key = (pad_shape_name(pad), pad.size, pad.roundrect_rratio, pad.chamfer_ratio, pad.chamfer,
               pad.rect_delta, pad.angle, pad.offset)
        groups.setdefault(key, []).append(k)
    for ks in groups.values():
        first = pads[ks[0]]
        core, r = _local_pad(first)
        kind = core.geom_type
        if kind not in ("Point", "LineString", "Polygon") or (kind == "Polygon" and core.interiors):
            continue
        local = rotate(shapely.get_coordinates(core), first.angle % 360)  # as `_transform`
        off = rotate(np.array([first.offset], dtype=float), first.angle)[0]
        centres = np.array([(pads[k].at[0] + off[0], pads[k].at[1] + off[1]) for k in ks], dtype=float)
        xy = local[None, :, :] + centres[:, None, :]
        if kind == "Point":
            made = shapely.points(xy[:, 0, :])
        elif kind == "LineString":
            made = shapely.linestrings(xy)
        else:
            made = shapely.polygons(xy)
        for k, g in zip(ks, made):
            out[k] = (g, r)
    return out


def custom_pad(pad: PadData):
    """A custom pad's anchor and primitives as one polygon (pad frame)."""
    anchor, r = _local_pad(pad, shape="rect" if pad.anchor == "rect" else "circle")
    parts = [anchor.buffer(r, quad_segs=QUAD_SEGS) if r else anchor]
    for prim in pad.primitives:
        g = drawing_area(prim)
        if g is not None and not g.is_empty:
            parts.append(g)
    merged = shapely.union_all(parts)
    return merged


def pad_hole(pad: PadData):
    """A pad's hole (core, radius) in board coordinates, or None. Oval holes are a
    segment along the longer side (KiCad's ``GetEffectiveHoleShape``)."""
    if not pad.drill:
        return None
    dx, dy = pad.drill
    if dx == dy:
        return Point(pad.at), dx / 2
    if dx > dy:
        local = np.array([(-(dx - dy) / 2, 0.0), ((dx - dy) / 2, 0.0)])
    else:
        local = np.array([(0.0, -(dy - dx) / 2), (0.0, (dy - dx) / 2)])
    pts = place(local, pad.at, pad.angle)
    return LineString(pts), min(dx, dy) / 2


# -- drawings -------------------------------------------------------------------------------


def drawing_line(d: DrawingData):
    """The centre line of a drawing's stroke (LineString / MultiLineString), or None."""
    p = d.points
    if d.shape == "segment":
        return segment(p[0], p[1])
    if d.shape == "arc":
        return LineString(arc_points(*p[:3]))
    if d.shape == "circle":
        r = math.dist(p[0], p[1])
        return LineString(circle_points(p[0], r)) if r > 0 else Point(p[0])
    if d.shape == "rect":
        (x0, y0), (x1, y1) = p[0], p[1]
        return LineString([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])
    if d.shape == "poly":
        if len(p) < 2:
            return None
        return LineString(list(p) + [p[0]])
    if d.shape == "bezier":
        return LineString(bezier_points(p)) if len(p) == 4 else None
    return None


def drawing_fill(d: DrawingData):
    """The filled inside of a drawing (Polygon) when it is filled, else None."""
    if not d.filled:
        return None
    p = d.points
    if d.shape == "circle":
        r = math.dist(p[0], p[1])
        return Polygon(circle_points(p[0], r)) if r > 0 else None
    if d.shape == "rect":
        (x0, y0), (x1, y1) = p[0], p[1]
        return Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    if d.shape == "poly" and len(p) >= 3:
        return Polygon(p)
    return None


def drawing_copper(d: DrawingData):
    """A drawing as copper: (core, radius) — its fill (if any) and stroke centre line
    swept by half the stroke width."""
    fill = drawing_fill(d)
    line = drawing_line(d)
    if fill is not None:
        return fill, d.width / 2
    return line, d.width / 2


def drawing_area(d: DrawingData):
    """A drawing as a polygon (custom pad primitives): fill plus stroke."""
    core, r = drawing_copper(d)
    if core is None:
        return None
    if r > 0:
        return core.buffer(r, quad_segs=QUAD_SEGS)
    return core if isinstance(core, (Polygon, MultiPolygon)) else None


def bezier_points(p, n: int = 32) -> np.ndarray:
    t = np.linspace(0.0, 1.0, n + 1)[:, None]
    p0, p1, p2, p3 = (np.asarray(q, dtype=float) for q in p)
    return ((1 - t) ** 3) * p0 + 3 * ((1 - t) ** 2) * t * p1 + 3 * (1 - t) * t * t * p2 + t ** 3 * p3


def fill_polygons(rings: list) -> object:
    """Zone fill polygons (lists of points, as KiCad stores them: fractured, holes
    joined to the outline by zero-width cuts) as one (Multi)Polygon. Fractured rings
    are kept as they are: GEOS distances stay right off the cuts, and repairing fills of
    100k points would cost seconds."""
    polys = [shapely.polygons(np.asarray(r, dtype=float)) for r in rings if len(r) >= 3]
    if not polys:
        return None
    return polys[0] if len(polys) == 1 else MultiPolygon(polys)
