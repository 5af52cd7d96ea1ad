"""The results of pcb.* (see `boardwire.commands.results`): mm, degrees, seconds."""

from __future__ import annotations

from pydantic import Field

from ..results import XY, Created, Degrees, Edited, Mm, OpenRow, Row, Seconds, Typed


class Placed(Created):
    pads: int
    new_nets: list[str] = Field(description="Nets the board did not have (often a typo)")


class Moved(Edited):
    at: XY = Field(description="Where it is now, [x, y] mm (a footprint's anchor)")


class Rotated(Edited):
    angle: Degrees


class Flipped(Edited):
    side: str = Field(description="front or back")


class Deleted(Edited):
    deleted: list[str] = Field(description="Ids")


class Swapped(Edited):
    dropped_pads: list[str] = Field(description="Pads of the old footprint without a match")


class Tracks(Edited):
    ids: list[str] = Field(description="One segment per pair of points")


class Routed(Tracks):
    vias: list[str] = Field(description="Ids of the vias added where the layer changes")


class Filled(Edited):
    zones: int = Field(description="Zones filled")


# -- placement --------------------------------------------------------------------------

class DecouplingCap(Row):
    """A decoupling capacitor and the IC pin it serves (given by ``decouple``, else
    assigned: layout/place/decoupling.py)."""

    capacitor: str
    ic: str
    pin: str = Field(description="REF.PIN it serves")
    net: str
    distance: Mm = Field(description="Its supply pad to the pin's nearest pad, copper edge to edge (mm)")
    target: Mm = Field(description="mm: 2 for a small capacitor, 5 for a bulk one (4.7 uF and more)")
    beyond: bool = Field(description="distance > target")


class Score(Row):
    """A placement judged: courtyard overlaps, parts off the board or on copper art,
    ratsnest, routability, decoupling distances."""

    overlaps: int = Field(description="Courtyard pairs overlapping")
    overlapping: list[list[str]] = Field(description="The pairs (the first 50)")
    overlaps_ignored_by_project: bool
    off_board: int
    off_board_parts: list[str]
    on_art: int = Field(description="Parts with a pad on copper or mask art not theirs")
    on_art_parts: list[str]
    ratsnest_length: Mm
    routability: float = Field(description="0..1")
    peak_demand: float
    crossings: int = Field(description="Ratsnest crossings")
    decoupling: list[DecouplingCap]


class ScoreResult(Typed, Score):
    pass


class TrialRoute(Row):
    routed: int
    total: int


class Autoplaced(Edited, Score):
    moved: int
    moved_references: list[str]
    unplaced: list[str] = Field(description="Found no free spot; left where they were")
    locked: list[str]
    legends_moved: int
    legends_unplaced: list[str]
    seconds: Seconds
    off_board_fixed: list[str] = Field(description="Parts off the board that were not placed here")
    route_trials: list[TrialRoute] = None
    trial_kept: int | None = Field(None, description="1-based (null when no trial ran)")


# -- routing ----------------------------------------------------------------------------

class UnroutedConnection(Row):
    net: str
    between: list[str]
    reason: str


class RouteViolation(Row):
    kind: str = Field(description="track or via")
    net: str
    reason: str
    start: XY = None
    end: XY = None
    at: XY = None


class Autorouted(Edited):
    routed: int
    total: int
    completion: float = Field(description="percent")
    unrouted: list[UnroutedConnection] = Field(description="The first 200")
    segments: int
    vias: int
    length: float = Field(description="Track added, mm")
    seconds: Seconds
    pitch: float = Field(description="The routing grid, mm")
    engine: str = Field(description="The router that ran (`layout.route.engines`)")
    violations: list[RouteViolation] = Field(description="Items the router's own check failed (the first 200)")


class DsnWritten(Typed):
    output: str
    bytes: int


class SesImported(Edited):
    added: int
    removed: int
    kept: int
    outside_outline: int
    unknown_nets: list[str]
    moved_footprints_ignored: list[str]


# -- rules ------------------------------------------------------------------------------

class NetClassSet(Edited):
    netclass: OpenRow = Field(description="The class as the project now holds it (mm)")
    project: str


class RulesSet(Edited):
    rules: dict[str, float] = Field(description="The rules set, mm")
    project: str
