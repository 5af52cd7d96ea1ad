"""Fabrication outputs from kicad-cli 9: Gerber X2, Excellon drill, position and BOM.

Each function runs one ``kicad-cli`` export on a file KiCad can read (a snapshot) into
a folder of its own and returns the files KiCad wrote. Command lines follow KiCad 9's
``kicad-cli pcb export gerbers|drill|pos`` and ``kicad-cli sch export bom``
(docs.kicad.org/9.0/en/cli/cli.html). Units: millimetres throughout (drill files and
position files are written in mm).

Errors: a missing kicad-cli is ``service-unavailable`` (from `kicad_cli`); kicad-cli
failing, or writing nothing, is ``check-failed`` with the tail of its stderr; a
cancelled call kills kicad-cli's process group and raises ``cancelled``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .cli import KiCadCli, failure

# The layers a fab house needs, in the order KiCad plots them; copper comes from the
# board's layer table.
FAB_LAYERS = ("F.Paste", "B.Paste", "F.SilkS", "B.SilkS", "F.Mask", "B.Mask", "Edge.Cuts")

# kicad-cli sch export bom: the columns and grouping of our BOM (KiCad's defaults but
# DNP, grouped by value and footprint like KiCad's "Grouped By Value" preset).
BOM_FIELDS = "Reference,Value,Footprint,${QUANTITY}"
BOM_LABELS = "Reference,Value,Footprint,Qty"
BOM_GROUP_BY = "Value,Footprint"


@dataclass(frozen=True)
class PlotOptions:
    """Gerber options (KiCad's Plot dialog; stored in the board's ``pcbplotparams``).

    The defaults are kicad-cli's. ``use_drill_origin`` also applies to the drill and
    position files so that every output shares one origin."""

    protel_extensions: bool = True  # .gtl/.gbl... instead of .gbr (usegerberextensions)
    subtract_mask_from_silk: bool = False  # subtractmaskfromsilk
    x2: bool = True  # Gerber X2 attributes (usegerberattributes)
    netlist: bool = True  # X2 netlist attributes (usegerberadvancedattributes)
    aperture_macros: bool = True  # not disableapertmacros
    use_drill_origin: bool = False  # the drill/place file origin (useauxorigin)

    def gerber_flags(self) -> list[str]:
        flags = []
        if not self.protel_extensions:
            flags.append("--no-protel-ext")
        if self.subtract_mask_from_silk:
            flags.append("--subtract-soldermask")
        if not self.x2:
            flags.append("--no-x2")
        if not self.netlist:
            flags.append("--no-netlist")
        if not self.aperture_macros:
            flags.append("--disable-aperture-macros")
        if self.use_drill_origin:
            flags.append("--use-drill-file-origin")
        return flags


_BOARD_KEYS = {"usegerberextensions": ("protel_extensions", False),
               "subtractmaskfromsilk": ("subtract_mask_from_silk", False),
               "usegerberattributes": ("x2", False),
               "usegerberadvancedattributes": ("netlist", False),
               "disableapertmacros": ("aperture_macros", True),
               "useauxorigin": ("use_drill_origin", False)}


def board_plot_options(board) -> dict[str, bool]:
    """The Gerber options saved in a board's ``(setup (pcbplotparams ...))``, as
    `PlotOptions` field names; keys the board does not set are left out."""
    setup = board.setup
    params = setup.find("pcbplotparams") if setup is not None else None
    out: dict[str, bool] = {}
    if params is None:
        return out
    for node in params.lists():
        key = node.head
        if key in _BOARD_KEYS and node.atoms():
            field, inverted = _BOARD_KEYS[key]
            on = node.atoms()[0] in (b"yes", b"true")
            out[field] = (not on) if inverted else on
    return out


def _run(cli: KiCadCli, what: str, args: list[str], cancel, out: Path) -> list[Path]:
    """Run kicad-cli; the files it wrote into folder ``out`` (sorted), or CheckFailed."""
    out.mkdir(parents=True, exist_ok=True)
    r = cli.run(args, cancel=cancel, cwd=out)
    files = sorted(p for p in out.iterdir() if p.is_file())
    if r.returncode != 0 or not files:
        raise failure(what, r)
    return files


def gerbers(cli: KiCadCli, board: Path, out: Path, layers: list[str], options: PlotOptions,
            cancel=None) -> list[Path]:
    """Gerber X2 files of ``layers`` (and KiCad's .gbrjob job file) into ``out``."""
    args = ["pcb", "export", "gerbers", "-o", str(out) + "/", "-l", ",".join(layers),
            *options.gerber_flags(), str(board)]
    return _run(cli, "pcb export gerbers", args, cancel, out)


def drill(cli: KiCadCli, board: Path, out: Path, *, separate_th: bool = True,
          map_format: str | None = None, use_drill_origin: bool = False, cancel=None) -> list[Path]:
    """Excellon drill files (mm, decimal, oval holes as G85 slots) into ``out``; with
    ``separate_th`` plated and non-plated holes in two files (KiCad's dialog default);
    with ``map_format`` (gerberx2, pdf, svg, dxf, ps) a drill map too."""
    args = ["pcb", "export", "drill", "-o", str(out) + "/", "--format", "excellon",
            "--excellon-units", "mm", "--drill-origin", "plot" if use_drill_origin else "absolute"]
    if separate_th:
        args.append("--excellon-separate-th")
    if map_format:
        args += ["--generate-map", "--map-format", map_format]
    return _run(cli, "pcb export drill", [*args, str(board)], cancel, out)


def position_name(stem: str, side: str) -> str:
    """KiCad's name for a position file: NAME-top-pos.csv, -bottom-, or -all- for both."""
    return f"{stem}-{ {'front': 'top', 'back': 'bottom'}.get(side, 'all') }-pos.csv"


def positions(cli: KiCadCli, board: Path, out: Path, *, side: str = "both", exclude_dnp: bool = True,
              smd_only: bool = False, use_drill_origin: bool = False, cancel=None) -> list[Path]:
    """The position (pick and place, CPL) file: CSV, mm, degrees; ``side`` front, back
    or both (one file)."""
    target = out / position_name(board.stem, side)
    args = ["pcb", "export", "pos", "-o", str(target), "--format", "csv", "--units", "mm",
            "--side", side]
    if exclude_dnp:
        args.append("--exclude-dnp")
    if smd_only:
        args.append("--smd-only")
    if use_drill_origin:
        args.append("--use-drill-file-origin")
    return _run(cli, "pcb export pos", [*args, str(board)], cancel, out)


def bom(cli: KiCadCli, schematic: Path, out: Path, *, exclude_dnp: bool = True,
        extra_fields: tuple[str, ...] = (), ref_ranges: bool = True, cancel=None) -> list[Path]:
    """The BOM of a schematic hierarchy: CSV with Reference, Value, Footprint, Qty, one
    row per value and footprint, references shortened to ranges (R1-R4). ``extra_fields``
    are added as columns (and to the grouping); without ``ref_ranges`` the references
    are listed one by one (R1,R2,R3,R4)."""
    target = out / f"{schematic.stem}-bom.csv"
    extra = "".join("," + f for f in extra_fields)
    args = ["sch", "export", "bom", "-o", str(target), "--fields", BOM_FIELDS + extra,
            "--labels", BOM_LABELS + extra, "--group-by", BOM_GROUP_BY + extra]
    if not ref_ranges:
        args += ["--ref-range-delimiter", ""]
    if exclude_dnp:
        args.append("--exclude-dnp")
    return _run(cli, "sch export bom", [*args, str(schematic)], cancel, out)


# The date stamps kicad-cli 9 writes (KiCad's GbrMakeCreationDateAttributeString in
# common/plotters/gerber_plotter.cpp, the drill writer's header in
# pcbnew/exporters/gendrill_excellon_writer.cpp): the Gerber X2 file attribute, the
# Gerber comment line, the job file's CreationDate, the Excellon header comments and
# the ASCII position file's first line.
_STAMPS = (
    (re.compile(rb"^%TF\.CreationDate,[^*]*\*%$", re.M), lambda t: b"%TF.CreationDate," + _iso(t, ":") + b"*%"),
    (re.compile(rb"^(G04 Created by KiCad \([^)]*\) date )[^*]*\*$", re.M),
     lambda t: rb"\g<1>" + t.strftime("%Y-%m-%d %H:%M:%S").encode() + b"*"),
    (re.compile(rb'^(\s*"CreationDate": ")[^"]*(")', re.M), lambda t: rb"\g<1>" + _iso(t, ":") + rb"\g<2>"),
    (re.compile(rb"^(; DRILL file \{[^}]*\} date )\S+$", re.M), lambda t: rb"\g<1>" + _iso(t, "")),
    (re.compile(rb"^(; #@! TF\.CreationDate,)\S+$", re.M), lambda t: rb"\g<1>" + _iso(t, ":")),
    (re.compile(rb"^(### Footprint positions - created on )\S+( ###)$", re.M),
     lambda t: rb"\g<1>" + _iso(t, "") + rb"\g<2>"),
)


HEADER_BYTES = 4096


def _iso(t: datetime, colon: str) -> bytes:
    """KiCad's ISO 8601 form: 2026-12-01T19:46:27+00:00 (``colon`` ":") or +0000 ("")."""
    z = t.strftime("%z")
    return (t.strftime("%Y-%m-%dT%H:%M:%S") + z[:3] + colon + z[3:]).encode()


def stamp(files: list[Path], when: datetime) -> None:
    """Rewrite the creation dates kicad-cli wrote into Gerber, job and drill ``files``
    with ``when`` (a naive time is UTC), so that outputs of the same board made at
    different times are byte for byte the same (a reproducible build, like
    SOURCE_DATE_EPOCH). Files without such a line are left alone."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    stamps = [(pattern, make(when)) for pattern, make in _STAMPS]
    for f in files:
        data = f.read_bytes()
        # KiCad writes its stamps in the header: only whole lines of the first 4 kB are
        # looked at, not the whole of a copper layer's Gerber
        cut = data.rfind(b"\n", 0, HEADER_BYTES) + 1 if len(data) > HEADER_BYTES else len(data)
        head = data[:cut]
        for pattern, repl in stamps:
            head = pattern.sub(repl, head)
        if head != data[:cut]:
            f.write_bytes(head + data[cut:])
