"""Long commands: progress is reported, cancellation kills KiCad's process group, and a
missing KiCad is a clear service-unavailable."""

from __future__ import annotations

import shutil
import threading
import time

import pytest

from boardwire.errors import Cancelled, ServiceUnavailable
from boardwire.kicad import cli as kicad_cli_module
from boardwire.registry import REGISTRY, CancelToken, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need


@pytest.mark.kicad
def test_progress_is_reported(kicad_cli, tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path)
    seen = []
    ctx = Context(Session(tmp_path), progress_fn=lambda f, m: seen.append((f, m)))
    REGISTRY.call("check.drc", {"path": "ecc83-pp.kicad_pcb"}, ctx)
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(seen) >= 3


def kicad_children() -> int:
    """kicad-cli processes started by this test process (others may run DRC too)."""
    import os
    from pathlib import Path

    me, n = os.getpid(), 0
    for proc in Path("/proc").iterdir():
        try:
            stat = (proc / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == me and b"kicad-cli" in (proc / "cmdline").read_bytes():
                n += 1
        except (OSError, ValueError, IndexError):
            continue
    return n


@pytest.mark.kicad
def test_cancel_kills_kicad_and_changes_nothing(kicad_cli, tmp_path):
    board = need(DEMOS / "video" / "video.kicad_pcb")  # DRC takes seconds here
    shutil.copy(board, tmp_path)
    session = Session(tmp_path)
    token = CancelToken()
    ctx = Context(session, cancel=token)
    outcome = {}

    def run():
        try:
            REGISTRY.call("check.drc", {"path": "video.kicad_pcb"}, ctx)
            outcome["result"] = "finished"
        except Cancelled as e:
            outcome["result"] = e.code

    t = threading.Thread(target=run)
    t.start()
    deadline = time.time() + 30
    while kicad_children() == 0 and time.time() < deadline:
        time.sleep(0.05)
    assert kicad_children() > 0, "kicad-cli never started"
    start = time.time()
    token.cancel()
    t.join(30)
    assert outcome["result"] == "cancelled" and time.time() - start < 5
    time.sleep(0.2)
    assert kicad_children() == 0
    assert session.get("video.kicad_pcb").revision == 0


def test_missing_kicad_is_service_unavailable(tmp_path, monkeypatch):
    monkeypatch.setattr(kicad_cli_module, "_candidates", lambda: [str(tmp_path / "no-kicad-cli")])
    kicad_cli_module._probe.cache_clear()
    try:
        shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path)
        with pytest.raises(ServiceUnavailable) as e:
            REGISTRY.call("check.drc", {"path": "ecc83-pp.kicad_pcb"}, Context(Session(tmp_path)))
        assert e.value.code == "service-unavailable" and "Install KiCad 9" in e.value.hint
    finally:
        kicad_cli_module._probe.cache_clear()
