"""Rip-up and reroute on a legal state (the end of each negotiation cycle, and the
best state at the end): each net still missing connections is routed through the
others' routes, the nets it crosses are ripped up and routed again around everything
else, and the change is kept unless more connections are missing than before.
Negotiation's cycles end in near-random states; this local search takes each a good
way further (StickHub after autoplace, seed 1, effort 1, from the first pass: 48
missing to 28). A function of an `engine.Router` (``router``), through its public
methods; `Router.repair` runs it."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .grid import STEP

if TYPE_CHECKING:
    from .engine import Router

PRICE = STEP * 20  # a repairing net's extra cost per step through another net's route
LAST_SHARE = 0.93  # of the time limit: the last repair, on the best state negotiation kept
PATIENCE = 3  # passes in a row that find nothing better before the search stops


def repair(router: Router, share: float) -> dict:
    """Rip-up and reroute, one failing net at a time (in routing order), on the state
    negotiation left: the net is routed through the others' routes at `PRICE` a step,
    the nets it crosses are ripped up and routed again around everything else. A
    change that leaves more connections missing is undone; one that leaves as many
    is kept (it moves the search on); the best state seen is the one kept. Passes go
    on until `PATIENCE` passes in a row find nothing better or ``share`` of the time
    limit is spent. Returns the statistics (``stats["repair"]`` of the last run):
    connections missing before and after, attempts, changes kept, seconds."""
    t = time.monotonic()
    before = router.missing()
    best = (before, router.snapshot())
    tried = kept = stale = 0
    while router.missing() and stale < PATIENCE and not router.out_of_time(share):
        stale += 1
        for nid in sorted((n for n, u in router.unrouted.items() if u), key=lambda n: router.rank[n]):
            if router.out_of_time(share):
                break
            if not router.unrouted.get(nid):
                continue
            was, snap = router.missing(), router.snapshot()
            tried += 1
            router.report(0, 1, f"rip-up and reroute: {was} connections missing")
            router.rip(nid)
            _, crossed = router.route_net(router.nets[nid], PRICE)
            for v in sorted(crossed, key=lambda n: router.rank[n]):
                router.route_net(router.nets[v], 0)
            if router.missing() > was:
                router.restore(snap)
                continue
            kept += 1
            if router.missing() < best[0]:
                best, stale = (router.missing(), router.snapshot()), 0
    if router.missing() > best[0]:
        router.restore(best[1])
    return {"before": before, "after": router.missing(), "tried": tried, "kept": kept,
            "s": round(time.monotonic() - t, 1)}
