"""Built-in rules: DRC on the board's copper geometry (`engine`), agreeing with KiCad 9
on every rule it covers."""

from .builtin import board_rules, builtin_drc
from .engine import BUILT_IN, Result, check_scope, run

__all__ = ["BUILT_IN", "Result", "board_rules", "builtin_drc", "check_scope", "run"]
