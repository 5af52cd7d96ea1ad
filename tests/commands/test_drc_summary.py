"""The DRC summary counts what it says it counts (issue 17, item 4): errors and
warnings over every finding, then violations and unconnected items, each number
equal to the result's own lists and counts."""

from __future__ import annotations

import re
import shutil

from boardwire.kicad.checks import drc_summary
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need


def test_the_summary_of_a_real_report(tmp_path):
    shutil.copy(need(DEMOS / "stickhub" / "StickHub.kicad_pcb"), tmp_path)
    out = REGISTRY.call("check.drc", {"path": "StickHub.kicad_pcb", "engine": "builtin", "limit": 10000,
                                      "format": "json"}, Context(Session(tmp_path)))
    c = out["counts"]
    errors, warnings, violations, unconnected = map(int, re.match(
        r"built-in DRC: (\d+) errors, (\d+) warnings in (\d+) violations, (\d+) unconnected$", out["summary"]).groups())
    assert violations == len(out["violations"]) == c["violations"] > 0 and unconnected == len(out["unconnected"])
    assert (errors, warnings) == (c["errors"], c["warnings"])
    assert errors + warnings == violations + unconnected  # every finding has one severity


def test_one_violation_is_singular():
    counts = {"errors": 3, "warnings": 0, "violations": 1, "unconnected": 2, "parity": 4}
    assert drc_summary(counts, parity=True) == "DRC: 3 errors, 0 warnings in 1 violation, 2 unconnected, 4 parity issues"
