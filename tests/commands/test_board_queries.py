"""query.* on real boards."""

from __future__ import annotations

import re
import shutil

import pytest

from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, demo_boards, need
from tests.oracle import pcbnew_dump


def q(session, cid, **args):
    return REGISTRY.call(cid, args, Context(session))


def tokens(text: str) -> int:
    """Tokens as counted here: each run of letters/digits, and each other non-space
    character, is one token. BPE tokenisers (GPT/Claude) merge more, so this is an
    upper bound for them on JSON like ours."""
    return len(re.findall(r"\w+|[^\w\s]", text))


def describe_fits_on_one_screen(s: Session, path: str) -> None:
    """query.describe of ``path`` is a one-screen summary (also for the huge boards:
    tests/test_huge_boards.py)."""
    import json

    out = q(s, "query.describe", path=path)
    text = json.dumps(out)
    assert tokens(text) < 2000, tokens(text)
    assert out["counts"]["footprints"] >= 0 and isinstance(out["unrouted"], int)
    assert out["summary"].startswith("board KiCad")


@pytest.mark.parametrize("board", demo_boards(), ids=lambda p: p.stem)
def test_describe_fits_on_one_screen(board):
    describe_fits_on_one_screen(Session(board.parent), board.name)


@pytest.mark.kicad
def test_items_filters_and_paging(pcbnew_python):
    s = Session(need(DEMOS / "video"))
    path = "video.kicad_pcb"
    kicad = pcbnew_dump(pcbnew_python, DEMOS / "video" / path)  # the oracle for the counts
    vias = q(s, "query.items", path=path, kind=["via"], limit=5)
    assert vias["total"] == len(kicad["vias"]) > 5 and len(vias["items"]) == 5 and "more" in vias["summary"]
    page2 = q(s, "query.items", path=path, kind=["via"], limit=5, offset=5)
    assert {i["id"] for i in page2["items"]}.isdisjoint({i["id"] for i in vias["items"]})
    gnd = q(s, "query.items", path=path, kind=["segment"], net="GND", limit=1000)
    assert gnd["total"] > 0 and all(i["net"] == "GND" for i in gnd["items"])
    inner = q(s, "query.items", path=path, layer="In1.Cu", kind=["segment"], limit=1000)
    assert all(i["layer"] == "In1.Cu" for i in inner["items"])
    fp = q(s, "query.items", path=path, reference="U1")
    assert fp["total"] == 1 and fp["items"][0]["ref"] == "U1"
    box = q(s, "query.items", path=path, kind=["footprint"], bbox=[100, 50, 150, 100], limit=1000)
    assert 0 < box["total"] < len(kicad["footprints"])
    assert all(100 <= i["at"][0] <= 150 and 50 <= i["at"][1] <= 100 for i in box["items"])


def test_nets_footprint_and_pads():
    s = Session(need(DEMOS / "pic_programmer"))
    path = "pic_programmer.kicad_pcb"
    nets = q(s, "query.nets", path=path, limit=1000)
    gnd = next(n for n in nets["nets"] if n["net"] == "GND")
    vcc = next(n for n in nets["nets"] if n["net"] == "VCC")
    assert gnd["pads"] > 10 and vcc["tracks"] > 0  # GND is a zone here
    assert nets["total"] == len(nets["nets"]) == len([n for n in s.get(path).doc.nets if n.number > 0])
    page = q(s, "query.nets", path=path, limit=5, offset=5)
    assert page["nets"] == nets["nets"][5:10] and page["total"] == nets["total"]
    assert [n["net"] for n in q(s, "query.nets", path=path, match="gnd")["nets"]] == ["GND"]
    assert all(n["net"].startswith("/") for n in q(s, "query.nets", path=path, match="/*")["nets"])
    u1 = q(s, "query.footprint", path=path, reference="U1")
    assert u1["ref"] == "U1" and len(u1["pads"]) > 2
    pads = q(s, "query.pads", path=path, reference="U1")
    assert [p["number"] for p in pads["pads"]] == [p["number"] for p in u1["pads"]]
    from boardwire.errors import NotFound

    with pytest.raises(NotFound):
        q(s, "query.pads", path=path, reference="NOPE")


def test_wrong_kind_and_missing_document(tmp_path):
    from boardwire.errors import NoDocument, WrongKind

    shutil.copy(need(DEMOS / "complex_hierarchy" / "complex_hierarchy.kicad_sch"), tmp_path / "a.kicad_sch")
    s = Session(tmp_path)
    with pytest.raises(WrongKind):  # query.describe reads schematics too (test_sch_queries)
        q(s, "query.nets", path="a.kicad_sch")
    with pytest.raises(NoDocument):
        q(s, "query.describe", path="missing.kicad_pcb")


def test_unsaved_project_edits_are_what_queries_and_vias_see(tmp_path):
    """pcb.setNetclass and pcb.setDesignRules edit the .kicad_pro in memory: before any
    save, query.netclasses and query.describe list the new class and rules, and a via
    on a net of the class takes the class's size and drill."""
    ws = tmp_path / "pic"
    shutil.copytree(need(DEMOS / "pic_programmer"), ws)
    on_disk = (ws / "pic_programmer.kicad_pro").read_bytes()
    s = Session(ws)
    path = "pic_programmer.kicad_pcb"

    def via_size(at) -> tuple[float, float]:
        v = q(s, "pcb.addVia", path=path, at=at, net="GND")
        [item] = [i for i in q(s, "query.items", path=path, kind=["via"], limit=1000)["items"] if i["id"] == v["id"]]
        return item["size"], item["drill"]

    assert via_size([5, 5]) != (1.2, 0.7)
    assert "Thick" not in [c["name"] for c in q(s, "query.netclasses", path=path)["netclasses"]]
    q(s, "pcb.setNetclass", path=path, name="Thick", nets=["GND"], via_diameter=1.2, via_drill=0.7)
    q(s, "pcb.setDesignRules", path=path, min_clearance=0.15)
    classes = {c["name"]: c for c in q(s, "query.netclasses", path=path)["netclasses"]}
    assert classes["Thick"]["via_diameter"] == 1.2 and classes["Thick"]["via_drill"] == 0.7
    assert via_size([10, 5]) == (1.2, 0.7)
    described = q(s, "query.describe", path=path)
    assert "Thick" in described["net_classes"] and described["design_rules"]["min_clearance"] == 0.15
    assert (ws / "pic_programmer.kicad_pro").read_bytes() == on_disk
