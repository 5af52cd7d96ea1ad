"""The README's shell commands for a design document run as written in a fresh
checkout's folder: `boardwire parts import` of the bundled sample catalogue, then
`boardwire build examples/designs/blinker555.json` (a clean verdict, exit 0). Without
the import the build is refused before it starts (design-errors), saying to import a
catalogue."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from boardwire.errors import EXIT_CODES
from tests.inputs import REPO, SYMBOLS, need

pytestmark = pytest.mark.kicad


def readme_commands() -> list[str]:
    """The `boardwire parts import` and `boardwire build` lines of the README's design
    section, as written (comments dropped)."""
    text = (REPO / "README.md").read_text()
    lines = [ln.split("#", 1)[0].strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)
             for ln in block.splitlines()]
    wanted = [ln for ln in lines if ln.startswith(("boardwire parts import examples/", "boardwire build examples/"))]
    assert [ln.split()[1] for ln in wanted] == ["parts", "build"], wanted
    return wanted


def run(line: str, cwd) -> subprocess.CompletedProcess:
    argv = shlex.split(line)
    assert argv[0] == "boardwire"
    return subprocess.run([sys.executable, "-m", "boardwire.cli.main", *argv[1:]], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})


def test_readme_design_commands_run_on_a_fresh_checkout(tmp_path):
    need(SYMBOLS / "Timer.kicad_sym")
    if shutil.which("kicad-cli") is None:
        need(SYMBOLS.parent / "kicad-cli")
    shutil.copytree(REPO / "examples", tmp_path / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    import_line, build_line = readme_commands()

    first = run(build_line, tmp_path)  # before the import: the check says what to do
    assert first.returncode == EXIT_CODES["design-errors"], first.stderr
    assert "C14663: no parts catalogue in this folder" in first.stderr and "boardwire parts import" in first.stderr
    assert not (tmp_path / "builds").exists()

    imported = run(import_line, tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)["rows"] == 180

    built = run(build_line + " --json", tmp_path)
    assert built.returncode == 0, built.stderr[-2000:]
    verdict = json.loads(built.stdout)["verdict"]
    assert verdict["clean"] and (tmp_path / "builds" / "blinker555" / "v001" / "fab").is_dir()
