"""Placing in turns with trial routes (`layout.place.rework`, `layout.place_board.trials`,
`pcb.autoplace`'s ``route_trials``): the rework stays legal and shortens the nets it
is given; the placement kept is the one whose trial routed most; a placement that
routes is left as it is; cancelling a trial changes nothing."""

from __future__ import annotations

import time
from types import SimpleNamespace

import numpy as np
import pytest
import shapely

from boardwire.errors import Cancelled
from boardwire.layout.place import Options, place
from boardwire.layout.place.legalise import sides_of
from boardwire.layout.place.poses import box_of
from boardwire.layout.place.rework import MAX_PINS, rework
from boardwire.layout.place.score import net_pins, spanning_length
from boardwire.layout.place_board import build_problem, run
from boardwire.registry import REGISTRY, CancelToken, Context
from boardwire.services.rules import session_rules
from boardwire.session import Session
from tests.inputs import DEMOS, need
from tests.layout.judge import scatter_board

ECC83 = DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"
PIC = DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb"


def _legal(problem, poses) -> None:
    """No two courtyard boxes on one side come within the gap."""
    shapes, h = [], problem.gap / 2 - 1
    for i, (x, y, q, f) in poses.items():
        shapes.append((shapely.box(*(np.array(box_of(problem.parts[i], q, f)) + (x - h, y - h, x + h, y + h))),
                       set(sides_of(problem.parts[i], f))))
    for a, (box_a, sides_a) in enumerate(shapes):
        for box_b, sides_b in shapes[a + 1:]:
            assert not (sides_a & sides_b) or box_a.intersection(box_b).area == 0


def test_rework_shortens_the_nets_named_and_stays_legal(tmp_path):
    # pic_programmer scattered and placed; its five longest nets of a few pins named
    # as if a trial route had left them unrouted, with the small parts at their ends
    board = scatter_board(need(PIC), tmp_path, 1)
    session = Session(tmp_path)
    od = session.get(board.name, "board", "test")
    problem = build_problem(od.doc, session_rules(Context(session), od)).problem
    result = place(problem, Options(seed=1, effort=1))
    pins = net_pins(problem, result.poses)
    small = [k for k, p in pins.items() if 2 <= len(p) <= MAX_PINS]
    named = sorted(small, key=lambda k: -spanning_length(pins[k]))[:5]
    parts = {i for i, p in enumerate(problem.parts)
             if p.movable and len(p.pads) <= 8 and set(p.pad_nets) & set(named)}
    assert parts

    def length(poses):
        got = net_pins(problem, poses)
        return sum(spanning_length(got[k]) for k in named)

    poses = rework(problem, result.state, set(named), parts, Options().grid, time.monotonic() + 60)
    assert set(poses) == set(result.poses)
    assert length(poses) < length(result.poses)
    _legal(problem, poses)
    # the same state and names give the same poses; a second rework leaves the
    # nets weighed once (the state remembers them)
    again = rework(problem, result.state, set(named), parts, Options().grid, time.monotonic() + 60)
    assert again == poses and result.state.weighed == set(named)


def _unrouted(board, rules, count):
    """The ``count`` longest nets of a few pins on ``board`` as it is now, as a router
    reports connections it left (``between``: "REF-PAD" labels of their small parts)."""
    problem = build_problem(board, rules).problem
    pins = net_pins(problem, {})
    longest = sorted((k for k, p in pins.items() if len(p) <= MAX_PINS), key=lambda k: -spanning_length(pins[k]))
    out = []
    for net in longest[:count]:
        ends = [f"{p.ref}-{n + 1}" for p in problem.parts for n, k in enumerate(p.pad_nets)
                if k == net and len(p.pads) <= 8]
        out.append(SimpleNamespace(net=problem.nets[net], between=(ends + ["?", "?"])[:2]))
    return out


def _poses(board) -> dict:
    return {fp.reference: (fp.position, fp.orientation % 360, fp.side) for fp in board.footprints}


@pytest.mark.parametrize("routed, kept", [((15, 12), 0), ((12, 15), 1)])
def test_the_placement_whose_trial_routed_most_is_kept(tmp_path, routed, kept):
    board = scatter_board(need(ECC83), tmp_path, 2)
    session = Session(tmp_path)
    od = session.get(board.name, "board", "test")
    rules = session_rules(Context(session), od)
    scattered, seen = _poses(od.doc), []

    def trial(k):
        seen.append(_poses(od.doc))
        return SimpleNamespace(routed=routed[k], total=20, unrouted=_unrouted(od.doc, rules, 20 - routed[k]))

    _, _, moved, _, (trials, index) = run(od.doc, rules, Options(seed=1), trials=2, trial=trial)
    assert [t.routed for t in trials] == list(routed) and index == kept
    assert seen[0] != seen[1]  # the rework moved something
    assert _poses(od.doc) == seen[kept]
    assert sorted(moved) == sorted(r for r, pose in seen[kept].items() if pose != scattered[r])


def test_a_placement_that_routes_is_left_as_it_is(tmp_path):
    # ecc83's placement routes every connection at the first trial: no rework, the
    # same board as without trials
    outs = []
    for trials in (0, 2):
        folder = tmp_path / str(trials)
        board = scatter_board(need(ECC83), folder, 1)
        session = Session(folder)
        result = REGISTRY.call("pcb.autoplace", {"path": board.name, "seed": 1, "route_trials": trials},
                               Context(session))
        outs.append(session.get(board.name).doc.to_bytes())
        if trials:
            assert result["route_trials"] == [{"routed": 20, "total": 20}] and result["trial_kept"] == 1
            assert "trial routes 20/20" in result["summary"]
        else:
            assert "route_trials" not in result
    assert outs[0] == outs[1]


def test_cancelling_a_trial_route_changes_nothing(tmp_path):
    board = scatter_board(need(ECC83), tmp_path, 1)
    original = board.read_bytes()
    session = Session(tmp_path)
    token = CancelToken()
    reports = []

    def progress(fraction, message):
        reports.append((fraction, message))
        if message.startswith("trial route 1"):
            token.cancel()

    with pytest.raises(Cancelled):
        REGISTRY.call("pcb.autoplace", {"path": board.name, "route_trials": 1},
                      Context(session, progress_fn=progress, cancel=token))
    od = session.get(board.name)
    assert od.revision == 0 and od.doc.to_bytes() == original
    fractions = [f for f, _ in reports]
    assert fractions == sorted(fractions) and any(m.startswith("trial route 1") for _, m in reports)


def test_trials_asked_for_on_a_board_with_nothing_to_place(tmp_path):
    # a fresh-user trial: every footprint locked, route_trials 2 gave neither key
    import re

    board = scatter_board(need(ECC83), tmp_path, 1)
    board.write_text(re.sub(r'(\(footprint "[^"]*"\n)(\s*)', r"\1\2(locked yes)\n\2", board.read_text()))
    session = Session(tmp_path)
    assert all(fp.locked for fp in session.get(board.name).doc.footprints)
    result = REGISTRY.call("pcb.autoplace", {"path": board.name, "route_trials": 2}, Context(session))
    assert result["route_trials"] == [] and result["trial_kept"] is None and result["moved"] == 0
