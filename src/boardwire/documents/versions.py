"""Format versions, so that a file is written back in its own generation.

Sources: the ``SEXPR_BOARD_FILE_VERSION`` history in KiCad's
``pcbnew/pcb_io/kicad_sexpr/pcb_io_kicad_sexpr.h`` and ``SEXPR_SCHEMATIC_FILE_VERSION``
in ``eeschema/sch_file_versions.h``. A writer asks `board_has(version, feature)` before
it emits a token, so no token newer than the file's version is ever written.
"""

from __future__ import annotations

import re

# KiCad release -> the board / schematic / symbol-library format version it writes
# (KiCad 10's from ../shared/KICAD10-NOTES.md and the KiCad 10 files of the corpus).
BOARD_RELEASES = {5: 20171130, 6: 20211014, 7: 20221018, 8: 20240108, 9: 20241229, 10: 20260206}
SCHEMATIC_RELEASES = {6: 20211123, 7: 20230121, 8: 20231120, 9: 20250114, 10: 20260306}
SYMBOL_LIB_RELEASES = {6: 20211014, 7: 20220914, 8: 20231120, 9: 20241209, 10: 20251024}

LATEST_BOARD = BOARD_RELEASES[9]
LATEST_SCHEMATIC = SCHEMATIC_RELEASES[9]

# Board features and the version that introduced them.
_BOARD_FEATURES = {
    "arc_tracks": 20200119,  # (arc ...) track segments
    "footprint_keyword": 20201115,  # (footprint ...) rather than (module ...)
    "fp_uuid": 20200724,  # KIID UUIDs (tstamp before 20231014, hex time stamps before this)
    "pad_locking": 20210108,
    "quoted_layers": 20200512,  # layer names written as strings from KiCad 6
    "stroke": 20211229,  # (stroke (width) (type)) on graphics
    "fields": 20230620,  # (property "Reference" ...) instead of fp_text reference
    "uuid": 20231014,  # (uuid "...") instead of (tstamp ...); prettified layout
    "teardrops": 20230517,
    "tenting": 20240609,
    "embedded_files": 20240706,
    # KiCad 10 (the "Start of 10.0 development" lines of the same history)
    "via_protection": 20250228,  # per-via tenting/covering/plugging/capping/filling
    "zone_v10": 20250302,  # zones: island_removal_mode always, no filled_areas_thickness
    "jumper_pads": 20250324,  # footprint (jumper_pad_groups), duplicate_pad_numbers_are_jumpers
    "island_bool": 20250801,  # (island) -> (island yes/no)
    "rounded_rects": 20250829,  # (radius) on rectangles
    "points": 20250901,  # (point ...) board points
    "barcodes": 20250914,  # (barcode ...)
    "buried_vias": 20250926,  # via types blind / buried / micro split
    "net_names": 20251028,  # items name their net, (net "GND"); no net table, no codes
    "variants": 20260101,  # design variants with per-footprint overrides
    # footprint (units (unit (name "A") (pins "1" ...)) ...): in KiCad 10's footprints
    # (20260206); the history line that added it was not read, so the release version
    "fp_units": 20260206,
}

# Before this board version, a zone without ``filled_areas_thickness`` has its filled
# polygons stroked with its minimum width (KiCad 5's fills; KiCad 9 still reads them so).
STROKED_FILLS_BEFORE = 20200000


def zone_fill_stroked(version: int | None, thickness: bytes | None, fill: bool) -> bool:
    """Whether KiCad strokes a zone's filled polygons with its minimum width: its
    ``(filled_areas_thickness yes)``, or (``thickness`` None: no such token) a zone
    with a ``fill`` in a file older than `STROKED_FILLS_BEFORE`."""
    if thickness is not None:
        return thickness in (b"yes", b"true")
    return fill and (version or 0) < STROKED_FILLS_BEFORE


# Schematic features (``SEXPR_SCHEMATIC_FILE_VERSION`` history) and their version.
_SCHEMATIC_FEATURES = {
    "boolean_hide": 20241004,
    "body_style": 20250827,  # placed symbols write (body_style N)
    "field_flags": 20251028,  # fields always write (show_name no) (do_not_autoplace no)
    "in_pos_files": 20250922,  # (in_pos_files yes) with schematic variants (absent in
    # the 20250318 files of the corpus, present from 20260101)
    "pin_jumpers": 20250227,  # library symbols write (duplicate_pin_numbers_are_jumpers no)
}


def board_has(version: int | None, feature: str) -> bool:
    """Whether a board or footprint file of ``version`` may contain ``feature``."""
    return (version or 0) >= _BOARD_FEATURES[feature]


def schematic_has(version: int | None, feature: str) -> bool:
    """Whether a schematic or symbol library of ``version`` may contain ``feature``."""
    return (version or 0) >= _SCHEMATIC_FEATURES[feature]


# a file's kind (its suffix) -> the format versions of each KiCad release
RELEASES_BY_SUFFIX = {".kicad_pcb": BOARD_RELEASES, ".kicad_mod": BOARD_RELEASES,
                      ".kicad_sch": SCHEMATIC_RELEASES, ".kicad_sym": SYMBOL_LIB_RELEASES}


def kicad_major(version: int | None, releases: dict[int, int] = BOARD_RELEASES) -> int | None:
    """The KiCad release a format version belongs to (None for unknown/absent)."""
    if version is None:
        return None
    if version < 20000000:  # KiCad 4 boards: (version 3) / (version 4)
        return 4
    for rel, first in sorted(releases.items()):
        if version <= first:
            return rel
    return max(releases) + 1  # newer than every release we know: a development build


# KiCad's per-release library folder variables, ``${KICAD9_3DMODEL_DIR}`` and the like
_LIBRARY_VAR = re.compile(r"\$\{KICAD(\d+)_(FOOTPRINT|SYMBOL|3DMODEL|TEMPLATE)_DIR\}")


def library_vars_for(text: str, kicad: int | None) -> str:
    """``text`` (a 3D model path, a library table) with KiCad's library folder variables
    named as KiCad ``kicad`` defines them: in a KiCad 10 file the KiCad 6-9 names
    become ``${KICAD10_..._DIR}`` (as KiCad 10 writes, e.g. ``${KICAD10_3DMODEL_DIR}``
    in the corpus's KiCad 10.0.2 board), in a KiCad 9 file KiCad 10's become
    ``${KICAD9_..._DIR}`` (KiCad 9 does not define them). Other text is unchanged."""
    if kicad is None or kicad < 9:
        return text

    def rename(m: re.Match) -> str:
        old = int(m.group(1))
        new = kicad if kicad >= 10 and 6 <= old < kicad or kicad == 9 and old == 10 else old
        return f"${{KICAD{new}_{m.group(2)}_DIR}}"
    return _LIBRARY_VAR.sub(rename, text)
