"""check.*: KiCad's DRC on the in-memory board and ERC on the in-memory schematic
hierarchy (`boardwire.kicad.checks` on `boardwire.kicad.snapshot`), structured for a
model."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..kicad.checks import drc_summary, parse_erc_report, parse_report, run_drc, run_erc
from ..kicad.cli import kicad_cli
from ..kicad.snapshot import board_snapshot, hierarchy_snapshot, schematic_beside
from ..registry import Context, command
from ..services.schematic import connectivity_of, sheet_files
from .common import DocArgs, errors_counted, unsaved_note
from .results import Drc, Erc


class DrcArgs(DocArgs):
    severity: Literal["error", "warning", "all"] = Field(
        "all", description="Report errors only, warnings only, or both (KiCad's default)")
    refill_zones: bool = Field(False, description="Refill zones (KiCad's filler, on a copy) before checking")
    schematic_parity: bool = Field(False, description="Also compare with the schematic next to the board")
    limit: int = Field(200, ge=0, le=10000, description="Most violations to list (counts cover all)")
    engine: Literal["kicad", "builtin", "both"] = Field(
        "kicad", description="kicad: kicad-cli, the judge (default); builtin: boardwire's own rules on "
                             "the in-memory geometry (milliseconds; the rules of checks.BUILT_IN); "
                             "both: KiCad's result plus the built-in one and which violations each found alone")


@command("check.drc", kind="check", args=DrcArgs, result=Drc, long=True, idempotent=True, finds_errors=errors_counted,
         tables=("violations", "unconnected", "parity"), grouped=("violations", "unconnected"), units="mm", examples=({"path": "board.kicad_pcb"},))
def drc(ctx: Context, a: DrcArgs) -> dict:
    """KiCad's design rules check (kicad-cli) on the board as it is in memory (nothing is saved): violations (type, severity, description, items with positions), unconnected items, counts. engine builtin runs boardwire's own rules instead (milliseconds), both runs both and compares."""
    od = ctx.session.get(a.path, "board", ctx.actor)
    if a.engine != "kicad":
        from ..checks.compare import agreement
        from ..services.drc import builtin_report

        builtin = builtin_report(ctx, od)
        if a.engine == "builtin":
            result = parse_report(builtin, a.limit)
            result.update(engine="builtin", summary="built-in " + drc_summary(result["counts"]),
                          revision=od.revision, unsupported_rules=builtin["unsupported_rules"])
            return unsaved_note(ctx, od.path, result)
    cli = kicad_cli()
    sch = schematic_beside(ctx.session, od, ctx.actor) if a.schematic_parity else None
    ctx.progress(0.05, "writing a snapshot for KiCad")
    with board_snapshot(ctx.session, od, sch, sheet_files(ctx, sch.path) if sch else tuple) as board:
        ctx.progress(0.1, "KiCad DRC running")
        report = run_drc(cli, board, cancel=ctx.cancel, severity=a.severity,
                         refill_zones=a.refill_zones, schematic_parity=a.schematic_parity)
    ctx.progress(1.0, "done")
    result = parse_report(report, a.limit)
    result["summary"] = drc_summary(result["counts"], a.schematic_parity)
    result["revision"] = od.revision
    if a.engine == "both":
        result["builtin"] = parse_report(builtin, a.limit)
        result["agreement"] = agreement(report, builtin, a.limit)
        alone = sum(len(r["only_kicad"]) + len(r["only_builtin"]) for r in result["agreement"].values())
        result["summary"] += "; built-in engine agrees" + (f" except {alone} violations" if alone else "")
    return unsaved_note(ctx, od.path, result)


# -- ERC ------------------------------------------------------------------------------


class ErcArgs(DocArgs):
    severity: Literal["error", "warning", "all"] = Field(
        "all", description="Report errors only, warnings only, or both (KiCad's default)")
    limit: int = Field(200, ge=0, le=10000, description="Most violations to list (counts cover all)")


@command("check.erc", kind="check", args=ErcArgs, result=Erc, long=True, idempotent=True, finds_errors=errors_counted,
         tables=("violations",), grouped=("violations",), units="mm", examples=({"path": "board.kicad_sch"},))
def erc(ctx: Context, a: ErcArgs) -> dict:
    """KiCad's electrical rules check (kicad-cli) on the schematic hierarchy as it is in memory (nothing is saved): violations with type, severity, description, sheet, items (id, position), and counts by type and sheet. Give the root sheet."""
    cli = kicad_cli()
    od = ctx.session.get(a.path, "schematic", ctx.actor)
    ctx.progress(0.05, "writing a snapshot of the hierarchy for KiCad")
    missing = sorted({s.file for s in connectivity_of(ctx, od.path).sheets if s.missing})
    with hierarchy_snapshot(ctx.session, od, sheet_files(ctx, od.path)) as root:
        ctx.progress(0.1, "KiCad ERC running")
        report = run_erc(cli, root, cancel=ctx.cancel, severity=a.severity)
    ctx.progress(1.0, "done")
    result = parse_erc_report(report, a.limit)
    c = result["counts"]
    result["summary"] = (f"ERC: {c['errors']} errors, {c['warnings']} warnings"
                         f" on {_sheets(len(result['by_sheet']))}")
    if missing:
        result["missing_sheets"] = missing
        result["summary"] += f" ({len(missing)} sheet files missing or outside the working directory)"
    result["revision"] = od.revision
    return result


def _sheets(n: int) -> str:
    return f"{n} sheet{'' if n == 1 else 's'}"
