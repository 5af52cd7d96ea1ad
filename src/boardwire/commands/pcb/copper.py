"""pcb.* copper edits: tracks, routes with vias, vias, zones and their fill. Each is one
undo step; coordinates mm."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...errors import InvalidArgs
from ...registry import Context, command
from ...services.board import board_of
from ..common import EditArgs, Name, NetName, Point, Size, nm, pt
from ..results import Created
from .args import check_layer, check_polygon, net_code
from .results import Filled, Routed, Tracks


class TrackArgs(EditArgs):
    points: list[Point] = Field(min_length=2, max_length=1000, description="Polyline; one segment per pair of points")
    width: Size
    layer: str = "F.Cu"
    net: NetName | None = None


def _no_zero_segments(points: list) -> None:
    """A zero-length segment is invisible and only clutters DRC: refuse it."""
    for i, (p, q) in enumerate(zip(points, points[1:])):
        if pt(p) == pt(q):
            raise InvalidArgs(f"points {i} and {i + 1} are the same: a segment needs length",
                              errors=[{"loc": f"points.{i + 1}", "msg": "zero-length segment", "type": "value"}])


@command("pcb.addTrack", kind="edit", args=TrackArgs, result=Tracks, units="mm",
         examples=({"path": "b.kicad_pcb", "points": [[100, 50], [110, 50], [110, 60]], "width": 0.25, "layer": "F.Cu", "net": "GND"},))
def add_track(ctx: Context, a: TrackArgs) -> dict:
    """Add a track (one segment per pair of consecutive points) on one copper layer."""
    _no_zero_segments(a.points)
    board = board_of(ctx, a.path)
    check_layer(board, a.layer, copper=True)
    net = net_code(board, a.net)
    ids = []
    for p, q in zip(a.points, a.points[1:]):
        t = board.add_track(pt(p), pt(q), nm(a.width), a.layer, net)
        ids.append(t.uuid)
    ctx.created(*ids)
    return {"summary": f"{len(ids)} segment{'s' if len(ids) != 1 else ''} on {a.layer}", "ids": ids}


class RouteArgs(EditArgs):
    points: list[Point] = Field(min_length=2, max_length=1000)
    layers: list[str] = Field(min_length=1, max_length=1000, description="Layer of each segment (one per pair of points), or one for all")
    width: Size
    net: NetName | None = None
    via_size: Size | None = Field(None, description="Default: the net class's via diameter")
    via_drill: Size | None = Field(None, description="Default: the net class's via drill")


@command("pcb.route", kind="edit", args=RouteArgs, result=Routed, units="mm",
         examples=({"path": "b.kicad_pcb", "points": [[100, 50], [110, 50], [110, 60]], "layers": ["F.Cu", "B.Cu"], "width": 0.25, "net": "SDA"},))
def route(ctx: Context, a: RouteArgs) -> dict:
    """Route a polyline that may change layer: a through via is added at every point where consecutive segments change layer."""
    n = len(a.points) - 1
    layers = a.layers * n if len(a.layers) == 1 else a.layers
    if len(layers) != n:
        raise InvalidArgs(f"{n} segments but {len(a.layers)} layers",
                          errors=[{"loc": "layers", "msg": f"need 1 or {n}", "type": "value"}])
    _no_zero_segments(a.points)
    board = board_of(ctx, a.path)
    for layer in set(layers):
        check_layer(board, layer, copper=True)
    net = net_code(board, a.net)
    size, drill = _via_size(ctx, a.path, a.net, a.via_size, a.via_drill)
    ids, vias = [], []
    for i, (p, q) in enumerate(zip(a.points, a.points[1:])):
        ids.append(board.add_track(pt(p), pt(q), nm(a.width), layers[i], net).uuid)
        if i + 1 < n and layers[i + 1] != layers[i]:
            v = board.add_via(pt(q), size, drill, net=net)
            vias.append(v.uuid)
    ctx.created(*ids, *vias)
    return {"summary": f"{len(ids)} segments, {len(vias)} vias", "ids": ids, "vias": vias}


class ViaArgs(EditArgs):
    at: Point
    size: Size | None = Field(None, description="Pad diameter; default: the net class's")
    drill: Size | None = Field(None, description="Default: the net class's")
    net: NetName | None = None


@command("pcb.addVia", kind="edit", args=ViaArgs, result=Created, units="mm",
         examples=({"path": "b.kicad_pcb", "at": [110, 60], "net": "GND"},))
def add_via(ctx: Context, a: ViaArgs) -> dict:
    """Add a through via."""
    board = board_of(ctx, a.path)
    net = net_code(board, a.net)
    size, drill = _via_size(ctx, a.path, a.net, a.size, a.drill)
    v = board.add_via(pt(a.at), size, drill, net=net)
    ctx.created(v.uuid)
    return {"summary": f"via at {a.at}", "id": v.uuid}


class ZoneArgs(EditArgs):
    outline: list[Point] = Field(min_length=3, max_length=10000)
    layer: str = "F.Cu"
    net: NetName | None = Field(None, description="Net name, e.g. GND")
    clearance: float = Field(0.5, ge=0, le=100)
    min_width: Size = 0.25
    priority: int = Field(0, ge=0, le=1_000_000)
    name: str | None = Field(None, max_length=1000)
    pads: Literal["thermal", "solid", "thermal_tht"] = Field("thermal", description="Pad connection: thermal reliefs, solid, or reliefs on THT pads only")


@command("pcb.addZone", kind="edit", args=ZoneArgs, result=Created, units="mm",
         examples=({"path": "b.kicad_pcb", "outline": [[0, 0], [50, 0], [50, 30], [0, 30]], "layer": "B.Cu", "net": "GND"},))
def add_zone(ctx: Context, a: ZoneArgs) -> dict:
    """Add a copper zone (unfilled; run pcb.fillZones)."""
    board = board_of(ctx, a.path)
    check_layer(board, a.layer, copper=True)
    net_code(board, a.net)
    check_polygon(a.outline, "outline")
    z = board.add_zone([pt(p) for p in a.outline], a.layer, a.net or "", clearance=nm(a.clearance),
                       min_thickness=nm(a.min_width), priority=a.priority, name=a.name, pads=a.pads)
    ctx.created(z.uuid)
    return {"summary": f"zone on {a.layer} for {a.net or 'no net'}", "id": z.uuid}


def _via_size(ctx: Context, path: str, net: str | None, size: float | None,
              drill: float | None) -> tuple[int, int]:
    """Via diameter and drill (nm): given, else the net's class's as the DRC and the
    router read it (`geometry.rules.Rules.effective`: the project as the session has
    it, or a KiCad 5 board's own classes; the Default class's where the class sets
    none, else KiCad's default)."""
    from ...services.rules import session_rules

    od = ctx.session.get(path, "board", ctx.actor)
    cls = session_rules(ctx, od).effective(net or "")
    size_nm = nm(size) if size is not None else cls.via_diameter
    drill_nm = nm(drill) if drill is not None else cls.via_drill
    if drill_nm >= size_nm:
        raise InvalidArgs("the via drill must be smaller than its diameter",
                          errors=[{"loc": "drill", "msg": "not smaller than size", "type": "value"}])
    return size_nm, drill_nm


class FillArgs(EditArgs):
    ids: list[Name] | None = Field(None, max_length=10000, description="Zones to fill (default all)")


@command("pcb.fillZones", kind="edit", args=FillArgs, result=Filled, long=True)
def fill_zones(ctx: Context, a: FillArgs) -> dict:
    """Fill (refill) copper zones with KiCad's own filler (pcbnew in the system Python) and keep the fills in the board."""
    from ...services.zones import fill

    return fill(ctx, a.path, a.ids or [])
