"""fw.build: compiler messages as diagnostics (GCC's and rustc's real output), a
failed build is build-failed naming the first error, and cancelling a build kills
its whole process group."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from boardwire.errors import BuildFailed, Cancelled
from boardwire.firmware import diagnostics
from boardwire.registry import CancelToken, Context
from boardwire.session import Session
from tests.inputs import absent

from .conftest import call, context


def test_gcc_errors_and_warnings_become_diagnostics(fw_tools, ws):
    ctx = context(ws)
    call(ctx, "fw.new", {"name": "blinky", "framework": "baremetal", "port": "/dev/null"})
    main = ws / "blinky" / "main.c"
    lines = main.read_text().splitlines()
    at = next(i for i, ln in enumerate(lines) if "char line[48];" in ln)
    lines.insert(at + 1, "    int unused_here = 1;")
    lines.insert(at + 2, "    undeclared_thing = 2;")
    main.write_text("\n".join(lines) + "\n")
    with pytest.raises(BuildFailed) as e:
        call(ctx, "fw.build", {"dir": "blinky"})
    diags = e.value.data["diagnostics"]
    err = next(d for d in diags if d["level"] == "error")
    assert err["file"] == "main.c" and err["line"] == at + 3 and err["column"] == 5
    assert "undeclared_thing" in err["message"]
    assert f"main.c:{at + 3}:5" in e.value.message
    warn = next(d for d in diags if d["level"] == "warning")
    assert warn["line"] == at + 2 and warn["code"] == "-Wunused-variable"


def test_rustc_messages_become_diagnostics(tmp_path):
    rustc = shutil.which("rustc")
    if rustc is None:
        absent("rustc is not installed")

    def compile(text: str) -> list:
        (tmp_path / "main.rs").write_text(text)
        r = subprocess.run([rustc, "--edition", "2021", "--color", "never", "-o", str(tmp_path / "m"), "main.rs"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=120)
        return diagnostics.parse(r.stderr.splitlines())

    diags = compile("fn main() {\n    println!(\"{}\", missing);\n}\n")
    err = next(d for d in diags if d.level == "error")
    assert (err.code, err.file, err.line, err.column) == ("E0425", "main.rs", 2, 20)
    assert "missing" in err.message and "-->" in err.rendered
    diags = compile("fn main() {\n    let unused = 1;\n}\n")
    warn = next(d for d in diags if d.level == "warning")
    assert (warn.file, warn.line, warn.column) == ("main.rs", 2, 9) and "unused" in warn.message


def _marked(marker: str) -> list[int]:
    out = []
    for proc in Path("/proc").iterdir():
        try:
            if marker.encode() in (proc / "cmdline").read_bytes():
                out.append(int(proc.name))
        except (OSError, ValueError):
            continue
    return out


def test_cancelling_a_build_kills_its_process_group(ws):
    root = ws / "slow"
    root.mkdir()
    marker = f"bw-cancel-{os.getpid()}-{time.monotonic_ns()}"
    # A build that starts a grandchild in the background and waits: both must die.
    (root / "boardwire.toml").write_text(
        f'[firmware]\nchip = "esp32c3"\ncommand = ["sh", "-c", "sh -c \'sleep 300; : {marker}\' & '
        f'sleep 300; : {marker}"]\n')
    token = CancelToken()
    ctx = Context(Session(ws), actor="agent-a", cancel=token)
    outcome = {}
    t = threading.Thread(target=lambda: outcome.setdefault("e", _catch(ctx)))
    t.start()
    deadline = time.monotonic() + 30
    while len(_marked(marker)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(_marked(marker)) >= 2  # the build and its grandchild run
    token.cancel()
    t.join(30)
    assert isinstance(outcome["e"], Cancelled)
    deadline = time.monotonic() + 10
    while _marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _marked(marker) == []


def _catch(ctx):
    try:
        call(ctx, "fw.build", {"dir": "slow"})
    except Exception as e:  # noqa: BLE001
        return e
    return None
