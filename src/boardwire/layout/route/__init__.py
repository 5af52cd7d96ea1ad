"""The autorouter: a routing problem in, tracks and vias out (no documents here).

`route` runs the engine (`engine`); `problem` holds the data types.
"""

from .engine import Router, route
from .problem import (Keepout, Net, NetRule, Obstacle, Options, Piece, Plane, Problem, Result,
                      Rules, Track, Unrouted, Via)

__all__ = ["Keepout", "Net", "NetRule", "Obstacle", "Options", "Piece", "Plane", "Problem", "Result",
           "Router", "Rules", "Track", "Unrouted", "Via", "route"]
