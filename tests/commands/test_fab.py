"""fab.*: fabrication outputs of the in-memory board equal kicad-cli's own, file by
file (time stamps aside); fab.package zips them, reports progress and cancels cleanly;
errors have their stable codes."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time
import zipfile
from pathlib import Path

import pytest

from boardwire.documents import board_bom, open_document
from boardwire.errors import (Cancelled, CheckFailed, InvalidArgs, PathOutsideWorkspace,
                              ServiceUnavailable)
from boardwire.kicad import cli as kicad_cli_module
from boardwire.kicad.fab import PlotOptions, board_plot_options
from boardwire.registry import REGISTRY, CancelToken, Context
from boardwire.session import Session
from tests.commands.test_long_commands import kicad_children
from tests.inputs import DEMOS, need

PIC = DEMOS / "pic_programmer"
BOARD = "pic_programmer.kicad_pcb"
# Lines KiCad stamps with the time of the run (Gerber X2 and job file creation dates,
# the G04 comment, the Excellon header); every other line must be equal.
VOLATILE = re.compile(rb"CreationDate|^G04 Created by KiCad|^; DRILL file \{KiCad")


def stable(data: bytes) -> list[bytes]:
    return [line for line in data.splitlines() if not VOLATILE.search(line)]


@pytest.fixture
def workspace(tmp_path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(need(PIC), ws)
    return ws


@pytest.fixture(scope="module")
def oracle(tmp_path_factory) -> Path:
    """kicad-cli run directly on a pristine copy of the demo board and schematic, with
    the options fab.* should use for it (pic_programmer's plot settings ask for Protel
    extensions, which is also kicad-cli's default; everything else is default)."""
    if shutil.which("kicad-cli") is None:
        pytest.skip("kicad-cli is not installed")
    src = tmp_path_factory.mktemp("oracle") / "pic"
    shutil.copytree(need(PIC), src)
    out = src / "out"
    board, sch = str(src / BOARD), str(src / "pic_programmer.kicad_sch")
    runs = [
        ["pcb", "export", "gerbers", "-o", f"{out}/", "-l",
         "F.Cu,B.Cu,F.Paste,B.Paste,F.SilkS,B.SilkS,F.Mask,B.Mask,Edge.Cuts", board],
        ["pcb", "export", "drill", "-o", f"{out}/", "--format", "excellon", "--excellon-units", "mm",
         "--drill-origin", "absolute", "--excellon-separate-th", "--generate-map", "--map-format",
         "gerberx2", board],
        ["pcb", "export", "pos", "-o", str(out / "pic_programmer-all-pos.csv"), "--format", "csv",
         "--units", "mm", "--side", "both", "--exclude-dnp", board],
        ["sch", "export", "bom", "-o", str(out / "pic_programmer-bom.csv"), "--fields",
         "Reference,Value,Footprint,${QUANTITY}", "--labels", "Reference,Value,Footprint,Qty",
         "--group-by", "Value,Footprint", "--exclude-dnp", sch],
    ]
    out.mkdir()
    for args in runs:
        subprocess.run(["kicad-cli", *args], check=True, capture_output=True)
    return out


@pytest.mark.kicad
def test_outputs_equal_kicad_cli_file_by_file(kicad_cli, workspace, oracle):
    ctx = Context(Session(workspace))
    written = []
    for cmd, extra in (("fab.gerbers", {}), ("fab.drill", {"drill_map": True}),
                       ("fab.positions", {}), ("fab.bom", {})):
        r = REGISTRY.call(cmd, {"path": BOARD, **extra}, ctx)
        written += r["files"]
        assert all(f["path"].startswith("fab/") and f["bytes"] > 0 for f in r["files"]), r
    assert r["source"] == "schematic"
    ours = {Path(f["path"]).name for f in written}
    theirs = {p.name for p in oracle.iterdir()}
    assert ours == theirs and len(ours) >= 15
    for name in sorted(ours):
        mine, ref = (workspace / "fab" / name).read_bytes(), (oracle / name).read_bytes()
        assert stable(mine) == stable(ref), name
        assert len(stable(ref)) >= len(ref.splitlines()) - 2, name  # only stamps ignored
        assert {f["bytes"] for f in written if f["path"] == f"fab/{name}"} == {len(mine)}


@pytest.mark.kicad
def test_outputs_are_of_the_board_in_memory(kicad_cli, workspace):
    session = Session(workspace)
    ctx = Context(session)
    on_disk = (workspace / BOARD).read_bytes()
    REGISTRY.call("pcb.move", {"path": BOARD, "reference": "C1", "at": [50, 60]}, ctx)
    r = REGISTRY.call("fab.positions", {"path": BOARD, "side": "front", "output": "cpl"}, ctx)
    assert [f["path"] for f in r["files"]] == ["cpl/pic_programmer-top-pos.csv"]
    rows = (workspace / r["files"][0]["path"]).read_text().splitlines()
    c1 = next(line for line in rows if line.startswith('"C1"'))
    assert ",50.000000,-60.000000," in c1  # KiCad's position files have y up
    assert (workspace / BOARD).read_bytes() == on_disk  # nothing saved
    assert r["revision"] == 1


@pytest.mark.kicad
def test_package_zips_every_output(kicad_cli, workspace):
    seen = []
    ctx = Context(Session(workspace), progress_fn=lambda f, m: seen.append((f, m)))
    r = REGISTRY.call("fab.package", {"path": BOARD, "output": "out/fab"}, ctx)
    assert r["zip"]["path"] == "out/fab/fab.zip" and r["bom_source"] == "schematic"
    with zipfile.ZipFile(workspace / "out" / "fab" / "fab.zip") as z:
        names = set(z.namelist())
        assert z.testzip() is None
    for suffix in (".gtl", ".gbl", ".gts", ".gbs", ".gto", ".gbo", ".gm1",  # copper, mask, silk, edge
                   "-PTH.drl", "-NPTH.drl", "-all-pos.csv", "-bom.csv"):
        assert any(n.endswith(suffix) for n in names), suffix
    listed = {Path(f["path"]).name for f in r["files"]}
    assert listed == names | {"fab.zip"}
    assert set(r["groups"]) == {"gerbers", "drill", "positions", "bom"}
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(seen) >= 6
    assert {"plotting Gerbers", "writing drill files", "writing the BOM", "zipping"} <= {m for _, m in seen}


@pytest.mark.kicad
def test_package_cancelled_mid_way_leaves_nothing(kicad_cli, workspace):
    token = CancelToken()
    stages = []
    ctx = Context(Session(workspace), cancel=token, progress_fn=lambda f, m: stages.append(m))
    outcome = {}

    def run():
        try:
            REGISTRY.call("fab.package", {"path": BOARD}, ctx)
            outcome["result"] = "finished"
        except Cancelled as e:
            outcome["result"] = e.code

    t = threading.Thread(target=run)
    t.start()
    deadline = time.time() + 60
    while not ("writing drill files" in stages and kicad_children()) and time.time() < deadline:
        time.sleep(0.01)  # past the Gerbers: kicad-cli is writing drill files
    assert kicad_children() > 0, f"kicad-cli never started the drill stage: {stages}"
    token.cancel()
    t.join(30)
    assert outcome["result"] == "cancelled"
    time.sleep(0.2)
    assert kicad_children() == 0
    assert not (workspace / "fab").exists()  # no zip, no partial output
    assert not list(workspace.rglob("*.boardwire-tmp"))


def test_board_bom_groups_and_shorthand():
    assert board_bom.shorthand(["R3", "R1", "R2", "R5", "R10", "R11", "C1"]) == "C1,R1-R3,R5,R10,R11"
    assert board_bom.shorthand(["X", "J1"]) == "J1,X"
    csv = board_bom.to_csv([{"references": "R1", "value": 'say "hi"\t', "footprint": "L:F", "qty": 1}])
    assert csv == b'"Reference","Value","Footprint","Qty"\n"R1","say ""hi""","L:F","1"\n'


def test_bom_from_the_board_without_a_schematic_or_kicad(tmp_path, monkeypatch):
    """No schematic beside the board: the BOM comes from the footprints, no KiCad needed."""
    monkeypatch.setattr(kicad_cli_module, "_candidates", lambda: [str(tmp_path / "no-kicad-cli")])
    kicad_cli_module._probe.cache_clear()
    try:
        shutil.copy(need(PIC / BOARD), tmp_path)
        r = REGISTRY.call("fab.bom", {"path": BOARD}, Context(Session(tmp_path)))
        assert r["source"] == "board" and "from the board" in r["summary"]
        lines = (tmp_path / "fab" / "pic_programmer-bom.csv").read_text().splitlines()
        assert lines[0] == '"Reference","Value","Footprint","Qty"'
        assert '"R1-R7","10K","footprints:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal","7"' in lines
        with pytest.raises(ServiceUnavailable):
            REGISTRY.call("fab.gerbers", {"path": BOARD}, Context(Session(tmp_path)))
    finally:
        kicad_cli_module._probe.cache_clear()


@pytest.mark.kicad
def test_board_bom_matches_kicads_schematic_bom(kicad_cli, workspace):
    """pic_programmer's footprints point at its project library ("footprints:"), its
    symbols at KiCad's libraries; the rest of every row is the same."""
    ctx = Context(Session(workspace))
    sch = REGISTRY.call("fab.bom", {"path": BOARD, "output": "s"}, ctx)
    brd = REGISTRY.call("fab.bom", {"path": BOARD, "output": "b", "source": "board"}, ctx)
    assert (sch["source"], brd["source"]) == ("schematic", "board")

    def rows(folder):
        text = (workspace / folder / "pic_programmer-bom.csv").read_text()
        return [re.sub(r'"[^",:]+:', '"', line) for line in text.splitlines()]

    assert rows("s") == rows("b") and len(rows("s")) > 30


def test_board_plot_settings_are_read():
    board = open_document(need(PIC / BOARD))
    opts = board_plot_options(board)
    assert opts == {"protel_extensions": True, "subtract_mask_from_silk": False, "x2": True,
                    "netlist": True, "aperture_macros": True, "use_drill_origin": False}
    assert PlotOptions(protel_extensions=False, subtract_mask_from_silk=True).gerber_flags() == [
        "--no-protel-ext", "--subtract-soldermask"]


def _fake_kicad(tmp_path) -> str:
    fake = tmp_path / "kicad-cli"
    fake.write_text("#!/bin/sh\nif [ \"$1\" = version ]; then echo 9.0.8; exit 0; fi\n"
                    "echo 'Failed to load board' >&2\nexit 3\n")
    fake.chmod(0o755)
    return str(fake)


def test_errors_have_stable_codes(tmp_path, monkeypatch):
    shutil.copy(need(PIC / BOARD), tmp_path)
    fake = _fake_kicad(tmp_path)
    monkeypatch.setattr(kicad_cli_module, "_candidates", lambda: [fake])
    kicad_cli_module._probe.cache_clear()
    ctx = Context(Session(tmp_path))
    try:
        with pytest.raises(CheckFailed) as e:
            REGISTRY.call("fab.gerbers", {"path": BOARD}, ctx)
        assert e.value.code == "check-failed" and "Failed to load board" in e.value.message
        assert not (tmp_path / "fab").exists()
        with pytest.raises(InvalidArgs) as e:
            REGISTRY.call("fab.gerbers", {"path": BOARD, "layers": ["F.Cu", "In7.Cu"]}, ctx)
        assert e.value.data["errors"][0]["loc"] == "layers"
        (tmp_path / "afile").write_text("x")
        with pytest.raises(InvalidArgs):
            REGISTRY.call("fab.drill", {"path": BOARD, "output": "afile"}, ctx)
        with pytest.raises(PathOutsideWorkspace):
            REGISTRY.call("fab.package", {"path": BOARD, "output": "../elsewhere"}, ctx)
    finally:
        kicad_cli_module._probe.cache_clear()
