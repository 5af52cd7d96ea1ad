"""sch.* edit commands, judged by KiCad: every edited schematic loads in kicad-cli, the
netlist KiCad exports has exactly the intended change, ERC passes on a design built
only through commands, and undo gives back the original bytes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from boardwire.errors import InvalidArgs, UnsupportedFormat
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from boardwire.sexpr import atoms
from boardwire.sexpr.file import SexprFile
from tests.inputs import DEMOS, need
from tests.oracle import netlist_nets

ROOT = "t.kicad_sch"


def call(s: Session, cid: str, **args) -> dict:
    return REGISTRY.call(cid, args, Context(s))


def save_all(s: Session) -> None:
    for od in list(s.documents.values()):
        if od.modified:
            s.save(od.path)


def new_project(tmp_path: Path) -> Session:
    s = Session(tmp_path)
    call(s, "project.new", name="t", folder=".")
    return s


def netlist(kicad_cli: str, sch: Path) -> dict[str, frozenset[str]]:
    """Net name -> {REF.PIN} as KiCad exports it (fails if KiCad cannot load the file)."""
    out = sch.with_suffix(".net")
    r = subprocess.run([kicad_cli, "sch", "export", "netlist", "--format", "kicadsexpr",
                        "-o", str(out), str(sch)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and out.exists(), r.stdout + r.stderr
    return netlist_nets(out)


def components(sch: Path) -> dict[str, str]:
    tree = SexprFile(sch.with_suffix(".net").read_bytes()).root
    return {atoms.text(c.find("ref").atoms()[0]): atoms.text(c.find("value").atoms()[0])
            for c in tree.find("components").lists("comp")}


# -- pins in every orientation ------------------------------------------------------------

SYMBOLS = [("Device:R", 1), ("Connector_Generic:Conn_01x04", 1), ("Amplifier_Operational:LM358", 1),
           ("Amplifier_Operational:LM358", 2)]
ORIENTATIONS = [(angle, mirror) for mirror in ("none", "x", "y") for angle in (0, 90, 180, 270)]


@pytest.mark.kicad
def test_every_pin_in_every_orientation_is_where_kicad_puts_it(tmp_path, kicad_cli):
    s = new_project(tmp_path)
    expected: dict[str, str] = {}
    n = 0
    for row, (lib_id, unit) in enumerate(SYMBOLS):
        for col, (angle, mirror) in enumerate(ORIENTATIONS):
            x, y = 30 + col * 30.48, 40 + row * 50.8
            placed = call(s, "sch.placeSymbol", path=ROOT, symbol=lib_id, at=[x, y], angle=angle,
                          mirror=mirror, unit=unit, reference=f"U{100 + n}" if "LM358" in lib_id else None)
            n += 1
            ref = placed.get("reference")
            for k, pin in enumerate(placed["pins"]):
                # a label above the symbol, reached by a (possibly diagonal) wire
                end = [round(x - 10 + 2.54 * k, 4), round(y - 20.32 - 1.27 * k, 4)]
                name = f"N{len(expected)}"
                call(s, "sch.label", path=ROOT, text=name, at=end)
                call(s, "sch.wire", path=ROOT, points=[pin["at"], end])
                expected[name] = (placed["id"], pin["number"], ref)
    call(s, "sch.annotate", path=ROOT)
    # query.pins agrees with what placeSymbol reported
    refs = {sym["id"]: sym["reference"] for sym in call(s, "query.symbols", path=ROOT, limit=5000)["symbols"]}
    save_all(s)
    nets = netlist(kicad_cli, tmp_path / ROOT)
    for name, (uid, number, _) in expected.items():
        ref = refs[uid]
        assert nets.get(f"/{name}") == frozenset({f"{ref}.{number}"}), (name, ref, number, nets.get(f"/{name}"))
    for sym in call(s, "query.symbols", path=ROOT, limit=5000)["symbols"]:
        pins = call(s, "query.pins", path=ROOT, reference=sym["reference"])["pins"]
        assert all(p["net"].startswith("/N") for p in pins if not p.get("hidden") and p["unit"] == sym["unit"]
                   and p["type"] != "power_in")


def test_canonical_orientations_are_the_eight_kicad_writes():
    from boardwire.documents.schematic import canonical_orientation

    forms = {canonical_orientation(a, None if m == "none" else m) for a, m in ORIENTATIONS}
    assert forms == {(0, None), (90, None), (180, None), (270, None), (0, "x"), (90, "x"), (270, "x"), (0, "y")}


# -- a hierarchical design from commands only -----------------------------------------------


def build_hierarchy(tmp_path: Path) -> Session:
    s = new_project(tmp_path)
    for name, x in (("left", 60), ("right", 120)):
        call(s, "sch.addSheet", path=ROOT, name=name, file="amp.kicad_sch", at=[x, 60],
             size=[25.4, 20.32], pins=[{"name": "IN", "shape": "input"}])
    # the root: +3V3 to both sheet pins; a power flag on each power net
    call(s, "sch.power", path=ROOT, symbol="power:+3V3", at=[40, 50.8])
    call(s, "sch.power", path=ROOT, symbol="power:PWR_FLAG", at=[40, 50.8])
    call(s, "sch.wire", path=ROOT, points=[[40, 50.8], [40, 62.54], [60, 62.54]])
    call(s, "sch.wire", path=ROOT, points=[[40, 62.54], [40, 90], [110, 90], [110, 62.54], [120, 62.54]])
    call(s, "sch.power", path=ROOT, symbol="power:GND", at=[40, 120])
    call(s, "sch.power", path=ROOT, symbol="power:PWR_FLAG", at=[45.72, 120], angle=180)
    call(s, "sch.wire", path=ROOT, points=[[40, 120], [45.72, 120]])
    # a decoupling capacitor from the +3V3 wire's corner (a junction: three directions) to GND
    call(s, "sch.placeSymbol", path=ROOT, symbol="Device:C", at=[40, 100], value="100n")
    j = call(s, "sch.wire", path=ROOT, points=[[40, 90], [40, 96.19]])
    assert j["junctions"] == [[40, 90]]
    call(s, "sch.wire", path=ROOT, points=[[40, 103.81], [40, 120]])
    # the child: IN -> R -> GND, and a global label on the resistor's far side
    child = "amp.kicad_sch"
    r = call(s, "sch.placeSymbol", path=child, symbol="Device:R", at=[100, 100], value="10k",
             footprint="Resistor_SMD:R_0603_1608Metric")
    p1, p2 = (p["at"] for p in r["pins"])
    call(s, "sch.hierarchicalLabel", path=child, text="IN", at=[p1[0], p1[1] - 10], shape="input", angle=90)
    call(s, "sch.wire", path=child, points=[[p1[0], p1[1] - 10], p1])
    gnd = call(s, "sch.power", path=child, symbol="power:GND", at=[p2[0], p2[1] + 10])
    call(s, "sch.wire", path=child, points=[p2, gnd["pins"][0]["at"]])
    call(s, "sch.globalLabel", path=child, text="SENSE", at=[p2[0], p2[1] + 5], shape="passive")
    return s


@pytest.mark.kicad
def test_hierarchy_built_from_commands_passes_erc(tmp_path, kicad_cli):
    s = build_hierarchy(tmp_path)
    tree = call(s, "query.sheetTree", path=ROOT)
    assert len(tree["sheets"]) == 3
    before = call(s, "query.symbols", path=ROOT, reference="R*")["symbols"]
    assert [x["reference"] for x in before] == ["R?", "R?"]
    out = call(s, "sch.annotate", path=ROOT)
    assert len(out["changes"]) >= 2
    refs = sorted(x["reference"] for x in call(s, "query.symbols", path=ROOT, reference="R*")["symbols"])
    assert refs == ["R1", "R2"]
    save_all(s)
    nets = netlist(kicad_cli, tmp_path / ROOT)
    assert components(tmp_path / ROOT) == {"C1": "100n", "R1": "10k", "R2": "10k"}
    assert nets["+3V3"] == frozenset({"C1.1", "R1.1", "R2.1"})
    gnd = [v for k, v in nets.items() if v == frozenset({"C1.2", "R1.2", "R2.2"})]
    assert gnd, nets
    report = tmp_path / "erc.json"
    r = subprocess.run([kicad_cli, "sch", "erc", "--format", "json", "--severity-error", "-o", str(report),
                        str(tmp_path / ROOT)], capture_output=True, text=True, timeout=600)
    import json

    data = json.loads(report.read_text())
    errors = [v for sheet in data["sheets"] for v in sheet["violations"] if v["severity"] == "error"]
    assert not errors, errors
    # the sheet scheme numbers per sheet: 201/301 as KiCad's complex_hierarchy demo
    call(s, "sch.annotate", path=ROOT, scheme="sheet", all=True)
    refs = sorted(x["reference"] for x in call(s, "query.symbols", path=ROOT, reference="R*")["symbols"])
    assert refs == ["R201", "R301"]


def test_fields_shared_by_instances_say_so(tmp_path):
    s = build_hierarchy(tmp_path)
    call(s, "sch.annotate", path=ROOT)
    syms = {x["reference"]: x for x in call(s, "query.symbols", path=ROOT, reference="R*")["symbols"]}
    sheet = syms["R2"]["sheet"]
    out = call(s, "sch.setField", path=ROOT, reference="R2", field="Reference", value="R7")
    assert "shared_by" not in out and out["sheet"] == sheet
    refs = {x["reference"]: x["sheet"] for x in call(s, "query.symbols", path=ROOT, reference="R*")["symbols"]}
    assert refs == {"R1": syms["R1"]["sheet"], "R7": sheet}
    out = call(s, "sch.setField", path=ROOT, reference="R7", field="Value", value="22k")
    assert sorted(out["shared_by"]) == sorted({syms["R1"]["sheet"], sheet})
    with pytest.raises(InvalidArgs):
        call(s, "sch.setField", path=ROOT, reference="R7", field="Reference", value="R1")


def test_a_reference_in_use_is_refused_but_another_unit_of_the_part_may_share_it(tmp_path):
    s = new_project(tmp_path)
    call(s, "sch.placeSymbol", path=ROOT, symbol="Device:R", at=[50.8, 50.8], reference="R1")
    call(s, "sch.placeSymbol", path=ROOT, symbol="Amplifier_Operational:LM358", at=[101.6, 50.8], reference="U1")
    before = s.get(ROOT).doc.to_bytes()
    for symbol, ref, unit in (("Device:R", "R1", 1), ("Device:C", "R1", 1), ("Amplifier_Operational:LM358", "U1", 1)):
        with pytest.raises(InvalidArgs) as e:
            call(s, "sch.placeSymbol", path=ROOT, symbol=symbol, at=[76.2, 76.2], reference=ref, unit=unit)
        assert e.value.data["errors"][0]["loc"] == "reference"
    for extra in ({"reference": "R50", "fields": {"Reference": "R1"}}, {"fields": {"value": "1k"}},
                  {"footprint": "NotAFootprint"}):  # a second way to say reference/value/footprint
        with pytest.raises(InvalidArgs):
            call(s, "sch.placeSymbol", path=ROOT, symbol="Device:R", at=[76.2, 76.2], **extra)
    assert s.get(ROOT).doc.to_bytes() == before
    call(s, "sch.placeSymbol", path=ROOT, symbol="Amplifier_Operational:LM358", at=[101.6, 76.2], reference="U1", unit=2)
    units = [x["unit"] for x in call(s, "query.symbols", path=ROOT, reference="U1")["symbols"]]
    assert sorted(units) == [1, 2]


def test_later_steps_of_a_batch_see_the_symbols_placed_before_them(tmp_path):
    s = new_project(tmp_path)
    call(s, "sch.placeSymbol", path=ROOT, symbol="Device:R", at=[50.8, 50.8])
    call(s, "query.symbols", path=ROOT)  # the design is read (and cached) before the batch
    place = {"command": "sch.placeSymbol", "args": {"path": ROOT, "symbol": "Device:C", "at": [76.2, 50.8],
                                                     "reference": "C9"}}
    out = call(s, "session.batch", steps=[place, {"command": "sch.annotate", "args": {"path": ROOT}},
                                          {"command": "sch.setField", "args": {"path": ROOT, "reference": "C9",
                                                                               "field": "Value", "value": "1u"}}])
    annotated = out["results"][1]["changes"] if "results" in out else None
    refs = {x["reference"]: x["value"] for x in call(s, "query.symbols", path=ROOT)["symbols"]}
    assert refs == {"R1": "R", "C9": "1u"}, (refs, annotated)
    twice = [dict(place, args=dict(place["args"], reference="C8", at=[x, 76.2])) for x in (50.8, 101.6)]
    with pytest.raises(InvalidArgs):  # a second C8 in the same batch is refused, and the batch with it
        call(s, "session.batch", steps=twice)
    assert "C8" not in {x["reference"] for x in call(s, "query.symbols", path=ROOT)["symbols"]}
    call(s, "session.undo", path=ROOT)
    assert {x["reference"] for x in call(s, "query.symbols", path=ROOT)["symbols"]} == {"R?"}


# -- exactly the intended change on a real design --------------------------------------------


@pytest.mark.kicad
def test_resistor_between_two_nets_of_ecc83(tmp_path, kicad_cli):
    src = need(DEMOS / "ecc83")
    for f in src.iterdir():
        if f.is_file():
            shutil.copy(f, tmp_path / f.name)
    path = "ecc83-pp.kicad_sch"
    before = netlist(kicad_cli, tmp_path / path)
    s = Session(tmp_path)
    r1 = {p["number"]: p for p in call(s, "query.pins", path=path, reference="R1")["pins"]}
    placed = call(s, "sch.placeSymbol", path=path, symbol="Device:R", at=[40, 40], reference="R99", value="1k")
    new = {p["number"]: p["at"] for p in placed["pins"]}
    # straight (diagonal) wires: they cross other items only where nothing connects
    w1 = call(s, "sch.wire", path=path, points=[new["1"], r1["1"]["at"]])
    call(s, "sch.wire", path=path, points=[new["2"], r1["2"]["at"]])
    assert w1["ids"]
    save_all(s)
    after = netlist(kicad_cli, tmp_path / path)

    def groups(nets, drop=None):
        return {frozenset(x for x in v if not x.startswith(f"{drop}.")) for v in nets.values()} - {frozenset()}

    assert groups(after, "R99") == groups(before)
    with_new = {k: v for k, v in after.items() if any(x.startswith("R99.") for x in v)}
    assert {frozenset(v - {"R99.1", "R99.2"}) for v in with_new.values()} == \
        {v for v in before.values() if "R1.1" in v or "R1.2" in v}
    assert components(tmp_path / path)["R99"] == "1k"


def test_dangling_ends_are_refused_or_reported(tmp_path):
    s = new_project(tmp_path)
    r = call(s, "sch.placeSymbol", path=ROOT, symbol="Device:R", at=[100, 100])
    p1 = r["pins"][0]["at"]
    with pytest.raises(InvalidArgs) as e:
        call(s, "sch.wire", path=ROOT, points=[p1, [p1[0], p1[1] - 10]])
    assert "points.1" in str(e.value.data["errors"]) and "dangle" in str(e.value)
    out = call(s, "sch.wire", path=ROOT, points=[p1, [p1[0], p1[1] - 10]], allow_dangling=True)
    assert out["dangling"] == [{"index": 1, "at": [p1[0], p1[1] - 10]}]
    # a wire ending on the middle of that wire: KiCad adds a junction and splits the wire
    t = call(s, "sch.wire", path=ROOT, points=[[p1[0], p1[1] - 5], [p1[0] + 10, p1[1] - 5]], allow_dangling=True)
    assert t["junctions"] == [[p1[0], p1[1] - 5]]
    doc = s.get(ROOT).doc
    assert len(doc.wires) == 3 and len(doc.junctions) == 1
    out = call(s, "sch.delete", path=ROOT, reference="R?")
    assert [p1[0], p1[1]] in out["dangling"] and "Device:R left lib_symbols" in out["summary"]


# -- undo, reload, versions -------------------------------------------------------------------


@pytest.mark.kicad
def test_every_edit_reloads_in_kicad_and_undoes_to_the_bytes(tmp_path, kicad_cli):
    s = new_project(tmp_path)
    r = call(s, "sch.placeSymbol", path=ROOT, symbol="Device:R", at=[100, 100], reference="R1")
    p1, p2 = (p["at"] for p in r["pins"])
    lab = [p1[0], p1[1] - 10]
    steps = [
        ("sch.placeSymbol", {"symbol": "Amplifier_Operational:LM358", "at": [150, 100], "unit": 2,
                             "mirror": "y", "angle": 90, "fields": {"MPN": "LM358DR"}}),
        ("sch.label", {"text": "A", "at": lab}),
        ("sch.wire", {"points": [p1, lab]}),
        ("sch.globalLabel", {"text": "G", "at": [p2[0], p2[1] + 10], "shape": "output"}),
        ("sch.wire", {"points": [p2, [p2[0], p2[1] + 10]]}),
        ("sch.hierarchicalLabel", {"text": "H", "at": [60, 60], "shape": "input"}),
        ("sch.junction", {"at": [p1[0], p1[1] - 5]}),
        ("sch.noConnect", {"at": [60, 60]}),
        ("sch.power", {"symbol": "power:+5V", "at": [80, 80]}),
        ("sch.annotate", {}),
        ("sch.setField", {"reference": "R1", "field": "Value", "value": "4k7"}),
        ("sch.setField", {"reference": "R1", "field": "MPN", "value": "RC0603"}),
        ("sch.move", {"reference": "R1", "by": [2.54, 0]}),
        ("sch.rotate", {"reference": "R1", "angle": 90}),
        ("sch.mirror", {"reference": "R1", "axis": "x"}),
        ("sch.busEntry", {"at": [70, 70]}),
        ("sch.addSheet", {"name": "sub", "file": "sub.kicad_sch", "at": [200, 50], "pins": [{"name": "X"}]}),
        ("sch.delete", {"reference": "R1"}),
    ]
    for cid, args in steps:
        od = s.get(ROOT)
        before = od.doc.to_bytes()
        call(s, cid, path=ROOT, **args)
        snap = tmp_path / "snap"
        snap.mkdir(exist_ok=True)
        (snap / ROOT).write_bytes(od.doc.to_bytes())
        for f in ("t.kicad_pro", "sub.kicad_sch"):
            if (tmp_path / f).exists():
                shutil.copy(tmp_path / f, snap / f)
        netlist(kicad_cli, snap / ROOT)  # KiCad loads the edited sheet
        s.undo(ROOT)
        assert od.doc.to_bytes() == before, cid
        s.redo(ROOT)


def test_library_definition_once_and_flattened(tmp_path):
    s = new_project(tmp_path)
    call(s, "sch.placeSymbol", path=ROOT, symbol="Device:R", at=[100, 100])
    call(s, "sch.placeSymbol", path=ROOT, symbol="Device:R", at=[120, 100])
    # 4xxx:4013 is not derived; 4xxx:4016-derived 4066 is ("extends")
    out = call(s, "sch.placeSymbol", path=ROOT, symbol="4xxx:4066", at=[150, 100])
    doc = s.get(ROOT).doc
    names = [x.name for x in doc.lib_symbols]
    assert names == sorted(names) and names.count("Device:R") == 1 and "4xxx:4066" in names
    flat = next(x for x in doc.lib_symbols if x.name == "4xxx:4066")
    assert flat.extends is None and flat.pins and flat.field("Value") == "4066"
    assert out["pins"] and all(atoms.text(u.atoms()[0]).startswith("4066_") for u in flat.units())


def test_old_formats(tmp_path):
    s = new_project(tmp_path)
    src = (tmp_path / ROOT).read_text()
    (tmp_path / "k8.kicad_sch").write_text(src.replace("(version 20250114)", "(version 20231120)")
                                           .replace('\t(generator_version "9.0")\n', '\t(generator_version "8.0")\n')
                                           .replace("\t(embedded_fonts no)\n", ""))
    (tmp_path / "k7.kicad_sch").write_text(src.replace("(version 20250114)", "(version 20230121)"))
    call(s, "sch.placeSymbol", path="k8.kicad_sch", symbol="Device:R", at=[100, 100])
    text = s.get("k8.kicad_sch").doc.to_bytes().decode()
    # KiCad 8 wrote no embedded_fonts and a bare hide on pins, pin names and numbers
    assert "embedded_fonts" not in text and "(pin_numbers hide)" in text and "(pin_numbers\n" not in text
    with pytest.raises(UnsupportedFormat):
        call(s, "sch.placeSymbol", path="k7.kicad_sch", symbol="Device:R", at=[100, 100])


def test_a_new_sheet_file_is_written_on_save_and_not_after_undo(tmp_path):
    s = new_project(tmp_path)
    sub = "sub/power.kicad_sch"
    out = call(s, "sch.addSheet", path=ROOT, name="power", file=sub, at=[50.8, 50.8], pins=[{"name": "VIN"}])
    child = tmp_path / sub
    assert out["created_file"] and not child.exists()  # nothing on disk before a save
    # the design sees the new sheet at once, and its (unsaved) file can be edited
    tree = call(s, "query.sheetTree", path=ROOT)["sheets"]
    assert [(x["file"], x.get("missing")) for x in tree] == [(ROOT, None), (sub, None)]
    call(s, "sch.hierarchicalLabel", path=sub, text="VIN", at=[50.8, 50.8])
    save_all(s)
    assert child.is_file()
    labels = SexprFile(child.read_bytes()).root.lists("hierarchical_label")
    assert [atoms.text(x.atoms()[0]) for x in labels] == ["VIN"]  # the edited sheet, not an empty one
    assert b"power.kicad_sch" in (tmp_path / ROOT).read_bytes()

    # undone before the save: the file is never written, the parent no longer names it
    s = new_project(tmp_path / "b")
    call(s, "sch.addSheet", path=ROOT, name="power", file=sub, at=[50.8, 50.8])
    s.undo(ROOT)
    save_all(s)
    s.save(ROOT)
    assert not (tmp_path / "b" / sub).exists() and not (tmp_path / "b" / "sub").exists()
    assert b"power.kicad_sch" not in (tmp_path / "b" / ROOT).read_bytes()
    # redone, it is written by the next save
    s.redo(ROOT)
    s.save(ROOT)
    assert (tmp_path / "b" / sub).is_file()
