"""The files of a new KiCad 9 (or KiCad 10) project, byte for byte as KiCad 9 writes them.

Sources (KiCad 9.0, checked against 9.0.8 by tests/commands/test_project.py):

* ``NAME.kicad_pro``, blank template: KiCad's project manager ("File > New Project")
  copies ``template/kicad.kicad_pro`` from KiCad's shared data verbatim
  (``KICAD_MANAGER_FRAME::CreateNewProject``); we copy the installed one, or the copy
  of KiCad 9.0.8's bundled here (``kicad9/kicad.kicad_pro``) where KiCad is absent.
* ``NAME.kicad_pro``, 2layer-starter: the project file pcbnew 9 writes when a new
  board is saved (``kicad9/pcbnew.kicad_pro``, written by pcbnew 9.0.8), with the
  starter's design rules in ``board.design_settings.rules`` and its ``Default`` net
  class in ``net_settings.classes`` (KiCad 6+ keeps both in the project file).
* ``NAME.kicad_pcb``: an empty board as pcbnew 9 saves it (file format 20241229:
  two copper layers, KiCad's default layer table, setup and plot parameters;
  ``kicad9/empty.kicad_pcb``); the starter adds its outline as a ``gr_rect`` on
  Edge.Cuts, formatted by boardwire as pcbnew formats it.
* ``NAME.kicad_sch``: the root sheet as eeschema 9 saves an empty schematic (format
  20250114; KiCad's own new-project stub differs only in leaving the uuid unquoted);
  a new sub-sheet file lacks the root's ``sheet_instances`` and ``embedded_fonts``.
* ``sym-lib-table``, ``fp-lib-table``: empty project library tables as KiCad 9 writes
  them (``LIB_TABLE::Format``: the table, ``(version 7)``, no rows).

KiCad 10 (``kicad_version=10``; KiCad 10 cannot run here, so its files come from real
KiCad 10 files): the board is the header pcbnew 10.0.2 wrote for a new two-layer board
(general, paper, KiCad 10's default layer table, setup with KiCad 10's via protection
and plot parameters: ``kicad10/empty.kicad_pcb``, from the QA board
``diff_pair_uncoupled_tuning_drc.kicad_pcb`` of KiCad's source, its items left out),
format 20260206, no net table (KiCad 10 names nets on items); the schematic is the same
empty sheet in format 20260306 (``generator_version "10.0"``); the project file and the
library tables are KiCad 9's, which KiCad 10 reads as they are.

Units: millimetres in the files, as KiCad writes them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..board import Board
from ..ids import new_uuid
from ..versions import BOARD_RELEASES, SCHEMATIC_RELEASES, library_vars_for

TEMPLATES = ("blank", "2layer-starter")
KICAD_VERSIONS = (9, 10)
SCHEMATIC_VERSION = SCHEMATIC_RELEASES[9]  # eeschema 9.0 (SEXPR_SCHEMATIC_FILE_VERSION)
BOARD_VERSION = BOARD_RELEASES[9]  # pcbnew 9.0 (SEXPR_BOARD_FILE_VERSION)

# Where KiCad keeps its shared templates (KiCad's "system search" paths), besides
# $KICAD9_TEMPLATE_DIR.
_TEMPLATE_DIRS = ("/usr/share/kicad/template", "/usr/local/share/kicad/template",
                  "/Applications/KiCad/KiCad.app/Contents/SharedSupport/template",
                  r"C:\Program Files\KiCad\9.0\share\kicad\template")


@dataclass(frozen=True)
class StarterRules:
    """Design rules of the 2layer-starter template: a common low-cost 2-layer process
    (JLCPCB-like). Millimetres. ``board.design_settings.rules`` keys are KiCad's."""

    clearance: float = 0.2  # min_clearance, and the Default class's clearance
    track_width: float = 0.2  # min_track_width, and the Default class's track width
    via_diameter: float = 0.6  # min_via_diameter, and the Default class's via
    via_drill: float = 0.3  # the Default class's via drill
    min_hole: float = 0.3  # min_through_hole_diameter
    annular_ring: float = 0.15  # min_via_annular_width: (0.6 - 0.3) / 2
    edge_clearance: float = 0.3  # min_copper_edge_clearance
    outline: tuple[float, float, float, float] = (100.0, 80.0, 150.0, 120.0)  # 50 x 40 mm
    outline_width: float = 0.05  # KiCad 9's default board outline line width

    def rules(self) -> dict[str, float]:
        return {"min_clearance": self.clearance, "min_track_width": self.track_width,
                "min_via_diameter": self.via_diameter,
                "min_through_hole_diameter": self.min_hole,
                "min_via_annular_width": self.annular_ring,
                "min_copper_edge_clearance": self.edge_clearance}

    def netclass(self) -> dict[str, float]:
        return {"clearance": self.clearance, "track_width": self.track_width,
                "via_diameter": self.via_diameter, "via_drill": self.via_drill}


STARTER = StarterRules()


def _data(name: str, kicad: int = 9) -> bytes:
    return resources.files(__package__).joinpath(f"kicad{kicad}", name).read_bytes()


def kicad_template_project() -> bytes:
    """KiCad's own ``template/kicad.kicad_pro`` (the installed one if found)."""
    dirs = [os.environ.get("KICAD9_TEMPLATE_DIR", ""), *_TEMPLATE_DIRS]
    for d in dirs:
        p = Path(d) / "kicad.kicad_pro" if d else None
        if p is not None and p.is_file():
            try:
                data = p.read_bytes()
                json.loads(data)
                return data
            except (OSError, ValueError):
                continue
    return _data("kicad.kicad_pro")


def bundled_template_project() -> bytes:
    return _data("kicad.kicad_pro")


def project_file(name: str, template: str) -> bytes:
    if template == "blank":
        return kicad_template_project()
    data = json.loads(_data("pcbnew.kicad_pro"))
    data["meta"]["filename"] = f"{name}.kicad_pro"
    data["board"]["design_settings"]["rules"].update(STARTER.rules())
    default = next(c for c in data["net_settings"]["classes"] if c["name"] == "Default")
    default.update(STARTER.netclass())
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def board_file(template: str, outline_uuid: str | None = None, kicad: int = 9) -> bytes:
    data = _data("empty.kicad_pcb", kicad)
    if template == "blank":
        return data
    board = Board(data, None)
    x1, y1, x2, y2 = STARTER.outline
    board.add_graphic("rect", [(_nm(x1), _nm(y1)), (_nm(x2), _nm(y2))], "Edge.Cuts",
                      _nm(STARTER.outline_width), uid=outline_uuid)
    return board.to_bytes()


def schematic_file(sheet_uuid: str | None = None, *, root: bool = True, kicad: int = 9) -> bytes:
    """An empty sheet as eeschema 9 saves one: the root sheet of a project, or (``root``
    False) a sub-sheet file, which has no ``sheet_instances`` and no ``embedded_fonts``;
    ``kicad`` 10: the same sheet in KiCad 10's format."""
    text = ("(kicad_sch\n"
            f"\t(version {SCHEMATIC_RELEASES[kicad]})\n"
            '\t(generator "eeschema")\n'
            f'\t(generator_version "{kicad}.0")\n'
            f'\t(uuid "{sheet_uuid or new_uuid()}")\n'
            '\t(paper "A4")\n'
            "\t(lib_symbols)\n")
    if root:
        text += ("\t(sheet_instances\n"
                 '\t\t(path "/"\n'
                 '\t\t\t(page "1")\n'
                 "\t\t)\n"
                 "\t)\n"
                 "\t(embedded_fonts no)\n")
    return (text + ")\n").encode("utf-8")


def lib_table(kind: str) -> bytes:
    """An empty ``fp-lib-table`` (kind ``fp``) or ``sym-lib-table`` (``sym``)."""
    return f"({kind}_lib_table\n  (version 7)\n)\n".encode("utf-8")


def project_files(name: str, template: str, tables: dict[str, bytes] | None = None,
                  kicad: int = 9) -> dict[str, bytes]:
    """File name -> content of a new project called ``name`` for KiCad ``kicad`` (9 or
    10); the ``.kicad_pro`` comes last (KiCad's project manager lists a project by
    it). ``tables``: kind ("sym", "fp") -> the library table to write instead of an
    empty one (its ``${KICAD9_SYMBOL_DIR}``-style variables named for ``kicad``).
    ValueError for an unknown template or KiCad version."""
    if template not in TEMPLATES:
        raise ValueError(f"unknown template {template!r}")
    if kicad not in KICAD_VERSIONS:
        raise ValueError(f"unknown KiCad version {kicad!r}")
    tables = {k: library_vars_for(v.decode("utf-8"), kicad).encode("utf-8") for k, v in (tables or {}).items()}
    return {f"{name}.kicad_sch": schematic_file(kicad=kicad), f"{name}.kicad_pcb": board_file(template, kicad=kicad),
            "sym-lib-table": tables.get("sym") or lib_table("sym"),
            "fp-lib-table": tables.get("fp") or lib_table("fp"),
            f"{name}.kicad_pro": project_file(name, template)}


def _nm(mm: float) -> int:
    return round(mm * 1_000_000)
