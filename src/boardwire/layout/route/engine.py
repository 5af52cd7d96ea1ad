"""The router: a grid maze router (A* in C) with rip-up and reroute.

Nets are routed one at a time: wide classes first, then nets that join pads of one
footprint (`joins_own_pads`), then shortest first; a net's clusters are joined one by
one, each to the nearest part of the tree built so far (pads, tracks, vias). A first
pass treats every route already placed as a wall. Nets that fail are routed again
with the others' routes passable at a price (``ripup``) plus a history cost that grows
where nets keep colliding (negotiated congestion, as in PathFinder); the nets a new
route collides with are ripped up and queued again; then the nets still missing
connections are routed through the others once more, one at a time, each change kept
unless it leaves more missing (`repair`). Every segment and via is checked
exactly (`verify.Checker`) before it is kept. The same problem, options and seed give
the same result; only the time limit (a safety net) depends on the machine: the
compiled search itself stops when it passes (its deadline).

This is the engine "builtin" of the router seam (`engines`); `Options` are its own
settings. Negotiation (`negotiate`) and the rip-up and reroute (`repair`) drive a
`Router` through its public methods.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
from shapely.geometry import Point
from shapely.ops import nearest_points

from . import maze
from .grid import DIAG, STEP, Grid
from .paths import Access, path_geometry, piece_access, split_at_tee
from .problem import Net, Problem, Result, Track, Unrouted, Via
from .profiles import Profile, build_fixed, stamp_routes
from .negotiate import negotiate
from .repair import LAST_SHARE, repair
from .budget import Budget
from .verify import Checker, point_seg_dist

BEND = 6
PREF_PENALTY = 25  # percent more for a step against a layer's preferred direction
HEURISTIC = 110  # percent: a slightly greedy A*
HIST_STEP = STEP * 2  # history cost added where a route collides (negotiated congestion)


@dataclass
class Options:
    """The built-in router's settings. ``time_limit`` s; ``effort`` 1 (fast) to 3
    (thorough: finer grid, more rip-up rounds); ``via_cost``: a via costs as much as
    this much track (mm; at least one grid step's); ``seed``: the same seed gives the
    same result; ``pitch``: grid step (nm), None to choose from the rules.
    ``progress(fraction, message)`` is called between nets and may raise to cancel."""

    time_limit: float = 120.0
    effort: int = 2
    via_cost: float = 2.0
    seed: int = 0
    pitch: int | None = None
    progress: Callable[[float, str], None] | None = None


def choose_pitch(problem: Problem, effort: int) -> tuple[int, tuple[int, int]]:
    """Grid pitch (nm) and origin: about a quarter (effort 1: a third, 3: a fifth) of the
    narrowest track-plus-clearance, picked among divisors of 0.635 mm and 0.5 mm so
    that as many pad centres as possible sit on nodes."""
    tight = min((n.rule.width + max(n.rule.clearance, problem.rules.min_clearance) for n in problem.nets),
                default=500_000)
    target = tight / {1: 3, 2: 4, 3: 5}.get(effort, 4)
    minx, miny, maxx, maxy = problem.bounds
    area_cap = math.sqrt((maxx - minx) * (maxy - miny) * len(problem.routable) / 6e6)
    target = max(target, area_cap, 25_000)
    centres = [p.at for n in problem.nets for c in n.clusters for p in c if p.kind == "pad" and p.at]
    cands = sorted({round(635_000 / k) for k in range(1, 80)} | {round(500_000 / k) for k in range(1, 80)})
    cands = [c for c in cands if target * 0.6 <= c <= target] or [int(target)]
    origin = centres[0] if centres else (minx, miny)
    best = None
    for p in cands:
        on = sum(1 for x, y in centres if (x - origin[0]) % p == 0 and (y - origin[1]) % p == 0)
        score = (on / max(1, len(centres)), p)
        if best is None or score > best[0]:
            best = (score, p)
    return best[1], origin


class Router:
    """One routing of ``problem``: `run` routes it all. Negotiation (`negotiate`) and
    repair (`repair`) work on its state through `route_net`, `rip`, `snapshot`,
    `restore`, `access`, `missing`, `out_of_time` and `report`."""

    def __init__(self, problem: Problem, options: Options):
        self.t0 = time.monotonic()
        self.deadline = self.t0 + options.time_limit  # the compiled search stops there too
        self.p = problem
        self.o = options
        self.rng = random.Random(options.seed)
        pitch, origin = (options.pitch, (problem.bounds[0], problem.bounds[1])) if options.pitch \
            else choose_pitch(problem, options.effort)
        self.grid = g = Grid(problem.bounds, pitch, origin, len(problem.layers))
        self.checker = Checker(problem)
        self.profiles: dict = {}
        # grids of a huge board's obstacles could outlast the time limit: they stop
        # there (and the nets are then not tried), and the caller may cancel meanwhile
        self.budget = Budget(self.deadline, None if options.progress is None else lambda: options.progress(0.0, ""))
        for net in problem.nets:
            if net.rule not in self.profiles:
                prof = Profile(net.rule, g)
                build_fixed(prof, g, problem, self.budget)
                self.profiles[net.rule] = prof
        self.all_profiles = list(self.profiles.values())
        self.hist = np.zeros(g.N, np.int32)
        self.target = np.zeros(g.N, np.int32)
        self.g = np.zeros(g.N, np.int32)
        self.stamp = np.zeros(g.N, np.int32)
        self.move = np.zeros(g.N, np.uint8)
        self.gen = 0
        self.tgen = 0
        self.lmask = sum(1 << layer for layer in problem.routable)
        self.vmask = self.lmask | sum(1 << pl.layer for n in problem.nets for pl in n.planes)
        self.pref = bytes(self._prefs())
        # at least a grid step of track: near-free vias (via_cost 0) made searches hop
        # layers at every turn, vias a step apart that the exact check refused (hole to
        # hole): 23 of pic_programmer's 125 connections were left unrouted
        self.via_cost = max(STEP, int(options.via_cost * 1e6 / pitch * STEP))
        self.placed: dict[int, list] = {}  # net id -> [(kind, geom, layer)]
        self.accesses: dict[int, list[Access]] = {}
        self.unrouted: dict[int, list[Unrouted]] = {}
        self.ends: dict[tuple[int, int], tuple[str, str]] = {}
        self.searches = 0
        self.build_s = time.monotonic() - self.t0

    def _prefs(self) -> list[int]:
        """Alternate preferred directions over the routable layers (front horizontal)."""
        out = [0] * len(self.p.layers)
        if len(self.p.routable) >= 2:
            for k, layer in enumerate(self.p.routable):
                out[layer] = 1 + k % 2
        return out

    # -- access nodes ----------------------------------------------------------------

    def access(self, net: Net) -> list[Access]:
        """Per cluster of ``net``, where a route may start or end on it (kept)."""
        if net.id in self.accesses:
            return self.accesses[net.id]
        prof = self.profiles[net.rule]
        layers = set(self.p.routable)

        def free(layer, iy, ix):
            v = prof.fixed[layer][iy, ix]
            return (v == 0) | (v == net.id)

        def stub_ok(pts, layer):
            return all(self.checker.track_ok(a, b, net.rule.width, layer, net.id, net.rule.clearance)
                       for a, b in zip(pts, pts[1:]))

        out = []
        for cluster in net.clusters:
            parts = [piece_access(self.grid, piece, layers, free, stub_ok, STEP) for piece in cluster]
            nodes = np.concatenate([a.nodes for a in parts]) if parts else np.empty(0, np.int32)
            costs = np.concatenate([a.costs for a in parts]) if parts else np.empty(0, np.int32)
            stubs = {}
            for a in parts:
                stubs.update(a.stubs)
            anchors = [p.at if p.at else tuple(map(int, p.shape.coords[0])) for p in cluster
                       if p.kind != "plane"]
            out.append(Access(nodes.astype(np.int32), costs.astype(np.int32), stubs, anchors,
                              [p.label for p in cluster]))
        self.accesses[net.id] = out
        return out

    # -- one net ---------------------------------------------------------------------

    def route_net(self, net: Net, ripup: int, full: bool = True, overlap: bool = False) -> tuple[int, set[int]]:
        """Join the clusters of ``net``; returns (connections that failed, nets it
        collided with). Placed routes of other nets are walls (ripup 0) or passable at
        that extra cost; the nets crossed are ripped up, or with ``overlap`` left in
        place (negotiation resolves the collision later)."""
        acc = self.access(net)
        prof = self.profiles[net.rule]
        grid = self.grid
        first = max(range(len(acc)), key=lambda i: (len(acc[i].nodes), -i))
        tree_nodes = [acc[first].nodes]
        tree_pts = list(acc[first].anchors)
        planes = [p.shape for p in net.clusters[first] if p.kind == "plane"]
        stubs = dict(acc[first].stubs)
        remaining = [i for i in range(len(acc)) if i != first]
        # every other cluster's anchors, and each one's distance to the tree so far
        owners = [(i, a) for i in remaining for a in acc[i].anchors]
        opts = np.array([a for _, a in owners], dtype=float).reshape(-1, 2)
        dmin = np.full(len(owners), math.inf)
        for poly in planes:
            dmin = np.minimum(dmin, [poly.distance(Point(a)) for _, a in owners])
        seen = 0  # tree points measured so far
        failed, victims = [], set()
        items: list[tuple] = []
        while remaining:
            # the cluster with the anchor nearest the tree (the first such, in order)
            if len(tree_pts) > seen:
                tp = np.array(tree_pts[seen:], dtype=float)
                dmin = np.minimum(dmin, np.hypot(opts[:, 0, None] - tp[None, :, 0],
                                                 opts[:, 1, None] - tp[None, :, 1]).min(axis=1))
                seen = len(tree_pts)
            if not owners:
                j = remaining[0]  # clusters of pour alone: aim at the tree
                anchor = tree_pts[0] if tree_pts else (0, 0)
            else:
                j, anchor = owners[int(np.argmin(dmin))]
            alive = np.array([i != j for i, _ in owners], dtype=bool)
            owners = [o for o, keep in zip(owners, alive) if keep]
            opts, dmin = opts[alive], dmin[alive]
            remaining.remove(j)
            src = acc[j]
            if len(src.nodes) == 0:
                failed.append((j, "no free spot on its copper to start a track"))
                continue
            near = tree_pts
            if planes:
                near = tree_pts + [tuple(map(int, nearest_points(poly, Point(anchor))[0].coords[0]))
                                   for poly in planes]
            taboo: list[tuple[np.ndarray, int, int]] = []  # (grid, flat index, old value)
            try:
                for _ in range(4):  # a path the exact check refuses: forbid that spot, search again
                    found = self._search(net, prof, src, np.concatenate(tree_nodes), near, anchor, ripup, full)
                    if found is None:
                        why = ("no path (blocked by other copper, keep-outs or the board edge)"
                               if ripup else "no path around the routes placed so far")
                        if self.out_of_time():
                            why = "the time limit was reached during its search"
                        break
                    path = found
                    runs, vias = path_geometry(grid, path, src.stubs.get(path[0]), stubs.get(path[-1]))
                    new = [("track", (a, b), layer) for layer, pts in runs for a, b in zip(pts, pts[1:])]
                    new += [("via", (v,), -1) for v in vias]
                    hit, bad = self._collisions(net, new)
                    if hit and not ripup:
                        bad = bad or [it for it in new if self._hits(net, it)]
                    if not bad:
                        why = None
                        break
                    why = "the paths found failed the exact clearance check"
                    self._forbid(prof, path, bad, taboo)
            finally:
                for g, k, old in reversed(taboo):
                    g.flat[k] = old
            if why is not None:
                failed.append((j, why))
                continue
            if hit:
                if not overlap:
                    for v in sorted(hit):
                        self.rip(v)
                victims |= hit
                self._raise_history(path, prof)
            for kind, geom, layer in new:
                self.checker.add(net.id, kind, geom, net.rule.width if kind == "track" else net.rule.via_diameter,
                                 net.rule.clearance, net.rule.via_drill if kind == "via" else 0, layer)
            if runs and not stubs.get(path[-1]):
                items = split_at_tee(items, runs[-1][1][-1], runs[-1][0], net.rule.width, grid.pitch)
            items += new
            tree_nodes += [np.array(path, dtype=np.int32), src.nodes]
            tree_pts += [grid.point(n)[1:] for n in path[:: max(1, len(path) // 20)]] + [grid.point(path[-1])[1:]]
            tree_pts += src.anchors
            stubs.update(src.stubs)
        # stamping this net's routes for the other profiles happens once, at the end
        stamp_routes(self.all_profiles, grid, self.p, net.rule, items, 1)
        self.placed.setdefault(net.id, []).extend(items)
        self.unrouted[net.id] = [Unrouted(net.name, self._ends(net, j), why) for j, why in failed]
        return len(failed), victims

    def _collisions(self, net: Net, new: list) -> tuple[set[int], list]:
        """(nets of placed routes the new items collide with, items that break a fixed
        rule or come too close to this net's own vias)."""
        r = net.rule
        hit: set[int] = set()
        bad = []
        for item in new:
            kind, geom, layer = item
            if kind == "track":
                if not self.checker.track_ok(geom[0], geom[1], r.width, layer, net.id, r.clearance):
                    bad.append(item)
            elif not self.checker.via_ok(geom[0], r.via_diameter, r.via_drill, net.id, r.clearance):
                bad.append(item)
            found = self._hits(net, item)
            if net.id in found:
                bad.append(item)
            hit |= found - {net.id}
        # the new items among themselves: vias of this route closer than hole to hole
        vias = [it for it in new if it[0] == "via"]
        for i, a in enumerate(vias):
            for b in vias[i + 1:]:
                if math.dist(a[1][0], b[1][0]) < r.via_drill + self.p.rules.hole_to_hole + 5_000:
                    bad.append(b)
        return hit, bad

    def _hits(self, net: Net, item) -> set[int]:
        kind, geom, layer = item
        r = net.rule
        if kind == "track":
            return self.checker.conflicts(net.id, "track", geom, r.width, r.clearance, 0, layer)
        return self.checker.conflicts(net.id, "via", geom, r.via_diameter, r.clearance, r.via_drill)

    def _forbid(self, prof: Profile, path: list[int], bad: list, taboo: list) -> None:
        """Block, for this search only, the path's nodes along the refused items (vias:
        the via spot)."""
        grid = self.grid
        for kind, geom, layer in bad:
            if kind == "via":
                x, y = geom[0]
                k = int(round(grid.gy(y))) * grid.W + int(round(grid.gx(x)))
                if 0 <= k < grid.C:
                    taboo.append((prof.vfixed, k, int(prof.vfixed.flat[k])))
                    prof.vfixed.flat[k] = -1
                continue
            (ax, ay), (bx, by) = geom
            for n in path:
                lay, x, y = grid.point(n)
                if lay == layer and point_seg_dist((x, y), (ax, ay), (bx, by)) <= 1.5 * grid.pitch:
                    taboo.append((prof.fixed, n, int(prof.fixed.flat[n])))
                    prof.fixed.flat[n] = -1

    def _search(self, net: Net, prof: Profile, src: Access, targets: np.ndarray, tree_pts, anchor,
                ripup: int, full: bool = True) -> list[int] | None:
        grid = self.grid
        self.tgen += 1
        self.target[targets] = self.tgen
        sy, sx = np.divmod(src.nodes % grid.C, grid.W)
        near = np.asarray(tree_pts, dtype=float)
        tx, ty = near[int(np.argmin(np.hypot(near[:, 0] - anchor[0], near[:, 1] - anchor[1])))]
        ix, iy = int(grid.gx(tx)), int(grid.gy(ty))
        lo_x, hi_x = min(int(sx.min()), ix), max(int(sx.max()), ix)
        lo_y, hi_y = min(int(sy.min()), iy), max(int(sy.max()), iy)
        span = max(hi_x - lo_x, hi_y - lo_y)
        for grow in (max(20, span // 2), max(60, span * 2)) + ((None,) if full else ()):
            if grow is None:
                win = (0, 0, grid.W - 1, grid.H - 1)
            else:
                win = (max(0, lo_x - grow), max(0, lo_y - grow), min(grid.W - 1, hi_x + grow),
                       min(grid.H - 1, hi_y + grow))
            self.gen += 1
            self.searches += 1
            res = maze.search(prof.fixed, prof.occ, prof.vfixed, prof.vocc, self.hist, self.target,
                              self.g, self.stamp, self.move, (grid.L, grid.H, grid.W), win,
                              (self.lmask, self.vmask), net.id, src.nodes, src.costs,
                              (STEP, DIAG, self.via_cost, BEND, ripup, self.gen, self.tgen, self.deadline,
                               HEURISTIC, PREF_PENALTY), self.pref)
            if res:
                return res[1]
            if res is False or win == (0, 0, grid.W - 1, grid.H - 1):
                break  # False: nothing reachable lies past this window
        return None

    def _raise_history(self, path: list[int], prof: Profile) -> None:
        p = np.array(path, dtype=np.int64)
        busy = prof.occ.reshape(-1)[p] > 0
        self.hist[p[busy]] += HIST_STEP

    def rip(self, net_id: int) -> None:
        """Remove a net's placed routes."""
        net = self.nets[net_id]
        stamp_routes(self.all_profiles, self.grid, self.p, net.rule, self.placed.pop(net_id, []), -1)
        self.checker.remove_net(net_id)
        self._all_unrouted(net, "ripped up to make room for another net, not routed again")

    def snapshot(self) -> tuple[dict, dict]:
        """The routes placed and the connections missing, to `restore` later."""
        return ({k: list(v) for k, v in self.placed.items()}, {k: list(v) for k, v in self.unrouted.items()})

    def restore(self, snap: tuple[dict, dict]) -> None:
        """Back to a `snapshot`: every route ripped up, the snapshot's placed again."""
        for nid in list(self.placed):
            self.rip(nid)
        placed, unrouted = snap
        for nid, items in placed.items():
            r = self.nets[nid].rule
            stamp_routes(self.all_profiles, self.grid, self.p, r, items, 1)
            for kind, geom, layer in items:
                self.checker.add(nid, kind, geom, r.width if kind == "track" else r.via_diameter,
                                 r.clearance, r.via_drill if kind == "via" else 0, layer)
            self.placed[nid] = list(items)
        self.unrouted = {k: list(v) for k, v in unrouted.items()}

    def _all_unrouted(self, net: Net, why: str) -> None:
        """Every connection of ``net`` unrouted, for ``why``."""
        self.unrouted[net.id] = [Unrouted(net.name, self._ends(net, i), why)
                                 for i in range(1, len(self.access(net)))]

    def _ends(self, net: Net, j: int) -> tuple[str, str]:
        """The labels naming connection ``j`` of ``net``: its cluster's first pad and
        the nearest pad of another cluster (kept: a net is ripped up many times)."""
        key = (net.id, j)
        if key not in self.ends:
            acc = self.access(net)
            self.ends[key] = (acc[j].labels[0] if acc[j].labels else "?", _nearest_label(acc, j))
        return self.ends[key]

    # -- all nets --------------------------------------------------------------------

    def out_of_time(self, share: float = 1.0) -> bool:
        """Whether ``share`` of the time limit is spent."""
        return time.monotonic() - self.t0 > self.o.time_limit * share

    def run(self) -> Result:
        self.nets = {n.id: n for n in self.p.nets}
        total = sum(len(n.clusters) - 1 for n in self.p.nets)
        order = sorted(self.p.nets, key=lambda n: (-n.rule.width, not joins_own_pads(n),
                                                   _spread(n) * (1 + 0.3 * self.rng.random()), n.id))
        self.rank = {n.id: k for k, n in enumerate(order)}
        done = 0
        failed: list[int] = []
        for net in order:
            self.report(done, total, f"routing {net.name}")
            if self.out_of_time():
                self._all_unrouted(net, "not tried: the time limit was reached first")
                continue
            bad, _ = self.route_net(net, 0)
            if bad:
                failed.append(net.id)
            done += len(net.clusters) - 1
        self.negotiate(failed, total)
        self.repair(LAST_SHARE)
        return self._result(total)

    def negotiate(self, failed: list[int], total: int) -> None:
        """Negotiated congestion from the nets ``failed`` in the first pass
        (`negotiate.negotiate`); its statistics kept in ``negotiation``."""
        self.negotiation = negotiate(self, failed, total)

    def repair(self, share: float) -> None:
        """Rip-up and reroute of the nets still missing connections, until ``share`` of
        the time limit (`repair.repair`); its statistics kept in ``repaired``."""
        self.repaired = repair(self, share)

    def missing(self) -> int:
        """Connections missing now."""
        return sum(len(v) for v in self.unrouted.values())

    def report(self, done: int, total: int, msg: str) -> None:
        """Report progress (never backwards: rip-up may undo connections) and let the
        caller cancel."""
        self._shown = max(getattr(self, "_shown", 0.0), done / total if total else 1.0)
        if self.o.progress is not None:
            self.o.progress(self._shown, msg)

    def _result(self, total: int) -> Result:
        tracks, vias = [], []
        for nid in sorted(self.placed):
            net = self.nets[nid]
            for kind, geom, layer in self.placed[nid]:
                if kind == "track":
                    tracks.append(Track(geom[0], geom[1], net.rule.width, layer, nid))
                else:
                    vias.append(Via(geom[0], net.rule.via_diameter, net.rule.via_drill, nid))
        unrouted = [u for nid in sorted(self.unrouted) for u in self.unrouted[nid]]
        return Result(tracks, vias, total, total - len(unrouted), unrouted,
                      time.monotonic() - self.t0, self.grid.pitch,
                      {"searches": self.searches, "grid": [self.grid.L, self.grid.H, self.grid.W],
                       "setup_s": round(self.build_s, 3), "profiles": len(self.profiles),
                       **getattr(self, "negotiation", {}), "repair": getattr(self, "repaired", None)})


def joins_own_pads(net: Net) -> bool:
    """Whether two clusters of ``net`` hold pads of one footprint (pad labels are
    "REF-NUMBER"): a supply tying neighbouring pins of an IC, the diagonal pads of a
    duo LED. Such a connection must leave its part and come back round pads whose own
    tracks leave there too, so these nets go before the others of their width."""
    seen: set[str] = set()
    for cluster in net.clusters:
        refs = {p.label.rsplit("-", 1)[0] for p in cluster if p.kind == "pad" and "-" in p.label}
        if refs & seen:
            return True
        seen |= refs
    return False


def _spread(net: Net) -> float:
    pts = [p.at or p.shape.coords[0] for c in net.clusters for p in c if p.kind != "plane"] or [(0, 0)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (max(xs) - min(xs)) + (max(ys) - min(ys))


def _nearest_label(acc: list[Access], j: int) -> str:
    a = acc[j].anchors[0] if acc[j].anchors else (0, 0)
    best = None
    for i, other in enumerate(acc):
        if i == j:
            continue
        for p, label in zip(other.anchors, other.labels):
            d = math.dist(p, a)
            if best is None or d < best[0]:
                best = (d, label)
    return best[1] if best else "?"


def route(problem: Problem, options: Options | None = None) -> Result:
    """Route ``problem``; see the module docstring."""
    return Router(problem, options or Options()).run()
