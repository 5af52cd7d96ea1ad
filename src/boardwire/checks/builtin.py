"""The built-in DRC of a board: its rules gathered, its geometry kept, its violations.

`board_rules` resolves a board's rules from its project (given as data, e.g. the
session's copy, or read from the ``.kicad_pro`` beside the board file), a KiCad 5
board's own setup and net classes, and the custom rules of its ``.kicad_dru`` (given,
or read beside the board file). `builtin_drc` runs every built-in rule.
"""

from __future__ import annotations

from pathlib import Path

from ..documents.board.legacy import legacy_net_classes, legacy_rules
from ..geometry import build_rules, geometry_of
from ..geometry.constraints import constraints_for
from ..geometry.dru import compile_rules
from .engine import Result, run


def _beside(board, suffix: str) -> Path | None:
    if board.path is None:
        return None
    p = Path(board.path).with_suffix(suffix)
    return p if p.is_file() else None


def board_rules(board, project: dict | None = None, dru_rules: list | None = None):
    """The board's `geometry.Rules`. ``project``: the ``.kicad_pro`` data (None: read
    from beside the board file when there is one); ``dru_rules``: the parsed custom
    rules (`DesignRules.parsed_rules`; None: read the ``.kicad_dru`` beside the board)."""
    if project is None:
        pro = _beside(board, ".kicad_pro")
        if pro is not None:
            from ..documents import Project
            from ..errors import ParseError

            try:
                project = Project(pro.read_bytes(), pro).checked()
            except ParseError:  # a broken project file: KiCad's defaults, as KiCad falls back to
                project = None
    if dru_rules is None:
        dru = _beside(board, ".kicad_dru")
        if dru is not None:
            from ..documents import DesignRules

            try:
                dru_rules = DesignRules.load(dru).parsed_rules()
            except Exception:  # a broken rules file: KiCad then runs its implicit rules
                dru_rules = []
    custom, unsupported = compile_rules(dru_rules or [])
    board_classes = None
    if not ((project or {}).get("net_settings") or {}).get("classes"):
        board_classes = legacy_net_classes(board)
    return build_rules(project, legacy_rules(board), board_classes, custom, unsupported)


def builtin_drc(board, rules=None, connectivity: bool = True) -> Result:
    """Every built-in rule on ``board`` (its geometry is kept between calls and
    follows its edits)."""
    rules = rules or board_rules(board)
    model = geometry_of(board)
    return run(model, constraints_for(model, rules), board, connectivity)
