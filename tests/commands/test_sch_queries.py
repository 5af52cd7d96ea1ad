"""query.* and check.erc on real schematics."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter

import pytest

from boardwire.kicad.checks import LIBRARY_CHECKS
from boardwire.errors import NotFound, WrongKind
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.netlist.test_schematic import ROOTS, kicad_groups
from tests.commands.test_board_queries import tokens
from tests.inputs import CORPUS, DEMOS, need


def q(session, cid, **args):
    return REGISTRY.call(cid, args, Context(session))


DEMO_ROOTS = [r for r in ROOTS if DEMOS in r.parents and r.stat().st_size < 5_000_000]


@pytest.mark.parametrize("root", DEMO_ROOTS, ids=lambda p: p.stem)
def test_describe_a_schematic_fits_on_one_screen(root):
    s = Session(root.parent)
    out = q(s, "query.describe", path=root.name)
    text = json.dumps(out)
    assert tokens(text) < 2000, tokens(text)
    assert out["summary"].startswith("schematic KiCad")
    assert out["counts"]["sheet_instances"] >= 1 and out["counts"]["nets"] >= 0


def test_describe_still_describes_boards():
    s = Session(need(DEMOS / "pic_programmer"))
    assert q(s, "query.describe", path="pic_programmer.kicad_pcb")["summary"].startswith("board KiCad")


def test_symbols_per_sheet_instance():
    s = Session(need(DEMOS / "complex_hierarchy"))
    path = "complex_hierarchy.kicad_sch"
    tree = q(s, "query.sheetTree", path=path)
    assert len(tree["sheets"]) == 3 and {x["file"] for x in tree["sheets"]} == \
        {"complex_hierarchy.kicad_sch", "ampli_ht.kicad_sch"}
    assert sorted(x["page"] for x in tree["sheets"]) == ["1", "2", "3"]
    # ampli_ht is placed twice: its symbols appear once per instance, with that
    # instance's reference
    rv = q(s, "query.symbols", path=path, reference="RV*")
    assert {x["reference"] for x in rv["symbols"]} == {"RV201", "RV301"}
    assert len({x["sheet"] for x in rv["symbols"]}) == 2
    page1 = q(s, "query.symbols", path=path, limit=5)
    page2 = q(s, "query.symbols", path=path, limit=5, offset=5)
    assert page1["total"] == page2["total"] > 10 and "more" in page1["summary"]
    assert {x["id"] + x["sheet"] for x in page1["symbols"]}.isdisjoint(
        {x["id"] + x["sheet"] for x in page2["symbols"]})
    sub = tree["sheets"][1]["path"]
    only = q(s, "query.symbols", path=path, sheet=sub, power=False, limit=1000)
    assert only["total"] > 0 and all(x["sheet"] == sub and "power" not in x for x in only["symbols"])
    assert q(s, "query.symbols", path=path, lib_id="*:GND", limit=1000)["total"] > 0


def test_pins_and_their_nets():
    s = Session(need(DEMOS / "pic_programmer"))
    path = "pic_programmer.kicad_sch"
    u5 = q(s, "query.pins", path=path, reference="U5")
    pins = {p["number"]: p for p in u5["pins"]}
    assert pins["4"]["name"] == "MCLR" and pins["4"]["net"] == "/VPP{slash}MCLR"
    assert pins["4"]["type"] == "input" and len(pins["4"]["at"]) == 2
    assert u5["sheets"] == ["/pic_sockets/"]
    u2 = q(s, "query.pins", path=path, reference="U2")  # a 74HC125: four units and power
    assert {p["unit"] for p in u2["pins"]} == {1, 2, 3, 4}
    gnd = [p for p in u2["pins"] if p["number"] == "7"]
    assert gnd and all(p["net"] == "GND" for p in gnd)
    with pytest.raises(NotFound):
        q(s, "query.pins", path=path, reference="U999")
    with pytest.raises(WrongKind):
        q(s, "query.pins", path="pic_programmer.kicad_pcb", reference="U5")


def test_labels_and_connectivity():
    s = Session(need(DEMOS / "pic_programmer"))
    path = "pic_programmer.kicad_sch"
    labels = q(s, "query.labels", path=path, kind=["hierarchical_label", "sheet_pin"])
    assert labels["total"] == 8
    assert all(lab["net"] for lab in labels["labels"])
    vpp = q(s, "query.labels", path=path, text="VPP*")
    assert {lab["net"] for lab in vpp["labels"]} >= {"/VPP{slash}MCLR"}
    gnd = q(s, "query.connectivity", path=path, net="GND")
    assert gnd["total"] == 1 and "U5.5" in gnd["nets"][0]["pins"]
    assert gnd["nets"][0]["sheets"] == ["/", "/pic_sockets/"]
    r18 = q(s, "query.connectivity", path=path, reference="R18")
    assert {n["net"] for n in r18["nets"]} == {"/VPP{slash}MCLR", "Net-(Q2-C)"}
    multi = q(s, "query.connectivity", path=path, include_single=False, limit=5000)
    assert all(len(n["pins"]) > 1 for n in multi["nets"])


@pytest.mark.kicad
@pytest.mark.parametrize("name", ["complex_hierarchy/complex_hierarchy.kicad_sch",
                                  "royalblue54L_feather/RoyalBlue54L-Feather.kicad_sch"])
def test_connectivity_command_equals_kicads_netlist(name, kicad_cli, tmp_path):
    root = need(DEMOS / name)
    s = Session(root.parent)
    nets = q(s, "query.connectivity", path=root.name, limit=5000)["nets"]
    assert {n["net"]: frozenset(n["pins"]) for n in nets} == kicad_groups(kicad_cli, root, tmp_path)


def test_in_memory_edits_are_seen_and_sheets_open_through_the_session(tmp_path):
    src = need(DEMOS / "complex_hierarchy")
    for f in src.glob("*.kicad_sch"):
        shutil.copy(f, tmp_path / f.name)
    s = Session(tmp_path)
    path = "complex_hierarchy.kicad_sch"
    before = q(s, "query.connectivity", path=path, limit=5000)
    assert "ampli_ht.kicad_sch" in s.documents  # the child sheet came through the session
    child = s.documents["ampli_ht.kicad_sch"]
    wire = next(iter(child.doc.wires))
    s.edit("drop a wire", lambda: child.doc.remove(wire.node))
    after = q(s, "query.connectivity", path=path, limit=5000)
    assert after["total"] != before["total"] or after["nets"] != before["nets"]
    s.undo("ampli_ht.kicad_sch")
    assert q(s, "query.connectivity", path=path, limit=5000) == before


def test_a_missing_sheet_is_reported_not_fatal(tmp_path):
    src = need(DEMOS / "complex_hierarchy")
    shutil.copy(src / "complex_hierarchy.kicad_sch", tmp_path / "root.kicad_sch")
    s = Session(tmp_path)
    tree = q(s, "query.sheetTree", path="root.kicad_sch")
    assert "2 missing" in tree["summary"] and sum(1 for x in tree["sheets"] if x.get("missing")) == 2
    assert q(s, "query.describe", path="root.kicad_sch")["missing_sheets"] == ["ampli_ht.kicad_sch"]


def test_a_sheet_outside_the_workspace_is_missing(tmp_path):
    corne = need(CORPUS / "foostan__crkbd" / "pcbs" / "corne-cherry" / "hotswap")
    s = Session(corne)  # its sheets are in ../../common, outside this working directory
    tree = q(s, "query.sheetTree", path="corne-cherry.kicad_sch")
    assert all(x.get("missing") for x in tree["sheets"][1:]) and len(tree["sheets"]) > 1


def erc_types(report: dict) -> Counter:
    return Counter(v["type"] for sheet in report["sheets"] for v in sheet["violations"]
                   if v["type"] not in LIBRARY_CHECKS)


@pytest.mark.kicad
@pytest.mark.parametrize("root, workspace", [
    ("pic_programmer/pic_programmer.kicad_sch", None),
    ("complex_hierarchy/complex_hierarchy.kicad_sch", None),
    ("royalblue54L_feather/RoyalBlue54L-Feather.kicad_sch", None),  # sheets in a subfolder
    ("foostan__crkbd/pcbs/corne-cherry/hotswap/corne-cherry.kicad_sch", 2),  # sheets in ../../
], ids=lambda v: str(v).split("/")[0])
def test_erc_on_the_in_memory_hierarchy_equals_kicad_cli(root, workspace, kicad_cli, tmp_path):
    full = need((CORPUS if workspace else DEMOS) / root)
    ws = full.parents[workspace] if workspace else full.parent
    s = Session(ws)
    ours = q(s, "check.erc", path=str(full.relative_to(ws)), limit=10000)
    out = tmp_path / "erc.json"
    subprocess.run([kicad_cli, "sch", "erc", "--format", "json", "-o", str(out), str(full)],
                   capture_output=True, timeout=900)
    theirs = json.loads(out.read_text())
    got = Counter({t: n for t, n in ours["by_type"].items() if t not in LIBRARY_CHECKS})
    assert got == erc_types(theirs)
    assert ours["counts"]["violations"] == len(ours["violations"])
    assert set(ours["by_sheet"]) == {sh["path"] for sh in theirs["sheets"]}
    assert ours["summary"].startswith("ERC:") and "missing_sheets" not in ours
    for v in ours["violations"]:
        assert v["type"] and v["severity"] in ("error", "warning") and v["sheet"]
        for item in v["items"]:
            assert "at" not in item or all(abs(c) < 2000 for c in item["at"])


@pytest.mark.kicad
def test_erc_positions_are_millimetres(kicad_cli, tmp_path):
    """KiCad 9's ERC JSON writes positions in hundredths of a millimetre's worth; the
    command corrects them: a dangling label's position is the label's own."""
    s = Session(need(CORPUS / "skot__bitaxe"))
    ours = q(s, "check.erc", path="bitaxeUltra.kicad_sch", limit=10000)
    dangling = [v for v in ours["violations"] if v["type"] == "label_dangling"]
    assert dangling
    labels = q(s, "query.labels", path="bitaxeUltra.kicad_sch", limit=5000)["labels"]
    by_id = {lab.get("id"): lab["at"] for lab in labels}
    item = dangling[0]["items"][0]
    assert by_id[item["id"]] == pytest.approx(item["at"], abs=1e-3)


@pytest.mark.kicad
def test_erc_sees_unsaved_edits(kicad_cli, tmp_path):
    src = need(DEMOS / "complex_hierarchy")
    for f in src.iterdir():
        if f.is_file():
            shutil.copy(f, tmp_path / f.name)
    s = Session(tmp_path)
    path = "complex_hierarchy.kicad_sch"
    before = q(s, "check.erc", path=path)
    child = s.get("ampli_ht.kicad_sch")
    wire = next(iter(child.doc.wires))
    s.edit("drop a wire", lambda: child.doc.remove(wire.node))
    after = q(s, "check.erc", path=path)
    assert after["counts"]["violations"] > before["counts"]["violations"]
    assert (tmp_path / "ampli_ht.kicad_sch").read_bytes() == (src / "ampli_ht.kicad_sch").read_bytes()
