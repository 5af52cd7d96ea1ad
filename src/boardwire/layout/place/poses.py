"""Where a part's shapes land for a pose (x, y, quarter turns, flipped): the one place
the placer turns and mirrors coordinates, as KiCad does (`documents.board.rotate`:
y down, positive angles counter-clockwise on screen; a flip mirrors the stored frame
about its x axis)."""

from __future__ import annotations

import numpy as np
import shapely

from .problem import Part

# rotate(p, 90 q) for p = (x, y): KiCad's RotatePoint with cos/sin of quarter turns
_ROT = {0: ((1, 0), (0, 1)), 1: ((0, 1), (-1, 0)), 2: ((-1, 0), (0, -1)), 3: ((0, -1), (1, 0))}


def turn(points: np.ndarray, q: int, flipped: int) -> np.ndarray:
    """(k, 2) stored-frame points mirrored (when ``flipped``) and turned ``q`` quarters."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    if flipped:
        p = p * np.array([1.0, -1.0])
    (a, b), (c, d) = _ROT[q % 4]
    return np.column_stack((a * p[:, 0] + b * p[:, 1], c * p[:, 0] + d * p[:, 1]))


def box_of(part: Part, q: int, flipped: int) -> tuple[float, float, float, float]:
    """The courtyard box relative to the anchor for the turn and flip."""
    x1, y1, x2, y2 = part.box
    c = turn(np.array([[x1, y1], [x2, y2]]), q, flipped)
    return (float(c[:, 0].min()), float(c[:, 1].min()), float(c[:, 0].max()), float(c[:, 1].max()))


def pad_boxes_of(part: Part, q: int, flipped: int) -> np.ndarray:
    """The pads' boxes (k, 4) relative to the anchor for the turn and flip."""
    b = part.pad_boxes
    if not len(b):
        return np.zeros((0, 4))
    a, c = turn(b[:, :2], q, flipped), turn(b[:, 2:], q, flipped)
    return np.column_stack((np.minimum(a, c), np.maximum(a, c)))


def grown_box(box, margin: float, half_gap: float, edge: str | None = None) -> np.ndarray:
    """``box`` (x1, y1, x2, y2) grown by ``margin`` (routing room) and ``half_gap`` on
    every side, but by ``half_gap`` alone on the side facing ``edge`` (a connector sits
    flush with its board edge: no tracks pass between them)."""
    g = margin + half_gap
    out = np.array(box, dtype=float) + (-g, -g, g, g)
    k = {"left": 0, "top": 1, "right": 2, "bottom": 3}.get(edge or "")
    if k is not None:
        out[k] = box[k] + (-half_gap if k < 2 else half_gap)
    return out


def side_of(part: Part, flipped: int) -> str:
    if not flipped:
        return part.side
    return "back" if part.side == "front" else "front"


def angle_of(part: Part, q: int) -> float:
    """KiCad's orientation for ``q`` quarter turns: (-180, 180]."""
    return {0: 0.0, 1: 90.0, 2: 180.0, 3: -90.0}[q % 4]


def outline_at(part: Part, pose) -> object:
    """The courtyard polygon in board coordinates for ``pose``."""
    x, y, q, f = pose
    return shapely.transform(part.outline, lambda p: turn(p, q, f) + np.array([x, y]))


def pads_at(part: Part, pose) -> np.ndarray:
    x, y, q, f = pose
    return turn(part.pads, q, f) + np.array([x, y])


def facing_quarter(part: Part, edge: str) -> int:
    """The quarter turn (front side) that makes a connector's ``facing`` point out of
    the board through ``edge``; without a facing, one that lays the part's long side
    along the edge."""
    want = {"left": (-1, 0), "right": (1, 0), "top": (0, -1), "bottom": (0, 1)}[edge]
    if part.facing is not None:
        best = max(range(4), key=lambda q: float(turn(np.array([part.facing]), q, 0)[0] @ np.array(want)))
        return best
    x1, y1, x2, y2 = part.box
    wide = (x2 - x1) >= (y2 - y1)
    along_x = edge in ("top", "bottom")
    return 0 if wide == along_x else 1
