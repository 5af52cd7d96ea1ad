"""Boards edited to break each rule, found by both engines.

KiCad's ecc83 demo (clean for every built-in rule) is edited through the commands an
agent uses: two tracks of different nets closer than their clearance, a via on a pad of
another net (joined to its own net), two drilled holes too close, a track across the board edge, a footprint
moved onto another (courtyards), a track narrower than the board minimum and a via
below the minimum size, drill and ring (after pcb.setDesignRules). One check.drc with
engine "both" then runs kicad-cli and the built-in engine on the same in-memory board,
and each break must be in both reports, naming the item it was made with."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import shapely

from boardwire.geometry import geometry_of
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need

pytestmark = pytest.mark.kicad

PATH = "ecc83-pp.kicad_pcb"


def free_spots(board, layer: str, count: int, keep: float = 3.0) -> list[tuple[float, float]]:
    """Points (mm) inside the board outline at least ``keep`` mm from any copper on
    ``layer`` and from the edge, a ``keep`` apart."""
    model = geometry_of(board)
    outline = model.outline()
    bit = model.layers.bit[layer]
    copper = shapely.union_all([shapely.buffer(it.core, it.r) for it in model.items
                                if it is not None and it.mask & bit])
    inner = outline.buffer(-keep * 1e6)
    x0, y0, x1, y1 = inner.bounds
    out = []
    for x in np.arange(x0, x1, keep * 1e6):
        for y in np.arange(y0, y1, keep * 1e6):
            p = shapely.Point(x, y)
            if inner.contains(p) and p.distance(copper) > keep * 1e6 and all(
                    p.distance(shapely.Point(q[0] * 1e6, q[1] * 1e6)) > 3 * keep * 1e6 for q in out):
                out.append((round(x / 1e6, 3), round(y / 1e6, 3)))
                if len(out) == count:
                    return out
    raise AssertionError("the board has no room for the test edits")


@pytest.fixture
def broken(tmp_path):
    for f in need(DEMOS / "ecc83").glob("ecc83-pp.*"):
        shutil.copy(f, tmp_path / f.name)
    s = Session(tmp_path)
    run = lambda cid, **a: REGISTRY.call(cid, {"path": PATH, **a}, Context(s))  # noqa: E731
    board = s.get(PATH, "board").doc
    run("pcb.setDesignRules", min_track_width=0.2, min_via_diameter=0.6, min_through_hole_diameter=0.3,
        min_via_annular_width=0.15)
    a, b, c, d = free_spots(board, "F.Cu", 4)
    other = next(n.name for n in board.nets if n.name not in ("", "GND"))
    made = {}
    # two tracks of different nets 0.1 mm apart (net class clearance 0.2 mm or more)
    t1 = run("pcb.addTrack", points=[[a[0] - 2, a[1]], [a[0] + 2, a[1]]], width=0.3, layer="F.Cu", net="GND")
    t2 = run("pcb.addTrack", points=[[a[0] - 2, a[1] + 0.4], [a[0] + 2, a[1] + 0.4]], width=0.3,
             layer="F.Cu", net=other)
    made["clearance"] = {t1["ids"][0], t2["ids"][0]}
    # a via on a pad of another net, joined by a track to a pad of its own net (alone,
    # KiCad would give the via the pad's net when it loads the board: its connectivity
    # re-nets tracks and vias whose copper meets the pads of one net only)
    pad = next(p for p in run("query.pads", reference="R1")["pads"] if p.get("net") not in (None, "GND"))
    v = run("pcb.addVia", at=pad["at"], size=0.8, drill=0.4, net="GND")
    gnd = min(run("query.pads", net="GND", layer="F.Cu", limit=5000)["pads"],
              key=lambda p: (p["at"][0] - pad["at"][0]) ** 2 + (p["at"][1] - pad["at"][1]) ** 2)
    run("pcb.addTrack", points=[pad["at"], gnd["at"]], width=0.25, layer="F.Cu", net="GND")
    made["shorting_items"] = {v["id"]}  # its first short: the pad, or a track on the pad
    # two vias of one net whose holes are 0.1 mm apart
    v1 = run("pcb.addVia", at=[b[0], b[1]], size=0.8, drill=0.4, net="GND")
    v2 = run("pcb.addVia", at=[b[0] + 0.5, b[1]], size=0.8, drill=0.4, net="GND")
    made["hole_to_hole"] = {v1["id"], v2["id"]}
    # a track across the board edge
    outline = geometry_of(board).outline()
    x0, y0, x1, y1 = (v / 1e6 for v in outline.bounds)
    t3 = run("pcb.addTrack", points=[[x0 + 3, (y0 + y1) / 2], [x0 - 2, (y0 + y1) / 2]], width=0.3, layer="F.Cu")
    made["copper_edge_clearance"] = {t3["ids"][0]}
    # a track narrower than the board's minimum
    t4 = run("pcb.addTrack", points=[[c[0] - 1, c[1]], [c[0] + 1, c[1]]], width=0.1, layer="F.Cu", net="GND")
    made["track_width"] = {t4["ids"][0]}
    # a via below the minimum diameter, drill and ring
    v3 = run("pcb.addVia", at=[d[0], d[1]], size=0.45, drill=0.25, net="GND")
    made["via_diameter"] = made["drill_out_of_range"] = made["annular_width"] = {v3["id"]}
    # a footprint moved onto another: courtyards overlap
    u1 = run("query.footprint", reference="U1")
    r1 = run("query.footprint", reference="R1")
    run("pcb.move", reference="R1", at=[u1["at"][0] + 1.0, u1["at"][1] + 1.0])
    made["courtyards_overlap"] = {u1["id"], r1["id"]}
    return run("check.drc", engine="both", limit=10000), made


def _ids(violations: list, rule: str) -> list[set]:
    return [{i["id"] for i in v["items"]} for v in violations if v["type"] == rule]


@pytest.mark.parametrize("rule", ["clearance", "shorting_items", "hole_to_hole", "copper_edge_clearance",
                                  "track_width", "via_diameter", "drill_out_of_range", "annular_width",
                                  "courtyards_overlap"])
def test_each_break_is_found_by_both_engines(broken, rule):
    result, made = broken
    want = made[rule]
    kicad = _ids(result["violations"], rule)
    builtin = _ids(result["builtin"]["violations"], rule)
    assert any(want <= ids or (len(want) == 1 and want & ids) for ids in kicad), f"KiCad missed {rule}: {kicad}"
    assert any(want <= ids or (len(want) == 1 and want & ids) for ids in builtin), f"built-in missed {rule}: {builtin}"


def test_nothing_about_the_new_items_is_found_by_one_engine_alone(broken):
    """For the tracks and vias added (not the moved footprint, whose pads now lie on
    old tracks KiCad may re-net when it loads the board), neither engine reports a
    violation the other does not (apart from which partner a track names first, see
    checks.compare)."""
    result, made = broken
    new = set().union(*(made[r] for r in made if r != "courtyards_overlap"))
    alone = [(rule, v["description"]) for rule, r in result["agreement"].items()
             for v in r["only_kicad"] + r["only_builtin"] if {i["uuid"] for i in v["items"]} & new]
    assert not alone, alone
