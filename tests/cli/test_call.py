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
    # the message on stderr whole: rich took "[x1, y1, x2, y2]" for markup and dropped it
    r = run(ws, "call", "pcb.autoplace", '{"path": "b.kicad_pcb", "area": [5, 5, 1, 1]}')
    message = json.loads(r.stdout)["error"]["message"]
    assert "[x1, y1, x2, y2]" in message and message in " ".join(r.stderr.split())


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


def test_ctrl_c_is_the_cancelled_code_and_saves_nothing(tmp_path):
    """Ctrl-C on `boardwire call` exited 130 with nothing said (a fresh-user trial)."""
    import signal
    import time

    shutil.copy(need(DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb"), tmp_path / "p.kicad_pcb")
    before = (tmp_path / "p.kicad_pcb").read_bytes()
    p = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "call", "pcb.autoplace",
                          '{"path": "p.kicad_pcb", "time_limit": 120}'], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(5)  # started, not done (placing pic_programmer takes about 20 s)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == EXIT_CODES["cancelled"], err
    assert json.loads(out)["error"]["code"] == "cancelled" and "cancelled" in err
    assert (tmp_path / "p.kicad_pcb").read_bytes() == before
    # and the audit log says so (it said "internal", with no message)
    from boardwire.session import audit

    (line,) = [x for x in audit.read(tmp_path) if x["command"] == "pcb.autoplace"]
    assert line["error"] == "cancelled" and line["message"]
