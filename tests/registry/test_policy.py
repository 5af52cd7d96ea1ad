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
