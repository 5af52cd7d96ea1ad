"""The README's shell command for a design document runs as written in a fresh
checkout's folder: `boardwire build examples/designs/blinker555.json` (a clean verdict,
exit 0), its LCSC parts from the catalogue bundled with boardwire (nothing imported)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from tests.inputs import REPO, SYMBOLS, need

pytestmark = pytest.mark.kicad


def readme_build() -> str:
    """The `boardwire build` line of the README's design section, as written (comments
    dropped)."""
    text = (REPO / "README.md").read_text()
    lines = [ln.split("#", 1)[0].strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)
             for ln in block.splitlines()]
    wanted = [ln for ln in lines if ln.startswith("boardwire build examples/")]
    assert len(wanted) == 1, wanted
    return wanted[0]


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
    built = run(readme_build() + " --json", tmp_path)
    assert built.returncode == 0, built.stderr[-2000:]
    verdict = json.loads(built.stdout)["verdict"]
    assert verdict["clean"] and (tmp_path / "builds" / "blinker555" / "v001" / "fab").is_dir()
    assert not (tmp_path / ".boardwire" / "parts.sqlite").exists()  # the bundled sample, nothing imported
