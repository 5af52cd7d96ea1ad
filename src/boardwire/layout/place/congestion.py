"""Routing congestion while annealing: RUDY kept up to date move by move.

RUDY (Spindler and Johannes, "Fast and accurate routing demand estimation", DATE
2007): each net spreads its wire length (here its weighted half-perimeter) evenly over
the bins its bounding box covers. A bin holds ``layers * size² / pitch`` mm of track
(``size`` mm square, one track per ``pitch`` mm on each copper layer) times `USABLE`
(pads, vias and turns take the rest). The overflow is the demand above capacity
summed over the bins, in mm of track that has no room: the annealer adds it to its
cost, so nets spread out of crowded spots and parts make room for the tracks between
them. `score.score` judges a finished placement with the same model on pad centres.
"""

from __future__ import annotations

import numpy as np

USABLE = 0.5
BINS = 32


class Congestion:
    """The demand grid over ``region`` (x1, y1, x2, y2 mm), ``BINS`` bins along its
    longer side. A net's share is a `rect` (bin rows, bin columns, mm per bin) that
    `add` puts on the grid (sign 1) or takes off (sign -1)."""

    def __init__(self, region: tuple[float, float, float, float], layers: int, pitch: float):
        x1, y1, x2, y2 = region
        self.x0, self.y0 = x1, y1
        self.size = max(x2 - x1, y2 - y1, 1e-6) / BINS
        self.nx = int(np.ceil((x2 - x1) / self.size)) + 1
        self.ny = int(np.ceil((y2 - y1) / self.size)) + 1
        self.capacity = max(1, layers) * self.size ** 2 / pitch * USABLE
        self.demand = np.zeros((self.ny, self.nx))

    def rect(self, box, weight: float) -> tuple[int, int, int, int, float]:
        """The bins under ``box`` (x1, y1, x2, y2 mm) and the demand per bin of a net of
        that box and ``weight``."""
        x1, y1, x2, y2 = box
        i1 = min(max(int((x1 - self.x0) // self.size), 0), self.nx - 1)
        i2 = min(max(int((x2 - self.x0) // self.size), 0), self.nx - 1)
        j1 = min(max(int((y1 - self.y0) // self.size), 0), self.ny - 1)
        j2 = min(max(int((y2 - self.y0) // self.size), 0), self.ny - 1)
        bins = (i2 - i1 + 1) * (j2 - j1 + 1)
        return j1, j2 + 1, i1, i2 + 1, weight * ((x2 - x1) + (y2 - y1)) / bins

    def add(self, rect, sign: float) -> None:
        j1, j2, i1, i2, v = rect
        self.demand[j1:j2, i1:i2] += sign * v

    def overflow(self) -> float:
        """Demand above capacity, summed over the bins (mm of track)."""
        return float(np.maximum(self.demand - self.capacity, 0.0).sum())
