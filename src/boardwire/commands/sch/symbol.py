"""sch.setField, sch.move, sch.rotate, sch.mirror, sch.delete: edits of placed symbols
(named by reference across the design, see `sch_design`) and of any item by id. Each is
one undo step; coordinates mm, angles degrees.

Fields other than the reference are stored once in the file, so a change to one is
shared by every instance of the sheet file (``shared_by``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...documents.schematic import Schematic, SymbolInstance
from ...errors import InvalidArgs, NotFound
from ...registry import Context, command
from ...services.schematic import design_of, editable, find_symbol, set_reference
from ..common import EditArgs, Name, Point, mm_pt, nm, pt
from .args import SymbolRef
from .results import FieldSet, ItemsDeleted, SymbolMoved, SymbolTurned

UNITS = "mm, degrees"
Quarter = Literal[0, 90, 180, 270]


class SetFieldArgs(SymbolRef):
    field: Name = Field(description="Reference, Value, Footprint, Datasheet, Description or any field")
    value: str | None = Field(None, max_length=10000, description="Default: unchanged (required for a new field)")
    hidden: bool | None = Field(None, description="Show or hide the field (new fields are hidden)")
    at: Point | None = Field(None, description="Move the field's text to [x, y] mm on the sheet")
    angle: Literal[0, 90] | None = Field(None, description="Text angle on the sheet")


@command("sch.setField", kind="edit", args=SetFieldArgs, result=FieldSet,
         examples=({"path": "board.kicad_sch", "reference": "R1", "field": "Value", "value": "4k7"},
                   {"path": "board.kicad_sch", "reference": "R201", "sheet": "/amp_left/", "field": "Reference", "value": "R250"}))
def set_field(ctx: Context, a: SetFieldArgs) -> dict:
    """Set, move (at, mm), turn (angle 0/90) or hide a field of a placed symbol; value may be left out to only move or hide it. Reference is per sheet instance (only the named instance changes); every other field is stored once per sheet file, so where that file is placed several times the change is shared: shared_by lists the instance paths. A field the symbol lacks is added (hidden, at the anchor). Errors: not-found for an unknown reference; invalid-args for an ambiguous one (give sheet) or a duplicate reference."""
    s, od = find_symbol(ctx, a.path, a.reference, a.sheet)
    if a.at is not None or a.angle is not None:
        if not s.view.place_field(a.field, pt(a.at) if a.at is not None else None, a.angle):
            raise NotFound(f"{a.reference} has no field {a.field!r} to move", hint="Set its value first.")
    if a.value is None:
        if a.hidden is not None and s.view.field(a.field) is not None:
            s.view.set_field(a.field, s.view.field(a.field), a.hidden)
        return {"summary": f"{a.reference}: {a.field} placed" + ("" if a.hidden is None else f", {'hidden' if a.hidden else 'shown'}")}
    if a.field == "Reference":
        clash = [x for x in design_of(ctx, od.path).conn.symbols if x.reference == a.value
                 and (x.view != s.view or x.sheet.kiid_path != s.sheet.kiid_path)]
        if clash and not a.value.endswith("?"):
            raise InvalidArgs(f"{a.value} is already used (on {clash[0].sheet.path})",
                              errors=[{"loc": "value", "msg": "reference exists", "type": "value"}])
        set_reference(ctx, s, a.value)
        return {"summary": f"{a.reference} is now {a.value} on {s.sheet.path}", "sheet": s.sheet.path}
    added = s.view.set_field(a.field, a.value, a.hidden)
    design = design_of(ctx, od.path)
    if a.field in ("Value", "Footprint") and design.root != od.path:
        # a KiCad 6 root sheet keeps each instance's value and footprint (KiCad reads those)
        root = ctx.session.get(design.root, "schematic", ctx.actor)
        root.doc.set_instance_field(s.view.uuid or "", a.field, a.value)
    shared = design.human_paths(od.path)
    out = {"summary": f"{a.reference}: {a.field}={a.value}" + (" (added)" if added else "")
                      + (f"; shared by {len(shared)} sheet instances" if len(shared) > 1 else "")}
    if len(shared) > 1:
        out["shared_by"] = shared
    return out


class ItemTarget(EditArgs):
    reference: str | None = Field(None, min_length=1, max_length=1000, description="A symbol")
    sheet: str | None = Field(None, min_length=1, max_length=4096, description="Sheet instance path for an ambiguous reference")
    id: str | None = Field(None, min_length=1, max_length=100,
                           description="Or any item's uuid on this sheet (wire, label, junction, no-connect, sheet)")

    @model_validator(mode="after")
    def one_target(self):
        if (self.reference is None) == (self.id is None):
            raise ValueError("give exactly one of reference or id")
        return self


def _by_id(doc: Schematic, uid: str):
    item = doc.item(uid)
    if item is None:
        raise NotFound(f"no item with id {uid} on this sheet", hint="Ids are in query.symbols, query.labels and the results of edits.")
    return item


class MoveArgs(ItemTarget):
    at: Point | None = Field(None, description="New position (symbols: anchor; wires: first point)")
    by: Point | None = Field(None, description="Or an offset [dx, dy] mm")

    @model_validator(mode="after")
    def one_place(self):
        if (self.at is None) == (self.by is None):
            raise ValueError("give exactly one of at or by")
        return self


def _with_dangling(doc: Schematic, before: set, out: dict) -> dict:
    now = [p for p in doc.connection_points().dangling_ends() if p not in before]
    if now:
        out["dangling"] = [mm_pt(p) for p in now]
        out["summary"] += f"; {len(now)} wire end{'s' if len(now) != 1 else ''} left dangling"
    return out


def _dangling(doc: Schematic) -> set:
    return set(doc.connection_points().dangling_ends())


@command("sch.move", kind="edit", args=MoveArgs, result=SymbolMoved, units="mm",
         examples=({"path": "board.kicad_sch", "reference": "R1", "at": [120.65, 80.01]},
                   {"path": "board.kicad_sch", "id": "…uuid…", "by": [2.54, 0]}))
def move(ctx: Context, a: MoveArgs) -> dict:
    """Move a symbol (with its fields) or any item by id to a position or by an offset. Wires attached to a moved symbol are not dragged (as KiCad's Move, not Drag): the result lists wire ends left dangling."""
    if a.reference is not None:
        s, od = find_symbol(ctx, a.path, a.reference, a.sheet)
        doc, item = od.doc, s.view
    else:
        doc = editable(ctx, a.path).doc
        item = _by_id(doc, a.id)
    before = _dangling(doc)
    anchor = item.anchor
    dx, dy = (nm(a.by[0]), nm(a.by[1])) if a.by else (pt(a.at)[0] - anchor[0], pt(a.at)[1] - anchor[1])
    item.translate(dx, dy)
    at = mm_pt((anchor[0] + dx, anchor[1] + dy))
    return _with_dangling(doc, before, {"summary": f"moved {a.reference or item.kind} to {at}", "at": at})


class RotateArgs(SymbolRef):
    angle: Quarter = Field(description="Degrees counter-clockwise (0/90/180/270)")
    relative: bool = Field(False, description="Turn by angle instead of setting it")


@command("sch.rotate", kind="edit", args=RotateArgs, result=SymbolTurned, units=UNITS,
         examples=({"path": "board.kicad_sch", "reference": "R1", "angle": 90},))
def rotate(ctx: Context, a: RotateArgs) -> dict:
    """Turn a symbol about its anchor (fields turn with it, as in KiCad); a mirrored symbol stays mirrored. Wire ends left dangling are listed."""
    s, od = find_symbol(ctx, a.path, a.reference, a.sheet)
    view, doc = s.view, od.doc
    before = _dangling(doc)
    if a.relative:
        view.rotate_by(a.angle)
    else:
        view.set_orientation(a.angle, view.mirror)
    return _with_dangling(doc, before, {"summary": f"{a.reference} now at {view.orientation:g}°"
                                                   + (f", mirror {view.mirror}" if view.mirror else ""),
                                        "angle": int(view.orientation), "mirror": view.mirror or "none"})


class MirrorArgs(SymbolRef):
    axis: Literal["x", "y"] = Field(description="x: flip top-bottom (about the horizontal axis); y: flip left-right")


@command("sch.mirror", kind="edit", args=MirrorArgs, result=SymbolTurned,
         examples=({"path": "board.kicad_sch", "reference": "U1", "axis": "y"},))
def mirror(ctx: Context, a: MirrorArgs) -> dict:
    """Mirror a symbol about its anchor as KiCad's Mirror X / Mirror Y do; the file keeps KiCad's canonical angle + mirror form. Wire ends left dangling are listed."""
    s, od = find_symbol(ctx, a.path, a.reference, a.sheet)
    view, doc = s.view, od.doc
    before = _dangling(doc)
    view.mirror_about(a.axis)
    angle, m = int(view.orientation), view.mirror
    return _with_dangling(doc, before, {"summary": f"{a.reference} mirrored about {a.axis}: now {angle}°"
                                                   + (f", mirror {m}" if m else ""),
                                        "angle": angle, "mirror": m or "none"})


class DeleteArgs(EditArgs):
    reference: str | None = Field(None, min_length=1, max_length=1000)
    sheet: str | None = Field(None, min_length=1, max_length=4096)
    ids: list[Name] | None = Field(None, max_length=10000, description="Item uuids on this sheet")

    @model_validator(mode="after")
    def some_target(self):
        if self.reference is None and not self.ids:
            raise ValueError("give a reference or ids")
        return self


@command("sch.delete", kind="edit", args=DeleteArgs, result=ItemsDeleted, destructive=True,
         examples=({"path": "board.kicad_sch", "reference": "R1"},
                   {"path": "board.kicad_sch", "ids": ["…uuid…"]}))
def delete(ctx: Context, a: DeleteArgs) -> dict:
    """Delete a symbol (by reference: from its sheet file, so from every instance of that file) or items by id. A library definition no symbol uses any more leaves lib_symbols, as KiCad drops it. Wire ends that become dangling are listed."""
    targets: list = []
    if a.reference is not None:
        s, od = find_symbol(ctx, a.path, a.reference, a.sheet)
        targets.append(s.view)
    if a.ids:
        doc = editable(ctx, a.path).doc
        targets += [_by_id(doc, uid) for uid in dict.fromkeys(a.ids)]
    befores = {id(t.doc): (t.doc, _dangling(t.doc)) for t in targets}
    removed, libs = [], {}
    for item in targets:
        if not item.in_document:  # named twice (by reference and by id)
            continue
        removed.append(item.uuid)
        if isinstance(item, SymbolInstance):
            libs.setdefault(id(item.doc), set()).add(item.lib_id)
        item.doc.delete(item)
    dropped = []
    for key, (doc, _) in befores.items():
        dropped += doc.drop_unused_library_symbols(libs.get(key, set()))
    out = {"summary": f"deleted {len(removed)} item{'s' if len(removed) != 1 else ''}"
                      + (f"; {', '.join(dropped)} left lib_symbols" if dropped else ""),
           "deleted": removed}
    for doc, before in befores.values():
        _with_dangling(doc, before, out)
    return out
