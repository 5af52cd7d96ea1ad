"""Rip-up and reroute on a legal state (the end of each negotiation cycle, and the
best state at the end): each net still missing connections is routed through the
others' routes, the nets it crosses are ripped up and routed again around everything
else, and the change is kept unless more connections are missing than before.
Negotiation's cycles end in near-random states; this local search takes each a good
way further (StickHub after autoplace, seed 1, effort 1, from the first pass: 48
missing to 28). Functions of a `Router` (``self``)."""

from __future__ import annotations

import time

from .grid import STEP

PRICE = STEP * 20  # a repairing net's extra cost per step through another net's route
LAST_SHARE = 0.93  # of the time limit: the last repair, on the best state negotiation kept
PATIENCE = 3  # passes in a row that find nothing better before the search stops


def repair(self, share: float) -> None:
    """Rip-up and reroute, one failing net at a time (in routing order), on the state
    negotiation left: the net is routed through the others' routes at `PRICE` a step,
    the nets it crosses are ripped up and routed again around everything else. A
    change that leaves more connections missing is undone; one that leaves as many
    is kept (it moves the search on); the best state seen is the one kept. Passes go
    on until `PATIENCE` passes in a row find nothing better or ``share`` of the time
    limit is spent. ``stats["repair"]`` (the last run): connections missing before
    and after, attempts, changes kept, seconds."""
    t = time.monotonic()
    before = self._missing()
    best = (before, self.snapshot())
    tried = kept = stale = 0
    while self._missing() and stale < PATIENCE and not self._out_of_time(share):
        stale += 1
        for nid in sorted((n for n, u in self.unrouted.items() if u), key=lambda n: self.rank[n]):
            if self._out_of_time(share):
                break
            if not self.unrouted.get(nid):
                continue
            was, snap = self._missing(), self.snapshot()
            tried += 1
            self._progress(0, 1, f"rip-up and reroute: {was} connections missing")
            self.rip(nid)
            _, crossed = self.route_net(self.nets[nid], PRICE)
            for v in sorted(crossed, key=lambda n: self.rank[n]):
                self.route_net(self.nets[v], 0)
            if self._missing() > was:
                self.restore(snap)
                continue
            kept += 1
            if self._missing() < best[0]:
                best, stale = (self._missing(), self.snapshot()), 0
    if self._missing() > best[0]:
        self.restore(best[1])
    self.repaired = {"before": before, "after": self._missing(), "tried": tried, "kept": kept,
                     "s": round(time.monotonic() - t, 1)}
