"""One rules model: the router, pcb.route/pcb.addVia's via sizes and the DRC read a
board's rules from `geometry.rules.Rules` (through `services.rules.session_rules`),
as KiCad resolves them: a KiCad 5 board's own setup and net classes, a class's missing
values from the Default class, patterns as wildcards or regular expressions."""

from __future__ import annotations

import json

from boardwire.checks import board_rules
from boardwire.documents import open_document
from boardwire.layout.route_board import build_problem
from boardwire.registry import REGISTRY, Context
from boardwire.services.rules import session_rules
from boardwire.session import Session
from tests.inputs import CORPUS, DEMOS, need
from tests.layout.judge import strip_board


def _problem(folder, name):
    session = Session(folder)
    od = session.get(name, "board", "test")
    return build_problem(od.doc, session_rules(Context(session), od)).problem


def test_a_kicad5_board_net_class_gives_its_diff_pair_width():
    # hackrf's LNA915 (KiCad 5.1, no project file): (net_class Default ...
    # (diff_pair_width 0.2032) (diff_pair_gap 0.2032))
    board = open_document(need(CORPUS / "greatscottgadgets__hackrf/hardware/LNA915/LNA915.kicad_pcb"))
    default = board_rules(board).classes["Default"]
    assert (default.diff_pair_width, default.diff_pair_gap, default.track_width) == (203_200, 203_200, 293_370)


def test_the_router_reads_a_kicad5_boards_setup_and_classes(tmp_path):
    """qspimux2 (KiCad 5.99, no project file) keeps its rules in its own setup
    (``(defaults (edge_clearance 0.01))``, ``(via_min_size 0.4)``) and net classes
    (Default 0.15 mm tracks, power 0.25 mm). The router took KiCad 9's defaults for the
    setup (0.5 mm from the edge) where KiCad's DRC, and ours, read the board's."""
    board = strip_board(need(CORPUS / "felixheld__qspimux/qspimux2/qspimux2.kicad_pcb"), tmp_path)
    problem = _problem(tmp_path, board.name)
    assert problem.rules.edge_clearance == 10_000
    rules = {n.name: n.rule for n in problem.nets}
    assert (rules["GND"].width, rules["GND"].clearance) == (250_000, 150_000)  # class power
    assert (rules["/CLK_FLASH"].width, rules["/CLK_FLASH"].via_diameter) == (150_000, 600_000)  # Default


def test_a_class_without_a_value_takes_the_default_classes(tmp_path):
    """pic_programmer's project with POWER's via sizes left out and Default's raised to
    1.2/0.5 mm: KiCad's effective net class (``makeEffectiveNetclass``) fills them from
    Default, where the router took its own constants (0.6/0.3 mm, raised to the board's
    0.9 mm minimum). A pattern that is a regular expression (``/VPP_.*``) puts its nets
    in POWER, as KiCad matches it; the router matched wildcards only."""
    board = strip_board(need(DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb"), tmp_path)
    pro = board.with_suffix(".kicad_pro")
    data = json.loads(pro.read_text())
    classes = {c["name"]: c for c in data["net_settings"]["classes"]}
    del classes["POWER"]["via_diameter"], classes["POWER"]["via_drill"]
    classes["Default"]["via_diameter"], classes["Default"]["via_drill"] = 1.2, 0.5
    data["net_settings"]["netclass_patterns"].append({"netclass": "POWER", "pattern": "/VPP_.*"})
    pro.write_text(json.dumps(data, indent=2))
    rules = {n.name: n.rule for n in _problem(tmp_path, board.name).nets}
    assert (rules["GND"].width, rules["GND"].via_diameter, rules["GND"].via_drill) == (800_000, 1_200_000, 500_000)
    assert rules["/VPP_ON"].width == 800_000 and rules["/VPP_ON"].clearance == 280_000


def test_a_via_takes_its_net_classes_size_on_a_kicad5_board(tmp_path):
    """pcb.addVia and pcb.route without sizes: the net class's via, read as the DRC
    reads it. KiCad's issue4257 board (KiCad 5.99, no project file) has Default vias
    of 0.8/0.4 mm; they were 0.6/0.3 mm (the project reader found no project)."""
    src = need(CORPUS / "KiCad__kicad-source-mirror/qa/data/pcbnew/issue4257.kicad_pcb")
    (tmp_path / src.name).write_bytes(src.read_bytes())
    session = Session(tmp_path)
    ctx = Context(session)
    added = [REGISTRY.call("pcb.addVia", {"path": src.name, "at": [150, 80]}, ctx)["id"]]
    added += REGISTRY.call("pcb.route", {"path": src.name, "points": [[150, 90], [155, 90], [155, 95]],
                                         "layers": ["F.Cu", "B.Cu"], "width": 0.25}, ctx)["vias"]
    vias = {v.uuid: v for v in session.get(src.name).doc.vias}
    assert [(vias[i].size, vias[i].drill) for i in added] == [(800_000, 400_000)] * 2
