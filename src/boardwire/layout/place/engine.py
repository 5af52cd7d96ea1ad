"""The placer: `place` anneals a `Problem` (`anneal`), legalises the result
(`legalise`), refines it (`refine`) and moves decoupling capacitors left far from
their pins next to them (`snap`). Routing room: each part gets a margin around its courtyard that grows
with the square root of its pad count (more pins, more tracks leave it), scaled down
so that the grown boxes fill at most part of the free area (``Options.spacing``); a
board too full for any room gets none."""

from __future__ import annotations

import math
import time
from dataclasses import replace

import numpy as np
import shapely

from .anneal import Annealer
from .legalise import legalise
from .poses import box_of
from .problem import Options, OutOfTime, Problem, Result
from .refine import refine
from .rework import State
from .score import crossings, net_pins, spanning_length
from .snap import snap

ROOM_PER_PIN = 0.35e6  # nm of margin per square root of a part's pad count
ROOM_BASE = 0.25e6
RESTART_SEED = 100_003  # restart r anneals with seed + r * this
ANNEAL_SHARE = 0.75  # of the time left: the annealing's; legalising may use the rest


def routing_room(problem: Problem, spacing: float) -> np.ndarray:
    """Per part, the margin (nm) its courtyard box is grown by while placing."""
    parts = problem.parts
    want = np.array([ROOM_BASE + ROOM_PER_PIN * math.sqrt(len(p.pads)) for p in parts])
    sizes = np.array([(p.box[2] - p.box[0] + problem.gap, p.box[3] - p.box[1] + problem.gap) for p in parts])
    two_sides = any(p.flippable or p.side == "back" for p in parts)
    # a through-hole part takes its area on both sides (counted twice only when both
    # sides are placed on); a fixed part takes what of it lies in the region, no room
    weight = np.array([2.0 if p.through and two_sides else 1.0 for p in parts])
    fixed = np.array([not p.movable for p in parts])
    fixed_area = sum(w * _inside(problem, p) for p, w in zip(parts, weight) if not p.movable)
    free = problem.region.area * (2 if two_sides else 1) * 0.85

    def used(s: float) -> float:
        grown = (sizes[:, 0] + 2 * s * want) * (sizes[:, 1] + 2 * s * want)
        return float((grown * weight)[~fixed].sum()) + fixed_area

    bare = used(0.0)
    if bare >= free:
        return np.zeros(len(parts))
    target = bare + spacing * (free - bare)
    lo, hi = 0.0, 1.0
    if used(hi) <= target:
        return want
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if used(mid) <= target else (lo, mid)
    return want * lo


def _inside(problem: Problem, part) -> float:
    """The area (nm²) of a fixed part's courtyard box that lies in the region."""
    x, y, q, f = part.pose
    b = box_of(part, q, f)
    return float(problem.region.intersection(shapely.box(x + b[0], y + b[1], x + b[2], y + b[3])).area)


def place(problem: Problem, options: Options | None = None) -> Result:
    """Poses for the movable parts of ``problem``: annealed, legalised on the grid
    and refined (`refine`: each part to a cheaper free spot; `snap`: capacitors to their
    pins), ``options.restarts`` times from different random walks (the first with the
    seed itself); the placement kept is the one with the fewest parts left unplaced,
    then the fewest ratsnest crossings (`score.crossings`), then the shortest
    ratsnest. A restart begins only while the time spent so far, plus what the last
    one took, stays within the time limit. Annealing stops at `ANNEAL_SHARE` of the
    time left; legalising raises `OutOfTime` at the limit (unless a restart before
    finished: that one is kept), and refining stops there (legal as it is). Deterministic for a problem, options and
    seed (unless the time limit cuts the work short)."""
    options = options or Options()
    started = time.monotonic()
    if not any(p.movable for p in problem.parts):  # nothing to place (a board before its footprints)
        return Result({}, [], 0.0, 0)
    progress = options.progress
    runs = max(1, options.restarts)

    def stage(lo: float, hi: float):
        if progress is None:
            return None
        return lambda f, msg: progress(lo + (hi - lo) * f, msg)

    margins = routing_room(problem, options.spacing)
    best, moves, last = None, 0, started
    for r in range(runs):
        began = time.monotonic()
        left = options.time_limit - (began - started)
        if r and left < began - last:
            break
        last = began
        share = (r / runs, (r + 1) / runs)
        annealer = Annealer(problem, _with(options, stage(share[0], share[0] + 0.85 / runs),
                                           seed=options.seed + RESTART_SEED * r, time_limit=left * ANNEAL_SHARE),
                            margins)
        moves += annealer.run()
        boxes: dict = {}
        try:
            poses, failed = legalise(problem, annealer.poses(), margins, options.grid,
                                     stage(share[0] + 0.85 / runs, share[0] + 0.95 / runs),
                                     started + options.time_limit, boxes)
        except OutOfTime:
            if best is None:
                raise
            break  # a restart the time limit cut short: the best finished one stands
        poses = refine(problem, annealer, poses, boxes, options.grid, started + options.time_limit,
                       stage(share[0] + 0.95 / runs, share[1]))
        poses = snap(problem, poses, boxes, options.grid)
        movable = {i: pose for i, pose in poses.items() if problem.parts[i].movable}
        pins = net_pins(problem, movable)
        key = (len(failed), crossings(pins), sum(spanning_length(p) for p in pins.values()))
        if best is None or key < best[0]:
            best = (key, movable, failed, State(annealer, dict(poses), dict(boxes)))
    return Result(best[1], sorted(best[2]), time.monotonic() - started, moves, best[3])


def _with(options: Options, progress, **changes) -> Options:
    return replace(options, progress=progress, **changes)
