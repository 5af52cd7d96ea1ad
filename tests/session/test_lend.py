"""A long autoroute does not block reads of other documents (issue 36: every other
call of the session waited for it, queries on other documents too). The router lends
the session lock while it computes on its own copy of the board (`Session.lend`);
changes by other callers wait until its change ends."""

from __future__ import annotations

import shutil
import threading
import time

import pytest

from boardwire.commands import REGISTRY
from boardwire.registry import Context
from boardwire.session import Session
from tests.inputs import DEMOS, need

pytestmark = pytest.mark.kicad
LONG = "multichannel_mixer-unrouted.kicad_pcb"


def _timed(fn, limit: float):
    """fn() in a thread: (its result, seconds), or (None, None) if it outlasts ``limit``."""
    box = {}

    def run():
        t = time.monotonic()
        box["out"] = fn()
        box["s"] = time.monotonic() - t

    th = threading.Thread(target=run, daemon=True)
    th.start()
    th.join(limit)
    return box.get("out"), box.get("s")


def test_queries_answer_while_an_autoroute_runs_and_edits_wait(tmp_path):
    shutil.copy(need(DEMOS / "multichannel" / LONG), tmp_path / LONG)
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / "b.kicad_pcb")
    session = Session(tmp_path)
    ctx = lambda: Context(session, door="script")  # noqa: E731
    session.open("b.kicad_pcb")
    r = REGISTRY.call("pcb.autoroute", {"path": LONG, "time_limit": 30, "refill_zones": False, "wait_s": 0}, ctx())
    assert r["state"] == "running"
    deadline = time.monotonic() + 30
    while not any("routing" in line and "nets" not in line for line in
                  REGISTRY.call("job.status", {"job": r["job"]}, ctx())["tail"]):
        assert time.monotonic() < deadline  # the router is past reading the board
        time.sleep(0.1)
    try:
        out, s = _timed(lambda: REGISTRY.call("query.nets", {"path": "b.kicad_pcb"}, ctx()), 5)
        assert s is not None and s < 3 and out["nets"], "query.nets on another board waited for the autoroute"
        out, s = _timed(lambda: REGISTRY.call("query.describe", {"path": LONG}, ctx()), 5)
        assert s is not None and s < 3  # the routed board itself reads as it was before
        moved, s = _timed(lambda: REGISTRY.call("pcb.move", {"path": "b.kicad_pcb", "reference": "R1",
                                                             "by": [1, 0]}, ctx()), 1)
        assert s is None  # an edit waits for the autoroute's change to end
        assert REGISTRY.call("job.status", {"job": r["job"]}, ctx())["state"] == "running"
    finally:
        REGISTRY.call("job.cancel", {"job": r["job"]}, ctx())
    deadline = time.monotonic() + 10
    while session.get("b.kicad_pcb").revision != 1:  # the waiting edit went on once the route ended
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert session.get(LONG).revision == 0
