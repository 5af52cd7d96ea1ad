"""Negotiated congestion (PathFinder) and the bookkeeping it needs: the nets that
failed the walled first pass are routed again with the others' routes passable at a
price, collisions are found exactly, the nets near them move too every second round,
and the state is made legal and repaired (`Router.repair`) at the end of each cycle; the best
legal state seen is kept. Functions of an `engine.Router` (``router``), through its
public methods; `Router.negotiate` runs them."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .grid import STEP

if TYPE_CHECKING:
    from .engine import Router

FULL_EVERY = 2  # every second round, nets near the collisions are routed again too
# per effort: at most this many negotiation cycles, and how many cycles in a row may end
# no better than the best state before the rest are given up. A cycle's end state is a
# fresh draw more than a step (StickHub after autoplace, seed 1, connections missing
# after each of 30 cycles: 55, 61, 32, 30, 89, 56, 21, ... 15 at the 26th), so the
# limits are wide and the time limit is what usually ends a hard board's negotiation.
CYCLES = {1: (1, 1), 2: (40, 12), 3: (80, 24)}
NEGOTIATION_SHARE = 0.8  # of the time limit; the rest makes the state legal and repairs it


def negotiate(router: Router, failed: list[int], total: int) -> dict:
    """Negotiated congestion in cycles: PathFinder rounds on the failed nets (then every
    net in a collision, and every second round the nets near them), a price that grows
    each round and a history cost where collisions keep happening; then the state is
    made legal (the most colliding nets ripped up and routed around the rest) and
    repaired (`repair`, until 80% of the time limit). A
    cycle that leaves connections missing starts again from them, the history kept;
    cycles go on until the time limit's share, `CYCLES`' number for the effort, or its
    number of cycles in a row that found nothing better; the best legal state seen is
    the one kept. Returns the statistics (``cycles``: connections missing after each
    cycle)."""
    rounds = {1: 6, 2: 12, 3: 20}.get(router.o.effort, 12)
    cycles, patience = CYCLES.get(router.o.effort, CYCLES[2])
    best = (router.missing(), router.snapshot())
    first_missing = best[0]
    todo = set(failed)
    trace: list[tuple] = []
    done_rounds, stale, missing = 0, 0, []
    for _ in range(cycles):
        if not todo or router.out_of_time(NEGOTIATION_SHARE) or stale >= patience:
            break
        done_rounds += _rounds(router, todo, rounds, total, trace)
        _legalise(router)
        router.repair(NEGOTIATION_SHARE)
        missing.append(router.missing())
        stale += 1
        if router.missing() < best[0]:
            best, stale = (router.missing(), router.snapshot()), 0
        if not best[0]:
            break
        todo = {nid for nid, u in router.unrouted.items() if u}
    if router.missing() > best[0]:
        router.restore(best[1])
    return {"rounds": done_rounds, "first_pass_failed": len(failed), "first_pass_missing": first_missing,
            "cycles": missing, "s": round(time.monotonic() - router.t0, 2), "trace": trace}


def _rounds(router: Router, todo: set[int], rounds: int, total: int, trace: list) -> int:
    """PathFinder rounds until nothing collides or is missing; returns how many ran."""
    price = STEP * 4
    for it in range(rounds):
        if not todo or router.out_of_time(NEGOTIATION_SHARE):
            return it
        for nid in sorted(todo, key=lambda n: router.rank[n]):
            router.rip(nid)
            router.route_net(router.nets[nid], price, overlap=True)
        clash = _clashing(router, todo)
        short = {nid for nid, u in router.unrouted.items() if u}
        trace.append((len(clash), len(short), router.missing(), round(time.monotonic() - router.t0, 1)))
        if not clash and not short:
            return it + 1
        todo = clash | short
        if FULL_EVERY and it % FULL_EVERY == FULL_EVERY - 1:  # let nets out of the way move too
            todo |= _near(router, clash | short)
        price = min(int(price * 1.5), STEP * 5000)
        router.report(total - router.missing(), total,
                      f"negotiating: {len(clash)} nets collide, {len(short)} incomplete")
    return rounds


def _legalise(router: Router) -> None:
    """Rip up the most colliding nets until none collide, then route them around the
    others."""
    clash_counts = _clash_counts(router)
    ripped = []
    while clash_counts:
        worst = max(clash_counts, key=lambda n: (clash_counts[n], -router.rank[n]))
        router.rip(worst)
        ripped.append(worst)
        clash_counts = _clash_counts(router)
    for k, nid in enumerate(sorted(ripped, key=lambda n: router.rank[n])):
        router.report(0, 1, f"routing {len(ripped) - k} ripped-up nets around the others")
        router.rip(nid)
        router.route_net(router.nets[nid], 0, full=not router.out_of_time())


def _near(router: Router, nets: set[int]) -> set[int]:
    """Nets with routes inside the boxes of ``nets``' routes and clusters."""
    boxes = []
    for nid in nets:
        pts = [p for kind, geom, _ in router.placed.get(nid, []) for p in geom]
        pts += [a for acc in router.access(router.nets[nid]) for a in acc.anchors]
        if pts:
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
    out = set()
    for nid, items in router.placed.items():
        for _, geom, _ in items:
            if any(b[0] <= p[0] <= b[2] and b[1] <= p[1] <= b[3] for p in geom for b in boxes):
                out.add(nid)
                break
    return out

def _clash_counts(router: Router, among: set[int] | None = None) -> dict[int, int]:
    """Per net, how many of its placed items collide with another net's (only the
    items of nets ``among`` are checked, and their partners counted)."""
    out: dict[int, int] = {}
    for nid in sorted(router.placed if among is None else among & set(router.placed)):
        r = router.nets[nid].rule
        for kind, geom, layer in router.placed[nid]:
            w = r.width if kind == "track" else r.via_diameter
            hit = router.checker.conflicts(nid, kind, geom, w, r.clearance,
                                           r.via_drill if kind == "via" else 0, layer)
            hit.discard(nid)
            if hit:
                out[nid] = out.get(nid, 0) + 1
                if among is not None:
                    for other in hit:
                        out[other] = out.get(other, 0) + 1
    return out

def _clashing(router: Router, among: set[int]) -> set[int]:
    return set(_clash_counts(router, among))
