"""Which files make one design, as KiCad finds them.

KiCad opens a design through its project file ``NAME.kicad_pro``; the project's root
sheet is ``NAME.kicad_sch`` and its board ``NAME.kicad_pcb``, beside it (KiCad's
``PROJECT::GetProjectName``; eeschema and pcbnew pair a board and a schematic by that
name, which is also what ``kicad-cli pcb drc --schematic-parity`` reads). A sheet
file in a folder without a project is its own root.
"""

from __future__ import annotations

from pathlib import Path


def project_name(folder: Path) -> str | None:
    """The project of ``folder``: NAME of the first ``NAME.kicad_pro`` (in name
    order) whose root sheet ``NAME.kicad_sch`` is there too; None if there is none."""
    for pro in sorted(folder.glob("*.kicad_pro")):
        if (folder / (pro.stem + ".kicad_sch")).is_file():
            return pro.stem
    return None


def board_schematic(board: Path) -> Path:
    """The root sheet KiCad pairs with ``board``: the same name, ``.kicad_sch``."""
    return board.with_suffix(".kicad_sch")
