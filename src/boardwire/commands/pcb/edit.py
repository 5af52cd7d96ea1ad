"""pcb.*: edits of a board. Each is one undo step; coordinates mm, angles degrees."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...documents import FootprintFile
from ...documents.board import Board, Footprint, Zone
from ...documents.board.footprint_text import (
    FootprintText,
    find_text,
    part_by_uuid,
    place_text,
)
from ...documents.library.tables import footprint_path
from ...errors import InvalidArgs, NotFound
from ...registry import Context, command
from ...services.board import board_of, footprint_of
from ..common import Angle, EditArgs, Name, NetName, Point, mm_pt, nm, pt
from ..results import Edited
from .results import Deleted, Flipped, Moved, Placed, Rotated, Swapped

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


class PlaceArgs(EditArgs):
    footprint: str = Field(pattern=r"^[^:/\\]+:[^:/\\]+$", max_length=500,
                           description="Library id Lib:Name, e.g. Resistor_SMD:R_0805_2012Metric")
    reference: Name
    value: str | None = Field(None, max_length=1000)
    at: Point
    angle: Angle = 0
    side: Literal["front", "back"] = "front"
    nets: dict[str, NetName] = Field(default_factory=dict, max_length=10000,
                                 description="Pad number -> net name (new nets are added)")


@command("pcb.placeFootprint", kind="edit", args=PlaceArgs, result=Placed, units=UNITS,
         examples=({"path": "b.kicad_pcb", "footprint": "Resistor_SMD:R_0805_2012Metric",
                    "reference": "R1", "value": "10k", "at": [100, 50], "nets": {"1": "VCC", "2": "LED"}},))
def place_footprint(ctx: Context, a: PlaceArgs) -> dict:
    """Copy a library footprint (via fp-lib-table) onto the board as KiCad places it, pads given nets."""
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
    known = set(board.net_table)
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


@command("pcb.move", kind="edit", args=MoveArgs, result=Moved, units=UNITS,
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


@command("pcb.rotate", kind="edit", args=RotateArgs, result=Rotated, units=UNITS,
         examples=({"path": "b.kicad_pcb", "reference": "U1", "angle": 90},))
def rotate(ctx: Context, a: RotateArgs) -> dict:
    """Turn a footprint about its anchor, as pcbnew does (pads and texts turn with it)."""
    fp = footprint_of(board_of(ctx, a.path), a.reference)
    target = fp.orientation + a.angle if a.relative else a.angle
    fp.rotate_to(target)
    return {"summary": f"{a.reference} now at {fp.orientation:g}°", "angle": fp.orientation}


class RefEdit(EditArgs):
    reference: Name


@command("pcb.flip", kind="edit", args=RefEdit, result=Flipped)
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


@command("pcb.delete", kind="edit", args=DeleteArgs, result=Deleted, destructive=True)
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


@command("pcb.setField", kind="edit", args=FieldArgs, result=Edited, units=UNITS,
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


@command("pcb.setPadNet", kind="edit", args=PadNetArgs, result=Edited)
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


@command("pcb.swapFootprint", kind="edit", args=SwapArgs, result=Swapped)
def swap_footprint(ctx: Context, a: SwapArgs) -> dict:
    """Replace a footprint with another library footprint in the same place, side and angle, keeping its reference, value, other fields, DNP/BOM flags, id, schematic link and pad nets by pad number."""
    board = board_of(ctx, a.path)
    old = footprint_of(board, a.reference)
    lib = FootprintFile.load(footprint_path(a.footprint, board.path.parent if board.path else None))
    _, dropped = board.swap_footprint(old, lib, a.footprint)
    return {"summary": f"{a.reference} is now {a.footprint}" + (f"; pads without a match: {', '.join(dropped)}" if dropped else ""),
            "dropped_pads": dropped}
