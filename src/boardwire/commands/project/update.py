"""project.updatePcb and project.backAnnotate: KiCad's "Update PCB from Schematic" and
"Update Schematic from PCB" (the work is `boardwire.netlist.forward`'s)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ...netlist.forward import BoardUpdate, UpdateOptions, back_annotation
from ...netlist.schematic import natural_key
from ...registry import Context, command
from ...services.board import board_of
from ...services.schematic import connectivity_of, set_reference
from ..common import EDIT, Args, BoardPath, Role, SchematicPath
from .results import BackAnnotated, PcbUpdated


class PairArgs(Args):
    schematic: Annotated[str, Role(EDIT, suffixes=(".kicad_sch",))] = Field(
        min_length=1, max_length=4096, description="Root .kicad_sch")
    board: BoardPath = Field(min_length=1, max_length=4096, description=".kicad_pcb")
    dry_run: bool = Field(False, description="Report only")
    revision: int | None = Field(None, description="Expected revision of the edited file")


class UpdateArgs(PairArgs):
    schematic: SchematicPath = Field(min_length=1, max_length=4096, description="Root .kicad_sch")
    board: Annotated[str, Role(EDIT, suffixes=(".kicad_pcb",))] = Field(
        min_length=1, max_length=4096, description=".kicad_pcb")
    swap: bool = Field(True, description="Replace footprints of another lib id (KiCad's default; false lists them)")
    delete_extra: bool = Field(False, description="Delete footprints without symbol (not board_only/locked)")


@command("project.updatePcb", kind="edit", args=UpdateArgs, result=PcbUpdated,
         examples=({"schematic": "t.kicad_sch", "board": "t.kicad_pcb"},
                   {"schematic": "t.kicad_sch", "board": "t.kicad_pcb", "dry_run": True, "delete_extra": True}))
def update_pcb(ctx: Context, a: UpdateArgs) -> dict:
    """KiCad's Update PCB from Schematic: footprints linked by symbol path (else reference) get its reference, footprint, value and pad nets; missing ones are added below the board."""
    options = UpdateOptions(swap=a.swap, delete_extra=a.delete_extra, dry_run=a.dry_run)
    update = BoardUpdate(connectivity_of(ctx, a.schematic), board_of(ctx, a.board), options).plan()
    if not a.dry_run:
        ctx.created(*update.apply())
    return update.result()


@command("project.backAnnotate", kind="edit", args=PairArgs, result=BackAnnotated,
         examples=({"schematic": "t.kicad_sch", "board": "t.kicad_pcb", "dry_run": True},))
def back_annotate(ctx: Context, a: PairArgs) -> dict:
    """KiCad's Update Schematic from PCB: each symbol instance gets the reference of the footprint linked to it by path."""
    conn = connectivity_of(ctx, a.schematic)
    todo, unlinked, unannotated = back_annotation(conn, board_of(ctx, a.board))
    changed = []
    for s, ref in todo.values():
        row = {"from": s.reference, "to": ref, "sheet": s.sheet.path}
        if row not in changed:
            changed.append(row)
        if not a.dry_run:
            set_reference(ctx, s, ref)
    n = len(changed)
    summary = (f"{'would change' if a.dry_run else 'changed'} {n} reference{'s' if n != 1 else ''}"
               if n else "schematic matches the board")
    if unlinked:
        summary += f"; {len(unlinked)} footprint{'s' if len(unlinked) != 1 else ''} without a symbol"
    if unannotated:
        summary += f"; {len(unannotated)} footprint{'s' if len(unannotated) != 1 else ''} not annotated, skipped"
    return {"summary": summary, "dry_run": a.dry_run, "changed": changed,
            "unlinked": sorted(unlinked, key=natural_key), "unannotated": sorted(unannotated, key=natural_key)}
