"""The workspace's [agent] policy (boardwire.toml): refused calls over every agent's
door fail with policy-denied naming the key; a person's command line is never
refused; the defaults let an agent design (and refuse only what cannot be undone)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import anyio
import pytest
from mcp import Client

from boardwire.errors import PolicyDenied
from boardwire.registry import REGISTRY, Context
from boardwire.registry.policy import agent_table
from boardwire.session import Session
from tests.inputs import DEMOS, need
from tests.protocols.test_jsonrpc import stdio_server
from tests.protocols.test_mcp import stdio

BOARD = "b.kicad_pcb"
POLICY = """
[agent]
paths = ["out/**"]
exports = false
fabrication = false
"""


@pytest.fixture
def ws(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    return tmp_path


@pytest.fixture
def strict(ws):
    (ws / "boardwire.toml").write_text(POLICY)
    return ws


def test_the_defaults_allow_designing_and_refuse_only_what_cannot_be_undone(ws):
    assert agent_table(ws) == {"paths": ["**"], "destructive": False, "exports": True, "fabrication": True}
    session = Session(ws)
    ctx = Context(session, door="mcp")
    REGISTRY.call("pcb.move", {"path": BOARD, "reference": "C1", "by": [1, 0]}, ctx)
    REGISTRY.call("pcb.delete", {"path": BOARD, "reference": "C2"}, ctx)  # an undo step, not refused
    with pytest.raises(PolicyDenied) as e:
        REGISTRY.call("session.revert", {"path": BOARD}, ctx)
    assert e.value.data["key"] == "agent.destructive" and "[agent] destructive" in e.value.message
    REGISTRY.call("session.revert", {"path": BOARD}, Context(session, door="cli"))  # a person may
    REGISTRY.call("session.save", {"path": BOARD}, ctx)


def test_refusals_over_mcp_name_the_key(strict):
    async def main():
        async with Client(stdio(strict)) as c:
            r = await c.call_tool("render_png", {"path": BOARD})
            err = r.structured_content["error"]
            assert r.is_error and err["code"] == "policy-denied" and err["data"]["key"] == "agent.exports"
            r = await c.call_tool("pcb_move", {"path": BOARD, "reference": "C1", "by": [1, 0]})
            err = r.structured_content["error"]
            assert err["code"] == "policy-denied" and "[agent] paths" in err["message"] and BOARD in err["message"]
            r = await c.call_tool("fab_package", {"path": BOARD, "output": "out/fab"})
            assert r.structured_content["error"]["data"]["key"] == "agent.fabrication"
            r = await c.call_tool("query_describe", {"path": BOARD})  # reading is never refused
            assert not r.is_error

    anyio.run(main)


def test_refusals_over_jsonrpc_and_the_script_api_name_the_key_the_cli_is_never_refused(strict, monkeypatch):
    with stdio_server(strict) as c:
        r = c.call("pcb.move", {"path": BOARD, "reference": "C1", "by": [1, 0]})
        assert r["error"]["data"]["code"] == "policy-denied" and r["error"]["data"]["key"] == "agent.paths"
        assert "[agent] paths" in r["error"]["message"]
        r = c.call("session.revert", {"path": BOARD})
        assert "[agent] destructive" in r["error"]["message"]

    from boardwire import api
    from boardwire.api import binding

    previous = binding.snapshot()
    try:
        api.connect(strict, board=BOARD)
        with pytest.raises(PolicyDenied) as e:
            api.board.move(reference="C1", by=(1, 0))
        assert e.value.data["key"] == "agent.paths"
        with pytest.raises(PolicyDenied) as e:  # the steps of a batch are checked too
            api.session.batch(steps=[{"command": "pcb.move", "args": {"path": BOARD, "reference": "C1", "by": [1, 0]}}])
        assert e.value.data["key"] == "agent.paths"
    finally:
        binding.restore(previous)

    r = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "call", "pcb.move",
                        json.dumps({"path": BOARD, "reference": "C1", "by": [1, 0]})],
                       cwd=strict, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["saved"] == [BOARD]


@pytest.mark.parametrize("text, where", [
    ("[agent]\nexports = 0\n", "exports"),          # a number where a bool goes must not allow
    ('[agent]\nfabrication = "no"\n', "fabrication"),
    ("[agent]\nexprots = false\n", "exprots"),      # a typo must not pass silently
    ("[agent]\npaths = [1, 2]\n", "paths"),
    ('[agent]\nboards = "sometimes"\n', "boards"),
    ("agent = 5\n", "table"),
    ("[agent\n", "line"),                           # not TOML
])
def test_a_broken_policy_refuses_agents_and_asks_a_person(ws, text, where):
    """Fail closed: every agent call is policy-denied (key agent, needs_human) until a
    person fixes the file; the hint does not invite deleting it; the CLI still works."""
    (ws / "boardwire.toml").write_text(text)
    session = Session(ws)
    with pytest.raises(PolicyDenied) as e:
        REGISTRY.call("render.png", {"path": BOARD}, Context(session, door="jsonrpc"))
    err = e.value.to_dict()
    assert err["data"]["key"] == "agent" and err["needs_human"]["action"] == "fix_policy"
    assert where in err["message"] and "remove" not in err["hint"], err
    REGISTRY.call("pcb.move", {"path": BOARD, "reference": "C1", "by": [1, 0]}, Context(session, door="cli"))


def test_a_policy_file_that_is_not_utf8_refuses_agents(ws):
    (ws / "boardwire.toml").write_bytes(b"\xff\xfe[agent]")
    with pytest.raises(PolicyDenied):
        REGISTRY.call("pcb.move", {"path": BOARD, "reference": "C1", "by": [1, 0]}, Context(Session(ws), door="mcp"))


def test_paths_check_what_a_call_writes_not_what_it_reads(ws):
    """design.build reads its file and writes its out folder: "builds/**" allows the
    folder builds itself; parts.import reads its CSV."""
    from boardwire.registry.policy import written_paths

    (ws / "boardwire.toml").write_text('[agent]\npaths = ["builds/**"]\n')
    session = Session(ws)
    build = REGISTRY.get("design.build")
    args = REGISTRY.validate(build, {"file": "designs/x.json", "out": "builds"})
    assert written_paths(args, session.workspace) == ["builds"]
    imp = REGISTRY.get("parts.import")
    assert written_paths(REGISTRY.validate(imp, {"file": "x.csv"}), session.workspace) == []
    from boardwire.registry import policy

    policy.check(build, args, Session(ws))  # builds matches builds/** as a folder
    with pytest.raises(PolicyDenied):
        policy.check(build, REGISTRY.validate(build, {"file": "d.json", "out": "elsewhere"}), Session(ws))


# -- what a call writes, by its arguments' roles (boardwire.registry.roles) ---------------

def test_project_new_is_checked_for_the_folder_its_name_makes(ws):
    """A break-it trial's bypass: project.new {"name": "pp"} made the folder pp/, which no
    glob of [agent] paths covered (the policy never saw the name as a path written)."""
    (ws / "boardwire.toml").write_text('[agent]\npaths = ["boards/**"]\n')
    ctx = Context(Session(ws), door="mcp")
    with pytest.raises(PolicyDenied) as e:
        REGISTRY.call("project.new", {"name": "pp"}, ctx)
    assert e.value.data["key"] == "agent.paths" and "writes pp," in e.value.message
    assert not (ws / "pp").exists()
    out = REGISTRY.call("project.new", {"name": "pp", "folder": "boards/pp"}, ctx)
    assert out["board"] == "boards/pp/pp.kicad_pcb" and (ws / out["board"]).is_file()


def test_a_new_sheet_file_is_checked_where_it_is_made_beside_its_parent(ws):
    """A break-it trial's bypass: sch.addSheet's file was checked against the workspace
    root but is made beside the parent sheet: a plain s1.kicad_sch in a sub-folder
    project was refused, and a crafted file was written outside the globs on save."""
    session = Session(ws)
    REGISTRY.call("project.new", {"name": "proj"}, Context(session))  # a person's call
    parent = "proj/proj.kicad_sch"
    sheet = {"path": parent, "name": "s1", "file": "s1.kicad_sch", "at": [50.8, 50.8]}
    ctx = Context(session, door="mcp")
    (ws / "boardwire.toml").write_text('[agent]\npaths = ["proj/**"]\n')
    assert REGISTRY.call("sch.addSheet", sheet, ctx)["file"] == "proj/s1.kicad_sch"
    REGISTRY.call("session.save", {"path": parent}, ctx)
    assert (ws / "proj" / "s1.kicad_sch").is_file()
    (ws / "boardwire.toml").write_text('[agent]\npaths = ["proj/proj.kicad_sch", "sheets/**"]\n')
    with pytest.raises(PolicyDenied) as e:
        REGISTRY.call("sch.addSheet", {**sheet, "name": "s2", "file": "sheets/s2.kicad_sch"}, ctx)
    assert "writes proj/sheets/s2.kicad_sch," in e.value.message
    REGISTRY.call("session.save", {"path": parent}, ctx)
    assert not (ws / "proj" / "sheets").exists() and not (ws / "sheets").exists()


@pytest.mark.parametrize("cid, refused, allowed", [
    # the new version folder is made in the version's builds folder
    ("design.rebuild", {"version": "elsewhere/blinker/v001"}, {"version": "builds/blinker/v001"}),
    # a monitor's recording is a file written
    ("fw.monitor.start", {"dir": "fw", "record": "logs/run.jsonl"}, {"dir": "fw", "record": "fw/run.jsonl"}),
    ("fw.run", {"dir": "fw", "record": "logs/run.jsonl"}, {"dir": "fw", "record": "fw/run.jsonl"}),
    # closing only reads, unless it throws the document's changes away
    ("session.close", {"path": "elsewhere.kicad_pcb", "discard": True}, {"path": "elsewhere.kicad_pcb"}),
])
def test_every_path_written_is_checked_and_only_those(ws, cid, refused, allowed):
    from boardwire.registry import policy

    (ws / "boardwire.toml").write_text('[agent]\npaths = ["fw/**", "builds/**"]\ndestructive = true\n')
    cmd, session = REGISTRY.get(cid), Session(ws)
    with pytest.raises(PolicyDenied) as e:
        policy.check(cmd, REGISTRY.validate(cmd, refused), session)
    assert e.value.data["key"] == "agent.paths"
    policy.check(cmd, REGISTRY.validate(cmd, allowed), session)


def test_no_agent_writes_into_boardwires_own_folder(ws):
    """A break-it trial made a folder at a board's lock path (fab.bom's output inside
    .boardwire/locks), and every later save of that board failed, a person's too. With
    the default policy ("**") an agent may still not write into any .boardwire folder
    (locks, backups, the audit log, the MCP keys); a person may."""
    session = Session(ws)
    ctx = Context(session, door="mcp")
    for output in (".boardwire/locks/b.kicad_pcb.lock", "sub/.boardwire/mcp-keys.json", ".boardwire"):
        with pytest.raises(PolicyDenied) as e:
            REGISTRY.call("pcb.exportDsn", {"path": BOARD, "output": output}, ctx)
        assert e.value.data["key"] == "agent.paths" and ".boardwire" in e.value.message
    assert not (ws / ".boardwire" / "locks" / "b.kicad_pcb.lock").exists()
    REGISTRY.call("pcb.move", {"path": BOARD, "reference": "C1", "by": [1, 0]}, ctx)
    REGISTRY.call("session.save", {"path": BOARD}, ctx)  # the board's own lock still works
    REGISTRY.call("pcb.exportDsn", {"path": BOARD, "output": "out/b.dsn"}, ctx)
