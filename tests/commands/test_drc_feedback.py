"""Every board edit reports the violations it introduced (built-in engine), and
check.drc's engines.

The trial's case: a track laid too close to a pad comes back with the clearance
violation naming the pad and the distance; moving the track away clears it, and
KiCad (the judge) agrees on both boards."""

from __future__ import annotations

import json
import math
import shutil

import pytest
import shapely

from boardwire.checks import BUILT_IN
from boardwire.geometry import geometry_of
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need

PATH = "ecc83-pp.kicad_pcb"


@pytest.fixture
def session(tmp_path):
    for f in need(DEMOS / "ecc83").glob("ecc83-pp.*"):
        shutil.copy(f, tmp_path / f.name)
    return Session(tmp_path)


def call(s, cid, **a):
    return REGISTRY.call(cid, {"path": PATH, **a}, Context(s))


def lonely_pad(s):
    """A plated pad on F.Cu with no other copper on F.Cu within 3 mm of it."""
    model = geometry_of(s.get(PATH, "board").doc)
    bit = model.layers.bit["F.Cu"]
    others = [it for it in model.items if it is not None and it.mask & bit]
    for it in others:
        if it.kind != "pad" or it.data.shape != "circle" or not it.net:
            continue
        near = [o for o in others if o is not it
                and shapely.distance(o.core, it.core) - o.r - it.r < 3e6]
        if not near:
            return it
    pytest.skip("no lonely pad")


@pytest.mark.kicad
def test_a_track_too_close_to_a_pad_is_reported_and_moving_it_clears_it(session, kicad_cli):
    pad = lonely_pad(session)
    clearance = json.loads((session.workspace.root / "ecc83-pp.kicad_pro").read_text())[
        "net_settings"]["classes"][0]["clearance"]
    x, y = pad.data.at[0] / 1e6, pad.data.at[1] / 1e6
    radius = pad.r / 1e6
    width = 0.25
    gap = clearance / 2  # mm between the pad's copper and the track's
    ty = y + radius + gap + width / 2
    out = call(session, "pcb.addTrack", points=[[x - 1.5, ty], [x + 1.5, ty]], width=width, layer="F.Cu",
               net="GND" if pad.net != "GND" else "")
    track = out["ids"][0]
    hits = [v for v in out["new_violations"] if v["rule"] == "clearance"
            and {i["id"] for i in v["items"]} == {track, pad.uuid}]
    assert len(hits) == 1, out["new_violations"]
    assert math.isclose(hits[0]["actual_mm"], gap, abs_tol=1e-6)
    assert hits[0]["required_mm"] == pytest.approx(clearance)
    assert "new DRC violation" in out["summary"]
    kicad = call(session, "check.drc")
    assert any({i["id"] for i in v["items"]} == {track, pad.uuid} for v in kicad["violations"])

    moved = call(session, "pcb.move", id=track, by=[0, clearance + 1.0])
    assert moved["new_violations"] == []
    builtin = call(session, "check.drc", engine="builtin")
    assert not any(track in {i["id"] for i in v["items"]} for v in builtin["violations"])
    kicad = call(session, "check.drc")  # a loose track is still "dangling" for KiCad
    assert not any(track in {i["id"] for i in v["items"]} for v in kicad["violations"] if v["type"] in BUILT_IN)


def test_a_stricter_rule_reports_what_it_now_forbids(session):
    """pcb.setDesignRules changes the project, not the board: the whole board is checked
    under the old and the new rules, and the difference is the edit's."""
    out = call(session, "pcb.setDesignRules", min_clearance=2.0)
    assert out["new_violations"]
    assert all(v["required_mm"] == pytest.approx(2.0) for v in out["new_violations"] if v["rule"] == "clearance")
    back = call(session, "pcb.setDesignRules", min_clearance=0.0)
    assert back["new_violations"] == []


def test_an_edit_that_breaks_nothing_says_so(session):
    out = call(session, "pcb.addText", text="rev B", at=[130, 95], layer="F.SilkS")
    assert out["new_violations"] == [] and "violation" not in out["summary"]


def test_builtin_engine_result_has_kicads_shape(session):
    out = call(session, "check.drc", engine="builtin")
    assert out["engine"] == "builtin" and out["summary"].startswith("built-in DRC:")
    assert set(out["counts"]) >= {"violations", "unconnected", "errors", "warnings"}
    json.dumps(out)


def test_new_violations_are_what_a_whole_board_check_finds_new(session):
    """Across moves of vias, tracks and footprints (with a hole-to-hole minimum set so
    every rule is live), what each edit reports is what the whole board gains."""
    call(session, "pcb.setDesignRules", min_hole_to_hole=4.0, min_copper_edge_clearance=1.0)
    model = geometry_of(session.get(PATH, "board").doc)
    movable = [it for it in model.items if it is not None and it.kind in ("via", "track")][:6]
    fps = [f.uuid for f in model.footprints if f is not None and f.pads][:4]
    targets = [it.uuid for it in movable] + fps
    assert targets
    found = 0
    for k, uid in enumerate(targets):
        before = [(v["type"], tuple(sorted(i["id"] for i in v["items"])))
                  for v in call(session, "check.drc", engine="builtin")["violations"]]
        out = call(session, "pcb.move", id=uid, by=[0.7 if k % 2 else -0.9, 0.8])
        after = [(v["type"], tuple(sorted(i["id"] for i in v["items"])))
                 for v in call(session, "check.drc", engine="builtin")["violations"]]
        gained = sorted(g for g in set(after) - set(before) if g[0] != "unconnected_items")
        reported = sorted({(v["rule"], tuple(sorted(i["id"] for i in v["items"]))) for v in out["new_violations"]})
        assert gained == reported, uid
        found += len(gained)
    assert found  # the moves did break something
