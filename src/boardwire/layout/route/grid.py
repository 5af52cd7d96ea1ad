"""The routing grid: nodes at ``origin + (i, j) * pitch`` on every copper layer, and
the rasterisation of shapes onto it.

A node is blocked for a track centre when the track, drawn there, would come closer
to an obstacle than the clearance: every obstacle is grown by half the track width
plus the clearance plus a margin, and the nodes inside are marked. The margin covers
what a grid cannot see: a straight or diagonal step between two free nodes can cut
into a grown (convex-cornered, radius >= R) shape by at most ``pitch**2 / (4 R)``,
and shapely's polygons of round corners lie inside the true curve by ``R (1 -
cos(pi / 64))``. Every emitted segment is checked exactly afterwards anyway
(`boardwire.layout.route.verify`).
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from . import maze

SAFETY = 10_000  # nm every clearance is kept by, beyond the rule (shape approximations)
QUAD_SEGS = 16
STEP, DIAG = 100, 141  # search cost of a straight and a diagonal step of one pitch


class Grid:
    def __init__(self, bounds: tuple[int, int, int, int], pitch: int, origin: tuple[int, int],
                 layers: int):
        self.pitch = pitch
        minx, miny, maxx, maxy = bounds
        # the origin moved to just below the bounds, keeping its phase
        ox, oy = origin
        self.ox = ox - math.ceil((ox - minx) / pitch) * pitch
        self.oy = oy - math.ceil((oy - miny) / pitch) * pitch
        self.W = int((maxx - self.ox) // pitch) + 2
        self.H = int((maxy - self.oy) // pitch) + 2
        self.L = layers
        self.C = self.W * self.H
        self.N = self.C * layers

    # -- coordinates -----------------------------------------------------------------

    def point(self, n: int) -> tuple[int, int, int]:
        """(layer, x nm, y nm) of node n."""
        layer, cell = divmod(n, self.C)
        y, x = divmod(cell, self.W)
        return layer, self.ox + x * self.pitch, self.oy + y * self.pitch

    def node(self, layer: int, ix: int, iy: int) -> int:
        return (layer * self.H + iy) * self.W + ix

    def gx(self, x: float) -> float:
        return (x - self.ox) / self.pitch

    def gy(self, y: float) -> float:
        return (y - self.oy) / self.pitch

    def margin(self, radius: float) -> float:
        """The extra keep-away (nm) for a grown shape of corner radius ``radius``."""
        r = max(radius, self.pitch / 2)
        return self.pitch ** 2 / (4 * r) + r * (1 - math.cos(math.pi / (4 * QUAD_SEGS))) + SAFETY

    # -- rasterisation ---------------------------------------------------------------

    def cells_in(self, geom) -> tuple[np.ndarray, np.ndarray]:
        """(iy, ix) of the nodes strictly inside a polygon or multipolygon (even-odd
        over all its rings: holes are outside), by scanlines."""
        if geom is None or geom.is_empty:
            return np.empty(0, int), np.empty(0, int)
        minx, miny, maxx, maxy = geom.bounds
        y0 = max(0, math.ceil(self.gy(miny)))
        y1 = min(self.H - 1, math.floor(self.gy(maxy)))
        if y1 < y0:
            return np.empty(0, int), np.empty(0, int)
        rings = shapely.get_rings(geom)
        segs = []
        for ring in rings:
            c = shapely.get_coordinates(ring)
            segs.append(np.hstack([c[:-1], c[1:]]))
        e = np.vstack(segs)
        ex0, ey0 = self.gx(e[:, 0]), self.gy(e[:, 1])
        ex1, ey1 = self.gx(e[:, 2]), self.gy(e[:, 3])
        rows = np.arange(y0, y1 + 1, dtype=float)
        lo, hi = np.minimum(ey0, ey1), np.maximum(ey0, ey1)
        ys_out, xs_out = [], []
        # edges crossing each row (half-open in y so vertices count once)
        cross = (lo[None, :] <= rows[:, None]) & (hi[None, :] > rows[:, None])
        for k in np.flatnonzero(cross.any(axis=1)):
            idx = np.flatnonzero(cross[k])
            r = rows[k]
            t = (r - ey0[idx]) / (ey1[idx] - ey0[idx])
            xs = np.sort(ex0[idx] + t * (ex1[idx] - ex0[idx]))
            for a, b in zip(xs[0::2], xs[1::2]):
                ia, ib = max(0, math.floor(a) + 1), min(self.W - 1, math.ceil(b) - 1)
                if ib >= ia:
                    xs_out.append(np.arange(ia, ib + 1))
                    ys_out.append(np.full(ib - ia + 1, int(r)))
        if not xs_out:
            return np.empty(0, int), np.empty(0, int)
        return np.concatenate(ys_out), np.concatenate(xs_out)

    def stamp_capsules(self, grid2d: np.ndarray, caps: np.ndarray, values: np.ndarray, mode: int) -> None:
        """Stamp capsules ``caps`` (rows x0, y0, x1, y1, r in nm) into one layer's grid:
        mode 0 owner (0 -> value, another owner -> -1), 1 add, 2 set."""
        if len(caps) == 0:
            return
        g = np.empty((len(caps), 5), dtype=np.float64)
        g[:, 0] = self.gx(caps[:, 0])
        g[:, 1] = self.gy(caps[:, 1])
        g[:, 2] = self.gx(caps[:, 2])
        g[:, 3] = self.gy(caps[:, 3])
        g[:, 4] = caps[:, 4] / self.pitch
        maze.stamp(grid2d, self.H, self.W, np.ascontiguousarray(g),
                   np.ascontiguousarray(values, dtype=np.int32), mode)


def owner_merge(grid2d: np.ndarray, iy: np.ndarray, ix: np.ndarray, value: int) -> None:
    """Mark cells as kept for net ``value`` (-1: for none): a cell another net already
    holds becomes -1."""
    if len(iy) == 0:
        return
    cur = grid2d[iy, ix]
    grid2d[iy, ix] = np.where((cur == 0) | (cur == value), value, -1)


def capsules_of(geom) -> np.ndarray | None:
    """A Point or a two-point LineString as capsule rows (x0, y0, x1, y1) in nm, or None
    when the shape is something else."""
    t = shapely.get_type_id(geom)
    if t == 0:  # Point
        x, y = geom.x, geom.y
        return np.array([[x, y, x, y]])
    if t == 1:  # LineString
        c = shapely.get_coordinates(geom)
        return np.hstack([c[:-1], c[1:]])
    return None
