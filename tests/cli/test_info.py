"""`boardwire info`: the README's first command."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.inputs import DEMOS, need


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "boardwire.cli.main", *args],
                          capture_output=True, text=True, timeout=120)


def test_info_on_the_bundled_example():
    r = run("info", "example", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["kind"] == "board" and s["kicad"] == 9
    assert (s["footprints"], s["pads"], s["tracks"], s["vias"], s["zones"], s["nets"]) == (5, 10, 1, 1, 1, 4)
    assert s["copper_layers"] == ["F.Cu", "B.Cu"]


def test_info_table_for_a_schematic():
    r = run("info", str(need(DEMOS / "complex_hierarchy" / "complex_hierarchy.kicad_sch")))
    assert r.returncode == 0, r.stderr
    for word in ("schematic", "symbols", "wires", "sheets"):
        assert word in r.stdout


def test_info_refuses_bad_files_with_a_code(tmp_path):
    bad = tmp_path / "bad.kicad_pcb"
    bad.write_text("(kicad_pcb\n  ; no comments in KiCad\n)\n")
    r = run("info", str(bad))
    assert r.returncode == 22 and "parse-error" in r.stderr and ":2:3" in r.stderr  # the code's status
    r = run("info", str(tmp_path / "missing.kicad_pcb"))
    assert r.returncode == 12 and "no-document" in r.stderr
    other = tmp_path / "notes.txt"
    other.write_text("x")
    r = run("info", str(other))
    assert r.returncode == 23 and "unsupported-format" in r.stderr
