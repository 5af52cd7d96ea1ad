"""Global placement by simulated annealing on courtyard boxes.

The state is every part's pose (anchor x, y, quarter turns, flipped). The cost, in mm:

- wire: each net's half-perimeter (HPWL) over its pins' boxes, nets of many pins
  weighted down (a ground net of 50 pins is poured, not routed pin to pin), plus
  `W_VIA` for a net joining SMD pads on both sides (the router needs a via);
- congestion: RUDY's demand above capacity (`congestion`), weight `W_CONGESTION`;
- sides: `W_SIDE` per part moved off the side it is on (a designer's choice of side
  is kept unless flipping pays for itself);
- sheets: a virtual net per schematic sheet over its parts' centres (kept together);
- decoupling: per capacitor, the distance from its supply pad to the nearest pad of
  the IC pin it serves (`decoupling.assign`), weighted up (half as much for an IC with more than `DECAPS_CLOSE`);
- overlap and off-board: the overlap area of courtyard boxes grown by each part's
  routing room (on one side; a through-hole part takes both) and the area outside the
  region (`outside`), weighted by a factor that grows as the temperature falls, so the
  end state is nearly legal and `legalise` only nudges.

Moves: shift (a range that shrinks with the temperature), swap two parts, a quarter
turn, a flip (parts allowed on both sides). A connector bound to an edge keeps its
turn and its distance to the edge and only slides along it. The schedule is fixed by
the number of parts and the effort; the random order by the seed (numpy's PCG64):
same problem and seed, same result. The time limit stops early (a safety net).
"""

from __future__ import annotations

import math
import time

import numpy as np
import shapely

from .congestion import Congestion
from .outside import Outside
from .poses import box_of, facing_quarter, grown_box, turn
from .problem import Options, Problem

MM = 1e6
W_SHEET = 0.3
W_DECOUPLING = 6.0
DECAPS_CLOSE = 4
W_CONGESTION = 1.0
W_SIDE = 30.0
W_VIA = 3.0


def net_weight(pins: int) -> float:
    """Nets of many pins count less per pin (they are planes or pours more often)."""
    return 1.0 if pins <= 8 else 8.0 / pins


class Annealer:
    def __init__(self, problem: Problem, options: Options, margins: np.ndarray):
        self.p = problem
        self.o = options
        parts = problem.parts
        n = self.n = len(parts)
        self.rng = np.random.Generator(np.random.PCG64(options.seed))
        rx1, ry1, rx2, ry2 = (v / MM for v in problem.region.bounds)
        self.region = (rx1, ry1, rx2, ry2)
        self.outside = Outside(shapely.transform(problem.region, lambda p: p / MM))
        # boxes per part and (q, f), grown by routing room and half the gap, in mm
        self.lbox = np.zeros((n, 8, 4))
        for i, part in enumerate(parts):
            for q in range(4):
                for f in range(2):
                    b = grown_box(box_of(part, q, f), margins[i], problem.gap / 2, part.edge)
                    self.lbox[i, q * 2 + f] = b / MM
        self.X = np.array([pt.pose[0] for pt in parts]) / MM
        self.Y = np.array([pt.pose[1] for pt in parts]) / MM
        self.Q = np.array([pt.pose[2] for pt in parts], dtype=int)
        self.F = np.array([pt.pose[3] for pt in parts], dtype=int)
        self.through = np.array([pt.through for pt in parts])
        self.movable = np.array([pt.movable for pt in parts])
        self.flippable = np.array([pt.flippable for pt in parts])
        self.front0 = np.array([pt.side == "front" for pt in parts])
        self.edge = [pt.edge if pt.movable else None for pt in parts]
        for i, part in enumerate(parts):
            if self.edge[i]:
                self.Q[i], self.F[i] = facing_quarter(part, self.edge[i]), 0
        self._clamp_all()
        self._build_nets()
        self.cong = Congestion(self.region, problem.layers, problem.track_pitch / MM)
        self.rects: list = [None] * len(self.nets)
        self.part_decaps: list[list[int]] = [[] for _ in range(n)]
        # an IC's capacitors share the room at its pins: past `DECAPS_CLOSE` of them,
        # each pulls half as hard (else 30 capacitors on two ICs crowd the board)
        per_ic = {}
        for d in problem.decoupling:
            per_ic[d.ic] = per_ic.get(d.ic, 0) + 1
        self.decap_weight = [W_DECOUPLING * (1.0 if per_ic[d.ic] <= DECAPS_CLOSE else 0.5)
                             for d in problem.decoupling]
        for k, d in enumerate(problem.decoupling):
            self.part_decaps[d.cap].append(k)
            self.part_decaps[d.ic].append(k)
        self.lam = 1.0
        self.B = np.zeros((n, 4))
        self.front = np.zeros(n, dtype=bool)
        self._refresh(range(n))

    # -- nets -----------------------------------------------------------------------------

    def _build_nets(self) -> None:
        """Each net as (parts, local pin boxes per part and (q, f), weight); sheets too."""
        parts = self.p.parts
        pins: dict[int, dict[int, list[int]]] = {}
        for i, part in enumerate(parts):
            for k, net in enumerate(part.pad_nets):
                if net >= 0:
                    pins.setdefault(net, {}).setdefault(i, []).append(k)
        self.nets = []
        self.net_slot: dict[int, int] = {}  # a net of the problem -> its place in ``nets``
        for net in sorted(pins):
            by_part = pins[net]
            count = sum(len(v) for v in by_part.values())
            if len(by_part) < 2:
                continue
            idx = np.array(sorted(by_part))
            lb = np.zeros((len(idx), 8, 4))
            for r, i in enumerate(idx.tolist()):
                local = parts[i].pads[by_part[i]]
                for q in range(4):
                    for f in range(2):
                        t = turn(local, q, f) / MM
                        lb[r, q * 2 + f] = (t[:, 0].min(), t[:, 1].min(), t[:, 0].max(), t[:, 1].max())
            self.net_slot[net] = len(self.nets)
            self.nets.append((idx, lb, net_weight(count), True))
        sheets: dict[str, list[int]] = {}
        for i, part in enumerate(parts):
            sheets.setdefault(part.sheet, []).append(i)
        if len(sheets) > 1:
            for members in sheets.values():
                if len(members) < 2:
                    continue
                idx = np.array(members)
                centre = (self.lbox[idx, :, :2] + self.lbox[idx, :, 2:]) / 2
                lb = np.concatenate((centre, centre), axis=2)
                self.nets.append((idx, lb, W_SHEET, False))
        self.part_nets: list[list[int]] = [[] for _ in range(self.n)]
        for k, (idx, *_) in enumerate(self.nets):
            for i in idx.tolist():
                self.part_nets[i].append(k)

    def weigh(self, net: int, factor: float) -> None:
        """Multiply the weight of the problem's net ``net`` by ``factor`` (a net on
        one part only has no weight to change)."""
        k = self.net_slot.get(net)
        if k is not None:
            idx, lb, w, real = self.nets[k]
            self.nets[k] = (idx, lb, w * factor, real)

    def net_box(self, k: int) -> tuple[float, float, float, float]:
        """The bounding box (mm) of net ``k``'s pins at the poses now."""
        idx, lb = self.nets[k][:2]
        b = lb[np.arange(len(idx)), self.Q[idx] * 2 + self.F[idx]]
        xs, ys = self.X[idx], self.Y[idx]
        return (float((b[:, 0] + xs).min()), float((b[:, 1] + ys).min()),
                float((b[:, 2] + xs).max()), float((b[:, 3] + ys).max()))

    def net_cost(self, k: int) -> float:
        """Net ``k``'s weighted half-perimeter (mm), and `W_VIA` when it joins SMD pads
        on both sides (the router needs a via)."""
        idx, _, w, real = self.nets[k]
        x1, y1, x2, y2 = self.net_box(k)
        cost = w * ((x2 - x1) + (y2 - y1))
        if real and W_VIA:
            smd = self.front[idx][~self.through[idx]]
            if smd.any() and not smd.all():
                cost += W_VIA
        return cost

    def _rect(self, k: int):
        """Net ``k``'s share of the congestion grid (None for a sheet's virtual net)."""
        _, _, w, real = self.nets[k]
        return self.cong.rect(self.net_box(k), w) if real else None

    def _move_rects(self, nets, rects) -> list:
        """Swap the grid shares of ``nets`` for ``rects``; returns the old ones."""
        old = [self.rects[k] for k in nets]
        for k, was, now in zip(nets, old, rects):
            if was is not None:
                self.cong.add(was, -1.0)
            if now is not None:
                self.cong.add(now, 1.0)
            self.rects[k] = now
        return old

    def decap_cost(self, k: int) -> float:
        d = self.p.decoupling[k]
        parts = self.p.parts
        c = turn(parts[d.cap].pads[[d.cap_pad]], self.Q[d.cap], self.F[d.cap])[0] / MM \
            + (self.X[d.cap], self.Y[d.cap])
        ic = turn(parts[d.ic].pads[d.ic_pads], self.Q[d.ic], self.F[d.ic]) / MM + (self.X[d.ic], self.Y[d.ic])
        return self.decap_weight[k] * float(np.abs(ic - c).sum(axis=1).min())

    # -- room -----------------------------------------------------------------------------

    def overlap_of(self, i: int, boxes: np.ndarray, front: np.ndarray) -> float:
        b = boxes[i]
        ox = np.minimum(boxes[:, 2], b[2]) - np.maximum(boxes[:, 0], b[0])
        oy = np.minimum(boxes[:, 3], b[3]) - np.maximum(boxes[:, 1], b[1])
        same = (front == front[i]) | self.through | self.through[i]
        area = np.where((ox > 0) & (oy > 0) & same, ox * oy, 0.0)
        area[i] = 0.0
        # room outside the region (its box exactly, its shape to a raster cell)
        return float(area.sum()) + 2.0 * self.outside.area(b)

    def _clamp(self, i: int) -> None:
        """Keep a part's box within the region's box (when it fits) and an edge
        connector on its edge."""
        b = self.lbox[i, self.Q[i] * 2 + self.F[i]]
        rx1, ry1, rx2, ry2 = self.region
        lo_x, hi_x = rx1 - b[0], rx2 - b[2]
        lo_y, hi_y = ry1 - b[1], ry2 - b[3]
        self.X[i] = min(max(self.X[i], lo_x), hi_x) if lo_x <= hi_x else (lo_x + hi_x) / 2
        self.Y[i] = min(max(self.Y[i], lo_y), hi_y) if lo_y <= hi_y else (lo_y + hi_y) / 2
        e = self.edge[i]
        if e == "left":
            self.X[i] = lo_x
        elif e == "right":
            self.X[i] = hi_x
        elif e == "top":
            self.Y[i] = lo_y
        elif e == "bottom":
            self.Y[i] = hi_y

    def _clamp_all(self) -> None:
        for i in range(self.n):
            if self.movable[i]:
                self._clamp(i)

    # -- the walk -------------------------------------------------------------------------

    def _refresh(self, parts) -> None:
        """Bring the kept boxes and sides of ``parts`` up to date with their poses."""
        for i in parts:
            self.B[i] = self.lbox[i, self.Q[i] * 2 + self.F[i]] + (self.X[i], self.Y[i], self.X[i], self.Y[i])
            self.front[i] = self.front0[i] ^ (self.F[i] == 1)

    def _room(self, parts: list[int]) -> float:
        room = sum(self.overlap_of(i, self.B, self.front) for i in parts)
        if len(parts) == 2:  # the pair's overlap was counted twice
            room -= self._pair_overlap(parts[0], parts[1], self.B, self.front)
        return room

    def _wire(self, nets, decaps) -> tuple[list[float], list[float]]:
        return [self.net_cost(k) for k in nets], [self.decap_cost(k) for k in decaps]

    def _local_cost(self, parts: list[int]) -> float:
        nets = sorted({k for i in parts for k in self.part_nets[i]})
        decaps = sorted({k for i in parts for k in self.part_decaps[i]})
        self._refresh(parts)
        wire, dec = self._wire(nets, decaps)
        return sum(wire) + sum(dec) + self._side(parts) + self.lam * self._room(parts)

    def _side(self, parts) -> float:
        """The price of ``parts`` moved off the side they are on."""
        return W_SIDE * float(self.F[parts].sum())

    def _pair_overlap(self, a: int, b: int, boxes, front) -> float:
        ba, bb = boxes[a], boxes[b]
        ox = min(ba[2], bb[2]) - max(ba[0], bb[0])
        oy = min(ba[3], bb[3]) - max(ba[1], bb[1])
        same = front[a] == front[b] or self.through[a] or self.through[b]
        return ox * oy if ox > 0 and oy > 0 and same else 0.0

    def _propose(self, i: int, span: float):
        """A move of part ``i`` (and maybe another): returns the parts it touches and
        the saved state to undo it."""
        rng = self.rng
        saved = [(i, self.X[i], self.Y[i], self.Q[i], self.F[i])]
        r = rng.random()
        movable = self.movable_idx
        if r < 0.12 and len(movable) > 1 and not self.edge[i]:
            j = int(movable[rng.integers(len(movable))])
            if j != i and not self.edge[j]:
                saved.append((j, self.X[j], self.Y[j], self.Q[j], self.F[j]))
                ci = self._centre(i)
                cj = self._centre(j)
                self.X[i] += cj[0] - ci[0]
                self.Y[i] += cj[1] - ci[1]
                self.X[j] += ci[0] - cj[0]
                self.Y[j] += ci[1] - cj[1]
                self._clamp(i)
                self._clamp(j)
                return [i, j], saved
        if r < 0.25 and not self.edge[i]:
            self.Q[i] = (self.Q[i] + int(rng.integers(1, 4))) % 4
        elif r < 0.30 and self.flippable[i] and not self.edge[i]:
            self.F[i] ^= 1
        else:
            dx, dy = rng.normal(0.0, span, 2)
            self.X[i] += dx
            self.Y[i] += dy
        self._clamp(i)
        return [i], saved

    def _centre(self, i: int):
        b = self.lbox[i, self.Q[i] * 2 + self.F[i]]
        return (self.X[i] + (b[0] + b[2]) / 2, self.Y[i] + (b[1] + b[3]) / 2)

    def _undo(self, saved) -> None:
        for i, x, y, q, f in saved:
            self.X[i], self.Y[i], self.Q[i], self.F[i] = x, y, q, f

    def run(self) -> int:
        """Anneal; returns the number of moves made."""
        self.movable_idx = np.flatnonzero(self.movable)
        m = len(self.movable_idx)
        if m == 0:
            return 0
        started = time.monotonic()
        moves = int(min(250_000, max(4_000, 350 * m * self.o.effort)))
        rx1, ry1, rx2, ry2 = self.region
        span0 = max(rx2 - rx1, ry2 - ry1) / 3
        # the starting temperature: the mean uphill step of a few random moves
        ups = []
        for _ in range(60):
            i = int(self.movable_idx[self.rng.integers(m)])
            touched, saved = self._propose(i, span0)
            after = [(t, self.X[t], self.Y[t], self.Q[t], self.F[t]) for t in touched]
            self._undo(saved)
            before = self._local_cost(touched)
            self._undo(after)
            delta = self._local_cost(touched) - before
            self._undo(saved)
            self._refresh(touched)
            if delta > 0:
                ups.append(delta)
        t0 = float(np.mean(ups)) if ups else 1.0
        t_end = t0 * 1e-4
        lam0, lam1 = 0.3, 60.0
        progress = self.o.progress
        self._refresh(range(self.n))
        net_val = np.array([self.net_cost(k) for k in range(len(self.nets))])
        self._move_rects(range(len(self.nets)), [self._rect(k) for k in range(len(self.nets))])
        over_now = self.cong.overflow()
        dec_val = np.array([self.decap_cost(k) for k in range(len(self.p.decoupling))])
        for step in range(moves):
            frac = step / moves
            temp = t0 * (t_end / t0) ** frac
            self.lam = lam0 * (lam1 / lam0) ** frac
            span = max(0.5, span0 * (1 - frac) ** 2)
            i = int(self.movable_idx[self.rng.integers(m)])
            touched, saved = self._propose(i, span)
            after = [(t, self.X[t], self.Y[t], self.Q[t], self.F[t]) for t in touched]
            self._undo(saved)
            self._refresh(touched)
            nets = sorted({k for t in touched for k in self.part_nets[t]})
            decaps = sorted({k for t in touched for k in self.part_decaps[t]})
            before = float(net_val[nets].sum() + dec_val[decaps].sum()) + self._side(touched) \
                + self.lam * self._room(touched)
            self._undo(after)
            self._refresh(touched)
            wire, dec = self._wire(nets, decaps)
            old = self._move_rects(nets, [self._rect(k) for k in nets])
            over = self.cong.overflow()
            delta = sum(wire) + sum(dec) + self._side(touched) + self.lam * self._room(touched) - before \
                + W_CONGESTION * (over - over_now)
            if delta > 0 and self.rng.random() >= math.exp(-delta / temp):
                self._undo(saved)
                self._refresh(touched)
                self._move_rects(nets, old)
            else:
                net_val[nets] = wire
                dec_val[decaps] = dec
                over_now = over
            if step % 2000 == 0:
                if progress is not None:
                    progress(frac, f"annealing: move {step} of {moves}")
                if time.monotonic() - started > self.o.time_limit:
                    return step
        return moves

    # -- pricing single parts (for `refine`) ------------------------------------------------

    def set_poses(self, poses: dict[int, tuple]) -> None:
        """Put the parts of ``poses`` (index -> (x, y, q, f), nm) there."""
        for i, (x, y, q, f) in poses.items():
            self.X[i], self.Y[i], self.Q[i], self.F[i] = x / MM, y / MM, q, f
        self._refresh(range(self.n))

    def part_cost(self, i: int) -> float:
        """Part ``i``'s share of the cost (mm): its nets' and decoupling terms and its
        side, with every part where it is now."""
        return self.parts_cost([i])

    def parts_cost(self, parts: list[int]) -> float:
        """`part_cost` of ``parts`` together (a net two of them share counted once)."""
        nets = sorted({k for i in parts for k in self.part_nets[i]})
        decaps = sorted({k for i in parts for k in self.part_decaps[i]})
        return sum(self.net_cost(k) for k in nets) + sum(self.decap_cost(k) for k in decaps) + self._side(parts)

    def try_pose(self, i: int, pose: tuple) -> float:
        """Put part ``i`` at ``pose`` (nm) and return `part_cost`."""
        x, y, q, f = pose
        self.X[i], self.Y[i], self.Q[i], self.F[i] = x / MM, y / MM, q, f
        self._refresh([i])
        return self.part_cost(i)

    def optimal_region(self, i: int) -> tuple[float, float]:
        """Where part ``i``'s anchor belongs by its nets (nm): the median of the
        bounds of each of its nets' other pins (its pins' centre put there)."""
        xs, ys = [], []
        for k in self.part_nets[i]:
            idx, lb, w, real = self.nets[k]
            others = idx != i
            if not real or not others.any():
                continue
            o = idx[others]
            b = lb[np.flatnonzero(others), self.Q[o] * 2 + self.F[o]]
            xs += [float((b[:, 0] + self.X[o]).min()), float((b[:, 2] + self.X[o]).max())]
            ys += [float((b[:, 1] + self.Y[o]).min()), float((b[:, 3] + self.Y[o]).max())]
        if not xs:
            return self.X[i] * MM, self.Y[i] * MM
        pads = turn(self.p.parts[i].pads, self.Q[i], self.F[i]) / MM if len(self.p.parts[i].pads) else np.zeros((1, 2))
        cx, cy = pads.mean(axis=0)
        return (float(np.median(xs)) - cx) * MM, (float(np.median(ys)) - cy) * MM

    def poses(self) -> list[tuple[float, float, int, int]]:
        return [(float(self.X[i] * MM), float(self.Y[i] * MM), int(self.Q[i]), int(self.F[i]))
                for i in range(self.n)]
