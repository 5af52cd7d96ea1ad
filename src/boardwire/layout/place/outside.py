"""How much of a box lies outside the placement region, in constant time.

The annealer works on boxes, but a region need not be a rectangle (a USB stick's
tongue, rounded or cut corners, a board edge with notches): the region is rasterised
once on square cells (`CELLS` along its longer side; a cell counts as outside when
its centre is, shapely's ``contains_xy``) into a summed-area table, so the cells of any
box outside the region are four look-ups.
"""

from __future__ import annotations

import numpy as np
import shapely

CELLS = 400


class Outside:
    """``region``: a shapely polygon in mm. `area(box)` gives the area (mm²) of box
    (x1, y1, x2, y2 mm) outside the region: what leaves the region's bounding box
    exactly, what lies inside that box but outside the polygon to the cell."""

    def __init__(self, region):
        x1, y1, x2, y2 = region.bounds
        self.bounds = (x1, y1, x2, y2)
        self.cell = max(x2 - x1, y2 - y1, 1e-6) / CELLS
        nx = max(1, int(np.ceil((x2 - x1) / self.cell)))
        ny = max(1, int(np.ceil((y2 - y1) / self.cell)))
        cx = x1 + (np.arange(nx) + 0.5) * self.cell
        cy = y1 + (np.arange(ny) + 0.5) * self.cell
        xx, yy = np.meshgrid(cx, cy)
        out = ~shapely.contains_xy(region, xx, yy)
        self.table = np.zeros((ny + 1, nx + 1))
        self.table[1:, 1:] = out.cumsum(axis=0).cumsum(axis=1)
        self.n = (nx, ny)

    def area(self, box) -> float:
        x1, y1, x2, y2 = self.bounds
        bx1, by1, bx2, by2 = box
        w, h = bx2 - bx1, by2 - by1
        inside = max(0.0, min(bx2, x2) - max(bx1, x1)) * max(0.0, min(by2, y2) - max(by1, y1))
        nx, ny = self.n
        i1 = min(max(int(round((bx1 - x1) / self.cell)), 0), nx)
        i2 = min(max(int(round((bx2 - x1) / self.cell)), 0), nx)
        j1 = min(max(int(round((by1 - y1) / self.cell)), 0), ny)
        j2 = min(max(int(round((by2 - y1) / self.cell)), 0), ny)
        t = self.table
        cells = t[j2, i2] - t[j1, i2] - t[j2, i1] + t[j1, i1] if i2 > i1 and j2 > j1 else 0.0
        return float(w * h - inside + cells * self.cell ** 2)
