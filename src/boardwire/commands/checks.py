"""check.*: KiCad's DRC on the in-memory board and ERC on the in-memory schematic
hierarchy, structured for a model."""

from __future__ import annotations

import json
import posixpath
import shutil
import tempfile
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Literal

from pydantic import Field

from ..errors import NotFound
from ..kicad.cli import kicad_cli
from ..kicad.pcbnew import fill_zones
from ..kicad.snapshot import snapshot
from ..registry import Context, command
from .common import DocArgs, Result

# Checks whose outcome depends on the libraries installed where KiCad runs.
LIBRARY_CHECKS = {"lib_footprint_issues", "lib_footprint_mismatch", "footprint_link_issues",
                  "lib_symbol_issues", "lib_symbol_mismatch"}


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


def run_drc(cli, board: Path, *, cancel=None, severity: str = "all", refill_zones: bool = False,
            schematic_parity: bool = False) -> dict:
    """KiCad's DRC JSON report of ``board`` (a snapshot); shared by check.drc and
    fab.package. A cancelled run kills kicad-cli (``cancelled``)."""
    out = board.parent / ".boardwire-drc.json"
    args = ["pcb", "drc", "--format", "json", "-o", str(out)]
    if severity != "all":  # KiCad's default reports errors and warnings
        args.append(f"--severity-{severity}")
    if refill_zones:  # kicad-cli 9 has no --refill-zones: KiCad's filler fills the snapshot first
        fill_zones(board, board, [], cancel=cancel)
    if schematic_parity:
        args.append("--schematic-parity")
    cli.run_for([*args, str(board)], out, cancel=cancel)
    try:
        return json.loads(out.read_text())
    finally:
        out.unlink(missing_ok=True)


def drc_summary(counts: dict, parity: bool = False) -> str:
    return (f"DRC: {counts['errors']} errors, {counts['warnings']} warnings, "
            f"{counts['unconnected']} unconnected" + (f", {counts['parity']} parity issues" if parity else ""))


def schematic_of(ctx: Context, od, required: bool = True):
    """The open root schematic NAME.kicad_sch beside board ``od`` (what KiCad's
    schematic parity reads); None, or NotFound when ``required``, if there is none."""
    key = ctx.session.workspace.relative(od.full.with_suffix(".kicad_sch"))
    if key not in ctx.session.documents and not od.full.with_suffix(".kicad_sch").is_file():
        if not required:
            return None
        raise NotFound(f"no schematic {key} beside the board for the parity check",
                       hint="KiCad pairs a board with the schematic of the same name in its folder.")
    return ctx.session.get(key, "schematic", ctx.actor)


@contextmanager
def board_snapshot(ctx: Context, od, parity: bool = False) -> Iterator[Path]:
    """The board as it is in memory, for kicad-cli; with ``parity`` placed in a
    snapshot of its schematic hierarchy (open sheets as in memory, the others from
    disk), since ``--schematic-parity`` reads the schematic beside the board."""
    if not parity:
        with snapshot(ctx.session, od) as board:
            yield board
        return
    with hierarchy_snapshot(ctx, schematic_of(ctx, od)) as root:
        board = root.with_suffix(".kicad_pcb")
        with ctx.session.lock:
            board.write_bytes(od.doc.to_bytes())
        yield board


@command("check.drc", kind="check", args=DrcArgs, result=Result, long=True, idempotent=True,
         units="mm", examples=({"path": "board.kicad_pcb"},))
def drc(ctx: Context, a: DrcArgs) -> dict:
    """KiCad's design rules check (kicad-cli) on the board as it is in memory (nothing is saved): violations with type, severity, description, items (id, position), unconnected items, counts. engine builtin runs boardwire's own rules instead (milliseconds), both runs the two and compares them."""
    od = ctx.session.get(a.path, "board", ctx.actor)
    if a.engine != "kicad":
        from .drc_builtin import agreement, builtin_report

        builtin = builtin_report(ctx, od)
        if a.engine == "builtin":
            result = parse_report(builtin, a.limit)
            result.update(engine="builtin", summary="built-in " + drc_summary(result["counts"]),
                          revision=od.revision, unsupported_rules=builtin["unsupported_rules"])
            return result
    cli = kicad_cli()
    ctx.progress(0.05, "writing a snapshot for KiCad")
    with board_snapshot(ctx, od, a.schematic_parity) as board:
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
    return result


# -- ERC ------------------------------------------------------------------------------

# KiCad 9's ERC JSON gives positions in hundredths of the "mm" it declares (a label at
# x = 240.03 mm is reported as 2.4003); ``at`` is corrected, ``pos`` kept as reported.
ERC_POS_SCALE = 100.0
_PROJECT_FILES = (".kicad_pro", ".kicad_prl", ".kicad_dru")
_PROJECT_TABLES = ("sym-lib-table", "fp-lib-table")


@contextmanager
def hierarchy_snapshot(ctx: Context, od) -> Iterator[Path]:
    """A temporary copy of a root sheet and every sheet of its hierarchy as they are in
    memory (open documents) or on disk, laid out as in the workspace, with the root's
    project files, library tables and symbol libraries beside it. Yields the root's
    path in the copy; the user's files are never written."""
    from .sch_query import connectivity_of

    session = ctx.session
    with tempfile.TemporaryDirectory(prefix="boardwire-erc-") as tmp:
        folder = Path(tmp)
        with session.lock:
            conn = connectivity_of(ctx, od.path)
            keys = {s.file for s in conn.sheets if not s.missing} | {od.path}
            dirs = ["./" + posixpath.dirname(k) for k in keys]
            base = posixpath.normpath(posixpath.commonpath(dirs))
            for key in keys:
                rel = posixpath.relpath("./" + key, base)
                target = folder / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                doc = session.documents.get(key)
                target.write_bytes(doc.doc.to_bytes() if doc is not None
                                   else session.workspace.resolve(key).read_bytes())
            root = folder / posixpath.relpath("./" + od.path, base)
            src_dir = od.full.parent
            for p in src_dir.iterdir():
                wanted = (p.name in _PROJECT_TABLES or p.suffix == ".kicad_sym"
                          or (p.stem == od.full.stem and p.suffix in _PROJECT_FILES))
                if wanted and p.is_file() and not (root.parent / p.name).exists():
                    shutil.copy(p, root.parent / p.name)
        yield root


def _erc_item(i: dict) -> dict:
    pos = i.get("pos") or {}
    at = ([round(pos["x"] * ERC_POS_SCALE, 4), round(pos["y"] * ERC_POS_SCALE, 4)]
          if "x" in pos and "y" in pos else None)
    return {k: v for k, v in (("id", i.get("uuid")), ("description", i.get("description")),
                              ("at", at)) if v is not None}


def parse_erc_report(report: dict, limit: int) -> dict:
    """KiCad's ERC JSON as violations (with the sheet each is on) and counts."""
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


class ErcArgs(DocArgs):
    severity: Literal["error", "warning", "all"] = Field(
        "all", description="Report errors only, warnings only, or both (KiCad's default)")
    limit: int = Field(200, ge=0, le=10000, description="Most violations to list (counts cover all)")


@command("check.erc", kind="check", args=ErcArgs, result=Result, long=True, idempotent=True,
         units="mm", examples=({"path": "board.kicad_sch"},))
def erc(ctx: Context, a: ErcArgs) -> dict:
    """KiCad's electrical rules check (kicad-cli) on the schematic hierarchy as it is in memory (nothing is saved): violations with type, severity, description, sheet, items (id, position), and counts by type and sheet. Give the root sheet."""
    cli = kicad_cli()
    od = ctx.session.get(a.path, "schematic", ctx.actor)
    ctx.progress(0.05, "writing a snapshot of the hierarchy for KiCad")
    from .sch_query import connectivity_of

    missing = sorted({s.file for s in connectivity_of(ctx, od.path).sheets if s.missing})
    with hierarchy_snapshot(ctx, od) as root:
        out = root.parent / ".boardwire-erc.json"
        args = ["sch", "erc", "--format", "json", "-o", str(out)]
        if a.severity != "all":
            args.append(f"--severity-{a.severity}")
        ctx.progress(0.1, "KiCad ERC running")
        cli.run_for([*args, str(root)], out, cancel=ctx.cancel, cwd=root.parent)
        report = json.loads(out.read_text())
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
