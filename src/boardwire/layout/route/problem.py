"""What the router takes and gives: a routing problem in, tracks and vias out.

Plain data, no documents, and no engine's settings: the neutral terms of the router
seam (`engines`): every engine takes a `Problem` and gives a `Result`.
`boardwire.layout.route_board` builds a `Problem` from a board and writes a `Result`
back. Lengths are integer nanometres (KiCad's internal
unit), shapes are shapely geometries in nanometres, layers are indices into
`Problem.layers` (copper layers front to back, KiCad's names).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class NetRule:
    """What KiCad's net class (and the board's minimums) give one net, in nm."""

    width: int
    clearance: int
    via_diameter: int
    via_drill: int


@dataclass
class Obstacle:
    """Fixed copper, holes and drawings new tracks and vias keep away from.

    ``net`` is the problem's net id (0: no net; copper of a net is no obstacle to that
    net). ``clearance`` is the item's own clearance (its net class or a local
    override); the clearance that applies is the larger of both items' and the
    board's minimum, as in KiCad's DRC. ``hole``: the drilled hole, if any (holes keep
    ``hole_to_hole`` from every other hole, whatever their nets). ``kind`` is one of
    pad, track, via, graphic, text, hole (no copper: an NPTH hole). ``capsule``
    (x0, y0, x1, y1, r): set when the copper is exactly a round-ended segment (tracks,
    vias, round holes), drawn without polygons."""

    shape: object
    layers: tuple[int, ...]
    net: int = 0
    clearance: int = 0
    hole: object | None = None
    kind: str = "pad"
    capsule: tuple | None = None


@dataclass
class Keepout:
    """A rule area (keep-out) on ``layers``: tracks and/or vias not allowed inside."""

    polygon: object
    layers: tuple[int, ...]
    tracks: bool = True
    vias: bool = True


@dataclass
class Piece:
    """Copper a net already has, a route may start or end on: a pad (its copper
    ``shape`` and centre ``at``), a track (``shape`` a LineString centre line and its
    ``width``), a via (centre ``at``, ``width`` its diameter)."""

    kind: str
    layers: tuple[int, ...]
    shape: object
    at: tuple[int, int] | None = None
    width: int = 0
    label: str = ""


@dataclass
class Plane:
    """A pour of the net on a layer the router does not route on: a via anywhere
    inside ``polygon`` connects to it once the zone is filled."""

    layer: int
    polygon: object


@dataclass
class Net:
    """A net to route: ``clusters`` are the groups of its copper already connected
    (two or more: the router joins them), each a list of pieces."""

    id: int
    name: str
    rule: NetRule
    clusters: list[list[Piece]]
    planes: list[Plane] = field(default_factory=list)


@dataclass(frozen=True)
class Rules:
    """The board's design rules the router honours (nm): KiCad's Board Setup >
    Constraints (min clearance, copper to edge, hole to hole, hole clearance)."""

    min_clearance: int = 0
    edge_clearance: int = 0
    hole_to_hole: int = 250_000
    hole_clearance: int = 0


@dataclass
class Problem:
    layers: list[str]
    routable: tuple[int, ...]
    outline: object | None
    obstacles: list[Obstacle]
    keepouts: list[Keepout]
    nets: list[Net]
    rules: Rules
    bounds: tuple[int, int, int, int]  # min x, min y, max x, max y of the board (nm)


@dataclass
class Track:
    start: tuple[int, int]
    end: tuple[int, int]
    width: int
    layer: int
    net: int


@dataclass
class Via:
    at: tuple[int, int]
    diameter: int
    drill: int
    net: int


@dataclass
class Unrouted:
    net: str
    between: tuple[str, str]
    reason: str


@dataclass
class Violation:
    """What the check of a result (`verify.check_result`) found wrong with one of its
    items: ``kind`` "track" or "via", its index in the result's ``tracks`` or
    ``vias``, its net's name ("" for a net id the problem does not have) and why."""

    kind: str
    index: int
    net: str
    reason: str


@dataclass
class Result:
    """What an engine gives: new ``tracks`` and ``vias``, connections ``routed`` of
    ``total`` and the ``unrouted`` ones, seconds, the grid ``pitch`` (nm; 0 for an
    engine without a grid) and its own ``stats``. The seam (`engines.run`) sets
    ``engine`` (its name) and ``violations`` (what its check found)."""

    tracks: list[Track]
    vias: list[Via]
    total: int  # connections to make (KiCad's unconnected count before)
    routed: int
    unrouted: list[Unrouted]
    seconds: float
    pitch: int
    stats: dict = field(default_factory=dict)
    engine: str = ""
    violations: list[Violation] = field(default_factory=list)

    @property
    def length(self) -> int:
        """Total length of the new tracks (nm)."""
        import math

        return int(sum(math.dist(t.start, t.end) for t in self.tracks))
