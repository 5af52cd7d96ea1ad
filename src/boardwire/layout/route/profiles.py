"""Keep-away grids, one set per net-class profile (track width, clearance, via size).

Where a track centre or a via centre may go depends on the width and clearance of
the net being routed, so nets with the same `NetRule` share one profile: grids of the
fixed obstacles (``fixed`` per layer, ``vfixed`` for through vias) and counts of the
routes placed so far (``occ``, ``vocc``), updated as routes are placed and ripped up.
"""

from __future__ import annotations

import numpy as np

from .budget import Budget
from .grid import QUAD_SEGS, Grid, capsules_of, owner_merge
from .problem import NetRule, Problem


class Profile:
    def __init__(self, rule: NetRule, grid: Grid):
        self.rule = rule
        self.fixed = np.zeros((grid.L, grid.H, grid.W), np.int32)
        self.vfixed = np.zeros((grid.H, grid.W), np.int32)
        self.occ = np.zeros((grid.L, grid.H, grid.W), np.int32)
        self.vocc = np.zeros((grid.H, grid.W), np.int32)


def _halo(grid: Grid, layer_grids: list[np.ndarray], shape, radius: float, value: int, capsule=None) -> None:
    """Mark nodes closer than ``radius`` (+ the grid margin) to ``shape`` with owner
    ``value`` in each of ``layer_grids``. ``capsule`` (x0, y0, x1, y1, r): the shape is
    exactly that round-ended segment, stamped without polygons."""
    if not layer_grids:
        return
    if capsule is not None:
        x0, y0, x1, y1, r = capsule
        rr = r + radius
        caps = np.array([[x0, y0, x1, y1, rr + grid.margin(rr)]], dtype=np.float64)
        for g in layer_grids:
            grid.stamp_capsules(g, caps, np.array([value], np.int32), 0)
        return
    caps = capsules_of(shape)
    if caps is not None:
        rr = radius
        rows = np.hstack([caps, np.full((len(caps), 1), rr + grid.margin(rr))])
        for g in layer_grids:
            grid.stamp_capsules(g, rows, np.full(len(rows), value, np.int32), 0)
        return
    grown = shape.buffer(radius + grid.margin(radius), quad_segs=QUAD_SEGS)
    iy, ix = grid.cells_in(grown)
    for g in layer_grids:
        owner_merge(g, iy, ix, value)


def build_fixed(prof: Profile, grid: Grid, problem: Problem, budget: Budget | None = None) -> None:
    """The fixed obstacles, the board edge and the keep-outs of ``problem`` in the
    profile's ``fixed`` and ``vfixed`` grids; stops where ``budget`` is spent (the
    grids then incomplete: the router tries no net after its time limit)."""
    rule, rules = prof.rule, problem.rules
    w2, d2 = rule.width / 2, rule.via_diameter / 2
    c, minc = rule.clearance, rules.min_clearance
    routable = set(problem.routable)
    for o in problem.obstacles:
        if budget is not None and budget.spent():
            return
        grids = [prof.fixed[layer] for layer in o.layers if layer in routable]
        value = o.net or -1
        cap = o.capsule
        if o.kind == "hole":  # no copper: hole and edge clearances
            gap = max(rules.hole_clearance, rules.edge_clearance, c, o.clearance)
            _halo(grid, [prof.fixed[layer] for layer in routable], o.shape, w2 + gap, -1, cap)
            _halo(grid, [prof.vfixed], o.shape, d2 + gap, -1, cap)
        else:
            gap = max(c, o.clearance, minc)
            _halo(grid, grids, o.shape, w2 + gap, value, cap)
            _halo(grid, [prof.vfixed], o.shape, d2 + gap, value, cap)
        if o.hole is not None:  # hole to hole, whatever the nets
            _halo(grid, [prof.vfixed], o.hole, rule.via_drill / 2 + rules.hole_to_hole, -1)
    for k in problem.keepouts:
        if k.tracks:
            _halo(grid, [prof.fixed[layer] for layer in k.layers if layer in routable], k.polygon, w2, -1)
        if k.vias:
            _halo(grid, [prof.vfixed], k.polygon, d2, -1)
    if problem.outline is not None and not (budget is not None and budget.spent()):
        edge = max(rules.edge_clearance, c)
        for grids, r in (([prof.fixed[layer] for layer in routable], w2 + edge), ([prof.vfixed], d2 + edge)):
            inner = problem.outline.buffer(-(r + grid.margin(r)), quad_segs=QUAD_SEGS)
            keep = np.zeros((grid.H, grid.W), bool)
            iy, ix = grid.cells_in(inner)
            keep[iy, ix] = True
            for g in grids:
                g[~keep] = -1


def stamp_routes(profiles: list[Profile], grid: Grid, problem: Problem, rule: NetRule, items: list,
                 sign: int) -> None:
    """Add (sign 1) or remove (-1) placed tracks and vias ``items`` ((kind, geom,
    layer)) of a net with ``rule`` in every profile's occupancy grids."""
    if not items:
        return
    minc, h2h = problem.rules.min_clearance, problem.rules.hole_to_hole
    tracks = [(geom, layer) for kind, geom, layer in items if kind == "track"]
    vias = [geom[0] for kind, geom, _ in items if kind == "via"]
    seg = np.array([[a[0], a[1], b[0], b[1]] for (a, b), _ in tracks], dtype=np.float64).reshape(-1, 4)
    t_layer = np.array([layer for _, layer in tracks], dtype=int)
    vpt = np.array([[x, y, x, y] for x, y in vias], dtype=np.float64).reshape(-1, 4)
    for p in profiles:
        gap = max(rule.clearance, p.rule.clearance, minc)
        rt = rule.width / 2 + gap + p.rule.width / 2  # track of this net vs a track of p
        rtv = rule.width / 2 + gap + p.rule.via_diameter / 2  # ... vs a via of p
        rvt = rule.via_diameter / 2 + gap + p.rule.width / 2  # via of this net vs a track of p
        rvv = max(rule.via_diameter / 2 + gap + p.rule.via_diameter / 2,
                  rule.via_drill / 2 + h2h + p.rule.via_drill / 2)
        for layer in problem.routable:
            rows = [_rows(seg[t_layer == layer], rt + grid.margin(rt)), _rows(vpt, rvt + grid.margin(rvt))]
            caps = np.vstack(rows)
            grid.stamp_capsules(p.occ[layer], caps, np.full(len(caps), sign, np.int32), 1)
        caps = np.vstack([_rows(seg, rtv + grid.margin(rtv)), _rows(vpt, rvv + grid.margin(rvv))])
        grid.stamp_capsules(p.vocc, caps, np.full(len(caps), sign, np.int32), 1)


def _rows(segs: np.ndarray, r: float) -> np.ndarray:
    return np.hstack([segs, np.full((len(segs), 1), r)]) if len(segs) else np.empty((0, 5))
