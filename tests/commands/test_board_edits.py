"""Every board edit command, checked by KiCad: the saved result loads in kicad-cli
(DRC runs) and pcbnew sees exactly the change, to the nanometre, and nothing else.

For moves, turns, flips, fields, pad nets and deletions the oracle is pcbnew making
the same edit itself: the two boards must read back identically. For additions the
new items must read back with the values asked for, and every other item unchanged.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need
from tests.oracle import pcbnew_apply_dump, pcbnew_dump

pytestmark = pytest.mark.kicad

MM = 1_000_000
BOARD = "pic_programmer.kicad_pcb"


@pytest.fixture
def ws(tmp_path) -> Path:
    src = need(DEMOS / "pic_programmer")
    for f in src.glob("pic_programmer.kicad_*"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def run(ws: Path, *calls: tuple[str, dict]) -> tuple[Session, list[dict]]:
    session = Session(ws)
    results = [REGISTRY.call(cid, {"path": BOARD, **args}, Context(session)) for cid, args in calls]
    for od in list(session.documents.values()):
        if od.modified:
            session.save(od.path)
    return session, results


def by_id(dump: dict) -> dict:
    out = {}
    for kind, rows in dump.items():
        if kind == "nets":
            out[("nets",)] = rows
            continue
        for row in rows:
            out[(kind, row["uuid"])] = row
    return out


def assert_loads_in_kicad(kicad_cli: str, board: Path) -> None:
    report = board.with_suffix(".drc.json")
    r = subprocess.run([kicad_cli, "pcb", "drc", "--format", "json", "-o", str(report), str(board)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and json.loads(report.read_text())["source"], r.stderr


SAME_AS_PCBNEW = [
    ("pcb.move", {"reference": "C1", "by": [1.0, -0.5]},
     "f = fp('C1'); f.SetPosition(pcbnew.VECTOR2I(f.GetPosition().x + 1000000, f.GetPosition().y - 500000))"),
    ("pcb.move", {"reference": "U1", "at": [123.456789, 77.7]},
     "fp('U1').SetPosition(pcbnew.VECTOR2I(123456789, 77700000))"),
    ("pcb.rotate", {"reference": "C1", "angle": 90, "relative": True},
     "f = fp('C1'); f.SetOrientationDegrees(f.GetOrientationDegrees() + 90)"),
    ("pcb.rotate", {"reference": "U1", "angle": 33.3},
     "fp('U1').SetOrientationDegrees(33.3)"),
    ("pcb.flip", {"reference": "C1"},
     "f = fp('C1'); f.Flip(f.GetPosition(), pcbnew.FLIP_DIRECTION_TOP_BOTTOM)"),
    ("pcb.flip", {"reference": "U1"},
     "f = fp('U1'); f.Flip(f.GetPosition(), pcbnew.FLIP_DIRECTION_TOP_BOTTOM)"),
    ("pcb.setField", {"reference": "R1", "field": "Value", "value": "4k7"},
     "fp('R1').SetValue('4k7')"),
    ("pcb.setField", {"reference": "R1", "dnp": True, "exclude_from_bom": True},
     "f = fp('R1'); f.SetDNP(True); f.SetExcludedFromBOM(True)"),
    ("pcb.setPadNet", {"reference": "C1", "pad": "1", "net": "GND"},
     "fp('C1').FindPadByNumber('1').SetNet(b.FindNet('GND'))"),
    ("pcb.delete", {"reference": "D11"}, "b.Delete(fp('D11'))"),
]


@pytest.mark.parametrize("cid, args, kicad_code", SAME_AS_PCBNEW,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(SAME_AS_PCBNEW)])
def test_edit_equals_pcbnew_doing_it(ws, cid, args, kicad_code, kicad_cli, pcbnew_python):
    original = ws / "original.kicad_pcb"
    shutil.copy(ws / BOARD, original)
    run(ws, (cid, args))
    ours = pcbnew_dump(pcbnew_python, ws / BOARD)
    theirs = pcbnew_apply_dump(pcbnew_python, original, kicad_code)
    a, b = by_id(ours), by_id(theirs)
    assert a.keys() == b.keys()
    diff = [k for k in a if a[k] != b[k]]
    assert not diff, f"{cid}: pcbnew reads {diff[:3]} differently: {[(a[k], b[k]) for k in diff[:1]]}"
    assert by_id(pcbnew_dump(pcbnew_python, original)) != a  # something did change
    assert_loads_in_kicad(kicad_cli, ws / BOARD)


def added(before: dict, after: dict) -> dict:
    a, b = by_id(before), by_id(after)
    for k in a:
        if k != ("nets",):
            assert k in b and a[k] == b[k], f"{k} changed or vanished"
    return {k: v for k, v in b.items() if k not in a}


def test_additions_read_back_exactly(ws, kicad_cli, pcbnew_python):
    before = pcbnew_dump(pcbnew_python, ws / BOARD)
    _, res = run(ws,
                 ("pcb.addTrack", {"points": [[80, 50], [90.123456, 50], [90.123456, 60]], "width": 0.3, "layer": "B.Cu", "net": "GND"}),
                 ("pcb.route", {"points": [[100, 45], [105, 45], [105, 50]], "layers": ["F.Cu", "B.Cu"], "width": 0.2, "net": "GND"}),
                 ("pcb.addVia", {"at": [95, 45], "size": 0.7, "drill": 0.35, "net": "GND"}),
                 ("pcb.addZone", {"outline": [[75, 42], [90, 42], [90, 48]], "layer": "F.Cu", "net": "GND", "priority": 1}),
                 ("pcb.addGraphic", {"shape": "circle", "points": [[200, 120], [201.5, 120]], "layer": "F.SilkS", "width": 0.15}),
                 ("pcb.addText", {"text": "boardwire", "at": [150, 135], "layer": "B.SilkS"}),
                 ("pcb.placeFootprint", {"footprint": "Resistor_SMD:R_0805_2012Metric", "reference": "R99",
                                         "value": "1k", "at": [120, 130], "angle": 90,
                                         "nets": {"1": "GND", "2": "NEW_NET"}}),
                 ("pcb.placeFootprint", {"footprint": "Package_SO:SOIC-8_3.9x4.9mm_P1.27mm", "reference": "U99",
                                         "at": [140, 130], "side": "back"}))
    after = pcbnew_dump(pcbnew_python, ws / BOARD)
    new = added(before, after)
    tracks = [v for k, v in new.items() if k[0] == "tracks"]
    assert sorted((t["start"], t["end"], t["width"], t["layer"], t["net"]) for t in tracks) == sorted([
        ([80 * MM, 50 * MM], [90_123_456, 50 * MM], 300_000, "B.Cu", "GND"),
        ([90_123_456, 50 * MM], [90_123_456, 60 * MM], 300_000, "B.Cu", "GND"),
        ([100 * MM, 45 * MM], [105 * MM, 45 * MM], 200_000, "F.Cu", "GND"),
        ([105 * MM, 45 * MM], [105 * MM, 50 * MM], 200_000, "B.Cu", "GND")])
    vias = sorted((v["x"], v["y"], v["size"], v["drill"]) for k, v in new.items() if k[0] == "vias")
    # the routed via takes GND's net class (POWER: 1.6 mm / 0.6 mm), as KiCad's router does
    assert vias == [(95 * MM, 45 * MM, 700_000, 350_000), (105 * MM, 45 * MM, 1_600_000, 600_000)]
    zone = next(v for k, v in new.items() if k[0] == "zones")
    assert zone["outline"] == [[75 * MM, 42 * MM], [90 * MM, 42 * MM], [90 * MM, 48 * MM]] and zone["net"] == "GND"
    drawings = [v for k, v in new.items() if k[0] == "drawings"]
    assert any(d.get("shape") == "Circle" and d["start"] == [200 * MM, 120 * MM] and d["end"] == [201_500_000, 120 * MM] for d in drawings)
    assert any(d.get("text") == "boardwire" and d["layer"] in ("B.SilkS", "B.Silkscreen") and d["mirrored"]
               and d["at"] == [150 * MM, 135 * MM] for d in drawings)
    fps = {v["reference"]: v for k, v in new.items() if k[0] == "footprints"}
    r99 = fps["R99"]
    assert (r99["x"], r99["y"], r99["angle"], r99["layer"]) == (120 * MM, 130 * MM, 90.0, "F.Cu")
    assert sorted((p[0], p[1], p[2], p[3]) for p in r99["pads"]) == [
        ("1", 120 * MM, 130_912_500, "GND"), ("2", 120 * MM, 129_087_500, "NEW_NET")]
    assert fps["U99"]["layer"] == "B.Cu" and len(fps["U99"]["pads"]) == 8
    assert "NEW_NET" in after["nets"]
    assert_loads_in_kicad(kicad_cli, ws / BOARD)


def test_outline_swap_and_fill(ws, kicad_cli, pcbnew_python):
    before = pcbnew_dump(pcbnew_python, ws / BOARD)
    r1 = before["footprints"]
    old_r = next(f for f in r1 if f["reference"] == "R1")
    _, res = run(ws, ("pcb.outline", {"rect": [70, 40, 240, 142]}),
                 ("pcb.swapFootprint", {"reference": "R1", "footprint": "Resistor_SMD:R_1206_3216Metric"}),
                 ("pcb.fillZones", {}))
    after = pcbnew_dump(pcbnew_python, ws / BOARD)
    edges = [d for d in after["drawings"] if d["layer"] == "Edge.Cuts"]
    assert len(edges) == 1 and edges[0]["start"] == [70 * MM, 40 * MM] and edges[0]["end"] == [240 * MM, 142 * MM]
    new_r = next(f for f in after["footprints"] if f["reference"] == "R1")
    assert new_r["uuid"] == old_r["uuid"] and new_r["lib_id"].endswith("R_1206_3216Metric")
    assert (new_r["x"], new_r["y"], new_r["angle"]) == (old_r["x"], old_r["y"], old_r["angle"])
    assert sorted(p[3] for p in new_r["pads"]) == sorted(p[3] for p in old_r["pads"])  # nets kept by number
    assert all(z["filled"] for z in after["zones"])
    others = lambda d: {k: v for k, v in by_id(d).items() if k[0] in ("tracks", "vias")}
    assert others(before) == others(after)
    assert_loads_in_kicad(kicad_cli, ws / BOARD)


def test_netclass_and_rules_reach_kicad(ws, pcbnew_python):
    run(ws, ("pcb.setNetclass", {"name": "HighCurrent", "nets": ["GND", "VCC"], "track_width": 0.5, "clearance": 0.3}),
        ("pcb.setDesignRules", {"min_clearance": 0.15, "min_track_width": 0.12}))
    code = ("bds = b.GetDesignSettings(); nc = bds.m_NetSettings\n"
            "print(json.dumps({'gnd': str(b.FindNet('GND').GetNetClassName()),"
            " 'w': nc.GetNetClassByName('HighCurrent').GetTrackWidth(),"
            " 'clr': bds.m_MinClearance, 'tw': bds.m_TrackMinWidth})); sys.exit(0)")
    r = subprocess.run([pcbnew_python, "-c", "import json, sys, pcbnew\nb = pcbnew.LoadBoard(sys.argv[1])\n" + code,
                        str(ws / BOARD)], capture_output=True, text=True)
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got == {"gnd": "HighCurrent", "w": 500_000, "clr": 150_000, "tw": 120_000}


def test_place_footprint_names_the_nets_it_had_to_create(ws):
    s, _ = run(ws)
    known = next(iter(s.get(BOARD).doc.index.net_table.keys() - {""}))
    _, (out,) = run(ws, ("pcb.placeFootprint", {"footprint": "Resistor_SMD:R_0805_2012Metric", "reference": "R98",
                                                "at": [100, 100], "nets": {"1": known, "2": "VCC_TYPO"}}))
    assert out["new_nets"] == ["VCC_TYPO"] and "new nets: VCC_TYPO" in out["summary"]
