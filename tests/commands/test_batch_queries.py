"""session.batch with queries among its edits: each query sees the edits before it,
every step's result comes back, and the batch stays one change (issue 17, item 3)."""

from __future__ import annotations

import shutil

import pytest

from boardwire.errors import InvalidArgs
from boardwire.registry import REGISTRY, Context, tables
from boardwire.session import Session
from tests.inputs import DEMOS, need

BOARD = "ecc83-pp.kicad_pcb"


@pytest.fixture
def session(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / BOARD), tmp_path)
    return Session(tmp_path)


def _pads(session, ctx=None):
    out = REGISTRY.call("query.pads", {"path": BOARD, "reference": "C1"}, ctx or Context(session))
    return {p["number"]: p["at"] for p in out["pads"]}


def test_a_query_step_sees_the_edit_before_it(session):
    before = _pads(session)
    out = REGISTRY.call("session.batch", {"steps": [
        {"command": "pcb.move", "args": {"path": BOARD, "reference": "C1", "by": [5, 0]}},
        {"command": "query.pads", "args": {"path": BOARD, "reference": "C1"}},
        {"command": "pcb.move", "args": {"path": BOARD, "reference": "C1", "by": [0, 2]}},
        {"command": "query.footprint", "args": {"path": BOARD, "reference": "C1"}},
    ]}, Context(session))
    moved, placed = out["results"][1], out["results"][3]
    assert len(out["results"]) == 4
    for p in moved["pads"]:
        assert p["at"] == pytest.approx([before[p["number"]][0] + 5, before[p["number"]][1]])
    after = _pads(session)
    assert {n: [x, y - 2] for n, (x, y) in after.items()} == pytest.approx(
        {p["number"]: p["at"] for p in moved["pads"]})
    assert placed["summary"] and session.documents[BOARD].revision == 1  # one change
    REGISTRY.call("session.undo", {"path": BOARD}, Context(session))
    assert _pads(session) == before


def test_query_steps_follow_the_callers_table_format(session):
    out = REGISTRY.call("session.batch", {"steps": [
        {"command": "query.nets", "args": {"path": BOARD}}]}, Context(session, tables="table"))
    rows, _ = tables.decode(out["results"][0]["nets"])
    assert rows == REGISTRY.call("query.nets", {"path": BOARD}, Context(session))["nets"]
    assert session.documents[BOARD].revision == 0  # queries alone change nothing


def test_checks_and_session_commands_are_refused_in_a_batch(session):
    for cid in ("check.drc", "session.save"):
        with pytest.raises(InvalidArgs, match="edits and queries") as e:
            REGISTRY.call("session.batch", {"steps": [
                {"command": "pcb.move", "args": {"path": BOARD, "reference": "C1", "by": [5, 0]}},
                {"command": cid, "args": {"path": BOARD}}]}, Context(session))
        assert e.value.data["errors"][0]["loc"] == "steps.1.command"
    assert session.documents.get(BOARD) is None or session.documents[BOARD].revision == 0
