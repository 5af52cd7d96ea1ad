"""The placer's pieces on their own: the raster of a region that is not a rectangle,
the RUDY congestion grid, ratsnest crossings and restarts chosen by them, and how
pcb.autoplace counts a fixed part that reaches past the outline (ecc83-pp's P4, as
KiCad's demo has it)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from boardwire.layout.place import Options, place
from boardwire.layout.place.congestion import Congestion
from boardwire.layout.place.outside import Outside
from boardwire.layout.place.poses import pad_boxes_of, side_of
from boardwire.layout.place.score import crossings, net_pins
from boardwire.layout.place_board import build_problem
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need
from tests.layout.judge import scatter_board, strip_board

ECC83 = DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"


def test_outside_area_of_a_notched_region():
    # 40 x 40 mm with a 10 x 20 mm notch cut from the bottom right (a USB stick's
    # tongue the other way round)
    region = shapely.box(0, 0, 40, 40).difference(shapely.box(30, 20, 40, 40))
    out = Outside(region)
    assert out.area((5, 5, 15, 15)) == 0.0
    assert abs(out.area((32, 25, 38, 35)) - 60.0) < 1e-9  # wholly in the notch
    assert abs(out.area((25, 25, 35, 35)) - 50.0) < 1.0  # half in it, to a raster cell
    assert abs(out.area((-5, 0, 5, 10)) - 50.0) < 1e-9  # half past the bounding box


def test_congestion_counts_demand_above_capacity_and_undoes():
    grid = Congestion((0.0, 0.0, 32.0, 32.0), layers=2, pitch=0.5)  # 1 mm bins: 2 mm each
    assert grid.size == 1.0 and abs(grid.capacity - 2.0) < 1e-12
    short = grid.rect((0.2, 0.2, 0.8, 0.8), 1.0)  # 1.2 mm in one bin: fits
    grid.add(short, 1.0)
    assert grid.overflow() == 0.0
    many = [grid.rect((0.1, 0.1, 1.9, 0.9), 1.0) for _ in range(4)]  # 2.6 mm over 2 bins each
    for r in many:
        grid.add(r, 1.0)
    # bin (0, 0): 1.2 + 4 x 1.3 = 6.4 against 2; bin (0, 1): 5.2 against 2
    assert abs(grid.overflow() - (4.4 + 3.2)) < 1e-9
    for r in many:
        grid.add(r, -1.0)
    assert abs(grid.overflow()) < 1e-9


def test_a_fixed_part_past_the_outline_is_reported_apart(tmp_path):
    board = strip_board(need(ECC83), tmp_path)
    session = Session(tmp_path)
    doc = session.get(board.name).doc
    chosen = sorted(fp.reference for fp in doc.footprints if fp.pad_count and fp.reference != "P4")
    result = REGISTRY.call("pcb.autoplace", {"path": board.name, "seed": 1, "references": chosen},
                           Context(session))
    assert result["off_board"] == 0 and result["off_board_parts"] == []
    assert result["off_board_fixed"] == ["P4"] and "1 fixed part(s)" in result["summary"]
    assert result["overlaps"] == 0


def test_crossings_count_lines_of_different_nets_that_cross():
    x = {1: np.array([[0.0, 0.0], [10.0, 10.0]]), 2: np.array([[0.0, 10.0], [10.0, 0.0]])}
    assert crossings(x) == 1
    assert crossings({1: x[1], 2: np.array([[0.0, 10.0], [10.0, 20.0]])}) == 0  # parallel
    assert crossings({1: x[1], 2: np.array([[10.0, 10.0], [20.0, 0.0]])}) == 0  # a shared end
    # a net of three pins: its spanning tree (0,0)-(5,0)-(5,10) is crossed once by net 2
    three = {1: np.array([[0.0, 0.0], [5.0, 0.0], [5.0, 10.0]]), 2: np.array([[0.0, 5.0], [10.0, 5.0]])}
    assert crossings(three) == 1
    # nets of more pins than CROSSING_PINS (supplies, grounds) are left out
    assert crossings({**x, 3: np.array([[float(i), 5.0] for i in range(20)])}) == 1


def test_restarts_keep_the_least_crossed_placement(tmp_path):
    need(ECC83)
    from boardwire.services.rules import session_rules

    board = strip_board(ECC83, tmp_path)
    session = Session(tmp_path)
    od = session.get(board.name, "board", "test")
    problem = build_problem(od.doc, session_rules(Context(session), od)).problem
    one = place(problem, Options(seed=3, effort=1))
    three = place(problem, Options(seed=3, effort=1, restarts=3))
    again = place(problem, Options(seed=3, effort=1, restarts=3))
    assert three.poses == again.poses and not three.unplaced
    cross = [crossings(net_pins(problem, r.poses)) for r in (one, three)]
    assert cross[1] <= cross[0]  # the first restart is the single run itself


def test_parts_keep_off_copper_and_solder_mask_art(tmp_path):
    # StickHub: four Creative Commons logos drawn on B.Mask (footprints with no pads or
    # courtyard, so not placed) and mask openings drawn on the board's own F.Mask; a
    # pad on an opening is bared beside other nets' (KiCad's solder_mask_bridge)
    stickhub = need(DEMOS / "stickhub" / "StickHub.kicad_pcb")
    from boardwire.services.rules import session_rules

    board = scatter_board(stickhub, tmp_path, 1)
    session = Session(tmp_path)
    od = session.get(board.name, "board", "test")
    bp = build_problem(od.doc, session_rules(Context(session), od), allow_back=True)
    problem = bp.problem
    logos = [fp.position for fp in od.doc.footprints if fp.reference.startswith("LOGO")]
    assert len(logos) == 4
    for side, where in (("back", logos), ("front", [])):
        art = shapely.union_all(problem.art[side])
        assert all(art.distance(shapely.Point(p)) < 1e6 for p in where)
    assert len(problem.art["front"]) == 9  # the board's F.Mask openings
    # C21 is placed and carries an F.Mask line: its art moves with it, no obstacle
    c21 = next(p for p in problem.parts if p.ref == "C21")
    assert c21.movable
    result = place(problem, Options(seed=1))
    assert not result.unplaced
    bared = []
    for i, part in enumerate(problem.parts):
        if not part.movable:
            continue
        x, y, q, f = result.poses[i]
        pads = pad_boxes_of(part, q, f) + (x, y, x, y)
        assert len(pads) == len(part.pads)
        for side in ({"front", "back"} if part.through else {side_of(part, f)}):
            bared += [part.ref for b in pads for o in problem.art[side] if shapely.box(*b).intersection(o).area > 0]
    assert bared == []


@pytest.mark.kicad
def test_score_names_parts_with_pads_on_art_and_kicad_agrees(kicad_cli, tmp_path):
    # StickHub's U1 sits with the four mask-only logos in the middle of its pad ring;
    # moved 2 mm down and right, its pads reach into them
    import shutil

    from tests.layout.judge import drc

    src = need(DEMOS / "stickhub" / "StickHub.kicad_pcb")
    for f in (src, src.with_suffix(".kicad_pro")):
        shutil.copy(f, tmp_path / f.name)
    session = Session(tmp_path)
    ctx = Context(session)
    human = REGISTRY.call("pcb.scorePlacement", {"path": src.name}, ctx)
    assert human["on_art"] == 0 and human["on_art_parts"] == []
    u1 = session.get(src.name).doc.footprint("U1")
    x, y = u1.position
    u1.move_to((x + 2_000_000, y + 2_000_000))
    moved = REGISTRY.call("pcb.scorePlacement", {"path": src.name}, ctx)
    assert moved["on_art_parts"] == ["U1"] and "pads on copper or solder-mask art (U1)" in moved["summary"]
    session.save(src.name)
    bridges = [v for v in drc(tmp_path / src.name)["violations"] if v["type"] == "solder_mask_bridge"]
    assert bridges and all(any("of U1" in i["description"] for i in v["items"]) for v in bridges)


def test_refining_keeps_the_placement_legal_and_never_costs_more(tmp_path):
    # pic_programmer scattered, annealed and legalised: moving parts to free spots
    # near their nets' pull shortens the ratsnest, and no two boxes meet
    import time

    from boardwire.layout.place.anneal import Annealer
    from boardwire.layout.place.engine import routing_room
    from boardwire.layout.place.legalise import legalise, sides_of
    from boardwire.layout.place.poses import box_of
    from boardwire.layout.place.refine import refine
    from boardwire.layout.place.score import spanning_length
    from boardwire.services.rules import session_rules

    board = scatter_board(need(DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb"), tmp_path, 1)
    session = Session(tmp_path)
    od = session.get(board.name, "board", "test")
    problem = build_problem(od.doc, session_rules(Context(session), od)).problem
    options = Options(seed=1, effort=1)
    margins = routing_room(problem, options.spacing)
    annealer = Annealer(problem, options, margins)
    annealer.run()
    boxes: dict = {}
    legal, failed = legalise(problem, annealer.poses(), margins, options.grid, None, None, boxes)
    assert not failed
    movable = [i for i, p in enumerate(problem.parts) if p.movable]

    def cost(poses):
        annealer.set_poses(poses)
        return sum(annealer.net_cost(k) for k in range(len(annealer.nets))) + \
            sum(annealer.decap_cost(k) for k in range(len(problem.decoupling)))

    def ratsnest(poses):
        return sum(spanning_length(p) for p in net_pins(problem, {i: poses[i] for i in movable}).values())

    before = cost(legal)
    refined = refine(problem, annealer, legal, dict(boxes), options.grid, time.monotonic() + 60)
    assert cost(refined) < before and ratsnest(refined) < ratsnest(legal)
    assert sum(refined[i] != legal[i] for i in movable) > 0
    # legal still: no two courtyard boxes on one side come within the gap
    shapes, h = [], problem.gap / 2 - 1
    for i in movable:
        x, y, q, f = refined[i]
        shapes.append((shapely.box(*(np.array(box_of(problem.parts[i], q, f)) + (x - h, y - h, x + h, y + h))),
                       set(sides_of(problem.parts[i], f))))
    for a, (box_a, sides_a) in enumerate(shapes):
        for box_b, sides_b in shapes[a + 1:]:
            assert not (sides_a & sides_b) or box_a.intersection(box_b).area == 0
