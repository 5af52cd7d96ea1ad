"""The built-in DRC agrees with KiCad 9 on every board KiCad 9 loads: every corpus board
with a stored report and every KiCad demo board (vme-wren, 70 MB, is in
docs/drc.md's table through bench/drc_agreement.py instead: 13 minutes of kicad-cli).

For each rule the built-in engine covers, over all boards, the violations both engines
report (same items, or the same count where KiCad's choice of partner is its R-tree's,
see checks.compare) are at least 99 % of those either reports; rules KiCad finds on no
board here (track_width) are covered by tests/checks/test_broken_boards.py. Every
mismatch is listed and explained in docs/drc.md."""

from __future__ import annotations

import json

import pytest

from boardwire.checks import BUILT_IN
from tests.checks.agreement import (board_tally, builtin_report, corpus_boards, demo_boards,
                                    kicad_report, totals)
from tests.inputs import need_corpus

pytestmark = pytest.mark.kicad


@pytest.fixture(scope="module")
def tallies(kicad_cli, tmp_path_factory) -> dict:
    need_corpus()
    out_dir = tmp_path_factory.mktemp("kicad-drc")
    res = {}
    for board, oracle in corpus_boards():
        res[str(board)] = board_tally(json.loads(oracle.read_text()), builtin_report(board))
    for board in demo_boards():
        res[str(board)] = board_tally(kicad_report(kicad_cli, board, out_dir), builtin_report(board))
    return res


@pytest.mark.parametrize("rule", BUILT_IN)
def test_rule_agrees_with_kicad(tallies, rule):
    t = totals(tallies)[rule]
    misses = {board: (v["kicad"], v["builtin"], v["matched"]) for board, tally in tallies.items()
              for r, v in tally.items() if r == rule and not v["kicad"] == v["builtin"] == v["matched"]}
    assert t["agreement"] >= 0.99, f"{rule}: {t} differ on {misses}"


def test_the_comparison_covers_the_rules_kicad_reports(tallies):
    """Not a vacuous agreement: the boards hold KiCad violations of most covered
    rules."""
    t = totals(tallies)
    found = {rule for rule in BUILT_IN if t[rule]["kicad"] > 0}
    assert {"clearance", "shorting_items", "hole_clearance", "copper_edge_clearance", "hole_to_hole",
            "annular_width", "drill_out_of_range", "courtyards_overlap", "unconnected_items"} <= found
