"""project.updatePcb ("Update PCB from Schematic"), judged by KiCad's schematic parity
check: on demos whose board and schematic agree nothing changes; a resistor added
through the schematic commands arrives on the board as exactly one new footprint with
the nets KiCad expects."""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need


def call(s: Session, cid: str, **args) -> dict:
    return REGISTRY.call(cid, args, Context(s))


def copy_demo(name: str, tmp_path: Path) -> Path:
    src = need(DEMOS / name)
    dst = tmp_path / name
    shutil.copytree(src, dst)
    return dst


def parity(kicad_cli: str, pcb: Path, everything: bool = False) -> list[dict]:
    """KiCad's schematic parity issues, except footprint library ids: the demo boards
    name their footprints from project libraries (``footprints:R_...``) where the
    symbols say ``Resistor_THT:R_...``, which updatePcb does not change."""
    out = pcb.with_suffix(".drc.json")
    r = subprocess.run([kicad_cli, "pcb", "drc", "--schematic-parity", "--format", "json",
                        "-o", str(out), str(pcb)], capture_output=True, text=True, timeout=600)
    assert out.exists(), r.stdout + r.stderr
    issues = json.loads(out.read_text()).get("schematic_parity", [])
    return issues if everything else [i for i in issues if i["type"] != "footprint_symbol_mismatch"]


# Demos whose board and schematic agree (kicad-cli's parity check reports only the
# library nickname mismatches filtered above): all the candidates do.
AGREEING = [("pic_programmer", "pic_programmer"), ("ecc83", "ecc83-pp"), ("ecc83", "ecc83-pp_v2"),
            ("interf_u", "interf_u"),
            ("video", "video"), ("complex_hierarchy", "complex_hierarchy")]


@pytest.mark.kicad
@pytest.mark.parametrize("demo,stem", AGREEING)
def test_agreeing_demo_needs_no_change(tmp_path, kicad_cli, demo, stem):
    folder = copy_demo(demo, tmp_path)
    pcb = folder / f"{stem}.kicad_pcb"
    assert parity(kicad_cli, pcb) == []
    before = pcb.read_bytes()
    s = Session(folder)
    out = call(s, "project.updatePcb", schematic=f"{stem}.kicad_sch", board=pcb.name)
    assert out["summary"] == "board matches the schematic"
    assert (out["added"], out["nets_changed"], out["values_changed"], out["extra_footprints"]) == ([], [], [], [])
    od = s.get(pcb.name, "board")
    assert not od.modified and not od.undo
    assert od.doc.to_bytes() == before


def test_dry_run_then_one_undo_step(tmp_path):
    """A changed value, two nets joined by a wire and a deleted symbol: dry_run reports
    what the update then does, in one undo step."""
    folder = copy_demo("ecc83", tmp_path)
    sch, pcb = "ecc83-pp.kicad_sch", "ecc83-pp.kicad_pcb"
    s = Session(folder)
    call(s, "sch.setField", path=sch, reference="R1", field="Value", value="4k7")
    r1 = {p["number"]: p["at"] for p in call(s, "query.pins", path=sch, reference="R1")["pins"]}
    call(s, "sch.wire", path=sch, points=[r1["1"], r1["2"]])  # shorts R1: joins its nets
    call(s, "sch.delete", path=sch, reference="C1")
    board = s.get(pcb, "board")
    before = board.doc.to_bytes()
    net1, net2 = (p.net_name for p in sorted(board.doc.footprint("R1").pads, key=lambda p: p.number))
    args = {"schematic": sch, "board": pcb}
    dry = call(s, "project.updatePcb", **args, dry_run=True)
    assert board.doc.to_bytes() == before and not board.undo
    assert dry["values_changed"] == [{"ref": "R1", "from": "1.5K", "to": "4k7"}]
    assert dry["extra_footprints"] == ["C1"] and dry["added"] == []
    moved = {(c["from"], c["to"]) for c in dry["nets_changed"]}
    assert moved in ({(net1, net2)}, {(net2, net1)})
    done = call(s, "project.updatePcb", **args)
    assert {k: done[k] for k in ("added", "nets_changed", "values_changed", "extra_footprints")} == \
        {k: dry[k] for k in ("added", "nets_changed", "values_changed", "extra_footprints")}
    assert len(board.undo) == 1  # one undo step
    assert board.doc.footprint("R1").value == "4k7"
    assert len({p.net_name for p in board.doc.footprint("R1").pads}) == 1
    again = call(s, "project.updatePcb", **args)
    assert again["summary"].startswith("board matches the schematic")
    assert board.doc.footprint("C1") is not None  # reported, never deleted
    s.undo(pcb)
    assert board.doc.to_bytes() == before


@pytest.mark.kicad
def test_new_resistor_reaches_the_board(tmp_path, kicad_cli):
    folder = copy_demo("ecc83", tmp_path)
    sch, pcb = "ecc83-pp.kicad_sch", "ecc83-pp.kicad_pcb"
    before = (folder / pcb).read_text()
    s = Session(folder)
    r1 = {p["number"]: p for p in call(s, "query.pins", path=sch, reference="R1")["pins"]}
    placed = call(s, "sch.placeSymbol", path=sch, symbol="Device:R", at=[40, 40], reference="R99",
                  value="1k", footprint="Resistor_SMD:R_0805_2012Metric")
    new = {p["number"]: p["at"] for p in placed["pins"]}
    call(s, "sch.wire", path=sch, points=[new["1"], r1["1"]["at"]])
    call(s, "sch.wire", path=sch, points=[new["2"], r1["2"]["at"]])

    out = call(s, "project.updatePcb", schematic=sch, board=pcb)
    assert out["added"] == ["R99"] and out["nets_changed"] == [] and out["values_changed"] == []
    assert out["extra_footprints"] == [] and "problems" not in out
    board = s.get(pcb, "board").doc
    fp = board.footprint("R99")
    assert fp.value == "1k" and fp.lib_id == "Resistor_SMD:R_0805_2012Metric"
    r1_nets = {p.number: p.net_name for p in board.footprint("R1").pads}
    assert {p.number: p.net_name for p in fp.pads} == r1_nets
    # the new footprint sits below the board, clear of everything else
    assert fp.position[1] > max(f.position[1] for f in board.footprints if f.reference != "R99")

    for od in list(s.documents.values()):
        if od.modified:
            s.save(od.path)
    after = (folder / pcb).read_text()
    # the only change: one new footprint block and new net declarations (if any)
    lines_before, lines_after = before.splitlines(), after.splitlines()
    ops = difflib.SequenceMatcher(None, lines_before, lines_after, autojunk=False).get_opcodes()
    assert all(tag in ("equal", "insert") for tag, *_ in ops), [o for o in ops if o[0] != "equal"]
    added = [line for tag, _, _, j1, j2 in ops if tag == "insert" for line in lines_after[j1:j2]]
    block = "\n".join(line for line in added if not line.startswith("\t(net "))
    assert block.startswith("\t(footprint ") and block.endswith("\n\t)")
    assert block.count("\t(footprint ") == 1 and '"R99"' in block
    assert f'(path "/{placed["id"]}")' in block and '(sheetname "/")' in block
    assert f'(sheetfile "{sch}")' in block

    issues = parity(kicad_cli, folder / pcb)
    assert issues == [], issues
    assert not [i for i in parity(kicad_cli, folder / pcb, everything=True) if "R99" in json.dumps(i)]


@pytest.mark.kicad
def test_footprint_of_a_sub_sheet_comes_back_as_it_was(tmp_path):
    """A footprint deleted from complex_hierarchy's board returns with the path,
    sheetname, sheetfile and pad nets KiCad gave it (library footprint, new place)."""
    folder = copy_demo("complex_hierarchy", tmp_path)
    s = Session(folder)
    pcb = "complex_hierarchy.kicad_pcb"
    board = s.get(pcb, "board").doc
    old = board.footprint("R310")
    heads = ("path", "sheetname", "sheetfile")
    info = {h: old.child(h).atoms() for h in heads}
    nets = {p.number: p.net_name for p in old.pads}
    call(s, "pcb.delete", path=pcb, reference="R310")
    out = call(s, "project.updatePcb", schematic="complex_hierarchy.kicad_sch", board=pcb)
    assert out["added"] == ["R310"] and out["nets_changed"] == [] and "problems" not in out
    new = board.footprint("R310")
    assert {h: new.child(h).atoms() for h in heads} == info
    assert {p.number: p.net_name for p in new.pads} == nets
