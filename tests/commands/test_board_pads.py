"""query.pads over the whole board (every pad with copper or a hole) and footprint texts, against KiCad's own reading of
the same file (pcbnew in the system python): every pad with its board position, angle
and bounding box; fields moved, turned and hidden by pcb.setField as pcbnew sees them."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need

pytestmark = pytest.mark.kicad

_PADS = r'''
import sys, json, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
pads = []
for fp in b.GetFootprints():
    for p in fp.Pads():
        if not p.IsOnCopperLayer() and not p.GetDrillSizeX():
            continue  # paste or mask only
        bb = p.GetBoundingBox()
        pads.append([fp.GetReference(), p.GetNumber(), p.GetPosition().x, p.GetPosition().y,
                     round(p.GetOrientationDegrees() % 360, 6), p.GetNetname(),
                     [bb.GetLeft(), bb.GetTop(), bb.GetRight(), bb.GetBottom()]])
fields = []
for fp in b.GetFootprints():
    for f in fp.GetFields():
        fields.append([fp.GetReference(), f.GetName(), f.GetPosition().x, f.GetPosition().y,
                       round(f.GetTextAngleDegrees(), 6), f.IsVisible()])
json.dump({"pads": pads, "fields": fields}, sys.stdout)
'''


def pcbnew_view(python, board):
    r = subprocess.run([python, "-c", _PADS, str(board)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


@pytest.fixture
def session(tmp_path):
    for f in need(DEMOS / "stickhub").glob("StickHub.*"):
        shutil.copy(f, tmp_path / f.name)
    return Session(tmp_path)


def test_every_pad_of_the_board_in_board_coordinates(session, pcbnew_python):
    path = "StickHub.kicad_pcb"
    kicad = pcbnew_view(pcbnew_python, session.workspace.root / path)["pads"]
    run = lambda **a: REGISTRY.call("query.pads", {"path": path, **a}, Context(session))  # noqa: E731
    first = run(limit=50)
    assert first["total"] == len(kicad) and len(first["pads"]) == 50 and "showing" in first["summary"]
    rows = run(limit=5000)["pads"] + []
    got = {(p["reference"], p["number"], round(p["at"][0] * 1e6), round(p["at"][1] * 1e6)): p for p in rows}
    for ref, number, x, y, angle, net, bbox in kicad:
        p = got[(ref, number, x, y)]
        assert p["angle"] == pytest.approx(angle, abs=1e-6)
        assert (p.get("net") or "") == net
        # KiCad's box is the pad's (integer nm, grown by a unit): ours within 2 um
        assert p["bbox"] == pytest.approx([v / 1e6 for v in bbox], abs=0.002)
    gnd = run(net="GND", limit=5000)
    assert gnd["total"] == sum(1 for k in kicad if k[5] == "GND") > 0
    x0, y0, x1, y1 = gnd["pads"][0]["bbox"]
    inside = run(area=[x0, y0, x1, y1], limit=5000)["pads"]
    assert any(p["id"] == gnd["pads"][0]["id"] for p in inside)
    front = run(layer="F.Cu", limit=5000)["total"]
    assert 0 < front <= len(kicad)


def test_footprint_texts_are_listed_and_set_field_moves_turns_and_hides_them(session, pcbnew_python):
    path = "StickHub.kicad_pcb"
    run = lambda cid, **a: REGISTRY.call(cid, {"path": path, **a}, Context(session))  # noqa: E731
    ref = run("query.items", kind=["footprint"], limit=1)["items"][0]["ref"]
    texts = run("query.footprint", reference=ref)["texts"]
    names = {t["name"] for t in texts}
    assert {"Reference", "Value"} <= names and all(t["id"] for t in texts)
    kicad = pcbnew_view(pcbnew_python, session.workspace.root / path)["fields"]
    for t in texts:
        k = next(f for f in kicad if f[0] == ref and f[1] == t["name"])
        assert t["at"] == pytest.approx([k[2] / 1e6, k[3] / 1e6], abs=1e-6) and t["visible"] == k[5]
    run("pcb.setField", reference=ref, field="Reference", at=[110.5, 60.25], angle=90, visible=False)
    run("pcb.setField", reference=ref, field="Value", visible=True)
    session.save(path)
    kicad = pcbnew_view(pcbnew_python, session.workspace.root / path)["fields"]
    r = next(f for f in kicad if f[0] == ref and f[1] == "Reference")
    assert (r[2], r[3], r[4] % 360, r[5]) == (110_500_000, 60_250_000, 90.0, False)
    assert next(f for f in kicad if f[0] == ref and f[1] == "Value")[5] is True
