"""The autoplacer: a placement problem in, footprint poses out (no documents here).

`place` runs the engine (`engine`: annealing in `anneal`, with RUDY congestion from
`congestion` and the region's shape from `outside`, then `legalise`); `problem`
holds the data types, `poses` the turning and mirroring of shapes, `score` judges
poses (overlaps, off-board, ratsnest, routability, decoupling); `decoupling` says
which capacitor serves which IC pin, `snap` puts those left far next to it; `rework` moves parts
at the connections a trial route left unrouted.
"""

from .engine import place, routing_room
from .problem import EDGES, Decoupling, Options, OutOfTime, Part, Problem, Result

__all__ = ["EDGES", "Decoupling", "Options", "OutOfTime", "Part", "Problem", "Result", "place", "routing_room"]
