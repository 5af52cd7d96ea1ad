"""Net names are bounded (MAX_NET_NAME characters, KiCad has no limit) and label text is
one line, refused with invalid-args naming the argument at the argument boundary,
on KiCad's ecc83 demo board and schematic; the limit itself is accepted, the schema
(and so the tool list's size) does not change."""

from __future__ import annotations

import shutil

import pytest

from boardwire.design.document import Design
from boardwire.documents.board.tables import MAX_NET_NAME
from boardwire.errors import InvalidArgs
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, REPO, need

LONG = "N" * (MAX_NET_NAME + 1)


@pytest.fixture
def session(tmp_path):
    for f in ("ecc83-pp.kicad_pcb", "ecc83-pp.kicad_sch"):
        shutil.copy(need(DEMOS / "ecc83" / f), tmp_path / f)
    return Session(tmp_path)


def refused(session, cid: str, **args) -> dict:
    with pytest.raises(InvalidArgs) as e:
        REGISTRY.call(cid, args, Context(session))
    return e.value.data["errors"][0]


BOARD = "ecc83-pp.kicad_pcb"
TOO_LONG = [
    ("pcb.addTrack", {"path": BOARD, "points": [[100, 100], [101, 100]], "width": 0.25, "net": LONG}, "net"),
    ("pcb.route", {"path": BOARD, "points": [[100, 100], [101, 100]], "layers": ["F.Cu"], "width": 0.25, "net": LONG}, "net"),
    ("pcb.addVia", {"path": BOARD, "at": [100, 100], "net": LONG}, "net"),
    ("pcb.addZone", {"path": BOARD, "outline": [[0, 0], [5, 0], [5, 5]], "net": LONG}, "net"),
    ("pcb.placeFootprint", {"path": BOARD, "footprint": "Resistor_SMD:R_0805_2012Metric", "reference": "R99",
                            "at": [130, 130], "nets": {"1": LONG}}, "nets.1"),
    ("query.items", {"path": BOARD, "net": LONG}, "net"),
]


@pytest.mark.parametrize("cid, args, loc", TOO_LONG, ids=[c for c, _, _ in TOO_LONG])
def test_net_names_beyond_the_bound_are_invalid_args(session, cid, args, loc):
    before = session.open(BOARD).doc.to_bytes()
    error = refused(session, cid, **args)
    assert error["loc"] == loc and f"at most {MAX_NET_NAME} characters" in error["msg"]
    assert session.open(BOARD).doc.to_bytes() == before


def test_a_name_at_the_bound_is_a_net(session):
    name = "N" * MAX_NET_NAME
    REGISTRY.call("pcb.placeFootprint", {"path": BOARD, "footprint": "Resistor_SMD:R_0805_2012Metric",
                                         "reference": "R99", "at": [130, 130], "nets": {"1": name}}, Context(session))
    out = REGISTRY.call("pcb.addTrack", {"path": BOARD, "points": [[130, 130], [133, 130]], "width": 0.25, "net": name},
                        Context(session))
    assert len(out["ids"]) == 1 and session.open(BOARD).doc.net_number(name)


def test_schematic_nets_and_labels(session):
    sch = "ecc83-pp.kicad_sch"
    for text in ("SDA\nSCL", "SDA\r", "\n"):
        error = refused(session, "sch.label", path=sch, text=text, at=[100, 100])
        assert error["loc"] == "text" and "one line" in error["msg"]
        assert refused(session, "sch.globalLabel", path=sch, text=text, at=[100, 100])["loc"] == "text"
    assert refused(session, "sch.label", path=sch, text="N" * 1001, at=[100, 100])["loc"] == "text"
    assert refused(session, "sch.connect", path=sch, nets={LONG: ["U1.1", "U1.2"]})["loc"].startswith("nets")
    out = REGISTRY.call("sch.label", {"path": sch, "text": "SDA", "at": [100, 100]}, Context(session))
    assert out["id"]


def test_design_documents_bound_net_names():
    import json

    d = json.loads((REPO / "examples" / "designs" / "blinker555.json").read_text())
    Design.model_validate(d)
    d["nets"][LONG] = d["nets"].pop("LED")
    with pytest.raises(ValueError, match=f"at most {MAX_NET_NAME} characters"):
        Design.model_validate(d)
