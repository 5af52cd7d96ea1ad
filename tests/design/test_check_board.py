"""design.check reports what would leave a part off the board or a constraint pointing
nowhere, before a build: references in constraints.edge and constraints.pinned that are
no component, pinned parts whose courtyard (turned as pinned) is outside the outline,
outlines too small for the parts' courtyards, and outlines that cross themselves. The
design is examples/designs/blinker555.json with KiCad's own libraries (no catalogue)."""

from __future__ import annotations

import json

import pytest

from boardwire.errors import DesignErrors
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import FOOTPRINTS, REPO, SYMBOLS, need

BLINKER = json.loads((REPO / "examples" / "designs" / "blinker555.json").read_text())
for _c in BLINKER["components"]:  # KiCad's libraries only: no catalogue in this workspace
    if _c.get("part"):
        _c.update(symbol="Device:C", value="100n", footprint="Capacitor_SMD:C_0805_2012Metric")
        del _c["part"]


@pytest.fixture
def session(tmp_path):
    need(SYMBOLS / "Timer.kicad_sym")
    need(FOOTPRINTS / "Package_DIP.pretty")
    return Session(tmp_path)


def check(session, **changes) -> list[dict]:
    out = REGISTRY.call("design.check", {"design": {**BLINKER, **changes}}, Context(session))
    assert out["ok"] == (not out["errors"])
    return out["errors"]


def codes(errors) -> list[tuple[str, str]]:
    return sorted((e["code"], e["where"]) for e in errors)


def test_the_example_is_clean(session):
    assert check(session) == []


def test_unknown_refs_in_constraints(session):
    errors = check(session, constraints={"edge": ["J1", "J9"], "pinned": {"X5": {"at": [5, 5]}}})
    assert codes(errors) == [("unknown-ref", "constraints.edge[1]"), ("unknown-ref", "constraints.pinned.X5")]
    assert all(e["fix"] for e in errors)
    # edges as ref -> edge; a part both pinned and at an edge is one or the other
    errors = check(session, constraints={"edge": {"J1": "left", "J9": "top"}, "pinned": {"J1": {"at": [3, 5]}}})
    assert codes(errors) == [("pinned-and-edge", "constraints.edge.J1"), ("unknown-ref", "constraints.edge.J9")]
    with pytest.raises(DesignErrors):
        REGISTRY.call("design.build", {"design": {**BLINKER, "constraints": {"edge": ["J9"]}}}, Context(session))


def test_pinned_parts_off_the_board(session):
    # 35 x 25 mm board. U1 (DIP-8, courtyard about 9.7 x 10.7 mm around pin 1) at the
    # far right; R1 near the corner turned 90 degrees (its courtyard, 3.4 x 1.9 mm, then
    # reaches above y = 0), R2 at the same place unturned, inside; C1 inside.
    pinned = {"U1": {"at": [33, 10]}, "R1": {"at": [1.8, 1.2], "angle": 90}, "C1": {"at": [10, 10]},
              "R2": {"at": [1.8, 1.2]}}
    errors = check(session, constraints={"edge": ["J1"], "pinned": pinned})
    assert codes(errors) == [("off-board", "constraints.pinned.R1"), ("off-board", "constraints.pinned.U1")]
    assert "outside the outline (35 x 25 mm, (0, 0) to (35, 25))" in errors[0]["message"]
    # a polygon outline: the same U1 fits in an L whose arm is wide enough only at the top
    ell = [[0, 0], [50, 0], [50, 12], [20, 12], [20, 30], [0, 30]]
    assert codes(check(session, board={"outline": ell}, constraints={"pinned": {"U1": {"at": [40, 2]}}})) == []
    assert codes(check(session, board={"outline": ell}, constraints={"pinned": {"U1": {"at": [40, 14]}}})) == [
        ("off-board", "constraints.pinned.U1")]


def test_an_outline_too_small_for_the_parts(session):
    errors = check(session, board={"size": [12, 9]})  # U1's courtyard is 9.7 x 10.7 mm
    assert codes(errors) == [("board-too-small", "board.size")] * 2  # the total, and U1 alone
    assert "courtyards take 171 mm², the outline has 108 mm²" in errors[0]["message"]
    assert "U1's courtyard" in errors[1]["message"]
    assert codes(check(session, board={"size": [12, 11]})) == [("board-too-small", "board.size")]  # U1 fits
    assert codes(check(session, board={"outline": [[0, 0], [10, 10], [10, 0], [0, 10]]})) == [
        ("bad-outline", "board.outline")]
    # no size: the build's default size has room for every part
    assert check(session, board={}) == []


def test_placement_fails_when_autoplace_leaves_a_part_off_the_board():
    """The build's placement stage stops the build when pcb.autoplace reports a part off
    the board or unplaced (an outline with room by area but not by shape)."""
    from boardwire.design.check import Report
    from boardwire.design.document import Design
    from boardwire.design.pipeline import Build, Stage, StageFailed

    answers = {"pcb.autoplace": {"summary": "placed 8 footprints: 0 courtyard overlaps, 1 off the board",
                                 "off_board": 1, "unplaced": ["U1"]}}
    build = Build(Design.model_validate(BLINKER), Report(), "builds/x/v001", lambda cid, args: answers[cid],
                  lambda cid: True, lambda f, m: None)
    build.sizes, build.pcb = {"U1": (-1, -1, 9, 11)}, "b.kicad_pcb"
    with pytest.raises(StageFailed, match="1 off the board; unplaced: U1; give board.size larger"):
        build._placement(Stage("placement"))
    answers["pcb.autoplace"] = {"summary": "placed 9 footprints", "off_board": 0, "unplaced": []}
    assert build._placement(Stage("placement")) == "placed 9 footprints"


def test_decouple_entries_checked(session):
    """constraints.decouple names a capacitor between the pin's net and ground: C3
    (VCC-GND) serves U1.8; C1 (the timing capacitor, THR-GND) does not, nor do a
    missing capacitor, IC or pin."""
    assert check(session, constraints={"decouple": {"C3": "U1.8"}}) == []
    errors = check(session, constraints={"decouple": {"C1": "U1.8", "C9": "U1.8", "C3": "U1.99", "C2": "U7.8"}})
    assert codes(errors) == [("not-decoupling", "constraints.decouple.C1"), ("unknown-pin", "constraints.decouple.C3"),
                             ("unknown-ref", "constraints.decouple.C2"), ("unknown-ref", "constraints.decouple.C9")]
    assert all(e["fix"] for e in errors)
    assert "THR" in next(e["message"] for e in errors if e["code"] == "not-decoupling")
