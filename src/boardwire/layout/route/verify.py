"""Exact clearance checks of new tracks and vias, before they are kept.

The grid only says where a track centre may go; every segment and via the router
emits is measured here against the fixed obstacles (shapely distances to the real
pad, hole and drawing shapes), the board edge, keep-outs, and the routes already
placed (closed-form segment distances), with the clearance KiCad's DRC applies: the
larger of both items' clearances and the board minimum, plus `SAFETY`; holes keep the
board's hole-to-hole distance from every other hole, whatever their nets.

`check_result` runs the same checks on a whole result, whatever engine made it: the
gate of the router seam (`engines.run`).
"""

from __future__ import annotations

import math
from collections import defaultdict

import shapely
from shapely.geometry import LineString, Point

from . import maze
from .budget import Budget
from .problem import Problem, Result, Violation

SAFETY = 5_000  # nm beyond each rule: shapely's round shapes are polygons inside the curve
BUCKET = 2_000_000  # nm: the spatial hash of placed routes
MAX_KEYS = 4096  # buckets an item may cover; a bigger one goes to the `WIDE` bucket
WIDE = (None, None)  # the bucket of items too big to hash: every query looks in it


def seg_dist(a, b, c, d) -> float:
    """Distance between segments ab and cd (points as (x, y); 0 when they cross),
    measured by the compiled `maze.seg_dist`."""
    return maze.seg_dist(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1])


def point_seg_dist(p, a, b) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    l2 = dx * dx + dy * dy
    t = 0.0 if l2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / l2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


class Checker:
    """The fixed world of a problem, and the routes placed so far (by net)."""

    def __init__(self, problem: Problem):
        self.p = problem
        self.minc = problem.rules.min_clearance
        obs = problem.obstacles
        self.obstacles = obs
        self.by_layer: dict[int, tuple[shapely.STRtree, list[int]]] = {}
        for layer in range(len(problem.layers)):
            idx = [i for i, o in enumerate(obs) if layer in o.layers and o.kind != "hole"]
            self.by_layer[layer] = (shapely.STRtree([obs[i].shape for i in idx]), idx)
        holes = [i for i, o in enumerate(obs) if o.hole is not None]
        self.holes = (shapely.STRtree([obs[i].hole for i in holes]), holes)
        npth = [i for i, o in enumerate(obs) if o.kind == "hole"]
        self.npth = (shapely.STRtree([obs[i].shape for i in npth]), npth)
        self.max_clear = max([o.clearance for o in obs] + [n.rule.clearance for n in problem.nets]
                             + [self.minc, problem.rules.edge_clearance, problem.rules.hole_clearance, 0])
        self.edge = problem.outline.boundary if problem.outline is not None else None
        if self.edge is not None:
            shapely.prepare(problem.outline)
        # placed routes: id -> record; bucket -> ids
        self.items: dict[int, tuple] = {}
        self.buckets: dict[tuple[int, int], set[int]] = defaultdict(set)
        self.by_net: dict[int, list[int]] = defaultdict(list)
        self._next = 0

    # -- the fixed world -------------------------------------------------------------

    def track_ok(self, a, b, width: int, layer: int, net: int, clearance: int) -> bool:
        line = LineString([a, b]) if a != b else Point(a)
        half = width / 2
        tree, idx = self.by_layer[layer]
        reach = half + max(clearance, self.max_clear) + SAFETY
        for k in tree.query(line, predicate="dwithin", distance=reach):
            o = self.obstacles[idx[k]]
            if o.net and o.net == net:
                continue
            need = half + max(clearance, o.clearance, self.minc) + SAFETY
            if shapely.distance(line, o.shape) < need:
                return False
        if not self._holes_and_edge_ok(line, half, clearance, reach):
            return False
        for k in self.p.keepouts:
            if k.tracks and layer in k.layers and shapely.distance(line, k.polygon) < half + SAFETY:
                return False
        return True

    def via_ok(self, at, diameter: int, drill: int, net: int, clearance: int) -> bool:
        pt = Point(at)
        r = diameter / 2
        reach = r + max(clearance, self.max_clear) + SAFETY
        seen = set()
        for layer in range(len(self.p.layers)):
            tree, idx = self.by_layer[layer]
            for k in tree.query(pt, predicate="dwithin", distance=reach):
                i = idx[k]
                if i in seen:
                    continue
                seen.add(i)
                o = self.obstacles[i]
                if o.net and o.net == net:
                    continue
                if shapely.distance(pt, o.shape) < r + max(clearance, o.clearance, self.minc) + SAFETY:
                    return False
        h2h = self.p.rules.hole_to_hole
        tree, idx = self.holes
        for k in tree.query(pt, predicate="dwithin", distance=drill / 2 + h2h + SAFETY):
            if shapely.distance(pt, self.obstacles[idx[k]].hole) < drill / 2 + h2h + SAFETY:
                return False
        if not self._holes_and_edge_ok(pt, r, clearance, reach):
            return False
        for k in self.p.keepouts:
            if k.vias and shapely.distance(pt, k.polygon) < r + SAFETY:
                return False
        return True

    def _holes_and_edge_ok(self, geom, half: float, clearance: int, reach: float) -> bool:
        """``geom`` grown by ``half`` keeps clear of NPTH holes (hole and edge clearance,
        and the hole's own) and inside the board edge."""
        rules = self.p.rules
        tree, idx = self.npth
        for k in tree.query(geom, predicate="dwithin", distance=reach):
            o = self.obstacles[idx[k]]
            need = half + max(rules.hole_clearance, rules.edge_clearance, clearance, o.clearance) + SAFETY
            if shapely.distance(geom, o.shape) < need:
                return False
        return self._edge_ok(geom, half + max(rules.edge_clearance, clearance) + SAFETY)

    def _edge_ok(self, geom, need: float) -> bool:
        if self.edge is None:
            return True
        return self.p.outline.contains(geom) and shapely.distance(geom, self.edge) >= need

    # -- placed routes ---------------------------------------------------------------

    def _keys(self, x0, y0, x1, y1):
        """The buckets of a box, or `WIDE` alone when it covers more than `MAX_KEYS`
        (a track across a 2 m board covered a million buckets, one at 1e12 mm ran on
        for minutes: issue 36)."""
        bx0, bx1, by0, by1 = int(x0 // BUCKET), int(x1 // BUCKET), int(y0 // BUCKET), int(y1 // BUCKET)
        if (bx1 - bx0 + 1) * (by1 - by0 + 1) > MAX_KEYS:
            yield WIDE
            return
        for bx in range(bx0, bx1 + 1):
            for by in range(by0, by1 + 1):
                yield bx, by

    def _near(self, x0, y0, x1, y1):
        """Ids of placed items that may touch the box (each at most once)."""
        keys = list(self._keys(x0, y0, x1, y1))
        if keys == [WIDE]:
            return list(self.items)
        out = set(self.buckets.get(WIDE, ()))
        for key in keys:
            out.update(self.buckets.get(key, ()))
        return sorted(out)

    def add(self, net: int, kind: str, geom: tuple, width: int, clearance: int, drill: int = 0,
            layer: int = -1) -> int:
        """Place a route item: kind "track" (geom (a, b)) or "via" (geom (at,))."""
        i = self._next
        self._next += 1
        rec = (net, kind, geom, width, clearance, drill, layer)
        self.items[i] = rec
        self.by_net[net].append(i)
        x0, y0, x1, y1 = _box(geom, width / 2)
        for key in self._keys(x0, y0, x1, y1):
            self.buckets[key].add(i)
        return i

    def remove_net(self, net: int) -> None:
        for i in self.by_net.pop(net, []):
            net_, kind, geom, width, *_ = self.items.pop(i)
            x0, y0, x1, y1 = _box(geom, width / 2)
            for key in self._keys(x0, y0, x1, y1):
                self.buckets[key].discard(i)

    def conflicts(self, net: int, kind: str, geom: tuple, width: int, clearance: int,
                  drill: int = 0, layer: int = -1) -> set[int]:
        """Nets of placed routes the item would come too close to (for vias also the
        same net's vias closer than hole-to-hole)."""
        h2h = self.p.rules.hole_to_hole
        x0, y0, x1, y1 = _box(geom, width / 2 + self.max_clear + h2h + SAFETY)
        found = set()
        for i in self._near(x0, y0, x1, y1):
            onet, okind, ogeom, owidth, oclear, odrill, olayer = self.items[i]
            if onet == net and not (kind == "via" and okind == "via"):
                continue
            if onet in found:
                continue
            if kind == "track" and okind == "track" and layer != olayer:
                continue
            d = _dist(kind, geom, okind, ogeom)
            if onet == net:  # two vias of one net: hole to hole only
                if d < drill / 2 + odrill / 2 + h2h + SAFETY:
                    found.add(onet)
                continue
            need = width / 2 + owidth / 2 + max(clearance, oclear, self.minc) + SAFETY
            if kind == "via" and okind == "via":
                need = max(need, drill / 2 + odrill / 2 + h2h + SAFETY)
            if d < need:
                found.add(onet)
        return found


def _box(geom, r):
    xs = [p[0] for p in geom]
    ys = [p[1] for p in geom]
    return min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r


def _dist(kind, geom, okind, ogeom) -> float:
    a = geom if kind == "track" else (geom[0], geom[0])
    b = ogeom if okind == "track" else (ogeom[0], ogeom[0])
    return seg_dist(a[0], a[1], b[0], b[1])


def check_result(problem: Problem, result: Result, budget: Budget | None = None) -> list[Violation]:
    """Every track and via of ``result`` checked against ``problem`` as the built-in
    router checks its own before keeping them (`Checker`): a net of the problem, a
    routable layer (tracks), clear of the fixed world (obstacles, holes, keep-outs, the
    board edge) and of the result's other items of other nets, with the clearance
    KiCad's DRC applies (the larger of both nets' classes and the board minimum, plus
    `SAFETY`); vias keep hole to hole from every hole, their own net's vias included.
    Each pair of new items is measured once (an item against those before it). Returns
    the violations found, in the order of ``result.tracks`` then ``result.vias``.
    ``budget``: once it is spent the items not checked yet are each a violation ("not
    checked"); what its poll raises (Cancelled) goes through."""
    nets = {n.id: n for n in problem.nets}
    routable = set(problem.routable)
    checker = Checker(problem)
    out: list[Violation] = []
    items = [("track", i, t) for i, t in enumerate(result.tracks)] + \
        [("via", i, v) for i, v in enumerate(result.vias)]
    for k, (kind, i, item) in enumerate(items):
        if budget is not None and budget.spent():
            out.extend(Violation(kind, i, nets[item.net].name if item.net in nets else "",
                                 "not checked: the time limit was reached first")
                       for kind, i, item in items[k:])
            break
        net = nets.get(item.net)
        if net is None:
            out.append(Violation(kind, i, "", f"net id {item.net} is not a net of the problem"))
            continue
        clear = net.rule.clearance
        if kind == "track":
            if item.layer not in routable:
                out.append(Violation(kind, i, net.name, f"on layer {item.layer}, not one routed"))
                continue
            geom, size, drill, layer = (item.start, item.end), item.width, 0, item.layer
            fixed_ok = checker.track_ok(item.start, item.end, size, layer, item.net, clear)
        else:
            geom, size, drill, layer = (item.at,), item.diameter, item.drill, -1
            fixed_ok = checker.via_ok(item.at, size, drill, item.net, clear)
        if not fixed_ok:
            out.append(Violation(kind, i, net.name, "too close to copper, a hole, a keep-out or the board edge"))
        hit = checker.conflicts(item.net, kind, geom, size, clear, drill, layer)
        if hit:
            names = ", ".join(sorted(nets[n].name if n in nets else str(n) for n in hit))
            out.append(Violation(kind, i, net.name, f"too close to the new copper of {names}"))
        checker.add(item.net, kind, geom, size, clear, drill, layer)
    return out
