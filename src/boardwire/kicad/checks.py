"""KiCad's DRC and ERC: kicad-cli run on a snapshot, its JSON report read back.

``kicad-cli pcb drc`` and ``kicad-cli sch erc`` with ``--format json`` (KiCad 9's
report: ``violations``, ``unconnected_items``, ``schematic_parity`` for the DRC;
``sheets[].violations`` for the ERC; each violation with type, severity, description
and items with uuid, description and position). Positions are mm, except that KiCad
9's ERC report gives them in hundredths of the mm it declares (`ERC_POS_SCALE`).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from .cli import KiCadCli
from .pcbnew import fill_zones

# Checks whose outcome depends on the libraries installed where KiCad runs.
LIBRARY_CHECKS = {"lib_footprint_issues", "lib_footprint_mismatch", "footprint_link_issues",
                  "lib_symbol_issues", "lib_symbol_mismatch"}
# KiCad 9's ERC JSON gives positions in hundredths of the "mm" it declares (a label at
# x = 240.03 mm is reported as 2.4003); ``at`` is corrected, ``pos`` kept as reported.
ERC_POS_SCALE = 100.0


def _severity_args(severity: str) -> list[str]:
    """kicad-cli's severity filter; "all" is its default (errors and warnings)."""
    return [] if severity == "all" else [f"--severity-{severity}"]


def run_drc(cli: KiCadCli, board: Path, *, cancel=None, severity: str = "all",
            refill_zones: bool = False, schematic_parity: bool = False) -> dict:
    """KiCad's DRC JSON report of ``board`` (a snapshot: with ``refill_zones`` its zones
    are refilled in place by KiCad's filler first, kicad-cli 9 having no such option;
    with ``schematic_parity`` the schematic of the same name must be beside it).
    Raises CheckFailed when kicad-cli writes no report, Cancelled (kicad-cli killed)
    when ``cancel`` fires."""
    out = board.parent / ".boardwire-drc.json"
    args = ["pcb", "drc", "--format", "json", "-o", str(out), *_severity_args(severity)]
    if refill_zones:
        fill_zones(board, board, [], cancel=cancel)
    if schematic_parity:
        args.append("--schematic-parity")
    return _report(cli, [*args, str(board)], out, cancel)


def run_erc(cli: KiCadCli, root: Path, *, cancel=None, severity: str = "all") -> dict:
    """KiCad's ERC JSON report of the hierarchy whose root sheet is ``root`` (a
    snapshot). Raises as `run_drc`."""
    out = root.parent / ".boardwire-erc.json"
    args = ["sch", "erc", "--format", "json", "-o", str(out), *_severity_args(severity)]
    return _report(cli, [*args, str(root)], out, cancel, cwd=root.parent)


def _report(cli: KiCadCli, args: list[str], out: Path, cancel, cwd: Path | None = None) -> dict:
    """Run kicad-cli ``args``, which write a JSON report to ``out``; the report."""
    cli.run_for(args, out, cancel=cancel, cwd=cwd)
    try:
        return json.loads(out.read_text())
    finally:
        out.unlink(missing_ok=True)


def _item(i: dict) -> dict:
    pos = i.get("pos") or {}
    return {"id": i.get("uuid"), "description": i.get("description"),
            "at": [pos.get("x"), pos.get("y")] if pos else None}


def parse_report(report: dict, limit: int) -> dict:
    """KiCad's DRC report as violations, unconnected items and parity issues (the
    first ``limit`` of each) and counts (of all): violations, unconnected, parity,
    errors, warnings, library_checks (`LIBRARY_CHECKS`); ``by_type`` counts per type."""
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


def drc_summary(counts: dict, parity: bool = False) -> str:
    """One line of `parse_report` counts, saying what each number counts: errors and
    warnings are severities over every finding (violations, unconnected items and
    parity issues alike, as KiCad's report gives them), then the findings by kind:
    ``DRC: 3 errors, 0 warnings in 1 violation, 2 unconnected``."""
    v = counts["violations"]
    return (f"DRC: {counts['errors']} errors, {counts['warnings']} warnings in {v} violation{'' if v == 1 else 's'}, "
            f"{counts['unconnected']} unconnected" + (f", {counts['parity']} parity issues" if parity else ""))


def _erc_item(i: dict) -> dict:
    pos = i.get("pos") or {}
    at = ([round(pos["x"] * ERC_POS_SCALE, 4), round(pos["y"] * ERC_POS_SCALE, 4)]
          if "x" in pos and "y" in pos else None)
    return {k: v for k, v in (("id", i.get("uuid")), ("description", i.get("description")),
                              ("at", at)) if v is not None}


def parse_erc_report(report: dict, limit: int) -> dict:
    """KiCad's ERC report as violations (the first ``limit``, each with the sheet it is
    on; ``at`` in mm) and counts: violations, errors, warnings, library_checks;
    ``by_type`` and ``by_sheet`` count all."""
    rows, types, severities, per_sheet = [], Counter(), Counter(), {}
    for sheet in report.get("sheets", []):
        path = sheet.get("path")
        vs = sheet.get("violations", [])
        per_sheet[path] = len(vs)
        for v in vs:
            types[v.get("type")] += 1
            severities[v.get("severity")] += 1
            if len(rows) < limit:
                rows.append({"type": v.get("type"), "severity": v.get("severity"),
                             "description": v.get("description"), "sheet": path,
                             "items": [_erc_item(i) for i in v.get("items", [])]})
    total = sum(types.values())
    return {"violations": rows,
            "counts": {"violations": total, "errors": severities.get("error", 0),
                       "warnings": severities.get("warning", 0),
                       "library_checks": sum(n for t, n in types.items() if t in LIBRARY_CHECKS)},
            "by_type": dict(types.most_common()), "by_sheet": per_sheet,
            "kicad_version": report.get("kicad_version")}
