"""Placing in turns with trial routes: place, route a trial, rework the placement at
the connections the trial left unrouted (`layout.place.rework`), route again, and
keep the placement whose trial routed most.

The router is the caller's (``trial``; pcb.autoplace routes through the router seam,
`layout.route_board.route`): this module only writes poses and reads what
a trial reports (``routed``, ``total``, ``unrouted`` items with ``net`` and
``between``, two pad labels "REF-PAD", as the seam's `layout.route.Result` gives them). The
trials' tracks are never written; the board gets the kept placement only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable

from ..place import Result
from ..place.rework import rework


@dataclass
class Trial:
    """One trial route: connections ``routed`` of ``total`` on the placement tried."""

    routed: int
    total: int


def place_in_turns(bp, result: Result, trials: int, trial: Callable[[int], object], write: Callable[[Result], None],
                   grid: float, time_limit: float) -> tuple[Result, list[Trial], int]:
    """Route ``trial(k)`` (k = 0, 1, ...) up to ``trials`` times on ``bp``'s board,
    reworking the placement before each trial after the first (``write(result)``
    puts its poses on the board; rework gets ``time_limit`` s); stops early when a
    trial routes every connection. Returns the placement kept (written), each
    trial's counts and the index of the one kept."""
    problem = bp.problem
    refs = sorted(((p.ref, i) for i, p in enumerate(problem.parts)), key=lambda r: -len(r[0]))
    net_ids = {name: k for k, name in enumerate(problem.nets)}
    nets: set[int] = set()
    parts: set[int] = set()
    seen: list[Trial] = []
    best = (-1, result, 0)
    for k in range(trials):
        if k:
            poses = rework(problem, result.state, nets, parts, grid, time.monotonic() + time_limit)
            result = replace(result, poses=poses)
            write(result)
        got = trial(k)
        seen.append(Trial(got.routed, got.total))
        if got.routed > best[0]:
            best = (got.routed, result, k)
        if got.routed >= got.total:
            break
        for u in got.unrouted:
            if u.net in net_ids:
                nets.add(net_ids[u.net])
            for label in u.between:
                i = next((i for ref, i in refs if label.startswith(ref + "-")), None)
                if i is not None:
                    parts.add(i)
    if best[1] is not result:
        write(best[1])
    return best[1], seen, best[2]
