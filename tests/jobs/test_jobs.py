"""Long calls as jobs (issue 16), through every door: a check.drc on a big KiCad demo
board with a small wait_s answers with a job; job.wait returns what a direct call
returns; job.cancel, and cancelling the starting call or a job.wait, kill kicad-cli
(no child left) and leave the document as it was."""

from __future__ import annotations

import shutil
import threading
import time

import anyio
import pytest
from mcp import Client

from boardwire.errors import Cancelled
from boardwire.jobs import JobTable
from boardwire.registry import CancelToken
from tests.inputs import DEMOS, need
from tests.protocols.test_jsonrpc import stdio_server
from tests.protocols.test_mcp import _kicad_children, stdio

BOARD = "video.kicad_pcb"
pytestmark = pytest.mark.kicad


@pytest.fixture
def ws(tmp_path, kicad_cli):
    shutil.copy(need(DEMOS / "video" / BOARD), tmp_path / BOARD)  # KiCad's DRC takes seconds here
    return tmp_path


def _same(a: dict, b: dict) -> bool:
    return a == b and "job" not in a and a["summary"].startswith("DRC")


async def _until(pred, timeout: float = 60) -> None:
    with anyio.fail_after(timeout):
        while not pred():
            await anyio.sleep(0.05)


def test_the_job_table_keeps_the_newest_and_reports_states():
    table = JobTable(keep=3)
    jobs = [table.start("t.x", lambda job, i=i: i, CancelToken()) for i in range(5)]
    assert [j.id for j in table.all()] == ["j3", "j4", "j5"]
    assert jobs[-1].wait(5) == 4 and jobs[-1].status()["state"] == "done"
    token = CancelToken()

    def slow(job):
        job.report(0.5, "half way")
        while True:
            token.check()
            time.sleep(0.01)

    job = table.start("t.slow", slow, token)
    running = job.wait(0.1)
    assert running.to_dict()["state"] == "running" and running.tail == ["half way"]
    job.cancel()
    with pytest.raises(Cancelled):  # waiting raises what the work raised
        job.wait(5)
    assert job.status()["state"] == "cancelled" and job.status()["error"]["code"] == "cancelled"


def test_at_most_two_jobs_of_a_session_run_at_once():
    """A break-it trial started 8 DRCs at once as MCP tasks (each a job answered at
    once): 8 kicad-cli processes. Jobs beyond `RUNNING` wait for a slot, say so, can be
    cancelled while they wait, and run in turn."""
    from boardwire.jobs.jobs import RUNNING

    table, release, running, peak = JobTable(), threading.Event(), [], [0]
    lock = threading.Lock()

    def work(job):
        with lock:
            running.append(job.id)
            peak[0] = max(peak[0], len(running))
        release.wait(10)
        with lock:
            running.remove(job.id)
        return job.id

    jobs = [table.start("t.heavy", work, CancelToken()) for _ in range(RUNNING + 2)]
    deadline = time.monotonic() + 5
    while len(running) < RUNNING and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)
    assert len(running) == RUNNING == 2
    waiting = jobs[-1]
    assert waiting.state == "running" and "waiting for a free slot" in waiting.status()["tail"][-1]
    waiting.cancel(wait_s=2)
    assert waiting.state == "cancelled" and "waited for a free slot" in waiting.status()["error"]["message"]
    release.set()
    assert [j.wait(5) for j in jobs[:-1]] == [j.id for j in jobs[:-1]]
    assert peak[0] == RUNNING


def test_at_exit_running_jobs_are_cancelled_and_stubborn_ones_abandoned():
    """What runs when the process exits: work that stops on cancel ends cancelled;
    work that ignores it is abandoned (cancelled, said why) and ends once only."""
    table, ended, release = JobTable(), [], threading.Event()

    def polite(job):
        while True:
            job.token.check()
            time.sleep(0.01)

    def stubborn(job):
        release.wait(10)
        return "late"

    jobs = [table.start("t.polite", polite, CancelToken(), on_end=ended.append),
            table.start("t.stubborn", stubborn, CancelToken(), on_end=ended.append)]
    table.cancel_running(wait_s=0.5)
    assert [j.state for j in jobs] == ["cancelled", "cancelled"]
    assert "did not end within" in jobs[1].status()["error"]["message"]
    release.set()
    jobs[1].thread.join(5)
    assert sorted(j.command for j in ended) == ["t.polite", "t.stubborn"]  # once each, not again when it ends
    assert jobs[1].state == "cancelled"


def test_over_mcp_a_job_waited_cancelled_and_cancelled_by_notification(ws):
    async def main():
        async with Client(stdio(ws)) as c:
            direct = (await c.call_tool("check_drc", {"path": BOARD})).structured_content
            r = (await c.call_tool("check_drc", {"path": BOARD, "wait_s": 0.2})).structured_content
            assert r["state"] == "running" and r["job"] and "job_wait" not in r  # a handle
            done = (await c.call_tool("job_wait", {"job": r["job"], "wait_s": 120})).structured_content
            assert _same(done, direct)

            # job_cancel kills kicad-cli
            r = (await c.call_tool("check_drc", {"path": BOARD, "wait_s": 0})).structured_content
            await _until(lambda: _kicad_children(ws))
            out = (await c.call_tool("job_cancel", {"job": r["job"]})).structured_content
            assert out.get("state") == "cancelled", out
            await _until(lambda: not _kicad_children(ws), 10)

            # notifications/cancelled on the starting call, then on a job_wait
            for first, then in ((None, "check_drc"), ("check_drc", "job_wait")):
                job = None
                if first:
                    job = (await c.call_tool(first, {"path": BOARD, "wait_s": 0})).structured_content["job"]
                    await _until(lambda: _kicad_children(ws))
                async with anyio.create_task_group() as tg:
                    async def call():
                        await c.call_tool(then, {"job": job, "wait_s": 120} if job else {"path": BOARD})
                    tg.start_soon(call)
                    await _until(lambda: _kicad_children(ws))
                    await anyio.sleep(0.5)  # the server has begun the call (a cancel before that cancels nothing)
                    tg.cancel_scope.cancel()  # the SDK sends notifications/cancelled
                await _until(lambda: not _kicad_children(ws), 10)
            r = (await c.call_tool("session_open", {"path": BOARD})).structured_content
            assert r["revision"] == 0 and not r["modified"]  # the document as it was

    anyio.run(main)


def test_over_jsonrpc_a_job_waited_and_cancelled(ws):
    with stdio_server(ws) as c:
        direct = c.call("check.drc", {"path": BOARD}, timeout=120)["result"]
        r = c.call("check.drc", {"path": BOARD, "wait_s": 0.2})["result"]
        assert r["state"] == "running"
        assert _same(c.call("job.wait", {"job": r["job"], "wait_s": 120}, timeout=130)["result"], direct)
        r = c.call("check.drc", {"path": BOARD, "wait_s": 0})["result"]
        deadline = time.time() + 60
        while not _kicad_children(ws):
            assert time.time() < deadline
            time.sleep(0.05)
        assert c.call("job.cancel", {"job": r["job"]})["result"]["state"] == "cancelled"
        assert not _kicad_children(ws)
        # $/cancel of a job.wait cancels the job
        r = c.call("check.drc", {"path": BOARD, "wait_s": 0})["result"]
        while not _kicad_children(ws):
            assert time.time() < deadline + 60
            time.sleep(0.05)
        waiting = c.request("job.wait", {"job": r["job"], "wait_s": 120})
        time.sleep(0.5)  # running, not queued: a queued call is answered -32800 and never runs
        c.send({"jsonrpc": "2.0", "method": "$/cancel", "params": {"id": waiting}})
        assert c.reply(waiting, timeout=30)["error"]["code"] == -32800
        assert not _kicad_children(ws)
        status = c.call("job.status", {"job": r["job"]})["result"]
        assert status["state"] == "cancelled"
        assert c.call("session.documents")["result"]["documents"][0]["revision"] == 0


def test_in_the_script_api_a_job_waited_and_cancelled(ws, monkeypatch):
    from boardwire import api
    from boardwire.api import binding

    monkeypatch.chdir(ws)
    previous = binding.snapshot()
    try:
        api.connect(".", board=BOARD)
        monkeypatch.setenv("BOARDWIRE_WAIT_S", "0")  # a script without wait_s still gets its result
        direct = api.board.drc()
        assert "state" not in direct and "counts" in direct, direct
        r = api.board.drc(wait_s=0.2)
        assert r["state"] == "running"
        assert _same(api.job.wait(job=r["job"], wait_s=120), direct)
        r = api.board.drc(wait_s=0)
        deadline = time.time() + 60
        while not _kicad_children(ws):
            assert time.time() < deadline
            time.sleep(0.05)
        assert api.job.cancel(job=r["job"])["state"] == "cancelled"
        assert not _kicad_children(ws)
        assert api.session.documents()["documents"][0]["revision"] == 0
    finally:
        binding.restore(previous)


def test_the_servers_default_wait(monkeypatch):
    """BOARDWIRE_WAIT_S sets the wait of long calls that give none (tests set it high)."""
    from boardwire.registry.registry import default_wait_s

    monkeypatch.delenv("BOARDWIRE_WAIT_S", raising=False)
    assert default_wait_s() == 25
    for raw, want in (("2.5", 2.5), ("0", 0), ("3600", 3600), ("-1", 25), ("99999", 25), ("nan", 25),
                      ("inf", 25), ("soon", 25)):
        monkeypatch.setenv("BOARDWIRE_WAIT_S", raw)
        assert default_wait_s() == want


def test_a_cancelled_long_edit_leaves_the_document_as_it_was(tmp_path, pcbnew_python):
    """pcb.fillZones runs as one session change: cancelled mid-fill (KiCad's filler
    killed), nothing of it stays; done, it is one undo step."""
    from boardwire.registry import REGISTRY, Context
    from boardwire.session import Session

    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / "b.kicad_pcb")
    session = Session(tmp_path)
    before = session.get("b.kicad_pcb").content_hash
    r = REGISTRY.call("pcb.fillZones", {"path": "b.kicad_pcb", "wait_s": 0}, Context(session, door="script"))
    assert r["state"] == "running"
    time.sleep(0.5)  # the filler has started
    out = REGISTRY.call("job.cancel", {"job": r["job"]}, Context(session, door="script"))
    assert out["state"] == "cancelled"
    od = session.get("b.kicad_pcb")
    assert od.revision == 0 and not od.undo and od.content_hash == before
    r = REGISTRY.call("pcb.fillZones", {"path": "b.kicad_pcb"}, Context(session, door="script"))
    assert r["revision"] == 1 and len(od.undo) == 1


def test_job_cancel_ends_a_job_that_ignores_its_token_within_a_second(tmp_path):
    """Issue 36: job.cancel of a spinning autoroute took 10 s and answered "had already
    ended: running" while the job went on. Work that does not stop within a second is
    abandoned: the answer says cancelled, and an edit it finishes later is rolled back."""
    from boardwire.commands import REGISTRY
    from boardwire.jobs import jobs_of
    from boardwire.registry import Context
    from boardwire.session import Session

    session = Session(tmp_path)
    release = threading.Event()
    job = jobs_of(session).start("t.stuck", lambda job: release.wait(30), CancelToken())
    t = time.monotonic()
    out = REGISTRY.call("job.cancel", {"job": job.id}, Context(session, door="script"))
    took = time.monotonic() - t
    release.set()
    assert took < 1.5
    assert out["state"] == "cancelled" and out["summary"] == f"job {job.id} (t.stuck) was running; now cancelled"
    assert job.thread.join(5) is None and job.state == "cancelled"

