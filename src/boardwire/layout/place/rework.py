"""A placement reworked after a trial route left connections unrouted.

The placer prices a net by its half-perimeter, which says nothing of whether a router
gets through; a trial route does. Given the nets of the connections a trial left
unrouted and the small parts at their ends, `rework` starts again from the legal,
refined placement (`engine.place`'s `Result.state`) and:

1. weighs those nets up (`FACTOR`; nets of more than `MAX_PINS` pins, supplies that
   are poured, are left as they are);
2. refines (`refine`: each part to a cheaper free spot), then
3. swaps each of those parts with whichever other part on the same side(s) lowers the
   priced cost most, where both fit in the other's place (their courtyard boxes and
   routing room clear of every other part, inside the region, pads off the art: the
   checks of `legalise.Board`): on a full board a part rarely finds a free spot near
   its nets, but often a part of its size there that costs less elsewhere;
4. refines again after a swap.

Measured on StickHub after autoplace (scatter seed 1, placer seeds 1 and 2, routed
300 s, KiCad's count; docs/benchmarks.md, eleventh round): a first rework routed 211
and 204 where the placement routed 209 and 200; weighing alone moved no part;
`FACTOR` 10 routed 208 at seed 1. The result is legal whenever the placement it
starts from is; deterministic.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .legalise import Board, free_spots, sides_of
from .poses import box_of, grown_box, pad_boxes_of
from .problem import Problem
from .refine import refine

FACTOR = 4.0  # weight of a net a trial route left unrouted, times its own
MAX_PINS = 8  # nets of more pins are not weighed up
MAX_PADS = 8  # parts of more pads (ICs, connectors) are not swapped by name
GAIN = 0.05  # mm: a swap must gain this much


@dataclass
class State:
    """What `engine.place` leaves for a rework: the annealer that prices parts, the
    legal refined poses (index -> pose, nm) and each placed part's box (index ->
    box relative to its anchor, nm, as `legalise` gives them); ``weighed``: the nets
    weighed up so far (each once)."""

    annealer: object
    poses: dict[int, tuple]
    boxes: dict[int, np.ndarray]
    weighed: set[int] = field(default_factory=set)


def rework(problem: Problem, state: State, nets: set[int], parts: set[int], grid: float,
           deadline: float | None = None) -> dict[int, tuple]:
    """New legal poses (index -> pose, nm) for the movable parts: the placement of
    ``state`` with the problem's nets ``nets`` weighed up and the parts ``parts``
    (indices; those of more than `MAX_PADS` pads, bound to an edge or fixed are
    skipped) swapped where that pays (module docstring). ``grid`` (nm) is the
    placer's; past ``deadline`` (``time.monotonic()``) the poses reached so far are
    given. Nets weighed by an earlier rework stay weighed."""
    annealer = state.annealer
    pins = {}
    for part in problem.parts:
        for net in part.pad_nets:
            if net >= 0:
                pins[net] = pins.get(net, 0) + 1
    for net in sorted(nets - state.weighed):
        if pins.get(net, 0) <= MAX_PINS:
            annealer.weigh(net, FACTOR)
        state.weighed.add(net)
    boxes = {i: b.copy() for i, b in state.boxes.items()}
    poses = refine(problem, annealer, dict(state.poses), boxes, grid, deadline)
    movers = sorted(i for i in parts if i in boxes and problem.parts[i].movable
                    and problem.parts[i].edge is None and len(problem.parts[i].pads) <= MAX_PADS)
    if _swap(problem, annealer, poses, boxes, movers, grid, deadline):
        poses = refine(problem, annealer, poses, boxes, grid, deadline)
    return {i: pose for i, pose in poses.items() if problem.parts[i].movable}


def _swap(problem: Problem, annealer, poses, boxes, movers: list[int], grid: float, deadline) -> int:
    """Swap each of ``movers`` with the part that gains most; returns the swaps made."""
    parts = problem.parts
    fixed = Board.around_placed(problem, boxes)
    others = [i for i in sorted(boxes) if parts[i].movable and parts[i].edge is None]
    made = 0
    for i in movers:
        best = None
        for j in others:
            if deadline is not None and time.monotonic() > deadline:
                return made
            if j == i or sides_of(parts[i], poses[i][3]) != sides_of(parts[j], poses[j][3]):
                continue
            board = fixed.with_placed(problem, poses, boxes, (i, j))
            at_i = _fit(problem, board, i, _centre(poses[j], boxes[j]), poses[i][3], _margin(problem, poses, boxes, i),
                        grid)
            if at_i is None:
                continue
            board.add(at_i[1] + np.array(at_i[0][:2] * 2), sides_of(parts[i], poses[i][3]))
            at_j = _fit(problem, board, j, _centre(poses[i], boxes[i]), poses[j][3], _margin(problem, poses, boxes, j),
                        grid)
            if at_j is None:
                continue
            gain = _gain(annealer, poses, (i, at_i[0]), (j, at_j[0]))
            if gain > GAIN and (best is None or gain > best[0]):
                best = (gain, j, at_i, at_j)
        if best is not None:
            _, j, (pose_i, box_i), (pose_j, box_j) = best
            poses[i], boxes[i], poses[j], boxes[j] = pose_i, box_i, pose_j, box_j
            annealer.try_pose(i, pose_i)
            annealer.try_pose(j, pose_j)
            made += 1
    return made


def _centre(pose, rel) -> tuple[float, float]:
    return pose[0] + (rel[0] + rel[2]) / 2, pose[1] + (rel[1] + rel[3]) / 2


def _margin(problem: Problem, poses, boxes, i: int) -> float:
    """The routing room part ``i`` was placed with (nm)."""
    x, y, q, f = poses[i]
    return max(0.0, float(boxes[i][2] - box_of(problem.parts[i], q, f)[2]) - problem.gap / 2)


def _fit(problem: Problem, board: Board, i: int, centre, f: int, margin: float, grid: float):
    """A pose (and its box) for part ``i`` with its box centred on ``centre`` (on the
    grid), at any turn, its room kept or else given up: None if none is free."""
    part = problem.parts[i]
    sides = sides_of(part, f)
    for q in range(4):
        bare = np.array(box_of(part, q, f), dtype=float)
        for m in (margin, 0.0):
            rel = grown_box(bare, m, problem.gap / 2)
            at = np.round((np.array(centre) - (rel[:2] + rel[2:]) / 2) / grid) * grid
            if len(free_spots(board, at[None, :], rel, sides, bare, pad_boxes_of(part, q, f), 1)):
                return (float(at[0]), float(at[1]), q, f), rel
    return None


def _gain(annealer, poses, *moves) -> float:
    """How much (mm) the priced cost of the parts moved drops with ``moves``
    ((index, pose) pairs); the annealer is left as it was."""
    moved = [i for i, _ in moves]
    before = annealer.parts_cost(moved)
    for i, pose in moves:
        annealer.try_pose(i, pose)
    after = annealer.parts_cost(moved)
    for i in moved:
        annealer.try_pose(i, poses[i])
    return before - after

