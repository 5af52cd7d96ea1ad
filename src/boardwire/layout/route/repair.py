"""Rip-up and reroute on the state negotiation leaves (`negotiate`): each net still
missing connections is routed through the others' routes, the nets it crosses are
ripped up and routed again around everything else, and the change is kept unless
more connections are missing than before. Negotiation's cycles end in near-random
states; this local search takes the best of them a few connections further (StickHub
after autoplace, seed 1: 21 missing to 16). Functions of a `Router` (``self``)."""

from __future__ import annotations

import time

from .grid import STEP
from .negotiate import _restore, _snapshot

PRICE = STEP * 20  # a repairing net's extra cost per step through another net's route
PATIENCE = 3  # passes in a row that find nothing better before the search stops


def repair(self, share: float) -> None:
    """Rip-up and reroute, one failing net at a time (in routing order), on the state
    negotiation left: the net is routed through the others' routes at `PRICE` a step,
    the nets it crosses are ripped up and routed again around everything else. A
    change that leaves more connections missing is undone; one that leaves as many
    is kept (it moves the search on); the best state seen is the one kept. Passes go
    on until `PATIENCE` passes in a row find nothing better or ``share`` of the time
    limit is spent. ``stats["repair"]``: connections missing before and after,
    attempts, changes kept, seconds."""
    t = time.monotonic()
    before = self._missing()
    best = (before, _snapshot(self))
    tried = kept = stale = 0
    while self._missing() and stale < PATIENCE and not self._out_of_time(share):
        stale += 1
        for nid in sorted((n for n, u in self.unrouted.items() if u), key=lambda n: self.rank[n]):
            if self._out_of_time(share):
                break
            if not self.unrouted.get(nid):
                continue
            was, snap = self._missing(), _snapshot(self)
            tried += 1
            self._progress(0, 1, f"rip-up and reroute: {was} connections missing")
            self.rip(nid)
            _, crossed = self.route_net(self.nets[nid], PRICE)
            for v in sorted(crossed, key=lambda n: self.rank[n]):
                self.route_net(self.nets[v], 0)
            if self._missing() > was:
                _restore(self, snap)
                continue
            kept += 1
            if self._missing() < best[0]:
                best, stale = (self._missing(), _snapshot(self)), 0
    if self._missing() > best[0]:
        _restore(self, best[1])
    self.repaired = {"before": before, "after": self._missing(), "tried": tried, "kept": kept,
                     "s": round(time.monotonic() - t, 1)}

