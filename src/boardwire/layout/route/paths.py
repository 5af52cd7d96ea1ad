"""Between copper and the grid: the nodes a route may start or end on, and a found
path turned back into tracks and vias.

A pad is reached at any grid node inside its copper (a track end anywhere on a pad
connects to it, as in KiCad's connectivity). A pad too small to hold a node is
reached through a stub: from the pad's centre, one axis-parallel leg, then another,
to a node nearby, each leg checked exactly. Tracks are reached on their centre line,
vias anywhere inside their copper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from shapely.geometry import Point

from .grid import Grid
from .problem import Piece
from .verify import point_seg_dist

INSIDE = 2_000  # nm: a track end this far inside copper counts as on it


@dataclass
class Access:
    """Nodes of one cluster: where a route may start or end, what reaching each costs,
    and the stub (points from the copper to the node) for the nodes that need one."""

    nodes: np.ndarray
    costs: np.ndarray
    stubs: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    anchors: list[tuple[int, int]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


def disc_cells(grid: Grid, x: float, y: float, r: float) -> tuple[np.ndarray, np.ndarray]:
    return capsule_cells(grid, x, y, x, y, r)


def capsule_cells(grid: Grid, x0, y0, x1, y1, r) -> tuple[np.ndarray, np.ndarray]:
    """(iy, ix) of nodes closer than r to the segment (nm)."""
    gx0, gy0, gx1, gy1, gr = grid.gx(x0), grid.gy(y0), grid.gx(x1), grid.gy(y1), r / grid.pitch
    ix0 = max(0, math.floor(min(gx0, gx1) - gr))
    ix1 = min(grid.W - 1, math.ceil(max(gx0, gx1) + gr))
    iy0 = max(0, math.floor(min(gy0, gy1) - gr))
    iy1 = min(grid.H - 1, math.ceil(max(gy0, gy1) + gr))
    if ix1 < ix0 or iy1 < iy0:
        return np.empty(0, int), np.empty(0, int)
    ys, xs = np.mgrid[iy0:iy1 + 1, ix0:ix1 + 1]
    dx, dy = gx1 - gx0, gy1 - gy0
    l2 = dx * dx + dy * dy
    px, py = xs - gx0, ys - gy0
    t = np.clip((px * dx + py * dy) / l2, 0, 1) if l2 else 0.0
    ex, ey = px - t * dx, py - t * dy
    inside = ex * ex + ey * ey < gr * gr
    return ys[inside], xs[inside]


JOINT = 1_000  # nm: a route end this close to a track's end meets it there


def split_at_tee(items: list, end: tuple[int, int], layer: int, width: float, pitch: int) -> list:
    """``items`` with the track a route ended on (``end``, on ``layer``, inside its
    copper away from its ends) cut in two at its point nearest ``end`` (a T junction,
    as KiCad's own router leaves one). KiCad's dangling test counts each track a
    segment touches at both ends for the end nearer one of that track's *ends*: a
    short last segment into the middle of a long track is then dangling unless the
    long track has an end right there. The cut keeps 0/45/90 degrees: it lies a whole
    number of ``pitch`` steps along the track (``pitch`` in nm)."""
    best = None
    for k, (kind, geom, lay) in enumerate(items):
        if kind != "track" or lay != layer:
            continue
        a, b = geom
        if min(math.dist(a, end), math.dist(b, end)) <= JOINT:
            return items  # the route ends at a joint already (near one is not enough:
            # the track would count for the route's other end if that is nearer still)
        d = point_seg_dist(end, a, b)
        if d <= width / 2 and (best is None or d < best[0]):
            best = (d, k)
    if best is None:
        return items
    kind, (a, b), lay = items[best[1]]
    dx, dy = b[0] - a[0], b[1] - a[1]
    ux, uy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)  # a whole-nm step along the track
    steps = max(abs(dx), abs(dy)) // pitch
    t = ((end[0] - a[0]) * ux + (end[1] - a[1]) * uy) / ((ux * ux + uy * uy) * pitch)
    n = min(max(int(round(t)), 1), steps - 1) if steps >= 2 else 0
    if not n or (dx and dy and abs(dx) != abs(dy)):
        return items
    cut = (a[0] + n * pitch * ux, a[1] + n * pitch * uy)
    return items[:best[1]] + [(kind, (a, cut), lay), (kind, (cut, b), lay)] + items[best[1] + 1:]


def stub_options(c: tuple[int, int], g: tuple[int, int]) -> list[list[tuple[int, int]]]:
    """Polylines from pad centre c to node g at 0/45/90 degrees: straight when aligned,
    else axis-then-axis and diagonal-then-axis."""
    (cx, cy), (gx, gy) = c, g
    dx, dy = gx - cx, gy - cy
    if dx == 0 or dy == 0 or abs(dx) == abs(dy):
        return [[c, g]]
    out = [[c, (gx, cy), g], [c, (cx, gy), g]]
    m = min(abs(dx), abs(dy))
    sx, sy = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
    out.append([c, (cx + sx * m, cy + sy * m), g])
    out.append([c, (gx - sx * m, gy - sy * m), g])
    return [[p for i, p in enumerate(o) if i == 0 or p != o[i - 1]] for o in out]


def polyline_length(pts) -> float:
    return sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))


def simplify(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Drop repeated points and the middle of collinear runs."""
    out: list[tuple[int, int]] = []
    for p in points:
        if out and p == out[-1]:
            continue
        if len(out) >= 2:
            (ax, ay), (bx, by) = out[-2], out[-1]
            if (bx - ax) * (p[1] - by) - (by - ay) * (p[0] - bx) == 0 and \
                    (bx - ax) * (p[0] - bx) + (by - ay) * (p[1] - by) > 0:
                out[-1] = p
                continue
        out.append(p)
    return out


def path_geometry(grid: Grid, path: list[int], start_stub, end_stub):
    """Layer runs [(layer, points)] and via positions of a grid path, stubs added."""
    runs: list[tuple[int, list]] = []
    vias: list[tuple[int, int]] = []
    for n in path:
        layer, x, y = grid.point(n)
        if runs and runs[-1][0] != layer:
            vias.append((x, y))
        if not runs or runs[-1][0] != layer:
            runs.append((layer, []))
        runs[-1][1].append((x, y))
    if start_stub:
        runs[0] = (runs[0][0], list(start_stub) + runs[0][1])
    if end_stub:
        runs[-1] = (runs[-1][0], runs[-1][1] + list(reversed(end_stub)))
    return [(layer, simplify(pts)) for layer, pts in runs], vias


def _stub_origins(piece: Piece) -> list[tuple[int, int]]:
    """Where on a pad a stub may start: its centre, then just inside the middle of each
    side (a track too wide to end at the centre of a pad beside another may still end
    at its far edge)."""
    cx, cy = piece.at
    x0, y0, x1, y1 = piece.shape.bounds
    inset = INSIDE + 3_000
    out = [(cx, cy)]
    for p in ((int(x0 + inset), cy), (int(x1 - inset), cy), (cx, int(y0 + inset)), (cx, int(y1 - inset))):
        if piece.shape.contains(Point(p)):
            out.append(p)
    return out


def piece_access(grid: Grid, piece: Piece, layers: set[int], free, checker_ok, step: int) -> Access:
    """The access nodes of one piece on the routable ``layers``. ``free(layer, iy, ix)``
    says which nodes the net may use; ``checker_ok(points, layer)`` checks a stub."""
    nodes, costs, stubs = [], [], {}
    on = [layer for layer in piece.layers if layer in layers]
    if piece.kind == "plane":  # reached by a via only (the layer is not routed on)
        for layer in piece.layers:
            iy, ix = grid.cells_in(piece.shape)
            nodes.append(grid.node(layer, 0, 0) + iy * grid.W + ix)
            costs.append(np.zeros(len(iy), dtype=np.int32))
    elif piece.kind == "pad":
        for layer in on:
            iy, ix = grid.cells_in(piece.shape.buffer(-INSIDE))
            ok = free(layer, iy, ix)
            if ok.any():
                nodes.append(grid.node(layer, 0, 0) + iy[ok] * grid.W + ix[ok])
                costs.append(np.zeros(int(ok.sum()), dtype=np.int32))
            if ok.sum() >= 2:
                continue
            for origin in _stub_origins(piece):
                found = 0
                cx, cy = origin
                iy, ix = disc_cells(grid, cx, cy, 2.5 * grid.pitch)
                okn = free(layer, iy, ix)
                cands = sorted(zip(iy[okn], ix[okn]), key=lambda q: math.dist(
                    (cx, cy), (grid.ox + q[1] * grid.pitch, grid.oy + q[0] * grid.pitch)))
                for qy, qx in cands:
                    g = (grid.ox + int(qx) * grid.pitch, grid.oy + int(qy) * grid.pitch)
                    n = grid.node(layer, int(qx), int(qy))
                    if n in stubs:
                        continue
                    for pts in stub_options((cx, cy), g):
                        if checker_ok(pts, layer):
                            stubs[n] = pts
                            nodes.append(np.array([n]))
                            costs.append(np.array([int(polyline_length(pts) / grid.pitch * step)], dtype=np.int32))
                            found += 1
                            break
                    if found >= 4:
                        break
    elif piece.kind in ("track", "via"):
        if piece.kind == "track":
            (x0, y0), (x1, y1) = list(piece.shape.coords)[0], list(piece.shape.coords)[-1]
        else:
            (x0, y0) = (x1, y1) = piece.at
        r = max(piece.width / 2 - INSIDE, grid.pitch * 0.01)
        for layer in on:
            iy, ix = capsule_cells(grid, x0, y0, x1, y1, r)
            ok = free(layer, iy, ix)
            if ok.any():
                nodes.append(grid.node(layer, 0, 0) + iy[ok] * grid.W + ix[ok])
                costs.append(np.zeros(int(ok.sum()), dtype=np.int32))
    if not nodes:
        return Access(np.empty(0, np.int32), np.empty(0, np.int32))
    return Access(np.concatenate(nodes).astype(np.int32), np.concatenate(costs).astype(np.int32), stubs)
