"""A build killed midway (kill -9) leaves a version folder that says what it was
building and where it stopped (issue 36, item 1): design.json and settings.json (a
rebuild's inputs) and build.json with the stages done and the one running."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from tests.inputs import REPO, SYMBOLS, need

pytestmark = pytest.mark.kicad


def test_a_killed_build_leaves_its_stage(tmp_path):
    need(SYMBOLS / "Timer.kicad_sym")
    shutil.copytree(REPO / "examples" / "designs", tmp_path / "designs")
    proc = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "build", "designs/blinker555.json"],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ}, start_new_session=True)
    record = tmp_path / "builds" / "blinker555" / "v001" / "build.json"
    rows: list = []
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                rows = json.loads(record.read_text())
            except (OSError, ValueError):
                rows = []
            if rows and rows[-1]["stage"] == "placement" and rows[-1]["status"] == "running":
                break
            time.sleep(0.05)
        assert proc.poll() is None, f"the build ended before placement: {proc.stderr.read().decode()[-2000:]}"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    folder = record.parent
    rows = json.loads(record.read_text())
    assert [r["stage"] for r in rows][:3] == ["project", "schematic", "erc"]
    assert rows[-1] == {"stage": "placement", "status": "running"}
    assert all(r["status"] == "ok" for r in rows[:-1]), rows
    assert json.loads((folder / "design.json").read_text())["name"] == "blinker555"
    assert json.loads((folder / "settings.json").read_text())["uuid_seed"] == "blinker555/v001"
