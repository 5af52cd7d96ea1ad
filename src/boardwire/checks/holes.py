"""Drilled holes too close: KiCad 9's ``hole_to_hole`` provider
(pcbnew/drc/drc_test_provider_hole_to_hole.cpp).

Drilled holes are the round holes of pads and every via's hole. KiCad walks the vias
(not micro vias) against all drilled holes, then the pads' round holes against all
drilled holes, with a fresh record of tested pairs for the second walk, so a pad hole
near a via hole is reported twice. Two holes whose centres are within epsilon are
``holes_co_located``; otherwise the gap between their edges below ``min_hole_to_hole -
epsilon`` is ``hole_to_hole`` (warnings by default). Oval holes (slots) are not tested.
"""

from __future__ import annotations

import numpy as np
import shapely

from ..geometry.constraints import Constraints
from .clearance import EPSILON
from .report import Violation, mm_text


def _drilled(it) -> bool:
    if it is None:
        return False
    if it.kind == "via":
        return it.hole is not None
    return it.kind == "pad" and bool(it.data.drill) and it.data.drill[0] == it.data.drill[1]


def hole_to_hole(model, cons: Constraints, scope=None) -> list[Violation]:
    rules = cons.rules
    need_board = rules.value("min_hole_to_hole")
    if need_board <= 0 and not rules.custom:
        return []
    items = model.items
    need_max = need_board if not rules.custom else max(need_board, cons.max_clearance())
    if scope is None:
        holes, pts, rad, tree = _hole_index(model)
        if not len(holes):
            return []
        src, tgt = tree.query(shapely.points(pts), predicate="dwithin",
                              distance=need_max + rad + rad.max() + EPSILON)
        a, b = holes[src], holes[tgt]
    else:
        ids = np.array([i for i in scope if model.cols.alive[i] and _drilled(items[i])], dtype=np.int64)
        if not len(ids):
            return []
        pts = shapely.points(np.array([items[i].pos for i in ids.tolist()], dtype=float))
        # a hole's centre lies within its item's copper, so within rmax of the box of
        # the item's core, which is what the index holds
        reach = need_max + max(items[i].hole_r for i in ids.tolist()) + model.index.max_hole() \
            + model.index.rmax() + EPSILON
        k, b = model.index.query_many(shapely.buffer(pts, reach, quad_segs=2))
        a = ids[k]
        drilled = np.array([_drilled(items[j]) for j in b.tolist()], dtype=bool)
        a, b = a[drilled] if len(b) else a[:0], b[drilled] if len(b) else b
    keep = a != b
    a, b = a[keep], b[keep]
    if not len(a):
        return []
    pa = np.array([items[i].pos for i in a.tolist()], dtype=float)
    pb = np.array([items[i].pos for i in b.tolist()], dtype=float)
    ra = np.array([items[i].hole_r for i in a.tolist()])
    rb = np.array([items[i].hole_r for i in b.tolist()])
    d = np.hypot(pa[:, 0] - pb[:, 0], pa[:, 1] - pb[:, 1])
    close = (d < EPSILON) | (np.maximum(0.0, d - ra - rb) < need_max - EPSILON)
    a, b = a[close], b[close]
    scope_set = None if scope is None else set(int(i) for i in scope)
    out: list[Violation] = []
    for first_pass in (True, False):
        seen: set = set()
        for x0, y0 in zip(a.tolist(), b.tolist()):
            for x, y in ((x0, y0), (y0, x0)) if scope is not None else ((x0, y0),):
                p, q = items[x], items[y]
                if first_pass and (p.kind != "via" or p.data.via_type == "micro"):
                    continue
                if not first_pass and p.kind != "pad":
                    continue
                pair = (min(x, y), max(x, y))
                if pair in seen:
                    continue
                seen.add(pair)
                if scope_set is not None and x not in scope_set and y not in scope_set:
                    continue
                v = _test(model, cons, p, q, need_board)
                if v is not None:
                    out.append(v)
    return out


def _hole_index(model):
    """Drilled holes (item ids), their centres and radii, and a tree of their
    centres (for a whole-board check)."""
    items = model.items
    holes = np.array([i for i in model.alive_ids(("pad", "via")).tolist() if _drilled(items[i])],
                     dtype=np.int64)
    pts = np.array([items[i].pos for i in holes.tolist()], dtype=float).reshape(-1, 2)
    rad = np.array([items[i].hole_r for i in holes.tolist()], dtype=float)
    tree = shapely.STRtree(shapely.points(pts)) if len(holes) else None
    return holes, pts, rad, tree


def _test(model, cons, a, b, need_board):
    rules = cons.rules
    d = float(np.hypot(a.pos[0] - b.pos[0], a.pos[1] - b.pos[1]))
    if d < EPSILON:
        if rules.severity("holes_co_located") == "ignore":
            return None
        return Violation("holes_co_located", rules.severity("holes_co_located"), "", [a, b], a.pos, 0.0, None)
    actual = max(0.0, d - a.hole_r - b.hole_r)
    need = float(cons.minimum("hole_to_hole", np.array([a.id]), need_board)[0]) - EPSILON
    if rules.severity("hole_to_hole") == "ignore" or need < 0 or actual >= need:
        return None
    return Violation("hole_to_hole", rules.severity("hole_to_hole"),
                     f"(board setup constraints min {mm_text(need)}; actual {mm_text(actual)})",
                     [a, b], a.pos, actual, need + EPSILON)
