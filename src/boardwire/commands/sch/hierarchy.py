"""sch.addSheet and sch.annotate: the design's hierarchy of sheets and the references
of its symbols. Each is one undo step; coordinates mm.

A new sheet file is created by the document layer when the parent sheet is saved
(and not if the sheet was undone before); until then the session serves it from
memory, so the design sees the new sheet at once."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ...documents.schematic import Annotatable, NewSheetPin, Schematic
from ...documents.schematic import annotate as annotation
from ...errors import InvalidArgs
from ...netlist.schematic import sheet_file_key
from ...registry import Context, command
from ...services.schematic import design_of, editable, set_reference
from ..common import WRITE, Args, Coord, EditArgs, Name, Point, Role, mm_pt, nm, pt
from .results import Renumbered, SheetAdded


class SheetPin(Args):
    name: Name
    shape: Literal["input", "output", "bidirectional", "tri_state", "passive"] = "bidirectional"
    side: Literal["left", "right"] = Field("left", description="Edge of the sheet symbol")
    offset: Coord | None = Field(None, description="mm from the top edge (default: 2.54 mm steps)")


class AddSheetArgs(EditArgs):
    name: Name = Field(description="Sheet name (unique on the parent sheet)")
    file: Annotated[str, Role(WRITE, beside="path")] = Field(
        pattern=r"^[^/\\][^\\]*\.kicad_sch$", max_length=1000,
        description="Sheet file, relative to the parent's folder; created (empty, KiCad 9) if missing")
    at: Point = Field(description="Top-left corner [x, y] mm")
    size: Point = Field([25.4, 20.32], description="[width, height] mm")
    pins: list[SheetPin] = Field(default_factory=list, max_length=500)


@command("sch.addSheet", kind="edit", args=AddSheetArgs, result=SheetAdded, units="mm",
         examples=({"path": "board.kicad_sch", "name": "power", "file": "power.kicad_sch", "at": [50.8, 50.8],
                    "size": [30, 20], "pins": [{"name": "VIN", "shape": "input"}]},))
def add_sheet(ctx: Context, a: AddSheetArgs) -> dict:
    """Place a hierarchical sheet symbol with sheet pins, and create its file (an empty KiCad 9 schematic) when missing. The same file may be placed several times (each placement is a sheet instance with its own references). Pins sit on the left or right edge at 2.54 mm steps from the top unless offset is given; each joins the child's hierarchical label of its name. Errors: invalid-args for a duplicate sheet name or pin name, or a file that would contain itself."""
    od = editable(ctx, a.path)
    doc: Schematic = od.doc
    if any(s.name == a.name for s in doc.sheets):
        raise InvalidArgs(f"a sheet named {a.name!r} is already on {od.path}",
                          errors=[{"loc": "name", "msg": "sheet name exists", "type": "value"}])
    names = [p.name for p in a.pins]
    if len(set(names)) != len(names):
        raise InvalidArgs("sheet pin names repeat", errors=[{"loc": "pins", "msg": "duplicate name", "type": "value"}])
    child_key = sheet_file_key(od.path, a.file)
    full = ctx.session.workspace.resolve(child_key)
    design = design_of(ctx, od.path)
    conn = design.conn
    ancestors = {od.path, design.root}
    for inst in conn.sheets:  # every sheet above any instance of this one
        if inst.file == od.path:
            up = inst
            while up is not None:
                ancestors.add(up.file)
                up = up.parent
    if child_key in ancestors:  # KiCad refuses recursive hierarchies
        raise InvalidArgs(f"{child_key} contains {od.path} (or is it): a sheet cannot contain itself",
                          errors=[{"loc": "file", "msg": "recursive sheet", "type": "value"}])
    created = not full.exists() and ctx.session.pending_file(full) is None
    parents = design.instance_paths(od.path) or [f"/{doc.uuid}"]
    page = max([int(s.page) for s in conn.sheets if s.page.isdigit()] + [len(conn.sheets)]) + 1
    pins = [NewSheetPin(p.name, p.shape, p.side, nm(p.offset) if p.offset is not None else None) for p in a.pins]
    sheet = doc.add_sheet(a.name, a.file, pt(a.at), pt(a.size), pins, design.project,
                          [(path, str(page + i)) for i, path in enumerate(parents)], create_file=created)
    ctx.created(sheet.uuid)
    # open the child in the session, so the design sees it at once
    ctx.session.get(child_key, "schematic", ctx.actor)
    return {"summary": f"sheet {a.name} ({a.file}) at {a.at}" + (f"; created {child_key}" if created else "")
                       + (f"; {len(pins)} pin{'s' if len(pins) != 1 else ''}" if pins else ""),
            "id": sheet.uuid, "file": child_key, "created_file": created,
            "pins": [{"name": p.name, "at": mm_pt(p.position)} for p in sheet.pins]}


class AnnotateArgs(EditArgs):
    scheme: Literal["incremental", "sheet"] = Field(
        "incremental", description="incremental: R1, R2... over the design (KiCad's default); "
                                   "sheet: 100 x sheet number + n (R101 on page 1, R201 on page 2)")
    all: bool = Field(False, description="Renumber every symbol, not only the unannotated (R?) ones")


@command("sch.annotate", kind="edit", args=AnnotateArgs, result=Renumbered,
         examples=({"path": "board.kicad_sch"}, {"path": "board.kicad_sch", "scheme": "sheet", "all": True}))
def annotate(ctx: Context, a: AnnotateArgs) -> dict:
    """Give references to unannotated symbols (R?, #PWR?) of the whole design, per sheet instance in hierarchy order, sorted by X then Y position as KiCad's default does; each prefix numbered from the first free number (power symbols as #PWR01). Multi-unit symbols of the same part and value share a reference."""
    conn = design_of(ctx, editable(ctx, a.path).path).conn
    order = {id(s): i for i, s in enumerate(conn.sheets)}
    items = [Annotatable(s, order[id(s.sheet)], int(s.sheet.page) if s.sheet.page.isdigit() else order[id(s.sheet)] + 1,
                         s.view.position, s.reference, s.view.reference, s.view.lib_id, s.view.value, s.unit,
                         s.lib.unit_count if s.lib is not None else 1, s.lib is not None and s.lib.power)
             for s in conn.symbols]
    changes = [(item.key, ref) for item, ref in annotation(items, a.scheme, a.all)]
    for s, ref in changes:
        set_reference(ctx, s, ref)
    rows = [{"sheet": s.sheet.path, "from": s.reference, "to": ref, "id": s.view.uuid} for s, ref in changes]
    return {"summary": f"annotated {len(changes)} symbol{'s' if len(changes) != 1 else ''}"
                       + (f" ({a.scheme} scheme)" if a.scheme != "incremental" else ""),
            "changes": rows}
