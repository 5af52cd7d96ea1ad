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


def _drilled(model):
    out = []
    for it in model.items:
        if it is None:
            continue
        if it.kind == "via" and it.hole is not None:
            out.append(it)
        elif it.kind == "pad" and it.data.drill and it.data.drill[0] == it.data.drill[1]:
            out.append(it)
    return out


def hole_to_hole(model, cons: Constraints, scope=None) -> list[Violation]:
    rules = cons.rules
    holes = _drilled(model)
    if len(holes) < 2:
        return []
    need_board = rules.value("min_hole_to_hole")
    if need_board <= 0 and not rules.custom:
        return []
    pts = np.array([it.pos for it in holes], dtype=float)
    rad = np.array([it.hole_r for it in holes])
    tree = shapely.STRtree(shapely.points(pts))
    reach = need_board + rad + rad.max() + EPSILON
    src, tgt = tree.query(shapely.points(pts), predicate="dwithin", distance=reach)
    keep = src != tgt
    src, tgt = src[keep], tgt[keep]
    scope_set = None if scope is None else set(scope)
    out: list[Violation] = []
    for first_pass in (True, False):
        seen: set = set()
        for s, t in zip(src.tolist(), tgt.tolist()):
            a, b = holes[s], holes[t]
            if first_pass and (a.kind != "via" or a.data.via_type == "micro"):
                continue
            if not first_pass and a.kind != "pad":
                continue
            pair = (min(a.id, b.id), max(a.id, b.id))
            if pair in seen:
                continue
            seen.add(pair)
            if scope_set is not None and a.id not in scope_set and b.id not in scope_set:
                continue
            v = _test(model, cons, a, b, need_board)
            if v is not None:
                out.append(v)
    return out


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
