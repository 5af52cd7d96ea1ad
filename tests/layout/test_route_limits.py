"""The router's loops that scale with a board's geometry stop at the time limit
(issue 36: a board with one Edge.Cuts coordinate at 1e12 mm kept pcb.autoroute
running at 150 s with time_limit 2; such a file is now refused at load)."""

from __future__ import annotations

import time

import pytest

from boardwire.commands import REGISTRY
from boardwire.errors import BoardwireError
from boardwire.layout.route import Result, Track
from boardwire.layout.route.budget import Budget
from boardwire.layout.route.verify import Checker, check_result
from boardwire.registry import Context
from boardwire.session import Session
from tests.documents.test_refusals import _with_edge_end
from tests.layout.test_engine import MM, _problem


def test_a_track_across_two_metres_is_hashed_and_checked_at_once():
    """A track from (-2000, -2000) to (2000, 2000) mm covered four million buckets of
    the placed-routes hash (seconds per add); it now goes to the wide bucket, and a
    track crossing it is still found."""
    checker = Checker(_problem())
    t = time.monotonic()
    checker.add(1, "track", ((-2000 * MM, -2000 * MM), (2000 * MM, 2000 * MM)), 250_000, 200_000, layer=0)
    hit = checker.conflicts(2, "track", ((0, 10 * MM), (10 * MM, 0)), 250_000, 200_000, layer=0)
    far = checker.conflicts(2, "track", ((0, 10 * MM), (1 * MM, 10 * MM)), 250_000, 200_000, layer=0)
    checker.remove_net(1)
    gone = checker.conflicts(2, "track", ((0, 10 * MM), (10 * MM, 0)), 250_000, 200_000, layer=0)
    assert time.monotonic() - t < 1.0
    assert (hit, far, gone) == ({1}, set(), set())


def test_the_check_stops_when_its_budget_is_spent():
    p = _problem()
    tracks = [Track((1 * MM, y * MM), (4 * MM, y * MM), 250_000, 0, 1) for y in (2, 4, 6)]
    found = check_result(p, Result(tracks, [], 1, 1, [], 0.0, 0), Budget(time.monotonic() - 1))
    assert [(v.index, v.reason) for v in found] == [(i, "not checked: the time limit was reached first")
                                                     for i in range(3)]


@pytest.mark.kicad
def test_autoroute_of_a_board_with_a_coordinate_at_1e12_mm_ends_at_once(tmp_path):
    """Was: 28 s (ecc83) to minutes (the trial's board) with time_limit 2."""
    path = _with_edge_end(tmp_path, "1e12")
    t = time.monotonic()
    with pytest.raises(BoardwireError) as e:
        REGISTRY.call("pcb.autoroute", {"path": path.name, "time_limit": 2}, Context(Session(tmp_path)))
    assert time.monotonic() - t < 5
    assert e.value.code == "parse-error" and "1e12 mm in (end ...) of the gr_line" in e.value.message
