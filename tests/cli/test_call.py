"""`boardwire call`, `drc`, `render`, `doctor` from a shell."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from boardwire.errors import EXIT_CODES
from tests.inputs import DEMOS, need


def run(cwd, *args):
    return subprocess.run([sys.executable, "-m", "boardwire.cli.main", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def ws(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / "b.kicad_pcb")
    return tmp_path


def test_call_edits_and_saves_unless_told_not_to(ws):
    before = (ws / "b.kicad_pcb").read_bytes()
    r = run(ws, "call", "pcb.addVia", '{"path": "b.kicad_pcb", "at": [10, 10]}', "--no-save")
    assert r.returncode == 0 and json.loads(r.stdout)["id"]
    assert (ws / "b.kicad_pcb").read_bytes() == before
    r = run(ws, "call", "pcb.addVia", '{"path": "b.kicad_pcb", "at": [10, 10]}')
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["saved"] == ["b.kicad_pcb"]
    assert out["id"].encode() in (ws / "b.kicad_pcb").read_bytes()


def test_call_errors_exit_with_the_code(ws):
    r = run(ws, "call", "pcb.addVia", '{"path": "b.kicad_pcb", "at": "nowhere"}')
    assert r.returncode == EXIT_CODES["invalid-args"]
    assert json.loads(r.stdout)["error"]["code"] == "invalid-args"
    r = run(ws, "call", "pcb.addVia", "{not json")
    assert r.returncode == EXIT_CODES["invalid-args"]
    r = run(ws, "call", "nope.nothing", "{}")
    assert json.loads(r.stdout)["error"]["code"] == "unknown-command"
    r = run(ws, "call", "query.describe", '{"path": "../b.kicad_pcb"}')
    assert r.returncode == EXIT_CODES["path-outside-workspace"]


@pytest.mark.kicad
def test_drc_render_and_doctor(ws, kicad_cli):
    r = run(ws, "drc", "b.kicad_pcb", "--json")
    assert r.returncode == 0 and "counts" in json.loads(r.stdout)
    r = run(ws, "render", "b.kicad_pcb", "-o", "b.png")
    assert r.returncode == 0 and (ws / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run(ws, "render", "b.kicad_pcb", "-o", "b3d.png", "--view", "3d")
    assert r.returncode == 0 and (ws / "b3d.png").stat().st_size > 1000
    r = run(ws, "doctor")
    assert json.loads(r.stdout)["kicad_version"].startswith("9.")
