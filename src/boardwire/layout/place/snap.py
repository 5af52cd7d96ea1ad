"""The last placement pass: each decoupling capacitor the anneal and refining left
beyond `NEAR` of its target (`decoupling`: 2 mm pad edge to pad edge, 5 mm for a bulk one) is
moved next to the pin it serves, when a free spot there is nearer.

The annealer prices a capacitor's distance, but every part keeps routing room around
its courtyard while it is placed, so a 0402 capacitor often legalises a few
millimetres out from a 32-pin IC. Here a capacitor may enter that room (the room is
for the IC's tracks, and a capacitor at its pin is where its supply track goes):
spots are tried on the grid around the pin, at each quarter turn on the capacitor's
side, clear of every other courtyard by the courtyard gap, of obstacles, silkscreen
and art (`legalise.Board` with bare courtyards); the nearest to the pin wins, and
only if it beats where the capacitor is.
"""

from __future__ import annotations

import numpy as np

from .legalise import Board, candidates, free_spots, sides_of
from .poses import box_of, pad_boxes_of, turn
from .problem import Problem
from .score import decap_distance

REACH = 3e6  # nm: spots tried within this of the anchor that puts the pads together
SPOTS = 12   # free spots tried per quarter turn
NEAR = 0.9   # of the target: a capacitor nearer is left where it is (margin for the board's own rounding)


def snap(problem: Problem, poses: dict[int, tuple], boxes: dict[int, np.ndarray],
         grid: float) -> dict[int, tuple]:
    """``poses`` (index -> pose, nm; legal) with capacitors beyond their target moved
    nearer their pin (see the module); ``boxes`` (index -> the box each part is
    placed with, relative to its anchor) is updated for the moved ones."""
    parts = problem.parts
    poses = dict(poses)
    half = problem.gap / 2
    grow = np.array([-half, -half, half, half])
    fixed = Board.around_placed(problem, boxes)
    for d in problem.decoupling:
        i = d.cap
        part = parts[i]
        if i not in boxes or not part.movable or part.edge is not None:
            continue
        now = decap_distance(problem, d, poses)
        if now <= NEAR * d.target:
            continue
        bare_boxes = {k: np.array(box_of(parts[k], poses[k][2], poses[k][3])) + grow for k in boxes}
        board = fixed.with_placed(problem, poses, bare_boxes, (i,))
        ic_pose = poses.get(d.ic, parts[d.ic].pose)
        pins = turn(parts[d.ic].pads[d.ic_pads], ic_pose[2], ic_pose[3]) + ic_pose[:2]
        f = poses[i][3]
        best, best_pose = now, None
        for q in range(4):
            bare = np.array(box_of(part, q, f), dtype=float)
            rel = bare + grow
            for pin in pins:  # a pin of several pads (a regulator's tab): beside each
                target = pin - turn(part.pads[[d.cap_pad]], q, f)[0]
                cand = candidates(target, grid, REACH, None, board.bounds, rel)
                for ax, ay in free_spots(board, cand, rel, sides_of(part, f), bare, pad_boxes_of(part, q, f), SPOTS):
                    pose = (float(ax), float(ay), q, f)
                    dist = decap_distance(problem, d, {**poses, i: pose})
                    if dist < best - 1e3:
                        best, best_pose, best_rel = dist, pose, rel
        if best_pose is not None:
            poses[i] = best_pose
            boxes[i] = best_rel
    return poses
