"""pcb.*: edits of a board. Each is one undo step; coordinates mm, angles degrees."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ..documents import FootprintFile
from ..documents.board import Board, Footprint, Track, Via, Zone
from ..documents.libraries import footprint_path
from ..errors import InvalidArgs, NotFound
from ..registry import Context, command
from ..sexpr import atoms
from .board_query import board_of, footprint_of
from .common import EditArgs, Point, Result, mm_pt, nm, pt

UNITS = "mm, degrees"


def _net_number(board: Board, net: str | None) -> int:
    if not net:
        return 0
    number = board.net_number(net)
    if number is None:
        raise NotFound(f"no net {net!r} on the board",
                       hint="List nets with query.nets; pcb.setPadNet or pcb.placeFootprint add new ones.")
    return number


class PlaceArgs(EditArgs):
    footprint: str = Field(description="Library id Lib:Name, e.g. Resistor_SMD:R_0805_2012Metric")
    reference: str
    value: str | None = None
    at: Point
    angle: float = 0
    side: Literal["front", "back"] = "front"
    nets: dict[str, str] = Field(default_factory=dict, description="Pad number -> net name (new nets are added)")


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
    for name in a.nets.values():
        board.ensure_net(name)
    fp = board.add_footprint(lib, a.footprint, pt(a.at), a.angle, a.reference, a.value, a.nets)
    if a.side == "back":
        fp.flip()
    ctx.created(fp.uuid)
    return {"summary": f"placed {a.reference} ({a.footprint}) at {a.at} on the {a.side}",
            "id": fp.uuid, "pads": len(fp.pads)}


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
    if reference is not None:
        return footprint_of(board, reference)
    item = board.by_uuid(uid)
    if item is None:
        raise NotFound(f"no item with id {uid}")
    return item


def _translate_points(item, dx: int, dy: int) -> None:
    for head in ("at", "start", "end", "mid", "center"):
        c = item.child(head)
        if c is not None:
            v = c.atoms()
            item.doc.set_atoms(c, [atoms.mm(atoms.to_nm(v[0]) + dx), atoms.mm(atoms.to_nm(v[1]) + dy)] + v[2:])
    pts = item.child("pts")
    if pts is not None:
        for xy in pts.lists("xy"):
            v = xy.atoms()
            item.doc.set_atoms(xy, [atoms.mm(atoms.to_nm(v[0]) + dx), atoms.mm(atoms.to_nm(v[1]) + dy)])


@command("pcb.move", kind="edit", args=MoveArgs, result=Result, units=UNITS,
         examples=({"path": "b.kicad_pcb", "reference": "R1", "at": [120, 80]},
                   {"path": "b.kicad_pcb", "id": "…uuid…", "by": [1, 0]}))
def move(ctx: Context, a: MoveArgs) -> dict:
    """Move a footprint (by reference) or any item (by id) to a position or by an offset; pads and texts follow their footprint."""
    board = board_of(ctx, a.path)
    item = _target(board, a.reference, a.id)
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
        _translate_points(item, dx, dy)
        new = (anchor[0] + dx, anchor[1] + dy)
    return {"summary": f"moved {a.reference or item.kind} to {mm_pt(new)}", "at": mm_pt(new)}


class RotateArgs(EditArgs):
    reference: str
    angle: float = Field(description="Degrees, counter-clockwise as seen from the front")
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
    reference: str


@command("pcb.flip", kind="edit", args=RefEdit, result=Result)
def flip(ctx: Context, a: RefEdit) -> dict:
    """Move a footprint to the other side of the board, mirrored as KiCad mirrors it (top-bottom flip about its anchor)."""
    fp = footprint_of(board_of(ctx, a.path), a.reference)
    fp.flip()
    return {"summary": f"{a.reference} is now on the {fp.side}", "side": fp.side}


class DeleteArgs(EditArgs):
    reference: str | None = None
    ids: list[str] | None = Field(None, description="Item uuids")

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
    for uid in a.ids or []:
        item = board.by_uuid(uid)
        if item is None:
            raise NotFound(f"no item with id {uid}")
        targets.append(item)
    for t in targets:
        board.delete(t)
    return {"summary": f"deleted {len(targets)} item{'s' if len(targets) != 1 else ''}",
            "deleted": [t.uuid for t in targets]}


class FieldArgs(EditArgs):
    reference: str
    field: str | None = Field(None, description="Reference, Value, Footprint, Datasheet or any property")
    value: str | None = None
    dnp: bool | None = Field(None, description="Do not populate")
    exclude_from_bom: bool | None = None
    exclude_from_pos_files: bool | None = None
    board_only: bool | None = Field(None, description="Not in schematic")


@command("pcb.setField", kind="edit", args=FieldArgs, result=Result,
         examples=({"path": "b.kicad_pcb", "reference": "R1", "field": "Value", "value": "4k7"},
                   {"path": "b.kicad_pcb", "reference": "R7", "dnp": True}))
def set_field(ctx: Context, a: FieldArgs) -> dict:
    """Set a footprint's reference, value or any property, and its DNP / BOM / position-file / board-only flags."""
    board = board_of(ctx, a.path)
    fp = footprint_of(board, a.reference)
    done = []
    if a.field is not None:
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
    reference: str
    pad: str = Field(description="Pad number")
    net: str = Field(description="Net name; empty to clear; a new name is added to the board")


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
    reference: str
    footprint: str = Field(description="New library id Lib:Name")


@command("pcb.swapFootprint", kind="edit", args=SwapArgs, result=Result)
def swap_footprint(ctx: Context, a: SwapArgs) -> dict:
    """Replace a footprint with another library footprint in the same place, side and angle, keeping its reference, value, fields, id and pad nets by pad number."""
    board = board_of(ctx, a.path)
    old = footprint_of(board, a.reference)
    lib = FootprintFile.load(footprint_path(a.footprint, board.path.parent if board.path else None))
    nets = {p.number: (p.net_name or board.net_name(p.net) or "") for p in old.pads}
    nets = {k: v for k, v in nets.items() if v}
    numbers = {p.number for p in lib.pads}
    dropped = sorted(set(nets) - numbers)
    keep = {n: old.field(n) for n in ("Reference", "Value")}
    index = board.root.index(old.node)
    uid, side, angle, at = old.uuid, old.side, old.orientation, old.position
    carried = [k for k in old.node.lists() if k.head in ("path", "sheetname", "sheetfile")]
    board.delete(old)
    new = board.add_footprint(lib, a.footprint, at, angle, keep["Reference"], keep["Value"],
                              {k: v for k, v in nets.items() if k in numbers}, index=index)
    if uid:  # the same footprint for the schematic link and for groups
        board.set_atoms(new.node.find("uuid"), [atoms.quote(uid)])
    last_field = max(i for i, k in enumerate(new.node.kids) if type(k) is not bytes and k.head == "property")
    for offset, c in enumerate(carried, 1):
        board.insert(new.node, c, last_field + offset)
    if side == "back":
        new.flip()
    return {"summary": f"{a.reference} is now {a.footprint}" + (f"; pads without a match: {', '.join(dropped)}" if dropped else ""),
            "dropped_pads": dropped}


class TrackArgs(EditArgs):
    points: list[Point] = Field(min_length=2, description="Polyline; one segment per pair of points")
    width: float = Field(gt=0, description="mm")
    layer: str = "F.Cu"
    net: str | None = None


@command("pcb.addTrack", kind="edit", args=TrackArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "points": [[100, 50], [110, 50], [110, 60]], "width": 0.25, "layer": "F.Cu", "net": "GND"},))
def add_track(ctx: Context, a: TrackArgs) -> dict:
    """Add a track (one segment per pair of consecutive points) on one copper layer."""
    board = board_of(ctx, a.path)
    net = _net_number(board, a.net)
    ids = []
    for p, q in zip(a.points, a.points[1:]):
        t = board.add_track(pt(p), pt(q), nm(a.width), a.layer, net)
        ids.append(t.uuid)
    ctx.created(*ids)
    return {"summary": f"{len(ids)} segment{'s' if len(ids) != 1 else ''} on {a.layer}", "ids": ids}


class RouteArgs(EditArgs):
    points: list[Point] = Field(min_length=2)
    layers: list[str] = Field(min_length=1, description="Layer of each segment (one per pair of points), or one for all")
    width: float = Field(gt=0)
    net: str | None = None
    via_size: float = Field(0.6, gt=0)
    via_drill: float = Field(0.3, gt=0)


@command("pcb.route", kind="edit", args=RouteArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "points": [[100, 50], [110, 50], [110, 60]], "layers": ["F.Cu", "B.Cu"], "width": 0.25, "net": "SDA"},))
def route(ctx: Context, a: RouteArgs) -> dict:
    """Route a polyline that may change layer: a through via is added at every point where consecutive segments change layer."""
    n = len(a.points) - 1
    layers = a.layers * n if len(a.layers) == 1 else a.layers
    if len(layers) != n:
        raise InvalidArgs(f"{n} segments but {len(a.layers)} layers",
                          errors=[{"loc": "layers", "msg": f"need 1 or {n}", "type": "value"}])
    board = board_of(ctx, a.path)
    net = _net_number(board, a.net)
    ids, vias = [], []
    for i, (p, q) in enumerate(zip(a.points, a.points[1:])):
        ids.append(board.add_track(pt(p), pt(q), nm(a.width), layers[i], net).uuid)
        if i + 1 < n and layers[i + 1] != layers[i]:
            v = board.add_via(pt(q), nm(a.via_size), nm(a.via_drill), net=net)
            vias.append(v.uuid)
    ctx.created(*ids, *vias)
    return {"summary": f"{len(ids)} segments, {len(vias)} vias", "ids": ids, "vias": vias}


class ViaArgs(EditArgs):
    at: Point
    size: float = Field(0.6, gt=0, description="Pad diameter, mm")
    drill: float = Field(0.3, gt=0)
    net: str | None = None


@command("pcb.addVia", kind="edit", args=ViaArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "at": [110, 60], "net": "GND"},))
def add_via(ctx: Context, a: ViaArgs) -> dict:
    """Add a through via."""
    board = board_of(ctx, a.path)
    if a.drill >= a.size:
        raise InvalidArgs("drill must be smaller than size", errors=[{"loc": "drill", "msg": "too big", "type": "value"}])
    v = board.add_via(pt(a.at), nm(a.size), nm(a.drill), net=_net_number(board, a.net))
    ctx.created(v.uuid)
    return {"summary": f"via at {a.at}", "id": v.uuid}


class ZoneArgs(EditArgs):
    outline: list[Point] = Field(min_length=3)
    layer: str = "F.Cu"
    net: str | None = Field(None, description="Net name, e.g. GND")
    clearance: float = 0.5
    min_width: float = 0.25
    priority: int = 0
    name: str | None = None


@command("pcb.addZone", kind="edit", args=ZoneArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "outline": [[0, 0], [50, 0], [50, 30], [0, 30]], "layer": "B.Cu", "net": "GND"},))
def add_zone(ctx: Context, a: ZoneArgs) -> dict:
    """Add a copper zone (unfilled; run pcb.fillZones)."""
    board = board_of(ctx, a.path)
    _net_number(board, a.net)
    z = board.add_zone([pt(p) for p in a.outline], a.layer, a.net or "", clearance=nm(a.clearance),
                       min_thickness=nm(a.min_width), priority=a.priority, name=a.name)
    ctx.created(z.uuid)
    return {"summary": f"zone on {a.layer} for {a.net or 'no net'}", "id": z.uuid}


class GraphicArgs(EditArgs):
    shape: Literal["line", "rect", "circle", "arc", "poly"]
    points: list[Point] = Field(min_length=2, description="line/rect: 2; circle: centre and a point on it; arc: start, mid, end; poly: 3+")
    layer: str = "Edge.Cuts"
    width: float = 0.1
    fill: bool = False


_NPOINTS = {"line": 2, "rect": 2, "circle": 2, "arc": 3}


@command("pcb.addGraphic", kind="edit", args=GraphicArgs, result=Result, units="mm")
def add_graphic(ctx: Context, a: GraphicArgs) -> dict:
    """Add a board drawing (line, rectangle, circle, arc, polygon) on any layer."""
    need = _NPOINTS.get(a.shape)
    if (need and len(a.points) != need) or (a.shape == "poly" and len(a.points) < 3):
        raise InvalidArgs(f"a {a.shape} takes {need or '3 or more'} points",
                          errors=[{"loc": "points", "msg": "wrong count", "type": "value"}])
    g = board_of(ctx, a.path).add_graphic(a.shape, [pt(p) for p in a.points], a.layer, nm(a.width), a.fill)
    ctx.created(g.uuid)
    return {"summary": f"{a.shape} on {a.layer}", "id": g.uuid}


class OutlineArgs(EditArgs):
    rect: list[float] | None = Field(None, min_length=4, max_length=4, description="[x1, y1, x2, y2]")
    polygon: list[Point] | None = Field(None, min_length=3)
    replace: bool = Field(True, description="Remove the existing Edge.Cuts drawings first")
    width: float = 0.1


@command("pcb.outline", kind="edit", args=OutlineArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "rect": [0, 0, 50, 30]},))
def outline(ctx: Context, a: OutlineArgs) -> dict:
    """Set the board outline on Edge.Cuts: a rectangle or a polygon (closed)."""
    if (a.rect is None) == (a.polygon is None):
        raise InvalidArgs("give rect or polygon", errors=[{"loc": "rect", "msg": "one of rect/polygon", "type": "value"}])
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
    text: str = Field(min_length=1)
    at: Point
    layer: str = "F.SilkS"
    angle: float = 0
    size: float = Field(1.0, gt=0)
    thickness: float = Field(0.15, gt=0)


@command("pcb.addText", kind="edit", args=TextArgs, result=Result, units=UNITS)
def add_text(ctx: Context, a: TextArgs) -> dict:
    """Add text to the board (mirrored on back layers, as KiCad does)."""
    t = board_of(ctx, a.path).add_text(a.text, pt(a.at), a.layer, a.angle, nm(a.size), nm(a.thickness))
    ctx.created(t.uuid)
    return {"summary": f"text {a.text!r} on {a.layer}", "id": t.uuid}


class FillArgs(EditArgs):
    ids: list[str] | None = Field(None, description="Zones to fill (default all)")


@command("pcb.fillZones", kind="edit", args=FillArgs, result=Result, long=True)
def fill_zones(ctx: Context, a: FillArgs) -> dict:
    """Fill zones with KiCad's own filler (pcbnew in the system Python) and keep the fills in the board."""
    from .zone_fill import fill

    return fill(ctx, a.path, a.ids or [])


class NetclassArgs(EditArgs):
    name: str = Field(description="Net class name (created if new)")
    nets: list[str] | None = Field(None, description="Nets to put in the class (exact names or KiCad wildcards)")
    clearance: float | None = None
    track_width: float | None = None
    via_diameter: float | None = None
    via_drill: float | None = None
    diff_pair_width: float | None = None
    diff_pair_gap: float | None = None


@command("pcb.setNetclass", kind="edit", args=NetclassArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "name": "Power", "nets": ["VCC", "GND"], "track_width": 0.5},))
def set_netclass(ctx: Context, a: NetclassArgs) -> dict:
    """Create or change a net class (clearance, widths, via sizes) and assign nets to it, in the board's project file."""
    from .project_rules import set_netclass as apply

    return apply(ctx, a)


class RulesArgs(EditArgs):
    min_clearance: float | None = None
    min_track_width: float | None = None
    min_via_diameter: float | None = None
    min_via_annular_width: float | None = None
    min_through_hole_diameter: float | None = None
    min_hole_to_hole: float | None = None
    min_copper_edge_clearance: float | None = None
    min_silk_clearance: float | None = None


@command("pcb.setDesignRules", kind="edit", args=RulesArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "min_clearance": 0.15, "min_track_width": 0.15},))
def set_design_rules(ctx: Context, a: RulesArgs) -> dict:
    """Set the board's minimum design rules (Board Setup > Constraints) in its project file."""
    from .project_rules import set_rules

    return set_rules(ctx, a)
