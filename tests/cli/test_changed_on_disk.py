"""A file another program writes while a `boardwire call` or `boardwire run` is working
on it is not overwritten (file-changed, status 24), and the hint says what to do from
a shell (run it again), not the session's "reload, or save with force"."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from typer.testing import CliRunner

from boardwire.cli.main import app, example_board
from boardwire.errors import EXIT_CODES
from boardwire.session import Session


def test_a_call_whose_file_changed_meanwhile(tmp_path, monkeypatch):
    board = tmp_path / "b.kicad_pcb"
    shutil.copy(example_board(), board)
    real = Session.save_modified
    theirs = board.read_bytes().replace(b'(generator_version "9.0")', b'(generator_version "9.0") ')

    def someone_saves_first(self, *a, **k):  # KiCad saves the board while the call runs
        board.write_bytes(theirs)
        return real(self, *a, **k)

    monkeypatch.setattr(Session, "save_modified", someone_saves_first)
    r = CliRunner().invoke(app, ["call", "pcb.addVia", '{"path": "b.kicad_pcb", "at": [1, 1]}', "--root", str(tmp_path)])
    assert r.exit_code == EXIT_CODES["file-changed"]
    error = json.loads(r.stdout[: r.stdout.rindex("}") + 1])["error"]
    assert error["code"] == "file-changed" and "Run the call again" in error["hint"] and "force" not in error["hint"]
    assert board.read_bytes() == theirs  # their version stays, without our via


def test_a_script_whose_file_changed_meanwhile(tmp_path):
    board = tmp_path / "b.kicad_pcb"
    shutil.copy(example_board(), board)
    (tmp_path / "edit.py").write_text(
        "from pathlib import Path\nfrom boardwire.api import board\n"
        "board.via(at=(1, 1))\n"
        "p = Path('b.kicad_pcb'); p.write_text(p.read_text() + '\\n')  # another program saves it\n")
    before = board.read_bytes()
    r = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "run", "edit.py", "--board", "b.kicad_pcb", "--json"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == EXIT_CODES["file-changed"], r.stderr
    error = json.loads(r.stdout)["error"]
    assert error["code"] == "file-changed" and "Run the script again" in error["hint"] and "save(force=True)" in error["hint"]
    assert board.read_bytes() == before + b"\n"
