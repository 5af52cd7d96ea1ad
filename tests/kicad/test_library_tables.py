"""check.drc and check.erc run KiCad on a snapshot of the project; its project-relative
library tables (``${KIPRJMOD}/...``) must find the same libraries there as in place, so
the library findings equal kicad-cli's on the files where they are.

Input: VoronDesign's V0_Display_RP2040 (../shared/corpus): footprint and symbol tables
of ``${KIPRJMOD}`` rows, one folder name with spaces. Before the snapshot anchored its
tables, check.drc reported 46 lib_footprint_issues where KiCad in place reports none."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter

import pytest

from boardwire.documents.library.tables import anchor_table
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import CORPUS, need

pytestmark = pytest.mark.kicad

PROJECT = "VoronDesign__Voron-Hardware/V0_Display_RP2040/KiCad"
NAME = "V0_Display_RP2040"
LIBRARY = ("lib_", "footprint_link")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    src = need(CORPUS / PROJECT)
    dst = tmp_path_factory.mktemp("voron") / "KiCad"
    shutil.copytree(src, dst)
    for p in [dst, *dst.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)
    return dst


def _in_place(kicad_cli, project, kind: str) -> Counter:
    out = project / f".inplace-{kind}.json"
    args = (["pcb", "drc", "--format", "json", "-o", str(out), f"{NAME}.kicad_pcb"] if kind == "drc"
            else ["sch", "erc", "--format", "json", "-o", str(out), f"{NAME}.kicad_sch"])
    subprocess.run([kicad_cli, *args], cwd=project, capture_output=True, timeout=600)
    report = json.loads(out.read_text())
    out.unlink()
    found = report.get("violations", []) + [v for s in report.get("sheets", []) for v in s["violations"]]
    return Counter(v["type"] for v in found if v["type"].startswith(LIBRARY))


@pytest.mark.parametrize("kind", ["drc", "erc"])
def test_library_findings_equal_kicad_in_place(project, kicad_cli, kind):
    expected = _in_place(kicad_cli, project, kind)
    ext = "kicad_pcb" if kind == "drc" else "kicad_sch"
    got = REGISTRY.call(f"check.{kind}", {"path": f"{NAME}.{ext}"}, Context(Session(project)))
    assert {k: v for k, v in got["by_type"].items() if k.startswith(LIBRARY)} == dict(expected)


def test_only_project_relative_rows_change(tmp_path):
    table = (b'(fp_lib_table\n  (version 7)\n'
             b'  (lib (name "a")(type "KiCad")(uri "${KIPRJMOD}/a b.pretty")(options "")(descr ""))\n'
             b'  (lib (name b)(type KiCad)(uri $KIPRJMOD/../b.pretty)(options "")(descr ""))\n'
             b'  (lib (name "c")(type "KiCad")(uri "${KICAD9_FOOTPRINT_DIR}/c.pretty")(options "")(descr ""))\n'
             b'  (lib (name "d")(type "KiCad")(uri "$(KIPRJMOD)/d.pretty")(options "")(descr ""))\n)\n')
    out = anchor_table(table, tmp_path / "my project").decode()
    folder = str((tmp_path / "my project").resolve())
    assert f'(uri "{folder}/a b.pretty")' in out and f'(uri "{folder}/../b.pretty")' in out
    assert f'(uri "{folder}/d.pretty")' in out and "${KICAD9_FOOTPRINT_DIR}/c.pretty" in out
    assert out.count("\n") == table.count(b"\n") and "KIPRJMOD" not in out
    assert anchor_table(b"(fp_lib_table)\n", tmp_path) == b"(fp_lib_table)\n"
