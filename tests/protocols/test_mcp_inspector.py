"""`boardwire mcp` over stdio driven by the official MCP Inspector's CLI (npm
``@modelcontextprotocol/inspector``, ``--cli``), a client that is not our SDK: it lists
the tools (with its own tool-schema portability check, ``--strict``) and calls
query_describe on a demo board."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from tests.inputs import DEMOS, need
from tests.protocols.node_tools import node_bin, node_env  # noqa: F401 - node_bin is a fixture

BOARD = "b.kicad_pcb"


def _inspector(node_bin, cwd, *args: str) -> subprocess.CompletedProcess:
    server = [sys.executable, "-m", "boardwire.cli.main", "mcp"]
    return subprocess.run([str(node_bin / "mcp-inspector"), "--cli", *args, "--", *server], cwd=cwd,
                          env=node_env(node_bin), capture_output=True, text=True, timeout=120)


def test_inspector_lists_and_calls_tools(tmp_path, node_bin):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    r = _inspector(node_bin, tmp_path, "--method", "tools/list", "--strict")
    assert r.returncode == 0, r.stderr[-3000:]  # --strict exits 6 on an error-severity schema problem
    names = {t["name"] for t in json.loads(r.stdout)["tools"]}
    assert {"query_describe", "pcb_move", "check_drc", "session_save"} <= names
    r = _inspector(node_bin, tmp_path, "--method", "tools/call", "--tool-name", "query_describe",
                   "--tool-arg", f"path={BOARD}")
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout)
    assert out["isError"] is False
    assert "15 footprints" in out["structuredContent"]["summary"] and out["structuredContent"]["counts"]["pads"] == 33
    assert out["content"][0]["type"] == "text"
