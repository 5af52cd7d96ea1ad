"""Every `boardwire` verb exits by one rule (cli/common.py, docs/commands.md "Errors"):
0 done, 2 a wrong command line, 3 a check that ran and found errors (its result
printed as on success), the code's own status for an error (printed with its code).
The boards are KiCad's ecc83 demo (0 DRC errors, 17 warnings) and the bundled blinker
(5 errors: unconnected items), judged by kicad-cli."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from boardwire.cli.main import example_board
from boardwire.errors import EXIT_CHECK_ERRORS, EXIT_CODES
from boardwire.registry import REGISTRY
from tests.inputs import DEMOS, REPO, SYMBOLS, need

CLI = [sys.executable, "-m", "boardwire.cli.main"]


def run(cwd, *args) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture
def ws(tmp_path):
    shutil.copy(example_board(), tmp_path / "blinker.kicad_pcb")
    return tmp_path


def design(**changes) -> str:
    d = json.loads((REPO / "examples" / "designs" / "blinker555.json").read_text())
    d["components"] = [c for c in d["components"] if not c.get("part")]  # no catalogue here
    d["nets"] = {n: [p for p in pins if not p.startswith("C3.")] for n, pins in d["nets"].items()}
    return json.dumps({"design": {**d, **changes}})


def test_the_rule_is_declared_once():
    assert EXIT_CHECK_ERRORS == 3 and min(EXIT_CODES.values()) >= 10
    marked = {c.id for c in REGISTRY.all() if c.finds_errors is not None}
    assert {"check.drc", "check.erc", "design.check", "design.build", "design.verdict"} <= marked
    assert f"*exit {EXIT_CHECK_ERRORS} on errors*" in (REPO / "docs" / "commands.md").read_text()


@pytest.mark.kicad
def test_a_check_that_found_errors_exits_3_with_its_result(ws):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), ws / "ecc83.kicad_pcb")
    r = run(ws, "call", "check.drc", '{"path": "blinker.kicad_pcb"}')
    assert r.returncode == EXIT_CHECK_ERRORS, r.stderr
    assert json.loads(r.stdout)["counts"]["errors"] == 5
    r = run(ws, "call", "check.drc", '{"path": "ecc83.kicad_pcb"}')  # warnings only
    assert r.returncode == 0 and json.loads(r.stdout)["counts"] == {**json.loads(r.stdout)["counts"], "errors": 0}
    r = run(ws, "drc", "blinker.kicad_pcb")
    assert r.returncode == EXIT_CHECK_ERRORS and "unconnected" in r.stdout
    r = run(ws, "drc", "ecc83.kicad_pcb", "--json")
    assert r.returncode == 0


def test_design_check_not_ok_exits_3(ws):
    need(SYMBOLS / "Timer.kicad_sym")
    r = run(ws, "call", "design.check", design())
    assert r.returncode == 0 and json.loads(r.stdout)["ok"], r.stdout
    bad = design(constraints={"edge": ["J7"]})
    r = run(ws, "call", "design.check", bad)
    out = json.loads(r.stdout)
    assert r.returncode == EXIT_CHECK_ERRORS and out["ok"] is False and out["errors"][0]["code"] == "unknown-ref"
    r = run(ws, "call", "design.build", bad)  # refused before it starts: an error, with its code
    assert r.returncode == EXIT_CODES["design-errors"] and json.loads(r.stdout)["error"]["code"] == "design-errors"
    assert "constraints.edge[0]" in r.stdout and not (ws / "builds").exists()


def test_errors_exit_with_their_codes_status(ws):
    r = run(ws, "info", "missing.kicad_pcb")
    assert r.returncode == EXIT_CODES["no-document"] and "no-document" in r.stderr
    r = run(ws, "info", "missing.kicad_pcb", "--json")
    assert json.loads(r.stdout)["error"]["code"] == "no-document" and r.returncode == EXIT_CODES["no-document"]
    (ws / "notes.kicad_pcb").write_text("(kicad_pcb (version 20241229)")
    assert run(ws, "info", "notes.kicad_pcb").returncode == EXIT_CODES["parse-error"]
    (ws / "hello.kicad_pcb").write_text("hello, world\n")
    r = run(ws, "call", "query.describe", '{"path": "hello.kicad_pcb"}')
    error = json.loads(r.stdout)["error"]
    # named as the caller named it (not the absolute path), the token as text (not b'...')
    assert error["message"] == "hello.kicad_pcb:1:1: expected '(' but found 'hello,'"
    assert error["data"]["path"] == "hello.kicad_pcb" and r.returncode == EXIT_CODES["parse-error"]
    r = run(ws, "parts", "import", "missing.csv")
    assert r.returncode == EXIT_CODES["not-found"] and json.loads(r.stdout)["error"]["code"] == "not-found"
    (ws / "binary.csv").write_bytes(b"lcsc,\xb0\xff\x00\n")
    r = run(ws, "parts", "import", "binary.csv")  # was a UnicodeDecodeError traceback (status 1)
    assert r.returncode == EXIT_CODES["invalid-args"] and "Traceback" not in r.stderr
    assert run(ws, "call", "pcb.nothing", "{}").returncode == EXIT_CODES["unknown-command"]
    assert run(ws, "call", "query.describe", '{"path": "nope.kicad_pcb"}').returncode == EXIT_CODES["no-document"]
    assert run(ws, "run", "nothere.py").returncode == EXIT_CODES["not-found"]


def test_a_wrong_command_line_exits_2(ws):
    assert run(ws, "call").returncode == 2                      # a missing argument
    assert run(ws, "info", "x", "--colour").returncode == 2     # an unknown option
    r = run(ws, "serve", "--stdio", "--socket", "s")            # options that do not combine
    assert r.returncode == 2 and "not both" in r.stderr
    assert run(ws, "mcp", "--toolset", "nope").returncode == 2  # an option value click refuses
