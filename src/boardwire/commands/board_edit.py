"""pcb.*: edits of a board. Each is one undo step; coordinates mm, angles degrees."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ..documents import FootprintFile
from ..documents.board import Board, Footprint, Zone
from ..documents.footprint_text import FootprintText, find_text, part_by_uuid, place_text
from ..documents.libraries import footprint_path
from ..errors import InvalidArgs, NotFound
from ..registry import Context, command
from .board_query import board_of, footprint_of
from .common import Angle, Coord, EditArgs, Name, Point, Result, Size, mm_pt, nm, pt

Gap = Annotated[float, Field(ge=0, le=100, description="mm")]

UNITS = "mm, degrees"


def _place_field(fp: Footprint, a) -> list[str]:
    """Move, turn, show or hide the text of field ``a.field`` of ``fp``."""
    if a.field is None:
        raise InvalidArgs("at, angle and visible need the field whose text they move",
                          errors=[{"loc": "field", "msg": "required", "type": "missing"}])
    text = find_text(fp, a.field)
    if text is None:
        raise NotFound(f"{a.reference} has no field {a.field!r} with a text on the board",
                       hint="query.footprint lists the footprint's texts.")
    place_text(fp, text, pt(a.at) if a.at is not None else None, a.angle, a.visible)
    done = []
    if a.at is not None:
        done.append(f"{a.field} text at {a.at}")
    if a.angle is not None:
        done.append(f"{a.field} text at {a.angle:g}°")
    if a.visible is not None:
        done.append(f"{a.field} {'shown' if a.visible else 'hidden'}")
    return done


def _layer(board: Board, layer: str, copper: bool) -> str:
    """Check a layer name against the board's layer table (copper layers only for
    tracks, vias and zones)."""
    names = board.copper_layers if copper else [lay.name for lay in board.layers] + ["Edge.Cuts"]
    if layer not in names:
        raise InvalidArgs(f"{layer!r} is not a {'copper ' if copper else ''}layer of this board; "
                          f"it has {', '.join(names)}",
                          errors=[{"loc": "layer", "msg": "no such layer", "type": "value"}])
    return layer


def _net_number(board: Board, net: str | None) -> int:
    if not net:
        return 0
    number = board.net_number(net)
    if number is None:
        raise NotFound(f"no net {net!r} on the board",
                       hint="List nets with query.nets; pcb.setPadNet or pcb.placeFootprint add new ones.")
    return number


class PlaceArgs(EditArgs):
    footprint: str = Field(pattern=r"^[^:/\\]+:[^:/\\]+$", max_length=500,
                           description="Library id Lib:Name, e.g. Resistor_SMD:R_0805_2012Metric")
    reference: Name
    value: str | None = Field(None, max_length=1000)
    at: Point
    angle: Angle = 0
    side: Literal["front", "back"] = "front"
    nets: dict[str, str] = Field(default_factory=dict, max_length=10000,
                                 description="Pad number -> net name (new nets are added)")


@command("pcb.placeFootprint", kind="edit", args=PlaceArgs, result=Result, units=UNITS,
         examples=({"path": "b.kicad_pcb", "footprint": "Resistor_SMD:R_0805_2012Metric",
                    "reference": "R1", "value": "10k", "at": [100, 50], "nets": {"1": "VCC", "2": "LED"}},))
def place_footprint(ctx: Context, a: PlaceArgs) -> dict:
    """Copy a library footprint (found through fp-lib-table and KiCad's library variables) onto the board as KiCad 9 places it, pads given nets."""
    board = board_of(ctx, a.path)
    if board.footprint(a.reference) is not None:
        raise InvalidArgs(f"{a.reference} is already on the board",
                          errors=[{"loc": "reference", "msg": "exists", "type": "value"}])
    lib = FootprintFile.load(footprint_path(a.footprint, board.path.parent if board.path else None))
    numbers = {p.number for p in lib.pads}
    unknown = sorted(set(a.nets) - numbers)
    if unknown:
        raise InvalidArgs(f"{a.footprint} has no pad {', '.join(unknown)}",
                          errors=[{"loc": f"nets.{u}", "msg": "no such pad", "type": "value"} for u in unknown])
    known = board.index.net_table
    new_nets = sorted({name for name in a.nets.values() if name and name not in known})
    for name in a.nets.values():
        board.ensure_net(name)
    fp = board.add_footprint(lib, a.footprint, pt(a.at), a.angle, a.reference, a.value, a.nets)
    if a.side == "back":
        fp.flip()
    ctx.created(fp.uuid)
    # a new net is often a typo of an existing one: say so where the agent looks
    return {"summary": f"placed {a.reference} ({a.footprint}) at {a.at} on the {a.side}"
                       + (f"; new nets: {', '.join(new_nets)}" if new_nets else ""),
            "id": fp.uuid, "pads": len(fp.pads), "new_nets": new_nets}


class MoveArgs(EditArgs):
    reference: str | None = Field(None, description="Footprint to move")
    id: str | None = Field(None, description="Or any item's uuid (track, via, drawing, text)")
    at: Point | None = Field(None, description="New position (footprints: anchor)")
    by: Point | None = Field(None, description="Or an offset")

    @model_validator(mode="after")
    def one_target(self):
        if (self.reference is None) == (self.id is None):
            raise ValueError("give exactly one of reference or id")
        if (self.at is None) == (self.by is None):
            raise ValueError("give exactly one of at or by")
        return self


def _target(board: Board, reference: str | None, uid: str | None):
    """The item to move: a footprint, a board item, or for the id of a footprint's
    field or text (as DRC names them) that text, for a pad's or graphic's its footprint."""
    if reference is not None:
        return footprint_of(board, reference)
    item = board.by_uuid(uid)
    if item is None:
        part = part_by_uuid(board.footprints, uid)
        if part is None:
            raise NotFound(f"no item with id {uid}", hint="query.items and query.footprint list ids.")
        return part[1] if part[1] is not None else part[0]
    return item


@command("pcb.move", kind="edit", args=MoveArgs, result=Result, units=UNITS,
         examples=({"path": "b.kicad_pcb", "reference": "R1", "at": [120, 80]},
                   {"path": "b.kicad_pcb", "id": "…uuid…", "by": [1, 0]}))
def move(ctx: Context, a: MoveArgs) -> dict:
    """Move a footprint (by reference) or any item (by id) to a position or by an offset; pads and texts follow their footprint."""
    board = board_of(ctx, a.path)
    item = _target(board, a.reference, a.id)
    if isinstance(item, FootprintText):
        fp = part_by_uuid(board.footprints, a.id)[0]
        new = pt(a.at) if a.at is not None else (item.at[0] + nm(a.by[0]), item.at[1] + nm(a.by[1]))
        place_text(fp, item, new)
        return {"summary": f"moved the {item.name} text of {fp.reference} to {mm_pt(new)}", "at": mm_pt(new)}
    if isinstance(item, Footprint):
        old = item.position
        new = pt(a.at) if a.at is not None else (old[0] + nm(a.by[0]), old[1] + nm(a.by[1]))
        item.move_to(new)
    elif isinstance(item, Zone):
        first = item.outline[0]
        dx, dy = (nm(a.by[0]), nm(a.by[1])) if a.by else (pt(a.at)[0] - first[0], pt(a.at)[1] - first[1])
        item.translate(dx, dy)
        new = (first[0] + dx, first[1] + dy)
    else:
        anchor = item.point("at") or item.point("start") or item.point("center")
        dx, dy = (nm(a.by[0]), nm(a.by[1])) if a.by else (pt(a.at)[0] - anchor[0], pt(a.at)[1] - anchor[1])
        item.translate(dx, dy)
        new = (anchor[0] + dx, anchor[1] + dy)
    what = a.reference or (f"{item.reference} (the footprint holding {a.id})" if isinstance(item, Footprint)
                           else item.kind)
    return {"summary": f"moved {what} to {mm_pt(new)}", "at": mm_pt(new)}


class RotateArgs(EditArgs):
    reference: Name
    angle: Angle = Field(description="Degrees, counter-clockwise as seen from the front")
    relative: bool = Field(False, description="Add to the current angle instead of setting it")


@command("pcb.rotate", kind="edit", args=RotateArgs, result=Result, units=UNITS,
         examples=({"path": "b.kicad_pcb", "reference": "U1", "angle": 90},))
def rotate(ctx: Context, a: RotateArgs) -> dict:
    """Turn a footprint about its anchor, as pcbnew does (pads and texts turn with it)."""
    fp = footprint_of(board_of(ctx, a.path), a.reference)
    target = fp.orientation + a.angle if a.relative else a.angle
    fp.rotate_to(target)
    return {"summary": f"{a.reference} now at {fp.orientation:g}°", "angle": fp.orientation}


class RefEdit(EditArgs):
    reference: Name


@command("pcb.flip", kind="edit", args=RefEdit, result=Result)
def flip(ctx: Context, a: RefEdit) -> dict:
    """Move a footprint to the other side of the board, mirrored as KiCad mirrors it (top-bottom flip about its anchor)."""
    fp = footprint_of(board_of(ctx, a.path), a.reference)
    fp.flip()
    return {"summary": f"{a.reference} is now on the {fp.side}", "side": fp.side}


class DeleteArgs(EditArgs):
    reference: str | None = None
    ids: list[Name] | None = Field(None, max_length=10000, description="Item uuids")

    @model_validator(mode="after")
    def some_target(self):
        if self.reference is None and not self.ids:
            raise ValueError("give a reference or ids")
        return self


@command("pcb.delete", kind="edit", args=DeleteArgs, result=Result, destructive=True)
def delete(ctx: Context, a: DeleteArgs) -> dict:
    """Delete a footprint (by reference) or items (by id)."""
    board = board_of(ctx, a.path)
    targets = [footprint_of(board, a.reference)] if a.reference else []
    for uid in dict.fromkeys(a.ids or []):  # each id once
        item = board.by_uuid(uid)
        if item is None:
            raise NotFound(f"no item with id {uid}")
        targets.append(item)
    for t in targets:
        board.delete(t)
    return {"summary": f"deleted {len(targets)} item{'s' if len(targets) != 1 else ''}",
            "deleted": [t.uuid for t in targets]}


class FieldArgs(EditArgs):
    reference: Name | None = Field(None, description="The footprint; or give id")
    id: Name | None = Field(None, description="Or the id of a field's text (as DRC names it): its footprint and field")
    field: Name | None = Field(None, description="Reference, Value, Datasheet or any property (change the footprint itself with pcb.swapFootprint)")
    value: str | None = Field(None, max_length=10000)
    dnp: bool | None = Field(None, description="Do not populate")
    exclude_from_bom: bool | None = None
    exclude_from_pos_files: bool | None = None
    board_only: bool | None = Field(None, description="Not in schematic")
    at: Point | None = Field(None, description="Move the field's text to this board position (mm)")
    angle: Angle | None = Field(None, description="Turn the field's text to this absolute angle (degrees)")
    visible: bool | None = Field(None, description="Show or hide the field's text")


@command("pcb.setField", kind="edit", args=FieldArgs, result=Result, units=UNITS,
         examples=({"path": "b.kicad_pcb", "reference": "R1", "field": "Value", "value": "4k7"},
                   {"path": "b.kicad_pcb", "reference": "R7", "dnp": True},
                   {"path": "b.kicad_pcb", "reference": "U1", "field": "Reference", "at": [120, 41.5], "angle": 0, "visible": True}))
def set_field(ctx: Context, a: FieldArgs) -> dict:
    """Set a footprint's reference, value or any property, its DNP / BOM / position-file / board-only flags, and move, turn, show or hide a field's text (query.footprint lists the texts)."""
    board = board_of(ctx, a.path)
    if (a.reference is None) == (a.id is None):
        raise InvalidArgs("give exactly one of reference or id",
                          errors=[{"loc": "reference", "msg": "one of reference or id", "type": "missing"}])
    if a.id is not None:
        part = part_by_uuid(board.footprints, a.id)
        if part is None or part[1] is None:
            raise NotFound(f"no footprint field or text with id {a.id}", hint="query.footprint lists the texts and ids.")
        text = part[1]
        a = a.model_copy(update={"reference": part[0].reference,
                                 "field": a.field or (text.name if text.name != "user" else text.uuid)})
    fp = footprint_of(board, a.reference)
    done = []
    if a.field == "Footprint":
        raise InvalidArgs("the footprint of a footprint is its library id: use pcb.swapFootprint",
                          errors=[{"loc": "field", "msg": "use pcb.swapFootprint", "type": "value"}])
    placing = a.at is not None or a.angle is not None or a.visible is not None
    if placing:
        done.extend(_place_field(fp, a))
    if a.field is not None and (a.value is not None or not placing):
        if a.value is None:
            raise InvalidArgs("field needs a value", errors=[{"loc": "value", "msg": "required", "type": "missing"}])
        if a.field == "Reference" and a.value != a.reference and board.footprint(a.value):
            raise InvalidArgs(f"{a.value} is already on the board",
                              errors=[{"loc": "value", "msg": "exists", "type": "value"}])
        added = fp.set_field(a.field, a.value)
        done.append(f"{a.field}={a.value}" + (" (added)" if added else ""))
    for flag in ("dnp", "exclude_from_bom", "exclude_from_pos_files", "board_only"):
        on = getattr(a, flag)
        if on is not None:
            fp.set_attribute(flag, on)
            done.append(f"{flag}={'yes' if on else 'no'}")
    if not done:
        raise InvalidArgs("nothing to set", errors=[{"loc": "(arguments)", "msg": "give field/value or a flag", "type": "missing"}])
    return {"summary": f"{a.reference}: " + ", ".join(done)}


class PadNetArgs(EditArgs):
    reference: Name
    pad: Name = Field(description="Pad number")
    net: str = Field(max_length=1000, description="Net name; empty to clear; a new name is added to the board")


@command("pcb.setPadNet", kind="edit", args=PadNetArgs, result=Result)
def set_pad_net(ctx: Context, a: PadNetArgs) -> dict:
    """Give one pad a net (all pads with that number, as KiCad does for repeated numbers)."""
    board = board_of(ctx, a.path)
    fp = footprint_of(board, a.reference)
    pads = [p for p in fp.pads if p.number == a.pad]
    if not pads:
        raise NotFound(f"{a.reference} has no pad {a.pad}")
    number = board.ensure_net(a.net)
    for p in pads:
        p.set_net(number, a.net)
    return {"summary": f"{a.reference}-{a.pad} on net {a.net or '(none)'}"}


class SwapArgs(EditArgs):
    reference: Name
    footprint: str = Field(pattern=r"^[^:/\\]+:[^:/\\]+$", max_length=500, description="New library id Lib:Name")


@command("pcb.swapFootprint", kind="edit", args=SwapArgs, result=Result)
def swap_footprint(ctx: Context, a: SwapArgs) -> dict:
    """Replace a footprint with another library footprint in the same place, side and angle, keeping its reference, value, other fields, DNP/BOM flags, id, schematic link and pad nets by pad number."""
    board = board_of(ctx, a.path)
    old = footprint_of(board, a.reference)
    lib = FootprintFile.load(footprint_path(a.footprint, board.path.parent if board.path else None))
    _, dropped = board.swap_footprint(old, lib, a.footprint)
    return {"summary": f"{a.reference} is now {a.footprint}" + (f"; pads without a match: {', '.join(dropped)}" if dropped else ""),
            "dropped_pads": dropped}


class TrackArgs(EditArgs):
    points: list[Point] = Field(min_length=2, max_length=1000, description="Polyline; one segment per pair of points")
    width: Size
    layer: str = "F.Cu"
    net: str | None = None


def _no_zero_segments(points: list) -> None:
    """A zero-length segment is invisible and only clutters DRC: refuse it."""
    for i, (p, q) in enumerate(zip(points, points[1:])):
        if pt(p) == pt(q):
            raise InvalidArgs(f"points {i} and {i + 1} are the same: a segment needs length",
                              errors=[{"loc": f"points.{i + 1}", "msg": "zero-length segment", "type": "value"}])


@command("pcb.addTrack", kind="edit", args=TrackArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "points": [[100, 50], [110, 50], [110, 60]], "width": 0.25, "layer": "F.Cu", "net": "GND"},))
def add_track(ctx: Context, a: TrackArgs) -> dict:
    """Add a track (one segment per pair of consecutive points) on one copper layer."""
    _no_zero_segments(a.points)
    board = board_of(ctx, a.path)
    _layer(board, a.layer, copper=True)
    net = _net_number(board, a.net)
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
    net: str | None = None
    via_size: Size | None = Field(None, description="Default: the net class's via diameter")
    via_drill: Size | None = Field(None, description="Default: the net class's via drill")


@command("pcb.route", kind="edit", args=RouteArgs, result=Result, units="mm",
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
        _layer(board, layer, copper=True)
    net = _net_number(board, a.net)
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
    net: str | None = None


@command("pcb.addVia", kind="edit", args=ViaArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "at": [110, 60], "net": "GND"},))
def add_via(ctx: Context, a: ViaArgs) -> dict:
    """Add a through via."""
    board = board_of(ctx, a.path)
    net = _net_number(board, a.net)
    size, drill = _via_size(ctx, a.path, a.net, a.size, a.drill)
    v = board.add_via(pt(a.at), size, drill, net=net)
    ctx.created(v.uuid)
    return {"summary": f"via at {a.at}", "id": v.uuid}


class ZoneArgs(EditArgs):
    outline: list[Point] = Field(min_length=3, max_length=10000)
    layer: str = "F.Cu"
    net: str | None = Field(None, description="Net name, e.g. GND")
    clearance: float = Field(0.5, ge=0, le=100)
    min_width: Size = 0.25
    priority: int = Field(0, ge=0, le=1_000_000)
    name: str | None = Field(None, max_length=1000)


@command("pcb.addZone", kind="edit", args=ZoneArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "outline": [[0, 0], [50, 0], [50, 30], [0, 30]], "layer": "B.Cu", "net": "GND"},))
def add_zone(ctx: Context, a: ZoneArgs) -> dict:
    """Add a copper zone (unfilled; run pcb.fillZones)."""
    board = board_of(ctx, a.path)
    _layer(board, a.layer, copper=True)
    _net_number(board, a.net)
    _polygon(a.outline, "outline")
    z = board.add_zone([pt(p) for p in a.outline], a.layer, a.net or "", clearance=nm(a.clearance),
                       min_thickness=nm(a.min_width), priority=a.priority, name=a.name)
    ctx.created(z.uuid)
    return {"summary": f"zone on {a.layer} for {a.net or 'no net'}", "id": z.uuid}


class GraphicArgs(EditArgs):
    shape: Literal["line", "rect", "circle", "arc", "poly"]
    points: list[Point] = Field(min_length=2, max_length=10000, description="line/rect: 2; circle: centre and a point on it; arc: start, mid, end; poly: 3+")
    layer: str = "Edge.Cuts"
    width: Size = 0.1
    fill: bool = False


_NPOINTS = {"line": 2, "rect": 2, "circle": 2, "arc": 3}


def _degenerate(shape: str, points: list) -> None:
    """Refuse drawings KiCad would keep but nobody can see or fabricate."""
    bad = None
    if shape in ("line", "circle") and points[0] == points[1]:
        bad = "the two points are the same"
    elif shape == "rect" and (points[0][0] == points[1][0] or points[0][1] == points[1][1]):
        bad = "the rectangle has no area"
    elif shape == "arc":
        (ax, ay), (bx, by), (cx, cy) = points
        if abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) < 1e-12:
            bad = "the three points of the arc are on one line"
    elif shape == "poly":
        _polygon(points, "points")
    if bad:
        raise InvalidArgs(f"a degenerate {shape}: {bad}",
                          errors=[{"loc": "points", "msg": bad, "type": "value"}])


def _polygon(points: list, loc: str) -> None:
    from shapely.geometry import Polygon

    poly = Polygon(points)
    if not poly.is_valid or poly.area <= 0:
        raise InvalidArgs(f"the {loc} is not a simple polygon (it crosses itself or has no area)",
                          errors=[{"loc": loc, "msg": "not a simple polygon", "type": "value"}])


def _via_size(ctx: Context, path: str, net: str | None, size: float | None,
              drill: float | None) -> tuple[int, int]:
    """Via diameter and drill (nm): given, else the net's class's (in the project as the
    session has it), else KiCad's default."""
    from .project_rules import netclass_of

    cls = netclass_of(ctx, ctx.session.get(path, "board", ctx.actor), net)
    size_nm = nm(size if size is not None else cls.get("via_diameter", 0.6))
    drill_nm = nm(drill if drill is not None else cls.get("via_drill", 0.3))
    if drill_nm >= size_nm:
        raise InvalidArgs("the via drill must be smaller than its diameter",
                          errors=[{"loc": "drill", "msg": "not smaller than size", "type": "value"}])
    return size_nm, drill_nm


@command("pcb.addGraphic", kind="edit", args=GraphicArgs, result=Result, units="mm")
def add_graphic(ctx: Context, a: GraphicArgs) -> dict:
    """Add a board drawing (line, rectangle, circle, arc, polygon) on any layer."""
    need = _NPOINTS.get(a.shape)
    if (need and len(a.points) != need) or (a.shape == "poly" and len(a.points) < 3):
        raise InvalidArgs(f"a {a.shape} takes {need or '3 or more'} points",
                          errors=[{"loc": "points", "msg": "wrong count", "type": "value"}])
    _degenerate(a.shape, a.points)
    board = board_of(ctx, a.path)
    _layer(board, a.layer, copper=False)
    g = board.add_graphic(a.shape, [pt(p) for p in a.points], a.layer, nm(a.width), a.fill)
    ctx.created(g.uuid)
    return {"summary": f"{a.shape} on {a.layer}", "id": g.uuid}


class OutlineArgs(EditArgs):
    rect: list[Coord] | None = Field(None, min_length=4, max_length=4, description="[x1, y1, x2, y2]")
    polygon: list[Point] | None = Field(None, min_length=3, max_length=10000)
    replace: bool = Field(True, description="Remove the existing Edge.Cuts drawings first")
    width: Size = 0.1


@command("pcb.outline", kind="edit", args=OutlineArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "rect": [0, 0, 50, 30]},))
def outline(ctx: Context, a: OutlineArgs) -> dict:
    """Set the board outline on Edge.Cuts: a rectangle or a polygon (closed)."""
    if (a.rect is None) == (a.polygon is None):
        raise InvalidArgs("give rect or polygon", errors=[{"loc": "rect", "msg": "one of rect/polygon", "type": "value"}])
    if a.rect is not None and (a.rect[0] == a.rect[2] or a.rect[1] == a.rect[3]):
        raise InvalidArgs("the outline rectangle has no area",
                          errors=[{"loc": "rect", "msg": "zero width or height", "type": "value"}])
    if a.polygon is not None:
        _polygon(a.polygon, "polygon")
    board = board_of(ctx, a.path)
    removed = 0
    if a.replace:
        for g in list(board.graphics):
            if g.layer == "Edge.Cuts":
                board.delete(g)
                removed += 1
    if a.rect is not None:
        x1, y1, x2, y2 = a.rect
        g = board.add_graphic("rect", [pt([x1, y1]), pt([x2, y2])], "Edge.Cuts", nm(a.width))
    else:
        g = board.add_graphic("poly", [pt(p) for p in a.polygon], "Edge.Cuts", nm(a.width))
    ctx.created(g.uuid)
    return {"summary": "outline set" + (f" (replaced {removed} drawings)" if removed else ""), "id": g.uuid}


class TextArgs(EditArgs):
    text: str = Field(min_length=1, max_length=10000)
    at: Point
    layer: str = "F.SilkS"
    angle: Angle = 0
    size: Size = 1.0
    thickness: Size = 0.15


@command("pcb.addText", kind="edit", args=TextArgs, result=Result, units=UNITS)
def add_text(ctx: Context, a: TextArgs) -> dict:
    """Add text to the board (mirrored on back layers, as KiCad does)."""
    board = board_of(ctx, a.path)
    _layer(board, a.layer, copper=False)
    t = board.add_text(a.text, pt(a.at), a.layer, a.angle, nm(a.size), nm(a.thickness))
    ctx.created(t.uuid)
    return {"summary": f"text {a.text!r} on {a.layer}", "id": t.uuid}


class FillArgs(EditArgs):
    ids: list[Name] | None = Field(None, max_length=10000, description="Zones to fill (default all)")


@command("pcb.fillZones", kind="edit", args=FillArgs, result=Result, long=True)
def fill_zones(ctx: Context, a: FillArgs) -> dict:
    """Fill (refill) zones, the copper pours, with KiCad's own filler (pcbnew in the system Python) and keep the fills in the board."""
    from .zone_fill import fill

    return fill(ctx, a.path, a.ids or [])


class NetclassArgs(EditArgs):
    name: Name = Field(description="Net class name (created if new; KiCad compares names without case)")
    nets: list[Name] | None = Field(None, max_length=10000, description="Nets to put in the class (exact names or KiCad wildcards)")
    clearance: Gap | None = None
    track_width: Size | None = None
    via_diameter: Size | None = None
    via_drill: Size | None = None
    diff_pair_width: Size | None = None
    diff_pair_gap: Gap | None = None


@command("pcb.setNetclass", kind="edit", args=NetclassArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "name": "Power", "nets": ["VCC", "GND"], "track_width": 0.5},))
def set_netclass(ctx: Context, a: NetclassArgs) -> dict:
    """Create or change a net class (clearance, widths, via sizes) and assign nets to it, in the board's project file."""
    from .project_rules import set_netclass as apply

    return apply(ctx, a)


class RulesArgs(EditArgs):
    min_clearance: Gap | None = None
    min_track_width: Gap | None = None
    min_via_diameter: Gap | None = None
    min_via_annular_width: Gap | None = None
    min_through_hole_diameter: Gap | None = None
    min_hole_to_hole: Gap | None = None
    min_copper_edge_clearance: Gap | None = None
    min_silk_clearance: Gap | None = None


@command("pcb.setDesignRules", kind="edit", args=RulesArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "min_clearance": 0.15, "min_track_width": 0.15},))
def set_design_rules(ctx: Context, a: RulesArgs) -> dict:
    """Set the board's minimum design rules (Board Setup > Constraints) in its project file."""
    from .project_rules import set_rules

    return set_rules(ctx, a)
