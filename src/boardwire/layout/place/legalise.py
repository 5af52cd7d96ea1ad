"""Legalisation: every movable part to the free spot nearest its annealed pose.

Parts go edge connectors first, then through-hole parts (they need a spot free on both
sides), each group largest first (fixed parts and obstacles are there before them); each keeps
its turn and side and takes the nearest anchor on the placement grid where its
courtyard box, grown by its routing room and the gap, meets no box already placed on
its side (through-hole parts on both) and lies inside the region (an exact shapely
test: the region may be any polygon), where its courtyard box alone meets no
obstacle (keep-outs) and its pads' boxes no copper or solder-mask art
(`Problem.art`). The search is over candidate anchors sorted by distance, in
windows that grow to the whole region (from the part's own size); in each window the
part tries its annealed turn and side with its routing room, then without it, then
its other turns and side, before the window grows. A part that finds
no spot anywhere tries every turn and side once more with a 20 µm gap only (a full
board cut into pieces by the parts before it); parts that find none stay where they
are, and the others are placed again with them there from the start (so none lands
over them). Silkscreen that stays (`Problem.silk`)
bars a courtyard box only in the first windows, up to `SILK_WINDOWS` times the first
one: past that a part goes over it (a part placed near its pose beats a silkscreen
finding, and a search of the whole board for every part blocked by it would cost
minutes on a full board). Boxes are conservative:
two parts whose boxes keep the gap have courtyards that do too.
"""

from __future__ import annotations

import copy
import time

import numpy as np
import shapely

from .poses import box_of, facing_quarter, grown_box, pad_boxes_of
from .problem import OutOfTime, Part, Problem

CHUNK = 4096
FIRST_CHUNK = 128
BATCH = 1 << 20  # anchor x pad x art comparisons at a time
LAST_GAP = 20_000.0  # nm: the courtyard gap of the last resort
SILK_WINDOWS = 4  # silkscreen kept off in windows up to this many times the first
PASSES = 3  # legalising passes at most (parts that found no spot kept from the start)


class Board:
    """Boxes placed so far per side, and the region."""

    def __init__(self, problem: Problem):
        self.region = problem.region
        shapely.prepare(self.region)
        self.bounds = problem.region.bounds
        self.boxes = {"front": [], "back": []}
        # obstacles (keep-outs) bar a part's courtyard, not its room; art bars its pads
        self.fixed = {side: _bounds(problem.obstacles, side) for side in ("front", "back")}
        self.silk = {side: _bounds(problem.silk, side) for side in ("front", "back")}
        self.art = {side: _bounds(problem.art, side) for side in ("front", "back")}
        self.gap = problem.gap
        half = problem.gap / 2
        for part in problem.parts:  # fixed parts are there before any other
            if not part.movable:
                x, y, q, f = part.pose
                self.add(np.array(box_of(part, q, f)) + (x - half, y - half, x + half, y + half), sides_of(part, f))

    def pads_clear(self, cand: np.ndarray, pads: np.ndarray, sides) -> np.ndarray:
        """Which candidate anchors (m, 2) keep the pad boxes ``pads`` (k, 4, relative
        to the anchor) off the art on ``sides``."""
        ok = np.ones(len(cand), dtype=bool)
        for s in sides:
            art = self.art[s]
            if not (len(art) and len(pads) and len(cand)):
                continue
            p = np.asarray(pads, dtype=float)
            # anchors x pads x art boxes at once, in batches of about a million
            step = max(1, BATCH // (len(p) * len(art)))
            for a in range(0, len(cand), step):
                c = cand[a:a + step, None, None, :]
                hit = (c[..., 0] + p[None, :, None, 0] < art[None, None, :, 2]) \
                    & (c[..., 0] + p[None, :, None, 2] > art[None, None, :, 0]) \
                    & (c[..., 1] + p[None, :, None, 1] < art[None, None, :, 3]) \
                    & (c[..., 1] + p[None, :, None, 3] > art[None, None, :, 1])
                ok[a:a + step] &= ~hit.any(axis=(1, 2))
        return ok

    def add_left(self, part: Part) -> None:
        """A movable part that found no spot stays where it was (`Part.pose`): the
        parts placed after it keep off it."""
        x, y, q, f = part.pose
        half = self.gap / 2
        now = np.array(part.box_now) if part.box_now is not None else np.array(box_of(part, q, f)) + (x, y, x, y)
        self.add(now + (-half, -half, half, half), sides_of(part, f))

    @classmethod
    def around_placed(cls, problem: Problem, boxes: dict) -> Board:
        """The region, obstacles, art and fixed parts, and the movable parts that
        found no spot (absent from ``boxes``: they stay where they were)."""
        board = cls(problem)
        for i, part in enumerate(problem.parts):
            if part.movable and i not in boxes:
                board.add_left(part)
        return board

    def with_placed(self, problem: Problem, poses: dict, boxes: dict, skip=()) -> Board:
        """A copy of this board (region, obstacles, fixed and left parts) plus the box of
        every placed part (``boxes``: index -> box relative to the anchor, at
        ``poses``) but those of ``skip``."""
        board = copy.copy(self)
        board.boxes = {side: list(placed) for side, placed in self.boxes.items()}
        for k, rel in boxes.items():
            if k not in skip:
                x, y = poses[k][:2]
                board.add(rel + np.array([x, y, x, y]), sides_of(problem.parts[k], poses[k][3]))
        return board

    def add(self, box, sides) -> None:
        for s in sides:
            self.boxes[s].append(np.asarray(box, dtype=float))

    def free(self, cand: np.ndarray, rel, sides, bare, silk: bool = True) -> np.ndarray:
        """Which candidate anchors (m, 2) leave box ``rel`` (relative to the anchor)
        clear of every placed box on ``sides``, the courtyard box ``bare`` clear of
        the obstacles there (and of the silkscreen, when ``silk``), and ``rel`` inside
        the region."""
        ok = np.ones(len(cand), dtype=bool)
        for s in sides:
            barred = ((np.array(self.boxes[s]).reshape(-1, 4), rel), (self.fixed[s], bare)) \
                + (((self.silk[s], bare),) if silk else ())
            for b, r in barred:
                if len(b):
                    ok &= ~_hits(cand, r, b)
        x1, y1, x2, y2 = (cand[:, 0] + rel[0], cand[:, 1] + rel[1], cand[:, 0] + rel[2], cand[:, 1] + rel[3])
        bx1, by1, bx2, by2 = self.bounds
        ok &= (x1 >= bx1) & (y1 >= by1) & (x2 <= bx2) & (y2 <= by2)
        idx = np.flatnonzero(ok)
        if len(idx):
            inside = shapely.contains(self.region, shapely.box(x1[idx], y1[idx], x2[idx], y2[idx]))
            ok[idx[~inside]] = False
        return ok


def _bounds(shapes: dict[str, list], side: str) -> np.ndarray:
    return np.array([shapely.bounds(g) for g in shapes.get(side, [])]).reshape(-1, 4)


def _hits(cand: np.ndarray, rel, boxes: np.ndarray) -> np.ndarray:
    """Which anchors put box ``rel`` over any of ``boxes`` (k, 4)."""
    x1, y1 = cand[:, 0] + rel[0], cand[:, 1] + rel[1]
    x2, y2 = cand[:, 0] + rel[2], cand[:, 1] + rel[3]
    hit = ((x1[:, None] < boxes[None, :, 2]) & (x2[:, None] > boxes[None, :, 0])
           & (y1[:, None] < boxes[None, :, 3]) & (y2[:, None] > boxes[None, :, 1]))
    return hit.any(axis=1)


def candidates(target, grid: float, radius: float, edge: str | None, bounds, rel) -> np.ndarray:
    """Grid anchors within ``radius`` of ``target``, nearest first (an edge
    connector's only along its edge, flush with it)."""
    tx, ty = target
    # at most about a million anchors: a coarser step (a multiple of the grid) far out
    grid = grid * max(1, int(np.ceil((2 * radius / grid + 1) / 1000)))
    k = int(np.ceil(radius / grid))
    steps = np.arange(-k, k + 1) * grid
    bx1, by1, bx2, by2 = bounds
    if edge in ("left", "right"):
        x = bx1 - rel[0] if edge == "left" else bx2 - rel[2]
        ys = np.round((ty + steps) / grid) * grid
        pts = np.column_stack((np.full(len(ys), x), ys))
    elif edge in ("top", "bottom"):
        y = by1 - rel[1] if edge == "top" else by2 - rel[3]
        xs = np.round((tx + steps) / grid) * grid
        pts = np.column_stack((xs, np.full(len(xs), y)))
    else:
        gx = np.round((tx + steps) / grid) * grid
        gy = np.round((ty + steps) / grid) * grid
        xx, yy = np.meshgrid(gx, gy)
        pts = np.column_stack((xx.ravel(), yy.ravel()))
    d = np.hypot(pts[:, 0] - tx, pts[:, 1] - ty)
    order = np.lexsort((pts[:, 1], pts[:, 0], d))  # ties broken by position: deterministic
    return pts[order]


def sides_of(part: Part, flipped: int) -> tuple[str, ...]:
    """The sides a part's box takes at flip ``flipped`` (a through-hole part both)."""
    if part.through:
        return ("front", "back")
    side = part.side if not flipped else ("back" if part.side == "front" else "front")
    return (side,)


def legalise(problem: Problem, poses: list, margins: np.ndarray, grid: float,
             progress=None, deadline: float | None = None,
             boxes: dict | None = None) -> tuple[dict[int, tuple], list[int]]:
    """Legal poses for the movable parts (index -> pose) and the parts that found no
    spot (they stay where they are, `Part.pose`); ``boxes``, when given, gets the box each part
    placed was placed with (index -> x1, y1, x2, y2 relative to its anchor, nm: its
    courtyard box grown by the room and gap it got). When parts find no spot, the
    others are placed again with those kept where they are from the start (up to
    `PASSES` times), so no part placed lands over one that stays. Raises `OutOfTime`
    when ``deadline`` (``time.monotonic()``) passes first (a board with no room for
    its parts, say a courtyard clearance of centimetres, would otherwise search every
    anchor of the board, turn and side for each)."""
    left: list[int] = []
    for _ in range(PASSES):
        got: dict | None = {} if boxes is not None else None
        out, failed = _pass(problem, poses, margins, grid, progress, deadline, got, left)
        new = [i for i in failed if i not in left]
        if not new:
            break
        left += new
    if boxes is not None:
        boxes.update(got)
    return out, failed


def _pass(problem: Problem, poses: list, margins: np.ndarray, grid: float, progress, deadline, boxes,
          left: list[int]) -> tuple[dict[int, tuple], list[int]]:
    """One legalising pass, the parts of ``left`` kept where they are from the start."""
    board = Board(problem)
    parts = problem.parts
    half = problem.gap / 2
    order = sorted((i for i, p in enumerate(parts) if p.movable),
                   key=lambda i: (parts[i].edge is None, not parts[i].through, -_area(parts[i]), parts[i].ref))
    out: dict[int, tuple] = {}
    failed: list[int] = []
    for i in left:
        board.add_left(parts[i])
        out[i] = poses[i]
        failed.append(i)
    kept = set(left)
    order = [i for i in order if i not in kept]

    def out_of_time() -> OutOfTime:
        return OutOfTime(len(out) - len(failed), len(order) + len(left))

    bx1, by1, bx2, by2 = board.bounds
    whole = float(np.hypot(bx2 - bx1, by2 - by1))
    for n, i in enumerate(order):
        part = parts[i]
        x, y, q, f = poses[i]
        tries = [(q, f, margins[i]), (q, f, 0.0)]
        if part.edge is None:
            tries += [(q2, f2, 0.0) for f2 in ((f, 1 - f) if part.flippable else (f,))
                      for q2 in range(4) if (q2, f2) != (q, f)]
        else:
            tries = [(facing_quarter(part, part.edge), 0, margins[i]), (facing_quarter(part, part.edge), 0, 0.0)]
        # every try near the annealed spot before any farther out; as a last resort
        # (a full board cut into pieces) every turn and side with a hair's gap
        last = [(q2, f2, 0.0) for f2 in ((0, 1) if part.flippable else (f,)) for q2 in range(4)] \
            if part.edge is None else tries[1:]
        spot = None
        if _past(deadline):
            raise out_of_time()
        for phase, gap in ((tries, half), (last, LAST_GAP / 2)):
            radius = first = max(4 * grid, box_size(part.box))
            while spot is None:
                # silkscreen that stays is kept off while the window is small: a part
                # that finds no spot off it nearby goes over it (a silkscreen finding)
                # rather than far away or nowhere
                keep_silk = gap == half and radius <= SILK_WINDOWS * first
                for q2, f2, m in phase:
                    bare = np.array(box_of(part, q2, f2), dtype=float)
                    rel = grown_box(bare, m, gap, part.edge)
                    sides = sides_of(part, f2)
                    spot = _first_free(board, candidates((x, y), grid, min(radius, whole), part.edge,
                                                          board.bounds, rel), rel, sides, bare,
                                       pad_boxes_of(part, q2, f2), keep_silk)
                    if spot is not None:
                        board.add(rel + np.array([spot[0], spot[1], spot[0], spot[1]]), sides)
                        out[i] = (float(spot[0]), float(spot[1]), q2, f2)
                        if boxes is not None:
                            boxes[i] = rel
                        break
                if radius >= whole:
                    break
                if _past(deadline):
                    raise out_of_time()
                radius *= 2
            if spot is not None:
                break
        if spot is None:
            failed.append(i)
            out[i] = poses[i]
            board.add_left(part)
        if progress is not None and n % 8 == 0:
            progress(n / max(1, len(order)), f"legalising: {n} of {len(order)} parts")
    return out, failed


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() > deadline


def _first_free(board: Board, cand: np.ndarray, rel, sides, bare, pads, silk: bool = True):
    """The first of the anchors ``cand`` where box ``rel`` is free (`Board.free`) and
    the pads keep off the art (`Board.pads_clear`), or None."""
    found = free_spots(board, cand, rel, sides, bare, pads, 1, silk)
    return found[0] if len(found) else None


def free_spots(board: Board, cand: np.ndarray, rel, sides, bare, pads, k: int, silk: bool = True) -> np.ndarray:
    """The first ``k`` (at most) of the anchors ``cand`` where box ``rel`` is free
    (`Board.free`, off the silkscreen when ``silk``) and the pads keep off the art
    (`Board.pads_clear`), in order."""
    found, start, size = [], 0, FIRST_CHUNK
    while start < len(cand):  # chunks that grow: the nearest anchors are often free
        chunk = cand[start:start + size]
        start += size
        size = min(2 * size, CHUNK)
        ok = np.flatnonzero(board.free(chunk, rel, sides, bare, silk))
        ok = ok[board.pads_clear(chunk[ok], pads, sides)]
        found.extend(chunk[ok[:k - len(found)]])
        if len(found) >= k:
            break
    return np.array(found).reshape(-1, 2)


def box_size(box) -> float:
    """The longer side of a box (x1, y1, x2, y2)."""
    x1, y1, x2, y2 = box
    return float(max(x2 - x1, y2 - y1))


def _area(part: Part) -> float:
    x1, y1, x2, y2 = part.box
    return (x2 - x1) * (y2 - y1)
