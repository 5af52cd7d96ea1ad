"""How far a footprint's drawings reach: its courtyard box per side, and the box used
to lay new footprints out side by side.

Both read the footprint's own (footprint-local) coordinates, in nanometres, as stored
in a library file; line widths are not included. Drawing shapes as KiCad's footprint
format defines them (dev-docs.kicad.org/en/file-formats/sexpr-intro/#_graphic_items):
``fp_line``/``fp_rect`` start and end, ``fp_circle`` center and a point on it,
``fp_arc`` start, mid and end, ``fp_poly`` its ``pts``.
"""

from __future__ import annotations

import math

from ...sexpr import atoms
from ...sexpr.node import SList
from .footprint import Footprint

_COURTYARDS = ("F.CrtYd", "B.CrtYd")
_POINTS = ("start", "end", "center", "mid", "at")


def arc_extremes(s, m, e) -> list[tuple[float, float]]:
    """Start, mid, end and the axis extremes (0, 90, 180, 270 degrees) that the arc
    through s, m, e passes; the three points alone when they are on one line."""
    (ax, ay), (bx, by), (cx, cy) = s, m, e
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if d == 0:
        return [s, m, e]
    ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) + (cx * cx + cy * cy) * (ay - by)) / d
    uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) + (cx * cx + cy * cy) * (bx - ax)) / d
    r = math.hypot(ax - ux, ay - uy)

    def ang(p):
        return math.atan2(p[1] - uy, p[0] - ux) % (2 * math.pi)

    a0, am, a1 = ang(s), ang(m), ang(e)
    ccw = (am - a0) % (2 * math.pi) < (a1 - a0) % (2 * math.pi)
    lo, span = (a0, (a1 - a0) % (2 * math.pi)) if ccw else (a1, (a0 - a1) % (2 * math.pi))
    out = [s, m, e]
    for k in range(4):
        t = k * math.pi / 2
        if (t - lo) % (2 * math.pi) <= span:
            out.append((ux + r * math.cos(t), uy + r * math.sin(t)))
    return out


def _xy(node: SList, head: str) -> tuple[int, int] | None:
    c = node.find(head)
    vals = c.atoms() if c is not None else []
    return (atoms.to_nm(vals[0]), atoms.to_nm(vals[1])) if len(vals) >= 2 else None


def shape_points(node: SList) -> list[tuple[float, float]]:
    """Points whose box is the box of one footprint drawing (a circle's box corners,
    an arc's extremes); [] for other items."""
    head = node.head
    if head in ("fp_line", "fp_rect"):
        return [p for p in (_xy(node, "start"), _xy(node, "end")) if p]
    if head == "fp_circle":
        c, e = _xy(node, "center"), _xy(node, "end")
        if not c or not e:
            return []
        r = math.dist(c, e)
        return [(c[0] - r, c[1] - r), (c[0] + r, c[1] + r)]
    if head == "fp_arc":
        s, m, e = _xy(node, "start"), _xy(node, "mid"), _xy(node, "end")
        return arc_extremes(s, m, e) if s and m and e else []
    if head == "fp_poly":
        pts = node.find("pts")
        return [(atoms.to_nm(v[0]), atoms.to_nm(v[1]))
                for v in (xy.atoms() for xy in (pts.lists("xy") if pts is not None else ()))]
    return []


def _layer(node: SList) -> str:
    layer = node.find("layer")
    return atoms.text(layer.atoms()[0]) if layer is not None and layer.atoms() else ""


def courtyard_boxes(fp: Footprint) -> dict[str, tuple[float, float, float, float]]:
    """(x1, y1, x2, y2) nm of the courtyard outline per side (``F.CrtYd``,
    ``B.CrtYd``, the sides that have one), arcs and circles by their true extremes."""
    boxes: dict[str, list[float]] = {}
    for node in fp.node.lists():
        side = _layer(node) if node.head.startswith("fp_") else ""
        if side not in _COURTYARDS:
            continue
        for x, y in shape_points(node):
            b = boxes.setdefault(side, [x, y, x, y])
            b[0], b[1], b[2], b[3] = min(b[0], x), min(b[1], y), max(b[2], x), max(b[3], y)
    return {k: (b[0], b[1], b[2], b[3]) for k, b in boxes.items()}


def layout_box(fp: Footprint) -> tuple[int, int, int, int]:
    """(x1, y1, x2, y2) nm: the box of the front courtyard's defining points, else of
    every drawing's points and the pads (each as a square of its larger side), else
    1 mm around the origin. Used to lay footprints out without overlap."""
    def box(layers: tuple[str, ...] | None):
        xs, ys = [], []
        for k in fp.node.kids:
            if type(k) is not SList or not k.head.startswith("fp_"):
                continue
            if layers is not None and (k.find("layer") is None or _layer(k) not in layers):
                continue
            for head in _POINTS:
                p = _xy(k, head)
                if p is not None:
                    xs.append(p[0])
                    ys.append(p[1])
        return xs, ys

    xs, ys = box(("F.CrtYd",))
    if not xs:
        xs, ys = box(None)
        for pad in fp.pads:
            (x, y), size = pad.position, pad.size or (0, 0)
            r = max(size) // 2
            xs += [x - r, x + r]
            ys += [y - r, y + r]
    if not xs:
        return -500_000, -500_000, 500_000, 500_000
    return min(xs), min(ys), max(xs), max(ys)
