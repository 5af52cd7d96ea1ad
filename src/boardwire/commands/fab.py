"""fab.*: fabrication outputs of the board as it is in memory (C3 project family, C5).

Gerber X2, Excellon drill, position (CPL) and BOM files come from kicad-cli 9
(`boardwire.kicad.fab`) run on a snapshot of the in-memory board; nothing is saved.
Every file is first written into a private temporary folder and copied into the
output folder (inside the working directory; default ``fab/``) only when the whole
command has succeeded, each file by an atomic rename, so a failed or cancelled call
leaves no partial output. Results list the files written (workspace-relative path,
bytes). With ``created`` the dates kicad-cli writes into Gerber, job and drill files
(and fab.zip's entries) are that time, so the same board gives the same bytes.

fab.package first runs KiCad's DRC (the code of check.drc) on the same snapshot, with
schematic parity when the board's schematic is beside it (so the BOM, which comes from
the schematic, and the position file, from the board, name the same parts), and refuses
with ``drc-errors`` when it finds errors (unconnected items included) or a footprint
missing, extra, doubled or on another net than its symbol (whatever severity the
project gives those) unless ``force``. Its ``preset`` "jlcpcb" follows JLCPCB's KiCad guides (`boardwire.kicad.jlcpcb`
cites them): Protel extensions, absolute origin, separate PTH/NPTH drill files, BOM and
CPL with JLC's columns, and fab.zip holding only the Gerbers and drill files (JLC's
Gerber upload; BOM and CPL are uploaded at the assembly step).

Errors: kicad-cli missing -> ``service-unavailable``; kicad-cli failing ->
``check-failed`` with its stderr tail; an output outside the working directory ->
``path-outside-workspace``; an unknown layer -> ``invalid-args``; DRC errors ->
``drc-errors``; a cancelled call kills kicad-cli and writes nothing (``cancelled``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Iterator, Literal

from pydantic import Field, field_validator

from ..documents.board import bom as board_bom
from ..errors import DrcErrors, InvalidArgs, ReadOnlyFile, WrongKind
from ..kicad import fab as kfab
from ..kicad import jlcpcb
from ..kicad.checks import drc_summary, parse_report, run_drc
from ..kicad.cli import kicad_cli
from ..kicad.snapshot import board_snapshot, hierarchy_snapshot, schematic_beside
from ..registry import Context, command
from ..services.schematic import connectivity_of, sheet_files
from .common import Args, DocArgs, OutputPath, unsaved_note
from .results import Bom, FabFiles, Gerbers, Package

UNITS = "mm; sizes in bytes"
MAP_FORMAT = "gerberx2"  # the drill map: Gerber X2, like the rest of the package


class FabArgs(DocArgs):
    output: OutputPath = Field("fab", min_length=1, max_length=4096, description="Output folder")
    created: datetime | None = Field(None, strict=False, description="ISO 8601 time stamped in the files (default: now)")

    @field_validator("created")
    @classmethod
    def _zip_era(cls, v: datetime | None) -> datetime | None:
        if v is not None and not 1980 <= v.year <= 2107:  # what a zip entry can hold
            raise ValueError("created must lie in 1980..2107")
        return v


class GerberOpts(Args):
    """Unset options follow the board's plot settings (KiCad's Plot dialog)."""

    layers: list[str] | None = Field(None, min_length=1, max_length=64,
                                     description="Default: copper, paste, silk, mask, Edge.Cuts")
    protel_extensions: bool | None = Field(None, description="Default: board's setting")
    subtract_mask_from_silk: bool | None = Field(None, description="Default: board's setting")


class DrillOpts(Args):
    drill_map: bool = False
    separate_th: bool = Field(True, description="PTH and NPTH holes in separate files")


class PosOpts(Args):
    side: Literal["both", "front", "back"] = "both"


class DnpOpt(Args):
    exclude_dnp: bool = True


class GerbersArgs(GerberOpts, FabArgs):
    pass


class DrillArgs(DrillOpts, FabArgs):
    pass


class PositionsArgs(PosOpts, DnpOpt, FabArgs):
    pass


class BomArgs(DnpOpt, FabArgs):
    source: Literal["auto", "schematic", "board"] = Field(
        "auto", description="auto: the board's NAME.kicad_sch if any, else footprints")


class PackageArgs(GerberOpts, DrillOpts, PosOpts, DnpOpt, FabArgs):
    preset: Literal["generic", "jlcpcb"] = Field(
        "generic", description="jlcpcb: JLC's names, origin, BOM/CPL columns")
    force: bool = Field(False, description="Write despite DRC errors")


# What a preset sets over the board's plot settings (explicit arguments still win).
PRESETS = {"generic": {}, "jlcpcb": {"protel_extensions": True, "use_drill_origin": False}}


# -- shared steps ---------------------------------------------------------------------

def _output_dir(ctx: Context, output: str) -> Path:
    """The output folder, checked before any work: inside the working directory, and
    neither it nor a folder above it a file."""
    target = ctx.session.workspace.resolve(output)
    for p in (target, *target.parents):
        if p.exists() and not p.is_dir():
            raise InvalidArgs(f"output {output!r}: {ctx.session.workspace.relative(p) or p} is a file, not a folder",
                              errors=[{"loc": "output", "msg": "not a folder", "type": "value"}])
        if p.exists():
            break
    return target


def _check_targets(ctx: Context, files: list[Path], target: Path) -> None:
    """Refuse before replacing anything: a file name taken by a folder, or a read-only file."""
    for f in files:
        t = target / f.name
        if t.is_dir():
            raise InvalidArgs(f"{ctx.session.workspace.relative(t)} is a folder; the {f.name} output cannot replace it",
                              errors=[{"loc": "output", "msg": f"{f.name} is a folder", "type": "value"}])
        if t.exists() and (not os.access(t, os.W_OK) or not t.stat().st_mode & 0o222):  # marked read-only, even for root
            raise ReadOnlyFile(f"{ctx.session.workspace.relative(t)} is read-only; nothing was written")


def _stamp(files: list[Path], created: datetime | None) -> None:
    """With ``created``, every date kicad-cli wrote into the files becomes that time."""
    if created is not None:
        kfab.stamp(files, created)


def _publish(ctx: Context, files: list[Path], target: Path) -> list[dict]:
    """Copy finished files into ``target``, each by an atomic rename; their entries."""
    _check_targets(ctx, files, target)
    target.mkdir(parents=True, exist_ok=True)
    out = []
    for f in files:
        tmp = target / f".{f.name}.boardwire-tmp"
        try:
            shutil.copyfile(f, tmp)
            os.replace(tmp, target / f.name)
        finally:
            tmp.unlink(missing_ok=True)
        out.append({"path": ctx.session.workspace.relative(target / f.name), "bytes": f.stat().st_size})
    return out


def _layers(board, wanted: list[str] | None) -> list[str]:
    """The layers to plot by canonical name; a user name (``top_layer``) is accepted."""
    table = board.layers
    names = {lay.name: lay.name for lay in table} | {lay.user_name: lay.name for lay in table if lay.user_name}
    if wanted is None:
        return board.copper_layers + [n for n in kfab.FAB_LAYERS if n in names]
    bad = [w for w in wanted if w not in names]
    if bad:
        raise InvalidArgs(f"the board has no layer {', '.join(bad)}",
                          errors=[{"loc": "layers", "msg": f"unknown layer {b}", "type": "value"} for b in bad],
                          hint=f"Layers of this board: {', '.join(n.name for n in table)}")
    return list(dict.fromkeys(names[w] for w in wanted))


def _plot_options(board, a) -> kfab.PlotOptions:
    """Explicit arguments, else the preset, else the board's plot settings, else
    kicad-cli's defaults.
    The drill/place origin (``useauxorigin``) applies to every file, so they align."""
    values = kfab.board_plot_options(board) | PRESETS[getattr(a, "preset", "generic")]
    for key in ("protel_extensions", "subtract_mask_from_silk"):
        given = getattr(a, key, None)
        if given is not None:
            values[key] = given
    return kfab.PlotOptions(**values)


@dataclass
class Snapshot:
    """A board as it was at one revision: the open document, its copy for kicad-cli,
    a private work folder, and what the call plots, all taken under the session lock."""

    od: object
    board: Path
    work: Path
    layers: list[str]
    options: kfab.PlotOptions
    revision: int
    parity: bool = False  # the schematic is beside the board


@contextmanager
def _board(ctx: Context, a, with_schematic: bool = False) -> Iterator[Snapshot]:
    """The snapshot; ``with_schematic``: beside its schematic, when there is one, so that
    KiCad's DRC can check schematic parity."""
    with ExitStack() as stack:
        with ctx.session.lock:
            od = ctx.session.get(a.path, "board", ctx.actor)
            layers = _layers(od.doc, getattr(a, "layers", None))
            options = _plot_options(od.doc, a)
            sch = schematic_beside(ctx.session, od, ctx.actor, required=False) if with_schematic else None
            parity = sch is not None
            board = stack.enter_context(board_snapshot(ctx.session, od, sch,
                                                       sheet_files(ctx, sch.path) if parity else tuple))
            revision = od.revision
        work = board.parent / ".boardwire-fab"
        work.mkdir()
        yield Snapshot(od, board, work, layers, options, revision, parity)


def _schematic_for(ctx: Context, od, source: str):
    """The schematic the BOM comes from (open document), or None for the board."""
    if od.kind == "schematic":
        if source == "board":
            raise WrongKind(f"{od.path} is a schematic; source 'board' needs a board path")
        return od
    if source == "board":
        return None
    return schematic_beside(ctx.session, od, ctx.actor, required=source == "schematic")


def _bom_files(ctx: Context, cli, od, a, work: Path, stack: ExitStack, jlc: bool = False) -> tuple[list[Path], str]:
    """The BOM file (KiCad's columns, or JLCPCB's with ``jlc``) and where it came from."""
    sch = _schematic_for(ctx, od, getattr(a, "source", "auto"))
    out = work / "bom"
    if sch is not None:
        sch_copy = stack.enter_context(hierarchy_snapshot(ctx.session, sch, sheet_files(ctx, sch.path)))
        if not jlc:
            return kfab.bom(cli, sch_copy, out, exclude_dnp=a.exclude_dnp, cancel=ctx.cancel), "schematic"
        with ctx.session.lock:  # the hierarchy as already read (and cached) by the session
            parts = _part_fields(n for s in connectivity_of(ctx, sch.path).symbols for n in s.view.fields)
        [raw] = kfab.bom(cli, sch_copy, work / "bom-kicad", exclude_dnp=a.exclude_dnp, extra_fields=parts,
                         ref_ranges=False, cancel=ctx.cancel)
        text, source, stem = raw.read_text(encoding="utf-8"), "schematic", sch_copy.stem
    else:
        with ctx.session.lock:
            parts = _part_fields(board_bom.field_names(od.doc)) if jlc else ()
            data = board_bom.to_csv(board_bom.rows(od.doc, a.exclude_dnp, parts, ranges=not jlc), parts)
        text, source, stem = data.decode("utf-8"), "board", od.full.stem
    out.mkdir(parents=True, exist_ok=True)
    target = out / (f"{stem}-bom-jlcpcb.csv" if jlc else f"{stem}-bom.csv")
    target.write_text(jlcpcb.bom(text) if jlc else text, encoding="utf-8", newline="")
    return [target], source


def _part_fields(names) -> tuple[str, ...]:
    """Field names that hold an LCSC/JLCPCB part number (kicad-cli takes no commas)."""
    return tuple(sorted({n for n in names if jlcpcb.is_part_field(n) and "," not in n}))


def _jlc_cpl(files: list[Path], work: Path, stem: str) -> list[Path]:
    out = work / "cpl"
    out.mkdir()
    target = out / f"{stem}-cpl-jlcpcb.csv"
    target.write_text(jlcpcb.cpl(files[0].read_text(encoding="utf-8")), encoding="utf-8", newline="")
    return [target]


# Parity issues that make the BOM (from the schematic) and the position file (from the
# board) name different parts: they block the package whatever severity the project gives.
PARITY_BLOCKING = {"missing_footprint", "extra_footprint", "duplicate_footprints", "net_conflict"}


def _drc_gate(ctx: Context, cli, b: Snapshot, force: bool) -> dict:
    """KiCad's DRC on the snapshot: its counts, or DrcErrors when it has errors."""
    report = run_drc(cli, b.board, cancel=ctx.cancel, schematic_parity=b.parity)
    counts = parse_report(report, 0)["counts"]
    blocking = [v for v in (report.get("violations", []) + report.get("unconnected_items", [])
                            + report.get("schematic_parity", []))
                if v.get("severity") == "error" or v.get("type") in PARITY_BLOCKING]
    if blocking and not force:
        first = [{"type": v.get("type"), "description": v.get("description"),
                  "at": [((v.get("items") or [{}])[0].get("pos") or {}).get(k) for k in "xy"]}
                 for v in blocking[:5]]
        listed = "; ".join(f"{v['type']}: {v['description']} at {v['at']}" for v in first[:3])
        raise DrcErrors(f"{drc_summary(counts, b.parity)}; {len(blocking)} block the package, nothing written. "
                        f"First: {listed}", counts=counts, violations=first)
    counts["blocking"] = len(blocking)
    return counts


def _summary(what: str, written: list[dict], output: Path, ctx: Context) -> str:
    total = sum(f["bytes"] for f in written)
    return f"{what}: {len(written)} files, {total} bytes in {ctx.session.workspace.relative(output) or '.'}"


# -- commands -------------------------------------------------------------------------

@command("fab.gerbers", kind="export", args=GerbersArgs, result=Gerbers, long=True, idempotent=True,
         units=UNITS, examples=({"path": "board.kicad_pcb"},
                                {"path": "board.kicad_pcb", "layers": ["F.Cu", "B.Cu", "Edge.Cuts"], "output": "gerbers"}))
def gerbers(ctx: Context, a: GerbersArgs) -> dict:
    """Gerber X2 and job files of the in-memory board (kicad-cli); unset options follow its plot settings."""
    return _board_export(ctx, a, "Gerbers", "plotting Gerbers", lambda cli, b: kfab.gerbers(
        cli, b.board, b.work / "gerbers", b.layers, b.options, ctx.cancel),
        lambda b: {"layers": b.layers, "options": asdict(b.options)})


@command("fab.drill", kind="export", args=DrillArgs, result=FabFiles, long=True, idempotent=True,
         units=UNITS, examples=({"path": "board.kicad_pcb", "drill_map": True},))
def drill(ctx: Context, a: DrillArgs) -> dict:
    """Excellon drill files (mm) of the in-memory board (kicad-cli), optional drill map."""
    return _board_export(ctx, a, "drill", "writing drill files", lambda cli, b: kfab.drill(
        cli, b.board, b.work / "drill", separate_th=a.separate_th,
        map_format=MAP_FORMAT if a.drill_map else None,
        use_drill_origin=b.options.use_drill_origin, cancel=ctx.cancel))


@command("fab.positions", kind="export", args=PositionsArgs, result=FabFiles, long=True, idempotent=True,
         units=UNITS, examples=({"path": "board.kicad_pcb", "side": "front"},))
def positions(ctx: Context, a: PositionsArgs) -> dict:
    """Pick-and-place CSV of the in-memory board (kicad-cli): mm, degrees."""
    return _board_export(ctx, a, "positions", "writing the position file", lambda cli, b: kfab.positions(
        cli, b.board, b.work / "pos", side=a.side, exclude_dnp=a.exclude_dnp,
        use_drill_origin=b.options.use_drill_origin, cancel=ctx.cancel))


def _board_export(ctx: Context, a, what: str, doing: str, make, extra=lambda b: {}) -> dict:
    """Run ``make(cli, board)`` (a kfab writer returning its files) on a snapshot of the
    board, copy the files to the output folder and report them."""
    cli = kicad_cli()
    target = _output_dir(ctx, a.output)
    with _board(ctx, a) as b:
        ctx.progress(0.1, doing)
        files = make(cli, b)
        _stamp(files, a.created)
        ctx.progress(0.95, "copying the files")
        written = _publish(ctx, files, target)
    ctx.progress(1.0, "done")
    return {"summary": _summary(what, written, target, ctx), "files": written, **extra(b), "revision": b.revision}


@command("fab.bom", kind="export", args=BomArgs, result=Bom, long=True, idempotent=True,
         units=UNITS, examples=({"path": "board.kicad_pcb"},))
def bom(ctx: Context, a: BomArgs) -> dict:
    """Bill of materials: a grouped CSV BOM (Reference, Value, Footprint, Qty) from the schematic (kicad-cli), else the footprints; result's source says which."""
    target = _output_dir(ctx, a.output)
    od = ctx.session.get(a.path, ("board", "schematic"), ctx.actor)
    with ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="boardwire-bom-")))
        cli = kicad_cli() if _schematic_for(ctx, od, a.source) is not None else None
        ctx.progress(0.1, "writing the BOM")
        files, source = _bom_files(ctx, cli, od, a, work, stack)
        ctx.progress(0.95, "copying the file")
        written = _publish(ctx, files, target)
    ctx.progress(1.0, "done")
    return {"summary": _summary(f"BOM from the {source}", written, target, ctx), "files": written,
            "source": source, "revision": od.revision}


STAGES = (("drc", 0.02), ("gerbers", 0.1), ("drill", 0.45), ("positions", 0.6), ("bom", 0.7), ("zip", 0.85))


@command("fab.package", kind="export", args=PackageArgs, result=Package, long=True, idempotent=True,
         units=UNITS, examples=({"path": "board.kicad_pcb"}, {"path": "board.kicad_pcb", "preset": "jlcpcb"}))
def package(ctx: Context, a: PackageArgs) -> dict:
    """DRC gate, then Gerbers, drill, positions, BOM, fab.zip of the in-memory board; DRC errors refuse (drc-errors) unless force."""
    cli = kicad_cli()
    target = _output_dir(ctx, a.output)
    stage = dict(STAGES)
    jlc = a.preset == "jlcpcb"
    with _board(ctx, a, with_schematic=True) as b, ExitStack() as stack:
        origin = b.options.use_drill_origin
        ctx.progress(stage["drc"], "running KiCad DRC")
        drc = _drc_gate(ctx, cli, b, a.force)
        ctx.progress(stage["gerbers"], "plotting Gerbers")
        files = {"gerbers": kfab.gerbers(cli, b.board, b.work / "gerbers", b.layers, b.options, ctx.cancel)}
        ctx.progress(stage["drill"], "writing drill files")
        files["drill"] = kfab.drill(cli, b.board, b.work / "drill", separate_th=a.separate_th,
                                    map_format=MAP_FORMAT if a.drill_map else None,
                                    use_drill_origin=origin, cancel=ctx.cancel)
        ctx.progress(stage["positions"], "writing the position file")
        files["positions"] = kfab.positions(cli, b.board, b.work / "pos", side=a.side,
                                            exclude_dnp=a.exclude_dnp, use_drill_origin=origin,
                                            cancel=ctx.cancel)
        if jlc:
            files["positions"] = _jlc_cpl(files["positions"], b.work, b.od.full.stem)
        ctx.progress(stage["bom"], "writing the BOM")
        files["bom"], source = _bom_files(ctx, cli, b.od, a, b.work, stack, jlc)
        ctx.progress(stage["zip"], "zipping")
        every = [f for group in files.values() for f in group]
        _stamp(every, a.created)
        zipped = files["gerbers"] + files["drill"] if jlc else every
        archive = b.work / "fab.zip"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
            for f in zipped:
                if a.created is None:
                    z.write(f, f.name)
                else:  # the entries' times too, so that the archive repeats byte for byte
                    z.writestr(zipfile.ZipInfo(f.name, a.created.timetuple()[:6]), f.read_bytes(),
                               zipfile.ZIP_DEFLATED)
        ctx.progress(0.95, "copying the files")
        written = _publish(ctx, every + [archive], target)
    ctx.progress(1.0, "done")
    by_name = {Path(w["path"]).name: w for w in written}
    zip_entry = by_name["fab.zip"]
    forced = " (forced)" if drc["blocking"] else ""
    return unsaved_note(ctx, b.od.path, {"summary": (_summary(f"fabrication package ({a.preset})", written, target, ctx)
                        + f"; BOM from the {source}; {drc_summary(drc, b.parity)}{forced}"),
            "zip": zip_entry, "files": written,
            "groups": {k: [by_name[f.name]["path"] for f in v] for k, v in files.items()},
            "layers": b.layers, "bom_source": source, "options": asdict(b.options),
            "preset": a.preset, "drc": drc, "revision": b.revision})
