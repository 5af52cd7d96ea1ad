"""Every id a DRC finding names is accepted by the commands that fix it (issue 17,
item 3): the id of a footprint's Reference text by pcb.move and pcb.setField, the id
of a footprint's graphic or pad by pcb.move (which moves the footprint)."""

from __future__ import annotations

import shutil

import pytest

from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need

pytestmark = pytest.mark.kicad
BOARD = "ecc83-pp.kicad_pcb"


@pytest.fixture
def session(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / BOARD), tmp_path)
    return Session(tmp_path)


def call(session, cid, **args):
    return REGISTRY.call(cid, {"path": BOARD, **args}, Context(session))


def _silk_edge(session) -> list[dict]:
    drc = call(session, "check.drc", format="json")
    return [v for v in drc["violations"] if v["type"] == "silk_edge_clearance"]


def test_a_reference_text_named_by_drc_is_moved_by_its_id(session, kicad_cli):
    r4 = call(session, "query.footprint", reference="R4")
    ref = next(t for t in r4["texts"] if t["name"] == "Reference")
    before = _silk_edge(session)
    edges = call(session, "query.items", kind=["gr_line"], format="json")["items"]
    right = max(g["start"][0] for g in edges if g["layer"] == "Edge.Cuts" and g["start"][0] == g["end"][0])
    call(session, "pcb.setField", reference="R4", field="Reference", at=[right, ref["at"][1]])  # on the edge
    found = [v for v in _silk_edge(session) if v not in before]
    assert ref["id"] in {i["id"] for v in found for i in v["items"]}, found  # KiCad names the text by its id
    out = call(session, "pcb.move", id=ref["id"], at=ref["at"])
    assert "Reference text of R4" in out["summary"]
    assert _silk_edge(session) == before
    call(session, "pcb.setField", id=ref["id"], visible=False)  # the id also names the field
    texts = call(session, "query.footprint", reference="R4")["texts"]
    assert not next(t for t in texts if t["name"] == "Reference")["visible"]


def test_every_id_a_finding_names_is_accepted_by_pcb_move(session, kicad_cli):
    findings = _silk_edge(session)
    assert findings
    for v in findings:
        for item in v["items"]:
            out = call(session, "pcb.move", id=item["id"], by=[0, 0])
            assert out["summary"].startswith("moved"), item
