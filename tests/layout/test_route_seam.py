"""The router seam (`layout.route.engines`): an engine registered by name is reachable
from every caller (pcb.autoroute's ``engine``, design.build's router options,
pcb.autoplace's trial routes) without their code knowing it; every result passes the
same check (`verify.check_result`); the compiled search honours its deadline."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from boardwire.errors import InvalidArgs
from boardwire.layout.route import Result, Track, engines, maze, route
from boardwire.layout.route.verify import check_result
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need
from tests.layout.judge import scatter_board, strip_board
from tests.layout.test_engine import MM, _problem

ECC83 = DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"


@pytest.fixture
def straight():
    """An engine "straight" (registered for the test only): each net's clusters joined
    in order by straight tracks between their first pads, on the first routable layer,
    whatever is in the way. Yields the options of every call."""
    calls = []

    def engine(problem, options, progress=None):
        calls.append(options)
        tracks, total = [], 0
        for net in problem.nets:
            total += len(net.clusters) - 1
            ends = [p.at for cluster in net.clusters for p in cluster[:1] if p.at]
            tracks += [Track(a, b, net.rule.width, problem.routable[0], net.id) for a, b in zip(ends, ends[1:])]
        return Result(tracks, [], total, total, [], 0.0, 0)

    engines.register("straight", engine)
    try:
        yield calls
    finally:
        engines.unregister("straight")
    assert "straight" not in engines.names()


def test_autoroute_takes_a_registered_engine_and_reports_its_check(tmp_path, straight):
    board = strip_board(need(ECC83), tmp_path)
    session = Session(tmp_path)
    r = REGISTRY.call("pcb.autoroute", {"path": board.name, "engine": "straight", "seed": 4, "effort": 1},
                      Context(session))
    (options,) = straight
    assert (options.engine, options.seed, options.effort, options.time_limit) == ("straight", 4, 1, 120)
    assert r["engine"] == "straight" and r["routed"] == r["total"] == 20
    assert len(session.get(board.name).doc.tracks) == r["segments"] > 0  # written as the engine gave it
    # straight lines run over other nets' pads: the seam's check says so, item by item
    assert r["violations"] and "items failed the router's check" in r["summary"]
    assert {v["kind"] for v in r["violations"]} == {"track"}
    assert any("too close" in v["reason"] for v in r["violations"])
    # the built-in engine's result passes the same check
    board = strip_board(need(ECC83), tmp_path / "builtin")
    built = REGISTRY.call("pcb.autoroute", {"path": board.name}, Context(Session(board.parent)))
    assert built["engine"] == "builtin" and built["violations"] == [] and built["routed"] == 20


def test_an_unknown_engine_is_refused_naming_the_registered_ones(tmp_path, straight):
    board = strip_board(need(ECC83), tmp_path)
    ctx = Context(Session(tmp_path))
    for command, key in (("pcb.autoroute", "engine"), ("pcb.autoplace", "route_engine")):
        with pytest.raises(InvalidArgs) as e:
            REGISTRY.call(command, {"path": board.name, key: "freerouting"}, ctx)
        assert e.value.to_dict()["data"]["errors"][0]["loc"] == key
        assert "'freerouting'" in e.value.message and "builtin, straight" in e.value.message
    assert Session(tmp_path).get(board.name).doc.to_bytes() == board.read_bytes()


def test_the_placers_trial_routes_take_a_registered_engine(tmp_path, straight):
    board = scatter_board(need(ECC83), tmp_path, 1)
    r = REGISTRY.call("pcb.autoplace", {"path": board.name, "seed": 1, "route_trials": 2, "route_engine": "straight",
                                        "time_limit": 30}, Context(Session(tmp_path)))
    # the straight engine routes everything at once: one trial, kept
    assert [(o.engine, o.time_limit) for o in straight] == [("straight", 30)]
    assert r["route_trials"] == [{"routed": 20, "total": 20}] and r["trial_kept"] == 1


@pytest.mark.kicad
def test_design_build_routes_with_the_engine_its_router_options_name(tmp_path, straight):
    header = "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical"
    design = {"name": "divider", "components": [
        {"ref": "J1", "symbol": "Connector_Generic:Conn_01x03", "footprint": header},
        {"ref": "R1", "symbol": "Device:R", "value": "10k", "footprint": "Resistor_SMD:R_0603_1608Metric"},
        {"ref": "R2", "symbol": "Device:R", "value": "10k", "footprint": "Resistor_SMD:R_0603_1608Metric"}],
        "nets": {"VIN": ["J1.1", "R1.1"], "OUT": ["R1.2", "R2.1", "J1.2"], "GND": ["R2.2", "J1.3"]},
        "board": {"size": [20, 15]},
        "constraints": {"router": {"engine": "straight", "seed": 3, "time_limit": 10}}}
    (tmp_path / "divider.json").write_text(json.dumps(design))
    out = REGISTRY.call("design.build", {"file": "divider.json", "until": "route"}, Context(Session(tmp_path)))
    assert [(o.engine, o.seed, o.time_limit) for o in straight] == [("straight", 3, 10)]
    (stage,) = [s for s in out["stages"] if s["stage"] == "route"]
    assert stage["status"] == "ok" and "routed 4/4" in stage["summary"], out["stages"]


def test_the_check_finds_what_is_wrong_with_a_result():
    """`check_result` on a hand-made result for `_problem` (N1 left to right, N2 bottom
    to top, a wall at x = 5 mm): the two straight routes cross, N1's runs through the
    wall (N2 is checked against N1, not again the other way); a net the problem lacks
    and a layer it does not route are named too. The built-in engine's own result for
    the problem on two layers passes."""
    p = _problem()
    n1 = Track((1 * MM, 10 * MM), (19 * MM, 10 * MM), 250_000, 0, 1)
    n2 = Track((10 * MM, 19 * MM), (10 * MM, 1 * MM), 250_000, 0, 2)
    ghost = Track((15 * MM, 2 * MM), (18 * MM, 2 * MM), 250_000, 0, 9)
    off = Track((15 * MM, 2 * MM), (18 * MM, 2 * MM), 250_000, 1, 2)
    found = check_result(p, Result([n1, n2, ghost, off], [], 2, 2, [], 0.0, 0))
    assert [(v.kind, v.index, v.net) for v in found] == [("track", 0, "N1"), ("track", 1, "N2"),
                                                         ("track", 2, ""), ("track", 3, "N2")]
    assert found[0].reason == "too close to copper, a hole, a keep-out or the board edge"  # the wall
    assert found[1].reason == "too close to the new copper of N1"
    assert "not a net of the problem" in found[2].reason and "not one routed" in found[3].reason
    p = _problem(("F.Cu", "B.Cu"))
    result = route(p)
    assert result.routed == result.total == 2 and result.vias and check_result(p, result) == []


def _grid(h: int, w: int) -> tuple[list, int]:
    """One layer of h x w nodes, free but for a target node walled in by its eight
    neighbours near the far corner: a search from (1, 1) must expand every node."""
    n = h * w
    arrays = [np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(h * w, np.int32), np.zeros(h * w, np.int32),
              np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.int32),
              np.zeros(n, np.uint8)]
    target = (h - 3) * w + (w - 3)
    arrays[5][target] = 1
    for d in (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1):
        arrays[0][target + d] = -1
    return arrays, target


def _search(arrays, h, w, gen, deadline, walled=True):
    if not walled:
        arrays[0][arrays[0] == -1] = 0
    return maze.search(*arrays, (1, h, w), (0, 0, w - 1, h - 1), (1, 1), 1, np.array([w + 1], np.int32),
                       np.zeros(1, np.int32), (10, 14, -1, 1, 0, gen, 1, deadline, 110, 0), bytes(1))


def test_the_compiled_search_stops_at_its_deadline():
    """`maze.search` (C) reads its deadline on the monotonic clock: one already past
    gives None at once, without expanding a node (no search gives False: "nothing
    reachable lies past the window" is only said of a search that ran out of nodes);
    one that passes mid-search stops it (None, in a fraction of the full search's
    time); none (0), or a far one, lets it finish. Python's time.monotonic and C's
    CLOCK_MONOTONIC are the same clock."""
    h = w = 700
    arrays, target = _grid(h, w)
    started = time.monotonic()
    assert _search(arrays, h, w, 1, 0.0) is False  # the whole grid expanded: the target is walled in
    full = time.monotonic() - started
    assert _search(arrays, h, w, 2, time.monotonic() - 1.0) is None
    assert _search(arrays, h, w, 3, time.monotonic() + 3600) is False
    if full > 0.1:  # the machine is fast enough for a mid-search deadline to fall inside the search
        started = time.monotonic()
        assert _search(arrays, h, w, 4, started + full / 10) is None
        assert time.monotonic() - started < full / 2
    found = _search(arrays, h, w, 5, time.monotonic() + 3600, walled=False)
    assert found and found[1][0] == w + 1 and found[1][-1] == target
    assert _search(arrays, h, w, 6, time.monotonic() - 1.0, walled=False) is None
