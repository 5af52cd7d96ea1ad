"""project.updatePcb ("Update PCB from Schematic") and project.backAnnotate ("Update
Schematic from PCB"), judged by KiCad's schematic parity check and netlist: on demos
whose board and schematic agree nothing changes but the footprints KiCad names as of
another library; a resistor added through the schematic commands arrives on the board
as exactly one new footprint with the nets KiCad expects; a changed Footprint field
swaps the footprint, a changed reference renames it; references changed on the board
reach the right sheet instance of the schematic."""

from __future__ import annotations

import difflib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from boardwire.errors import InvalidArgs
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
    symbols say ``Resistor_THT:R_...`` (updatePcb swaps those unless swap=false)."""
    out = pcb.with_suffix(".drc.json")
    r = subprocess.run([kicad_cli, "pcb", "drc", "--schematic-parity", "--format", "json",
                        "-o", str(out), str(pcb)], capture_output=True, text=True, timeout=600)
    assert out.exists(), r.stdout + r.stderr
    issues = json.loads(out.read_text()).get("schematic_parity", [])
    return issues if everything else [i for i in issues if i["type"] != "footprint_symbol_mismatch"]


def mismatched(issues: list[dict]) -> set[str]:
    """References of the footprints KiCad reports as of another library than their symbol's."""
    return {i["items"][0]["description"].removeprefix("Footprint ") for i in issues
            if i["type"] == "footprint_symbol_mismatch"}


def save_all(s: Session) -> None:
    for od in list(s.documents.values()):
        if od.modified:
            s.save(od.path)


# Demos whose board and schematic agree (kicad-cli's parity check reports only the
# library nickname mismatches filtered above): all the candidates do.
AGREEING = [("pic_programmer", "pic_programmer"), ("ecc83", "ecc83-pp"), ("ecc83", "ecc83-pp_v2"),
            ("interf_u", "interf_u"),
            ("video", "video"), ("complex_hierarchy", "complex_hierarchy")]


@pytest.mark.kicad
@pytest.mark.parametrize("demo,stem", AGREEING)
def test_agreeing_demo_needs_no_change(tmp_path, kicad_cli, demo, stem):
    """Without swapping nothing changes; with it (a dry run) exactly the footprints
    KiCad's parity check names as of another library are swapped, or reported where
    the installed libraries lack the symbol's footprint (pic_programmer's J1, video's J4)."""
    folder = copy_demo(demo, tmp_path)
    pcb = folder / f"{stem}.kicad_pcb"
    issues = parity(kicad_cli, pcb, everything=True)
    assert [i for i in issues if i["type"] != "footprint_symbol_mismatch"] == []
    before = pcb.read_bytes()
    s = Session(folder)
    args = {"schematic": f"{stem}.kicad_sch", "board": pcb.name}
    out = call(s, "project.updatePcb", **args, swap=False)
    assert out["summary"].startswith("board matches the schematic")
    assert {d["ref"] for d in out.get("footprints_differ", [])} == mismatched(issues)
    assert (out["added"], out["nets_changed"], out["values_changed"], out["extra_footprints"]) == ([], [], [], [])
    assert (out["references_changed"], out["footprints_swapped"], out["deleted"]) == ([], [], [])
    dry = call(s, "project.updatePcb", **args, dry_run=True)
    swapped = {sw["ref"] for sw in dry["footprints_swapped"]}
    missing = {p["ref"] for p in dry.get("problems", []) if "no footprint" in p["message"]}
    assert swapped | missing == mismatched(issues) and not swapped & missing
    assert len(dry.get("problems", [])) == len(missing)
    assert (dry["added"], dry["nets_changed"], dry["references_changed"]) == ([], [], [])
    od = s.get(pcb.name, "board")
    assert not od.modified and not od.undo
    assert od.doc.to_bytes() == before


# Demos whose board and schematic agree entirely (kicad-cli's parity check: no issue).
IN_PARITY = [("stickhub", "StickHub"), ("tiny_tapeout", "tinytapeout-demo"),
             ("test_pads_inside_pads", "test_pads_inside_pads")]


@pytest.mark.kicad
@pytest.mark.parametrize("demo,stem", IN_PARITY)
def test_demo_in_parity_needs_no_change_with_default_options(tmp_path, kicad_cli, demo, stem):
    folder = copy_demo(demo, tmp_path)
    pcb = folder / f"{stem}.kicad_pcb"
    assert parity(kicad_cli, pcb, everything=True) == []
    before = pcb.read_bytes()
    s = Session(folder)
    out = call(s, "project.updatePcb", schematic=f"{stem}.kicad_sch", board=pcb.name)
    assert out["summary"] == "board matches the schematic", out
    od = s.get(pcb.name, "board")
    assert not od.modified and od.doc.to_bytes() == before


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
    assert dry["extra_footprints"] == ["C1"] and dry["added"] == [] and dry["deleted"] == []
    moved = {(c["from"], c["to"]) for c in dry["nets_changed"]}
    assert moved in ({(net1, net2)}, {(net2, net1)})
    assert "R1" in {sw["ref"] for sw in dry["footprints_swapped"]}  # Footprints:R_... -> Resistor_THT:R_...
    keys = ("added", "references_changed", "footprints_swapped", "nets_changed", "values_changed",
            "deleted", "extra_footprints")
    done = call(s, "project.updatePcb", **args)
    assert {k: done[k] for k in keys} == {k: dry[k] for k in keys}
    assert len(board.undo) == 1  # one undo step
    assert board.doc.footprint("R1").value == "4k7"
    assert board.doc.footprint("R1").lib_id.startswith("Resistor_THT:")
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

    out = call(s, "project.updatePcb", schematic=sch, board=pcb, swap=False)
    assert out["added"] == ["R99"] and out["nets_changed"] == [] and out["values_changed"] == []
    assert out["extra_footprints"] == [] and "problems" not in out
    board = s.get(pcb, "board").doc
    fp = board.footprint("R99")
    assert fp.value == "1k" and fp.lib_id == "Resistor_SMD:R_0805_2012Metric"
    r1_nets = {p.number: p.net_name for p in board.footprint("R1").pads}
    assert {p.number: p.net_name for p in fp.pads} == r1_nets
    # the new footprint sits below the board, clear of everything else
    assert fp.position[1] > max(f.position[1] for f in board.footprints if f.reference != "R99")

    save_all(s)
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
    """Footprints deleted from complex_hierarchy's board return with the path,
    sheetname, sheetfile and pad nets KiCad gave them (library footprint, new place),
    in one row per sheet instance below the board."""
    folder = copy_demo("complex_hierarchy", tmp_path)
    s = Session(folder)
    pcb = "complex_hierarchy.kicad_pcb"
    board = s.get(pcb, "board").doc
    old = board.footprint("R310")
    heads = ("path", "sheetname", "sheetfile")
    info = {h: old.child(h).atoms() for h in heads}
    nets = {p.number: p.net_name for p in old.pads}
    for ref in ("R210", "R211", "R310"):
        call(s, "pcb.delete", path=pcb, reference=ref)
    lowest = max(fp.position[1] for fp in board.footprints)
    out = call(s, "project.updatePcb", schematic="complex_hierarchy.kicad_sch", board=pcb, swap=False)
    assert out["added"] == ["R210", "R211", "R310"] and out["nets_changed"] == [] and "problems" not in out
    new = board.footprint("R310")
    assert {h: new.child(h).atoms() for h in heads} == info
    assert {p.number: p.net_name for p in new.pads} == nets
    # /ampli_ht_vertical/ (R210, R211: one library footprint) in a row, /ampli_ht_horizontal/ below
    r210, r211 = board.footprint("R210").position, board.footprint("R211").position
    assert r210[1] == r211[1] and r211[0] > r210[0]
    assert new.position[1] > r210[1] > lowest


@pytest.mark.kicad
def test_changed_footprint_field_swaps_the_footprint(tmp_path, kicad_cli):
    """A symbol's new Footprint field swaps its footprint in place (same id, place,
    angle, side, pad nets); KiCad's parity check then finds nothing at all."""
    folder = copy_demo("ecc83", tmp_path)
    sch, pcb = "ecc83-pp.kicad_sch", "ecc83-pp.kicad_pcb"
    assert "R1" in mismatched(parity(kicad_cli, folder / pcb, everything=True))
    s = Session(folder)
    call(s, "sch.setField", path=sch, reference="R1", field="Footprint", value="Resistor_SMD:R_0805_2012Metric")
    board = s.get(pcb, "board")
    old = board.doc.footprint("R1")
    was = (old.uuid, old.position, old.orientation, old.side, old.lib_id)
    nets = {p.number: p.net_name for p in old.pads}
    assert len(set(nets.values())) == 2
    before = board.doc.to_bytes()
    args = {"schematic": sch, "board": pcb}
    dry = call(s, "project.updatePcb", **args, dry_run=True)
    assert board.doc.to_bytes() == before and not board.undo
    swap = {"ref": "R1", "from": was[4], "to": "Resistor_SMD:R_0805_2012Metric"}
    assert swap in dry["footprints_swapped"]
    out = call(s, "project.updatePcb", **args)
    assert out["footprints_swapped"] == dry["footprints_swapped"] and out["nets_changed"] == []
    assert out["added"] == [] and out["references_changed"] == [] and "problems" not in out
    new = board.doc.footprint("R1")
    assert new.lib_id == "Resistor_SMD:R_0805_2012Metric" and len(new.pads) == 2
    assert (new.uuid, new.position, new.orientation, new.side) == was[:4]
    assert {p.number: p.net_name for p in new.pads} == nets
    assert len(board.undo) == 1
    save_all(s)
    assert b"R_0805_2012Metric" in (folder / pcb).read_bytes()
    issues = parity(kicad_cli, folder / pcb, everything=True)
    assert issues == [], issues


def test_renamed_symbols_rename_their_footprints(tmp_path):
    """References changed in the schematic (R1 -> R9, R2 -> R1) follow the footprints'
    links: each footprint is renamed in place, none is added; only the two Reference
    lines of the board change."""
    folder = copy_demo("ecc83", tmp_path)
    sch, pcb = "ecc83-pp.kicad_sch", "ecc83-pp.kicad_pcb"
    s = Session(folder)
    board = s.get(pcb, "board")
    ids = {ref: board.doc.footprint(ref).uuid for ref in ("R1", "R2")}
    at = {ref: board.doc.footprint(ref).position for ref in ("R1", "R2")}
    before = board.doc.to_bytes().decode()
    call(s, "sch.setField", path=sch, reference="R1", field="Reference", value="R9")
    call(s, "sch.setField", path=sch, reference="R2", field="Reference", value="R1")
    out = call(s, "project.updatePcb", schematic=sch, board=pcb, swap=False)
    assert sorted(out["references_changed"], key=lambda c: c["to"]) == \
        [{"from": "R2", "to": "R1"}, {"from": "R1", "to": "R9"}]
    assert (out["added"], out["extra_footprints"], out["nets_changed"]) == ([], [], [])
    assert board.doc.by_uuid(ids["R1"]).reference == "R9" and board.doc.by_uuid(ids["R2"]).reference == "R1"
    assert board.doc.by_uuid(ids["R1"]).position == at["R1"] and board.doc.by_uuid(ids["R2"]).position == at["R2"]
    after = board.doc.to_bytes().decode()
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert len(before.splitlines()) == len(after.splitlines()) and len(changed) == 2
    assert {b.strip() for _, b in changed} == {'(property "Reference" "R9"', '(property "Reference" "R1"'}
    assert call(s, "project.updatePcb", schematic=sch, board=pcb, swap=False)["summary"].startswith("board matches the schematic")


def test_footprint_without_link_is_relinked_by_reference(tmp_path):
    """A footprint placed by hand for a symbol (no path) is matched by reference and
    given the symbol's path, not duplicated."""
    folder = copy_demo("ecc83", tmp_path)
    sch, pcb = "ecc83-pp.kicad_sch", "ecc83-pp.kicad_pcb"
    s = Session(folder)
    board = s.get(pcb, "board").doc
    old = board.footprint("R1")
    link = old.child("path").atoms()
    nets = {p.number: p.net_name for p in old.pads}
    call(s, "pcb.delete", path=pcb, reference="R1")
    call(s, "pcb.placeFootprint", path=pcb, footprint=old.lib_id, reference="R1", value="1.5K",
         at=[100, 100], nets=nets)
    assert board.footprint("R1").child("path") is None
    out = call(s, "project.updatePcb", schematic=sch, board=pcb, swap=False)
    assert out["relinked"] == ["R1"] and out["added"] == [] and out["nets_changed"] == []
    fp = board.footprint("R1")
    assert fp.child("path").atoms() == link and fp.child("sheetfile").atoms() == [b'"ecc83-pp.kicad_sch"']
    assert call(s, "project.updatePcb", schematic=sch, board=pcb, swap=False)["summary"].startswith("board matches the schematic")


def test_delete_extra_keeps_board_only_and_locked(tmp_path):
    """delete_extra deletes footprints without a symbol, never board_only ones and
    never locked ones (reported); without it they are only reported."""
    folder = copy_demo("complex_hierarchy", tmp_path)
    sch, pcb = "complex_hierarchy.kicad_sch", "complex_hierarchy.kicad_pcb"
    s = Session(folder)
    call(s, "sch.delete", path="ampli_ht.kicad_sch", reference="Q204")  # Q204 and Q304 (locked)
    for ref, x in (("X1", 60), ("X2", 70)):
        call(s, "pcb.placeFootprint", path=pcb, footprint="Resistor_SMD:R_0805_2012Metric", reference=ref,
             at=[x, 60])
    call(s, "pcb.setField", path=pcb, reference="X2", board_only=True)
    board = s.get(pcb, "board")
    assert board.doc.footprint("Q304").locked and not board.doc.footprint("Q204").locked
    args = {"schematic": sch, "board": pcb, "swap": False}
    report = call(s, "project.updatePcb", **args)
    assert report["extra_footprints"] == ["Q204", "Q304", "X1"] and report["deleted"] == []
    # the transistors' partners are alone in the schematic now: their pads take the
    # schematic's names (KiCad's "unconnected-(R212-Pad1)"); the kept extra footprints
    # still hold the old nets, so those are not renamed whole
    assert sorted((c["ref"], c["to"]) for c in report["nets_changed"]) == [
        (r, f"unconnected-({r}-Pad1)") for r in ("R208", "R212", "R308", "R312")]
    assert report["nets_renamed"] == []
    before = board.doc.to_bytes()
    undo = len(board.undo)
    dry = call(s, "project.updatePcb", **args, delete_extra=True, dry_run=True)
    assert board.doc.to_bytes() == before and len(board.undo) == undo
    out = call(s, "project.updatePcb", **args, delete_extra=True)
    for r in (dry, out):
        assert r["deleted"] == ["Q204", "X1"] and r["extra_footprints"] == ["Q304"]
        assert {"ref": "Q304", "message": "locked: not deleted"} in r["problems"]
    assert board.doc.footprint("Q204") is None and board.doc.footprint("X1") is None
    assert board.doc.footprint("X2") is not None and board.doc.footprint("Q304") is not None
    assert len(board.undo) == undo + 1
    s.undo(pcb)
    assert board.doc.to_bytes() == before


def netlist_refs(kicad_cli: str, sch: Path) -> dict[str, str]:
    """Reference -> sheet path of every component of KiCad's netlist of ``sch``."""
    out = sch.with_suffix(".net")
    r = subprocess.run([kicad_cli, "sch", "export", "netlist", "--format", "kicadsexpr", "-o", str(out), str(sch)],
                       capture_output=True, text=True, timeout=600)
    assert out.exists(), r.stdout + r.stderr
    return dict(re.findall(r'\(comp \(ref "([^"]+)"\).*?\(sheetpath \(names "([^"]*)"\)', out.read_text(), re.S))


@pytest.mark.kicad
def test_back_annotation_renames_the_right_instance(tmp_path, kicad_cli):
    """References changed on the board (R310, and U301 of two units, both on the
    second instance of ampli_ht) reach that instance only; KiCad's netlist agrees."""
    folder = copy_demo("complex_hierarchy", tmp_path)
    sch, pcb = "complex_hierarchy.kicad_sch", "complex_hierarchy.kicad_pcb"
    s = Session(folder)
    call(s, "pcb.setField", path=pcb, reference="R310", field="Reference", value="R399")
    call(s, "pcb.setField", path=pcb, reference="U301", field="Reference", value="U399")
    args = {"schematic": sch, "board": pcb}
    call(s, "query.symbols", path=sch)  # opens the sheets
    sheets = {k: od for k, od in s.documents.items() if k.endswith(".kicad_sch")}
    before = {k: od.doc.to_bytes() for k, od in sheets.items()}
    dry = call(s, "project.backAnnotate", **args, dry_run=True)
    assert {k: od.doc.to_bytes() for k, od in sheets.items()} == before
    assert not any(od.undo for od in sheets.values())
    horizontal = "/ampli_ht_horizontal/"
    expected = sorted([{"from": "R310", "to": "R399", "sheet": horizontal},
                       {"from": "U301", "to": "U399", "sheet": horizontal}], key=str)
    assert sorted(dry["changed"], key=str) == expected and dry["unlinked"] == []
    out = call(s, "project.backAnnotate", **args)
    assert sorted(out["changed"], key=str) == expected
    changed = [k for k, od in sheets.items() if od.doc.to_bytes() != before[k]]
    assert changed == ["ampli_ht.kicad_sch"] and len(sheets[changed[0]].undo) == 1
    assert call(s, "project.backAnnotate", **args)["changed"] == []
    # the schematic's auto-named nets now carry the new references: Update PCB renames
    # those nets whole on the board, as KiCad does (no pad moves, no new DRC violation)
    update = call(s, "project.updatePcb", **args, swap=False)
    assert update["nets_renamed"] and update["summary"].startswith(f"made {len(update['nets_renamed'])} changes (")
    for r in update["nets_renamed"]:
        assert r["to"] == r["from"].replace("R310", "R399").replace("U301", "U399") != r["from"], r
    assert "new DRC" not in update["summary"]
    assert call(s, "project.updatePcb", **args, swap=False)["summary"].startswith("board matches the schematic")
    save_all(s)
    refs = netlist_refs(kicad_cli, folder / sch)
    assert refs["R399"] == horizontal and refs["U399"] == horizontal
    assert refs["R210"] == "/ampli_ht_vertical/" and refs["U201"] == "/ampli_ht_vertical/"
    assert "R310" not in refs and "U301" not in refs


def test_back_annotation_refuses_a_duplicate_reference(tmp_path):
    """R310 renamed R210 on the board while R210's footprint is gone: the schematic
    would have two R210s, so nothing changes."""
    folder = copy_demo("complex_hierarchy", tmp_path)
    sch, pcb = "complex_hierarchy.kicad_sch", "complex_hierarchy.kicad_pcb"
    s = Session(folder)
    call(s, "pcb.delete", path=pcb, reference="R210")
    call(s, "pcb.setField", path=pcb, reference="R310", field="Reference", value="R210")
    sheet = s.get("ampli_ht.kicad_sch", "schematic")
    before = sheet.doc.to_bytes()
    with pytest.raises(InvalidArgs) as e:
        call(s, "project.backAnnotate", schematic=sch, board=pcb)
    assert "R210" in e.value.message
    assert sheet.doc.to_bytes() == before and not sheet.undo


def test_update_refuses_a_schematic_with_unannotated_or_doubled_references(tmp_path):
    """KiCad will not update a board from such a schematic; neither do we (before, a
    doubled R1 made delete_extra remove R2's footprint, linked to a real symbol)."""
    folder = copy_demo("ecc83", tmp_path)
    sch, pcb = "ecc83-pp.kicad_sch", "ecc83-pp.kicad_pcb"
    s = Session(folder)
    board = s.get(pcb, "board")
    before = board.doc.to_bytes()
    sym = s.get(sch, "schematic").doc
    node = next(v for v in sym.symbols if v.reference == "R2")  # doubled as KiCad files can be
    for inst in node.node.find("instances").lists("project"):
        for path in inst.lists("path"):
            sym.set_atoms(path.find("reference"), [b'"R1"'])
    with pytest.raises(InvalidArgs) as e:
        call(s, "project.updatePcb", schematic=sch, board=pcb, delete_extra=True)
    assert "R1" in e.value.message and "sch.annotate" in e.value.hint
    call(s, "sch.placeSymbol", path=sch, symbol="Device:R", at=[50.8, 50.8])
    with pytest.raises(InvalidArgs) as e:
        call(s, "project.updatePcb", schematic=sch, board=pcb, dry_run=True)
    assert "1 symbol is not annotated" in e.value.message
    assert board.doc.to_bytes() == before and not board.undo


def test_back_annotation_skips_an_unannotated_footprint(tmp_path):
    folder = copy_demo("ecc83", tmp_path)
    sch, pcb = "ecc83-pp.kicad_sch", "ecc83-pp.kicad_pcb"
    s = Session(folder)
    call(s, "pcb.setField", path=pcb, reference="R1", field="Reference", value="R?")
    out = call(s, "project.backAnnotate", schematic=sch, board=pcb)
    assert out["unannotated"] == ["R?"] and out["changed"] == []
    assert not s.get(sch, "schematic").modified


def test_a_net_renamed_in_the_schematic_is_renamed_on_the_board(tmp_path, kicad_cli):
    """A label gives a net a name: Update PCB renames that board net whole, its tracks
    and vias with it (as KiCad does), so parity is clean and KiCad's DRC finds no
    short; a second run finds nothing to do."""
    folder = copy_demo("ecc83", tmp_path)
    sch, pcb = "ecc83-pp.kicad_sch", "ecc83-pp.kicad_pcb"
    s = Session(folder)
    board = s.get(pcb, "board").doc
    pad = next(p for p in board.footprint("R1").pads if p.number == "1")
    old = pad.net_name
    tracks = [t for t in board.tracks if board.net_name(t.net) == old]
    assert tracks  # the net is routed: the rename must carry its tracks
    at = next(p["at"] for p in call(s, "query.pins", path=sch, reference="R1")["pins"] if p["number"] == "1")
    call(s, "sch.label", path=sch, text="VIN_TEST", at=at)
    out = call(s, "project.updatePcb", schematic=sch, board=pcb, swap=False)
    assert out["nets_renamed"] == [{"from": old, "to": "/VIN_TEST"}], out
    assert board.net_number(old) is None and board.net_number("/VIN_TEST") is not None
    assert all(board.net_name(t.net) == "/VIN_TEST" for t in tracks)
    assert call(s, "project.updatePcb", schematic=sch, board=pcb, swap=False)["summary"].startswith(
        "board matches the schematic")
    save_all(s)
    assert parity(kicad_cli, folder / pcb) == []
    report = folder / "drc.json"
    subprocess.run([kicad_cli, "pcb", "drc", "--format", "json", "-o", str(report), str(folder / pcb)],
                   capture_output=True, timeout=600)
    shorts = [v for v in json.loads(report.read_text())["violations"] if v["type"] == "shorting_items"]
    assert shorts == []


# A resistor footprint as KiCad 7 and earlier write it: reference and value are
# ``fp_text`` texts (KiCad 8 made them ``property`` fields), ``hide`` a bare atom,
# widths and ``tstamp`` in the KiCad 6/7 spelling (format 20221018, KiCad 7.0).
KICAD7_FOOTPRINT = """(footprint "R_Old_0805" (version 20221018) (generator pcbnew) (layer "F.Cu")
  (descr "Resistor SMD 0805, KiCad 7 format")
  (tags "resistor")
  (attr smd)
  (fp_text reference "REF**" (at 0 -1.65) (layer "F.SilkS")
    (effects (font (size 1 1) (thickness 0.15)))
    (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a0001)
  )
  (fp_text value "R_Old_0805" (at 0 1.65) (layer "F.Fab") hide
    (effects (font (size 1 1) (thickness 0.15)))
    (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a0002)
  )
  (fp_text user "${REFERENCE}" (at 0 0) (layer "F.Fab")
    (effects (font (size 0.5 0.5) (thickness 0.08)))
    (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a0003)
  )
  (fp_line (start -1 0.625) (end -1 -0.625) (layer "F.Fab") (width 0.1) (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a0004))
  (fp_line (start -1 -0.625) (end 1 -0.625) (layer "F.Fab") (width 0.1) (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a0005))
  (fp_line (start 1 -0.625) (end 1 0.625) (layer "F.Fab") (width 0.1) (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a0006))
  (fp_line (start 1 0.625) (end -1 0.625) (layer "F.Fab") (width 0.1) (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a0007))
  (fp_line (start -1.68 0.95) (end -1.68 -0.95) (layer "F.CrtYd") (width 0.05) (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a0008))
  (fp_line (start -1.68 -0.95) (end 1.68 -0.95) (layer "F.CrtYd") (width 0.05) (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a0009))
  (fp_line (start 1.68 -0.95) (end 1.68 0.95) (layer "F.CrtYd") (width 0.05) (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a000a))
  (fp_line (start 1.68 0.95) (end -1.68 0.95) (layer "F.CrtYd") (width 0.05) (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a000b))
  (pad "1" smd roundrect (at -0.9125 0) (size 1.025 1.4) (layers "F.Cu" "F.Paste" "F.Mask") (roundrect_rratio 0.243902) (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a000c))
  (pad "2" smd roundrect (at 0.9125 0) (size 1.025 1.4) (layers "F.Cu" "F.Paste" "F.Mask") (roundrect_rratio 0.243902) (tstamp 0b1f6f54-1d7c-4c43-8d0e-7b0c7c1a000d))
)
"""


def add_kicad7_library(folder: Path) -> str:
    """A project footprint library ``Old7`` holding `KICAD7_FOOTPRINT`; its id."""
    (folder / "old7.pretty").mkdir()
    (folder / "old7.pretty" / "R_Old_0805.kicad_mod").write_text(KICAD7_FOOTPRINT)
    table = folder / "fp-lib-table"
    text = table.read_text().rstrip().removesuffix(")")
    table.write_text(text + '  (lib (name "Old7")(type "KiCad")(uri "${KIPRJMOD}/old7.pretty")(options "")(descr ""))\n)\n')
    return "Old7:R_Old_0805"


@pytest.mark.kicad
def test_kicad7_footprint_gets_its_reference(tmp_path, kicad_cli):
    """A KiCad 7 footprint (``fp_text reference "REF**"``) placed by Update PCB, new
    (R99) or swapped in (R1), carries its designator as KiCad 9 writes it (a Reference
    field), so KiCad's parity check finds nothing wrong with either."""
    folder = copy_demo("ecc83", tmp_path)
    lib_id = add_kicad7_library(folder)
    sch, pcb = "ecc83-pp.kicad_sch", "ecc83-pp.kicad_pcb"
    s = Session(folder)
    r1 = {p["number"]: p for p in call(s, "query.pins", path=sch, reference="R1")["pins"]}
    placed = call(s, "sch.placeSymbol", path=sch, symbol="Device:R", at=[40, 40], reference="R99",
                  value="1k", footprint=lib_id)
    new = {p["number"]: p["at"] for p in placed["pins"]}
    call(s, "sch.wire", path=sch, points=[new["1"], r1["1"]["at"]])
    call(s, "sch.wire", path=sch, points=[new["2"], r1["2"]["at"]])
    call(s, "sch.setField", path=sch, reference="R1", field="Footprint", value=lib_id)
    out = call(s, "project.updatePcb", schematic=sch, board=pcb)
    assert out["added"] == ["R99"] and "problems" not in out, out
    assert {sw["ref"] for sw in out["footprints_swapped"]} >= {"R1"}
    board = s.get(pcb, "board").doc
    for ref, value in (("R99", "1k"), ("R1", board.footprint("R1").value)):
        fp = board.footprint(ref)
        assert fp is not None and fp.reference == ref and fp.value == value
        assert fp.lib_id == lib_id
    save_all(s)
    text = (folder / pcb).read_text()
    assert "REF**" not in text and 'fp_text reference' not in text
    issues = [i for i in parity(kicad_cli, folder / pcb, everything=True)
              if re.search(r"\b(R99|R1)\b", json.dumps(i))]
    assert issues == [], issues
