"""Column arrays of the copper items and a spatial index that follows edits.

`Columns` keeps, per item id, the core geometry, radius, layer mask, net code and kind
in growable numpy arrays, so a check over any set of pairs is a few vectorised calls.
shapely's STRtree cannot change once built, so `CopperIndex` is the tree of the items
present when it was built, plus the items added since (searched in a small tree made on
the spot) minus those removed since; it is rebuilt when additions pile up. Gaps are
exact: ``distance(core_a, core_b) - r_a - r_b`` (nm; 0 or less when touching).
"""

from __future__ import annotations

import numpy as np
import shapely

REBUILD_AFTER = 256  # items added since the tree was built before it is rebuilt

KINDS = ("pad", "via", "track", "arc", "zone", "shape")
KIND = {k: i for i, k in enumerate(KINDS)}


_CHUNK = 4096  # items per query in `CopperIndex.candidates`


class Columns:
    """Per-item arrays, indexed by item id (rows of removed items have alive False)."""

    def __init__(self) -> None:
        self.n = 0
        cap = 1024
        self.core = np.empty(cap, dtype=object)
        self.r = np.zeros(cap)
        self.mask = np.zeros(cap, dtype=np.int64)
        self.net = np.zeros(cap, dtype=np.int64)
        self.kind = np.zeros(cap, dtype=np.int8)
        self.alive = np.zeros(cap, dtype=bool)
        self.hole_r = np.zeros(cap)
        self.holed = np.zeros(cap, dtype=bool)  # the item has a hole

    def _grow(self, need: int) -> None:
        cap = len(self.r)
        if need <= cap:
            return
        new = max(need, cap * 2)
        for name in ("core", "r", "mask", "net", "kind", "alive", "hole_r", "holed"):
            old = getattr(self, name)
            arr = np.empty(new, dtype=old.dtype) if old.dtype == object else np.zeros(new, dtype=old.dtype)
            arr[:cap] = old
            setattr(self, name, arr)

    def add(self, item, net_code: int) -> None:
        i = item.id
        self._grow(i + 1)
        self.core[i], self.r[i], self.mask[i] = item.core, item.r, item.mask
        self.net[i], self.kind[i], self.alive[i] = net_code, KIND[item.kind], True
        self.hole_r[i] = item.hole_r if item.hole is not None else 0.0
        self.holed[i] = item.hole is not None
        self.n = max(self.n, i + 1)

    def remove(self, i: int) -> None:
        self.alive[i] = False
        self.core[i] = None

    def bounds(self) -> np.ndarray:
        """(n, 4) bounding boxes (xmin, ymin, xmax, ymax) of the cores; rows are
        computed once, when first asked for (ids are never reused)."""
        done = len(self._bounds) if hasattr(self, "_bounds") else 0
        if done < self.n:
            new = shapely.bounds(self.core[done:self.n])
            self._bounds = new if not done else np.concatenate([self._bounds, new])
        return self._bounds


class CopperIndex:
    """STRtree over the present non-zone items, kept in step by `added`/`removed`."""

    def __init__(self, cols: Columns):
        self.cols = cols
        self._tree = None
        self._ids = np.zeros(0, dtype=np.int64)
        self._fresh: list[int] = []
        self._dead: set[int] = set()

    def added(self, i: int) -> None:
        if self._tree is not None:
            self._fresh.append(i)

    def removed(self, i: int) -> None:
        if self._tree is None:
            return
        if i in self._fresh:
            self._fresh.remove(i)
        else:
            self._dead.add(i)

    def _ensure(self) -> None:
        if self._tree is None or len(self._fresh) > REBUILD_AFTER:
            c = self.cols
            ids = np.flatnonzero(c.alive[:c.n] & (c.kind[:c.n] != KIND["zone"]))
            self._ids = ids
            self._tree = shapely.STRtree(c.core[ids])
            self._fresh, self._dead = [], set()

    def rmax(self) -> float:
        c = self.cols
        live = c.alive[:c.n] & (c.kind[:c.n] != KIND["zone"])
        return float(c.r[:c.n][live].max()) if live.any() else 0.0

    def max_hole(self) -> float:
        """The largest hole radius of the present items."""
        c = self.cols
        return float(c.hole_r[:c.n][c.alive[:c.n]].max(initial=0.0))

    def candidates(self, ids: np.ndarray, reach: np.ndarray, once: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """(a, b): every present non-zone item b != a whose bounding box comes within
        ``reach[k] + r_b`` of item a = ``ids[k]``'s (a superset of the pairs whose gap
        is at most ``reach[k] - r_a``). ``once``: ``ids`` are all the items and
        ``reach[k] - r_a`` is the same for all, so each pair is given once, with a < b."""
        self._ensure()
        c = self.cols
        if not len(ids):
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        if once:
            return self._pairs_among(ids, float(reach[0] - c.r[ids[0]]))
        if len(ids) > _CHUNK:  # the raw pairs of many items at once take much memory
            parts = [self.candidates(ids[k:k + _CHUNK], np.asarray(reach)[k:k + _CHUNK])
                     for k in range(0, len(ids), _CHUNK)]
            return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
        d = np.asarray(reach, dtype=float) + self.rmax()
        b0 = shapely.bounds(c.core[ids])
        grown = shapely.box(b0[:, 0] - d, b0[:, 1] - d, b0[:, 2] + d, b0[:, 3] + d)
        src, tgt = self._tree.query(grown)
        a, b = ids[src], self._ids[tgt]
        if self._fresh:
            fresh = np.array(self._fresh, dtype=np.int64)
            s2, t2 = shapely.STRtree(c.core[fresh]).query(grown)
            a = np.concatenate([a, ids[s2]])
            b = np.concatenate([b, fresh[t2]])
        keep = (a < b) if once else (a != b)
        keep &= c.alive[b]
        a, b, k = a[keep], b[keep], (np.concatenate([src, s2]) if self._fresh else src)[keep]
        # the tree was asked with the largest radius; the gap between the boxes sorts
        # out the pairs too far apart for b's own radius
        near = self.box_gap(a, b) <= np.asarray(reach, dtype=float)[k] + c.r[b]
        return a[near], b[near]

    def _pairs_among(self, ids: np.ndarray, slack: float) -> tuple[np.ndarray, np.ndarray]:
        """`candidates` with ``once``: the pairs a < b of ``ids`` whose boxes come within
        ``r_a + r_b + slack``, sorted. Each box is grown by its own radius and half the
        slack, so boxes that meet are the candidates; the tree's query grows every box
        by the largest radius instead (on video: 420,000 raw pairs for 50,000, 2.4x
        slower), which a call about one item needs and one about all does not."""
        c = self.cols
        box = c.bounds()[ids]
        g = c.r[ids] + slack / 2
        grown = shapely.box(box[:, 0] - g, box[:, 1] - g, box[:, 2] + g, box[:, 3] + g)
        s, t = shapely.STRtree(grown).query(grown)
        a, b = ids[s], ids[t]
        keep = a < b
        a, b = a[keep], b[keep]
        near = self.box_gap(a, b) <= c.r[a] + c.r[b] + slack
        a, b = a[near], b[near]
        order = np.lexsort((b, a))
        return a[order], b[order]

    def box_gap(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The gap (nm) between the bounding boxes of the cores of items a[k] and b[k]
        (0 where they meet)."""
        box = self.cols.bounds()
        ba, bb = box[a], box[b]
        dx = np.maximum(0.0, np.maximum(ba[:, 0] - bb[:, 2], bb[:, 0] - ba[:, 2]))
        dy = np.maximum(0.0, np.maximum(ba[:, 1] - bb[:, 3], bb[:, 1] - ba[:, 3]))
        return np.hypot(dx, dy)


    def query_many(self, areas) -> tuple[np.ndarray, np.ndarray]:
        """(k, id): present non-zone items whose bounding box meets ``areas[k]``'s."""
        self._ensure()
        c = self.cols
        src, tgt = self._tree.query(areas)
        ids = self._ids[tgt]
        if self._fresh:
            fresh = np.array(self._fresh, dtype=np.int64)
            s2, t2 = shapely.STRtree(c.core[fresh]).query(areas)
            src, ids = np.concatenate([src, s2]), np.concatenate([ids, fresh[t2]])
        keep = c.alive[ids]
        return src[keep], ids[keep]

    def candidates_in(self, area) -> np.ndarray:
        """Ids of present non-zone items whose bounding box meets ``area``'s."""
        self._ensure()
        c = self.cols
        out = self._ids[self._tree.query(area)]
        if self._fresh:
            fresh = np.array(self._fresh, dtype=np.int64)
            out = np.concatenate([out, fresh[shapely.STRtree(c.core[fresh]).query(area)]])
        return out[c.alive[out]]


def gaps(cols: Columns, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Exact gaps (nm) between the copper of items ``a[k]`` and ``b[k]``."""
    if not len(a):
        return np.zeros(0)
    return shapely.distance(cols.core[a], cols.core[b]) - cols.r[a] - cols.r[b]
