"""What KiCad refuses to load, refused before boardwire reads further.

KiCad's readers are token-driven: a top-level list with a keyword the reader does not
know ends the load ("Unknown token 'x'" for boards, "Expecting bitmap, bus, ..." for
schematics; kicad-cli says "Failed to load board"/"schematic"). A file made of 50 MB of
unknown lists, or of lists nested 200,000 deep, would otherwise read as an empty board
after seconds and gigabytes. Sources: the ``switch`` over top-level tokens in KiCad's
``PCB_IO_KICAD_SEXPR_PARSER::parseBOARD_unchecked`` and
``SCH_IO_KICAD_SEXPR_PARSER::ParseSchematic`` (KiCad 9), checked against every board
and schematic of ../shared/corpus and KiCad's demos.

The keyword check applies to files of KiCad 9's formats and older, where KiCad 9's
reader is the judge; newer files (KiCad 10) keep whatever keywords they have. A format
version is the date its format was defined (``YYYYMMDD``; KiCad 4 boards: 3 or 4): one
that is no date, or a date still to come (and after the newest version seen in a real
file), was written by no KiCad and is refused as unsupported-format.
"""

from __future__ import annotations

import datetime
import re

from ..errors import ParseError, UnsupportedFormat
from ..sexpr.lexer import line_col
from ..sexpr.ranges import beyond
from .versions import BOARD_RELEASES, RELEASES_BY_SUFFIX, SCHEMATIC_RELEASES, kicad_major

BOARD_KEYWORDS = frozenset(b"""
    version host generator generator_version general page paper title_block layers setup
    property net net_class gr_arc gr_curve gr_line gr_poly gr_circle gr_rect image gr_text
    gr_text_box table dimension module footprint segment arc group generated via zone target
    embedded_fonts embedded_files""".split())

SCHEMATIC_KEYWORDS = frozenset(b"""
    version generator generator_version host uuid paper page title_block lib_symbols symbol
    image sheet junction no_connect bus_entry polyline bus wire arc circle rectangle bezier
    rule_area netclass_flag text label global_label hierarchical_label directive_label
    text_box table sheet_instances symbol_instances bus_alias group embedded_fonts
    embedded_files""".split())

# root keyword -> (keywords its children may have, newest format KiCad 9 reads)
_KEYWORDS = {
    "kicad_pcb": (BOARD_KEYWORDS, BOARD_RELEASES[9]),
    "kicad_sch": (SCHEMATIC_KEYWORDS, SCHEMATIC_RELEASES[9]),
}

# The newest format version in a real file we know (a KiCad nightly footprint of
# ../shared/corpus): never refused, whatever this machine's clock says.
_NEWEST_SEEN = datetime.date(2026, 8, 31)

_HEADER = re.compile(rb"[ \t\r\n\x00]*\([ \t\r\n]*([^ \t\r\n()]+)[ \t\r\n]*"
                     rb"\([ \t\r\n]*version[ \t\r\n]+([^ \t\r\n()]+)[ \t\r\n]*\)")


def header(data: bytes) -> tuple[str | None, bytes | None]:
    """The root keyword and the raw ``(version N)`` atom of a file that starts with
    them (KiCad writes both first), else what was found (None for absent)."""
    m = _HEADER.match(data, 0, 4096)
    if m is None:
        return None, None
    return m.group(1).decode(errors="replace"), m.group(2)


def file_kicad_major(name: str, head: bytes) -> int | None:
    """The KiCad release whose format file ``name`` is in, from the ``(version N)`` of
    its `header` (``head``: the file's first bytes); None for another kind of file or
    no version."""
    releases = RELEASES_BY_SUFFIX.get("." + name.rsplit(".", 1)[-1]) if "." in name else None
    version = header(head)[1] if releases else None
    return kicad_major(int(version), releases) if version and version.isdigit() else None


def allowed_keywords(data: bytes) -> frozenset[bytes] | None:
    """The keywords the root's children may have for KiCad to load ``data``, or None
    when no check applies (another kind of file, or a format newer than KiCad 9's)."""
    root, version = header(data)
    if root not in _KEYWORDS or version is None or not version.isdigit():
        return None
    keywords, newest = _KEYWORDS[root]
    return keywords if int(version) <= newest else None


def check_version(version: int | None, where: str, today: datetime.date | None = None) -> None:
    """Refuse a format version no KiCad wrote (see the module): UnsupportedFormat."""
    if version is None or version < 20000000:
        return
    text = str(version)
    try:
        date = datetime.date(int(text[:4]), int(text[4:6]), int(text[6:8])) if len(text) == 8 else None
    except ValueError:
        date = None
    if date is None or date > max(today or datetime.date.today(), _NEWEST_SEEN):
        raise UnsupportedFormat(
            f"{where} is format {version}, newer than any KiCad boardwire knows "
            f"(format versions are dates; KiCad 10 writes boards as {BOARD_RELEASES[10]}, "
            f"schematics as {SCHEMATIC_RELEASES[10]})",
            hint="Open it with the KiCad that wrote it; boardwire reads formats of "
                 "KiCad 4 to 10.")


# Where a board or footprint file holds lengths (millimetres): a number there beyond
# what KiCad's 32-bit nanometres hold is refused at load (issue 36: one Edge.Cuts
# coordinate at 1e12 mm made the router's spatial hash loop for minutes).
LENGTH_KEYWORDS = frozenset(b"""
    at xy start end mid center pos size width thickness drill offset rect_delta radius
    height aux_axis_origin grid_origin clearance min_thickness thermal_gap
    thermal_bridge_width solder_mask_margin solder_paste_margin""".split())
MAX_MM = 2147.483647  # KiCad's range: int32 nanometres


def check_lengths(data: bytes, where: str | None) -> None:
    """Refuse a length of ``data`` (a board or footprint file) beyond +-`MAX_MM` or not
    finite: ParseError naming the item, the keyword, the line and column. One pass in C
    (`sexpr.ranges.beyond`)."""
    hit = beyond(data, (MAX_MM * 1_000_000 + 0.5) / 1_000_000, LENGTH_KEYWORDS)
    if hit is None:
        return
    pos, head, item = hit
    number = _token(data, pos)
    keyword = _token(data, head)
    owner = _token(data, item + 1).lstrip(b" \t\r\n") if item >= 0 else b""
    line, col = line_col(data, pos)
    in_item = ""
    if owner and owner != keyword:
        item_line = line_col(data, item)[0]
        in_item = f" of the {owner.decode(errors='replace')} at line {item_line}"
    raise ParseError(f"{number.decode(errors='replace')} mm in ({keyword.decode(errors='replace')} ...)"
                     f"{in_item} is beyond KiCad's range: lengths are 32-bit nanometres, "
                     f"at most +-{MAX_MM} mm", path=where, line=line, col=col)


def _token(data: bytes, at: int) -> bytes:
    m = _ATOM.match(data, at)
    return m.group(0) if m else b""


_ATOM = re.compile(rb"[^ \t\r\n\x00()]+")
