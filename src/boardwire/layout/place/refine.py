"""Detailed placement after legalising: each part, in turn, moved to the free spot
that costs least near where its nets pull it.

Legalising moves each part to the free spot nearest its annealed pose, in a fixed
order, so a part often lands on the far side of a neighbour from the pins it joins:
on StickHub (scatter seed 1, placer seed 1, a 0.25 mm courtyard gap) the annealed
ratsnest of 512 mm and 43 crossings became 685 mm and 84 crossings once legal. Here every movable part but
edge connectors is taken out in turn and put back at whichever of these costs least
by the annealer's own cost (`anneal.Annealer.part_cost`: its nets' weighted
half-perimeters, decoupling, side): where it is, or the nearest free spots (the
box it was legalised with, on the grid, inside the region, clear of placed boxes,
obstacles and art: `legalise.Board`) around its *optimal region*, the median of
the bounds of its nets' other pins (Goto's classic target; Pan et al., "Cell
relocation"), at each of its turns, and around its spot now. Only moves that lower
the cost are kept, so the result is legal and no worse. Passes repeat while they
gain, up to `PASSES`, and stop at the deadline.
"""

from __future__ import annotations

import time

import numpy as np

from .legalise import Board, box_size, candidates, free_spots, sides_of
from .poses import box_of, pad_boxes_of
from .problem import Problem

MM = 1e6
PASSES = 3
SPOTS = 6  # free spots tried per turn and target
GAIN = 1e-3  # mm: a smaller gain is no gain
STEP = 2  # grid steps between the spots tried (at least)
SPREAD = 16  # spots tried across a part's size (at most)
REACH = 3e6  # nm: spots within this of a target, or within the part's size


def refine(problem: Problem, annealer, poses: dict[int, tuple], boxes: dict[int, np.ndarray],
           grid: float, deadline: float | None = None, progress=None) -> dict[int, tuple]:
    """Better legal poses (index -> pose, nm) for the movable parts, from legal
    ``poses`` and the box each was legalised with (``boxes``: index -> (x1, y1, x2,
    y2) relative to its anchor, nm); ``annealer`` prices a part (its state is set
    to the poses here). Parts that failed legalising (absent from ``boxes``) stay.
    ``progress(fraction, message)`` is called every few parts (and may raise to
    cancel)."""
    parts = problem.parts
    poses = dict(poses)
    annealer.set_poses(poses)
    movable = [i for i in sorted(boxes) if parts[i].movable and parts[i].edge is None]
    fixed = Board.around_placed(problem, boxes)
    for n in range(PASSES):
        gained = 0.0
        for k, i in enumerate(movable):
            if deadline is not None and time.monotonic() > deadline:
                return poses
            if progress is not None and k % 8 == 0:
                progress((n + k / len(movable)) / PASSES, f"refining: pass {n + 1}, part {k} of {len(movable)}")
            gained += _relocate(problem, fixed, annealer, poses, boxes, i, grid)
        if gained < GAIN:
            break
    return poses


def _relocate(problem: Problem, fixed: Board, annealer, poses, boxes, i: int, grid: float) -> float:
    """Move part ``i`` to its cheapest free spot if that beats where it is; returns
    the gain (mm)."""
    part = problem.parts[i]
    board = fixed.with_placed(problem, poses, boxes, (i,))
    x0, y0, q0, f0 = poses[i]
    now = annealer.part_cost(i)
    best, best_pose = now, None
    # the room and gap it was legalised with (the same on every side of a part not
    # bound to an edge)
    margin = float(boxes[i][2] - box_of(part, q0, f0)[2])
    targets = [annealer.optimal_region(i), (x0, y0)]
    sides = sides_of(part, f0)
    size = box_size(boxes[i])
    step = grid * max(STEP, round(size / SPREAD / grid))  # big parts: coarser steps
    for q in range(4):
        bare = np.array(box_of(part, q, f0), dtype=float)
        rel = bare + (-margin, -margin, margin, margin)
        pads = pad_boxes_of(part, q, f0)
        for target in targets:
            cand = candidates(target, step, max(REACH, size), None, board.bounds, rel)
            for ax, ay in free_spots(board, cand, rel, sides, bare, pads, SPOTS):
                cost = annealer.try_pose(i, (float(ax), float(ay), q, f0))
                if cost < best - GAIN:
                    best, best_pose, best_rel = cost, (float(ax), float(ay), q, f0), rel
    if best_pose is None:
        annealer.try_pose(i, poses[i])
        return 0.0
    poses[i] = best_pose
    boxes[i] = best_rel
    annealer.try_pose(i, best_pose)
    return now - best
