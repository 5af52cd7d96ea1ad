"""check.*: KiCad's DRC on the in-memory board, structured for a model."""

from __future__ import annotations

import json
from collections import Counter
from typing import Literal

from pydantic import Field

from ..errors import CheckFailed
from ..kicad.cli import kicad_cli
from ..kicad.snapshot import snapshot
from ..registry import Context, command
from .common import DocArgs, Result

# Checks whose outcome depends on the libraries installed where KiCad runs.
LIBRARY_CHECKS = {"lib_footprint_issues", "lib_footprint_mismatch", "footprint_link_issues",
                  "lib_symbol_issues", "lib_symbol_mismatch"}


class DrcArgs(DocArgs):
    severity: Literal["error", "warning", "all"] = Field(
        "all", description="Report errors only, warnings only, or both (KiCad's default)")
    refill_zones: bool = Field(False, description="Refill zones before checking")
    schematic_parity: bool = Field(False, description="Also compare with the schematic next to the board")
    limit: int = Field(200, ge=0, le=10000, description="Most violations to list (counts cover all)")


def _item(i: dict) -> dict:
    pos = i.get("pos") or {}
    return {"id": i.get("uuid"), "description": i.get("description"),
            "at": [pos.get("x"), pos.get("y")] if pos else None}


def parse_report(report: dict, limit: int) -> dict:
    """KiCad's JSON report as violations, unconnected items and counts."""
    violations = report.get("violations", [])
    unconnected = report.get("unconnected_items", [])
    parity = report.get("schematic_parity", [])
    counts = Counter(v.get("type") for v in violations)
    severities = Counter(v.get("severity") for v in violations + unconnected + parity)
    rows = [{"type": v.get("type"), "severity": v.get("severity"),
             "description": v.get("description"), "items": [_item(i) for i in v.get("items", [])]}
            for v in violations[:limit]]
    return {"violations": rows, "unconnected": [
                {"description": u.get("description"), "items": [_item(i) for i in u.get("items", [])]}
                for u in unconnected[:limit]],
            "parity": [{"type": p.get("type"), "description": p.get("description")} for p in parity[:limit]],
            "counts": {"violations": len(violations), "unconnected": len(unconnected),
                       "parity": len(parity), "errors": severities.get("error", 0),
                       "warnings": severities.get("warning", 0),
                       "library_checks": sum(n for t, n in counts.items() if t in LIBRARY_CHECKS)},
            "by_type": dict(counts.most_common()), "kicad_version": report.get("kicad_version")}


@command("check.drc", kind="check", args=DrcArgs, result=Result, long=True, idempotent=True,
         units="mm", examples=({"path": "board.kicad_pcb"},))
def drc(ctx: Context, a: DrcArgs) -> dict:
    """KiCad's design rules check (kicad-cli) on the board as it is in memory (nothing is saved): violations with type, severity, description, items (id, position), unconnected items, counts."""
    cli = kicad_cli()
    od = ctx.session.get(a.path, "board", ctx.actor)
    ctx.progress(0.05, "writing a snapshot for KiCad")
    with snapshot(ctx.session, od) as board:
        out = board.parent / "drc.json"
        args = ["pcb", "drc", "--format", "json", "-o", str(out)]
        if a.severity != "all":  # KiCad's default reports errors and warnings
            args.append(f"--severity-{a.severity}")
        if a.refill_zones:
            args.append("--refill-zones")
        if a.schematic_parity:
            args.append("--schematic-parity")
        ctx.progress(0.1, "KiCad DRC running")
        r = cli.run([*args, str(board)], cancel=ctx.cancel)
        if not out.exists():
            raise CheckFailed(f"kicad-cli pcb drc failed (exit {r.returncode}): "
                              f"{(r.stderr or r.stdout).strip()[-500:]}")
        report = json.loads(out.read_text())
    ctx.progress(1.0, "done")
    result = parse_report(report, a.limit)
    c = result["counts"]
    result["summary"] = (f"DRC: {c['errors']} errors, {c['warnings']} warnings, "
                         f"{c['unconnected']} unconnected" + (f", {c['parity']} parity issues" if a.schematic_parity else ""))
    result["revision"] = od.revision
    return result
