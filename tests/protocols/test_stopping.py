"""SIGTERM and SIGINT stop a server within seconds even while a command spins
(issue 36: ``boardwire serve`` removed its socket on SIGTERM and ran on until
kill -9), saving nothing, and saying in its log that unsaved edits were discarded."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time

import pytest

from tests.inputs import DEMOS, need

# A JSON-RPC server on stdio whose registry has test.spin: a command that never looks
# at its cancel token (as the router's spatial hash did with a 1e12 mm coordinate).
SERVER = r"""
import sys, time
from boardwire.commands import REGISTRY
from boardwire.commands.common import Args
from boardwire.registry import command
from boardwire.protocols.jsonrpc import run

class Nothing(Args):
    pass

@command("test.spin", kind="session", args=Nothing, registry=REGISTRY)
def spin(ctx, a):
    "Spin for ever."
    open("spinning", "w").close()
    while True:
        time.sleep(0.001)

run(root=".")
"""


@pytest.mark.kicad
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_serve_while_a_command_spins(tmp_path, sig):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / "b.kicad_pcb")
    proc = subprocess.Popen([sys.executable, "-c", SERVER], cwd=tmp_path, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        def send(id_, method, params):
            proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}).encode() + b"\n")
            proc.stdin.flush()

        send(1, "pcb.move", {"path": "b.kicad_pcb", "reference": "R1", "by": [1, 0]})
        reply = {}
        while reply.get("id") != 1:  # document.changed notifications come first
            reply = json.loads(proc.stdout.readline())
        assert reply["result"]["revision"] == 1  # an unsaved edit
        send(2, "test.spin", {})
        deadline = time.monotonic() + 10
        while not (tmp_path / "spinning").exists():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        before = (tmp_path / "b.kicad_pcb").read_bytes()
        t = time.monotonic()
        proc.send_signal(sig)
        rc = proc.wait(10)
        took = time.monotonic() - t
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = proc.stderr.read().decode()
    assert took < 3, err
    assert rc == 128 + sig
    assert "unsaved edits discarded (not saved): b.kicad_pcb" in err
    assert (tmp_path / "b.kicad_pcb").read_bytes() == before  # nothing saved
