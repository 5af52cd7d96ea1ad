"""The audit log (.boardwire/session.jsonl): every call through every door with its
seconds and error, rotated at a size limit, read back by `boardwire log` and
session.export."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import anyio
import pytest
from mcp import Client
from mcp.types import Implementation

from boardwire.errors import NotFound
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session, audit
from tests.inputs import DEMOS, absent, need
from tests.protocols.test_mcp import stdio

BOARD = "b.kicad_pcb"
CLI = [sys.executable, "-m", "boardwire.cli.main"]


@pytest.fixture
def ws(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    return tmp_path


def cli(ws, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=ws, capture_output=True, text=True, timeout=120)


def test_lines_are_trimmed_and_the_log_rotates_without_losing_a_line(tmp_path, monkeypatch):
    monkeypatch.setattr(audit, "MAX_BYTES", 4000)
    log = audit.Audit(tmp_path)
    for i in range(60):
        log.record(door="script", command="pcb.addTrack", args={"i": i, "points": [[0, 0]] * 100, "note": "x" * 1000},
                   seconds=0.01, result={"summary": "ok"})
    log.close()
    names = [p.name for p in audit.files(tmp_path)]
    assert len(names) > audit.BACKUPS + 1 and names[-1] == "session.jsonl" and names[-2] == "session.jsonl.1"
    assert all(p.stat().st_size <= 4000 for p in audit.files(tmp_path))
    lines = list(audit.read(tmp_path))
    assert [x["args"]["i"] for x in lines] == list(range(60))  # every line of the session, oldest first
    first = lines[0]["args"]
    assert len(first["points"]) == audit.LIST_LIMIT + 1 and first["points"][-1] == "... 80 more"
    assert first["note"].endswith("(1000 chars)")


def test_old_backups_go_when_a_log_opens_recent_ones_stay(tmp_path, monkeypatch):
    import os
    import time

    monkeypatch.setattr(audit, "MAX_BYTES", 2000)
    log = audit.Audit(tmp_path)
    for i in range(40):
        log.record(door="script", command="query.nets", args={"i": i, "pad": "y" * 300}, seconds=0.0)
    log.close()
    backups = audit.files(tmp_path)[:-1]
    assert len(backups) > audit.BACKUPS + 2
    old = time.time() - audit.RETAIN_S - 60
    for p in backups[:2]:  # the two oldest, last written eight days ago
        os.utime(p, (old, old))
    gone = {json.loads(t)["args"]["i"] for p in backups[:2] for t in p.read_text().splitlines()}
    before = [x["args"]["i"] for x in audit.read(tmp_path)]
    assert gone and set(before) == set(range(40))
    audit.Audit(tmp_path).record(door="cli", command="query.nets", args={}, seconds=0.0)  # a new process opens it
    kept = [x["args"].get("i") for x in audit.read(tmp_path)]
    assert kept == [i for i in before if i not in gone] + [None]
    assert len(audit.files(tmp_path)) - 1 >= audit.BACKUPS


def test_a_flood_of_huge_nested_arguments_cannot_push_out_the_first_call(tmp_path):
    """The break-it trial: 16 invalid calls with deeply nested arguments made 1.7 MB
    lines each and rotated the history away. Lines are now capped as a whole and a
    session's own lines are never rotated away."""
    session = Session(tmp_path)
    ctx = Context(session, door="jsonrpc", client="flooder")
    REGISTRY.call("session.documents", {}, ctx)

    def nest(depth):
        return {f"k{i}": nest(depth - 1) for i in range(30)} if depth else "v" * 50

    for _ in range(16):
        with pytest.raises(Exception):
            REGISTRY.call("pcb.move", {"path": "x.kicad_pcb", "junk": nest(3)}, ctx)
    lines = list(audit.read(tmp_path))
    assert lines[0]["command"] == "session.documents" and not lines[0].get("error")
    assert len(lines) == 17
    sizes = [len(t) for p in audit.files(tmp_path) for t in p.read_text().splitlines()]
    assert max(sizes) < 8000, max(sizes)
    assert "bytes cut" in json.dumps(lines[1]["args"])


def test_a_killed_call_leaves_its_start(tmp_path):
    """A call whose process dies before it ends (kill -9 during an autoroute) leaves
    its start line, read back as "started"."""
    code = (f"import os; from boardwire.session.audit import Audit; "
            f"a = Audit({str(tmp_path)!r}); a.start(door='mcp', command='pcb.autoroute', args={{'path': 'b.kicad_pcb'}}); "
            f"os._exit(9)")
    subprocess.run([sys.executable, "-c", code], check=False, timeout=60)
    (line,) = list(audit.read(tmp_path))
    assert line["command"] == "pcb.autoroute" and line["state"] == "started" and line["call"]
    assert "killed" in audit.markdown([line])


def test_every_door_is_logged_and_nested_calls_are_not(ws):
    session = Session(ws)
    REGISTRY.call("session.batch", {"steps": [{"command": "pcb.move", "args": {"path": BOARD, "reference": "C1",
                                                                              "by": [1, 0]}}]},
                  Context(session, door="jsonrpc", client="client-1"))
    with pytest.raises(NotFound):
        REGISTRY.call("pcb.move", {"path": BOARD, "reference": "NOPE", "by": [1, 0]}, Context(session, door="script"))
    REGISTRY.call("query.describe", {"path": BOARD}, Context(session))  # boardwire's own call: not a door

    async def main():
        async with Client(stdio(ws)) as c:
            assert not (await c.call_tool("query_nets", {"path": BOARD})).is_error

    anyio.run(main)
    lines = list(audit.read(ws))
    assert [(x["door"], x["command"], x["error"]) for x in lines] == [
        ("jsonrpc", "session.batch", None), ("script", "pcb.move", "not-found"), ("mcp", "query.nets", None)]
    assert lines[0]["client"] == "client-1" and lines[2]["client"]  # the MCP client's name
    assert "NOPE" in lines[1]["message"] and all(x["seconds"] >= 0 for x in lines)


def test_boardwire_log_finds_a_failed_call_and_session_export_renders_it(ws):
    assert cli(ws, "call", "pcb.move", json.dumps({"path": BOARD, "reference": "C1", "by": [1, 0]})).returncode == 0
    assert cli(ws, "call", "pcb.move", json.dumps({"path": BOARD, "reference": "NOPE9", "by": [1, 0]})).returncode != 0
    r = cli(ws, "log", "--errors", "--json")
    failed = [json.loads(x) for x in r.stdout.splitlines()]
    assert [(x["door"], x["command"], x["error"]) for x in failed] == [("cli", "pcb.move", "not-found")]
    assert "NOPE9" in cli(ws, "log", "--errors").stdout
    assert len(cli(ws, "log", "--since", "1h", "--command", "pcb.*", "--json").stdout.splitlines()) == 2
    assert cli(ws, "log", "--since", "yesterday-ish").returncode == 2
    report = REGISTRY.call("session.export", {"errors": True}, Context(Session(ws)))["markdown"]
    assert "1 calls" in report and "| cli | cli | `pcb.move` |" in report and "**not-found**" in report
    doc = REGISTRY.call("session.export", {"report": "json"}, Context(Session(ws)))
    assert [x["command"] for x in doc["calls"]] == ["pcb.move", "pcb.move"]


def test_hand_edited_and_torn_lines_lose_nothing_else(tmp_path):
    """Lines of the wrong shape are skipped by readers (no crash); a torn last line
    gets its line break before the next call's line, which is then kept."""
    log = audit.log_path(tmp_path)
    log.parent.mkdir(parents=True)
    log.write_text('{"time":"abc","command":"pcb.move"}\n{"time":1e400,"command":"x"}\n'
                   '{"time":5,"command":5,"seconds":"s"}\n{"time":6,"command":"ok.one","seconds":1}\n'
                   '{"time":7,"command":"torn')
    a = audit.Audit(tmp_path)
    a.record(door="mcp", command="pcb.move", args={}, seconds=0.5)
    a.close()
    assert [x["command"] for x in audit.read(tmp_path)] == ["ok.one", "pcb.move"]
    out = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "log", "--root", str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 0 and "pcb.move" in out.stdout, out.stderr
    assert audit.markdown(list(audit.read(tmp_path)))


def test_long_argument_names_are_trimmed_too(tmp_path):
    log = audit.Audit(tmp_path)
    log.record(door="mcp", command="pcb.move", args={"k" * 5000: 1}, seconds=0.0)
    log.close()
    (key,) = next(iter(audit.read(tmp_path)))["args"]
    assert key.endswith("(5000 chars)") and len(key) < 300


def test_person_commands_are_logged_and_a_missing_workspace_is_an_error(ws):
    from boardwire.parts.catalogue import SAMPLE as sample
    assert cli(ws, "parts", "import", str(sample)).returncode == 0
    assert cli(ws, "parts", "import", "nothere.csv").returncode == 14
    lines = [(x["door"], x["command"], x["error"]) for x in audit.read(ws)]
    assert lines == [("cli", "parts.import", None), ("cli", "parts.import", "not-found")]
    r = cli(ws, "log", "--root", str(ws / "nonexistent"))
    assert r.returncode == 14 and "not-found" in r.stderr and not (ws / "nonexistent").exists()


def test_a_server_stopped_mid_job_logs_the_job_cancelled(tmp_path):
    """The client goes away while a check runs as a job: the server exits, the job is
    cancelled on the way out (kicad-cli killed) and its end line is in the log."""
    if shutil.which("kicad-cli") is None:
        absent("kicad-cli is not installed (.ci/install-kicad.sh)")
    for f in need(DEMOS / "video").glob("video.kicad_p*"):
        shutil.copy(f, tmp_path / f.name)
    call = {"jsonrpc": "2.0", "id": 1, "method": "check.drc", "params": {"path": "video.kicad_pcb", "wait_s": 0}}
    r = subprocess.run([*CLI, "serve", "--stdio"], cwd=tmp_path, input=json.dumps(call) + "\n",
                       capture_output=True, text=True, timeout=120)
    assert '"state":"running"' in r.stdout.replace(" ", "")
    lines = [(x["command"], x.get("job"), x.get("state")) for x in audit.read(tmp_path)]
    assert lines == [("check.drc", "j1", "running"), ("check.drc", "j1", "cancelled")], (r.stdout, r.stderr, list(tmp_path.iterdir()))


def test_names_a_client_chose_are_capped_and_shown_inert(ws):
    """A client name of 3 MB (an MCP client's clientInfo.name) made 3 MB log lines, and
    terminal escapes in it reached `boardwire log`'s terminal raw (break-it trial): the
    name is cut to audit.NAME_LIMIT characters and every control character is shown as
    an escape, in `boardwire log` and in session.export's Markdown."""
    evil = "evil\x1b[2K\x1b[32mhonest-client\x1b]0;pwned\x07[red]x[/red]"

    async def main():
        for client in ("x" * 3_000_000, evil):
            async with Client(stdio(ws), client_info=Implementation(name=client, version="1")) as c:
                assert not (await c.call_tool("query_describe", {"path": BOARD})).is_error

    anyio.run(main)
    lines = audit.log_path(ws).read_text(encoding="utf-8").splitlines()
    assert lines and max(len(x) for x in lines) < 6000
    names = [x["client"] for x in audit.read(ws)]
    assert any(n.startswith("x" * audit.NAME_LIMIT) and n.endswith("<3000000 chars>") for n in names)
    out = subprocess.run([*CLI, "log", "--root", str(ws)], capture_output=True, text=True,
                         env={**os.environ, "COLUMNS": "300"})
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout and "\x07" not in out.stdout
    assert "\\x1b" in out.stdout.replace("\n", "")
    report = audit.markdown(list(audit.read(ws)))
    assert "\x1b" not in report and "\\x1b[2K" in report
