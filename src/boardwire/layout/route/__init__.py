"""The autorouter: a routing problem in, tracks and vias out (no documents here).

`engines` is the seam: routing engines by name over the neutral `problem` data
(`Problem` in, `Result` out), the options every caller gives (`RouteOptions`) and the
check every result passes (`engines.run`). The built-in engine is `engine.Router`
(`route` runs it alone, with its own `Options`).
"""

from .engine import Options, Router, route
from .engines import RouteOptions
from .problem import (Keepout, Net, NetRule, Obstacle, Piece, Plane, Problem, Result, Rules, Track,
                      Unrouted, Via, Violation)

__all__ = ["Keepout", "Net", "NetRule", "Obstacle", "Options", "Piece", "Plane", "Problem", "Result",
           "RouteOptions", "Router", "Rules", "Track", "Unrouted", "Via", "Violation", "route"]
