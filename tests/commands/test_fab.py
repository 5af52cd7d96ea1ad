"""fab.*: fabrication outputs of the in-memory board equal kicad-cli's own, file by
file (time stamps aside); fab.package runs KiCad's DRC first and refuses a board with
errors unless forced, zips the outputs, reports progress and cancels cleanly; its
jlcpcb preset gives JLCPCB's names and columns over the same rows; errors have their
stable codes."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import threading
import time
import zipfile
from pathlib import Path

import pytest

from boardwire.documents import open_document
from boardwire.documents.board import bom as board_bom
from boardwire.errors import (
    Cancelled,
    CheckFailed,
    DrcErrors,
    InvalidArgs,
    PathOutsideWorkspace,
    ReadOnlyFile,
    ServiceUnavailable,
)
from boardwire.kicad import cli as kicad_cli_module
from boardwire.kicad import jlcpcb
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
def oracle(tmp_path_factory, kicad_cli) -> Path:
    """kicad-cli run directly on a pristine copy of the demo board and schematic, with
    the options fab.* should use for it (pic_programmer's plot settings ask for Protel
    extensions, which is also kicad-cli's default; everything else is default)."""
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
        subprocess.run([kicad_cli, *args], check=True, capture_output=True)
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
def test_created_makes_outputs_repeat_byte_for_byte(kicad_cli, workspace):
    """With ``created`` every date kicad-cli writes is that time: two runs a second or
    more apart give the same bytes, zip included; without it the stamps are the run's."""
    ctx = Context(Session(workspace))
    runs = []
    for out in ("a", "b"):
        r = REGISTRY.call("fab.package", {"path": BOARD, "output": out, "created": "2024-05-06T07:08:09+00:00"}, ctx)
        runs.append({Path(f["path"]).name: (workspace / f["path"]).read_bytes() for f in r["files"]})
        time.sleep(1.1)
    assert runs[0] == runs[1] and "fab.zip" in runs[0]
    stamped = [line for data in runs[0].values() for line in data.splitlines() if VOLATILE.search(line)]
    assert len(stamped) >= 20 and all(b"2024-05-06" in line for line in stamped), stamped[:3]
    with zipfile.ZipFile(workspace / "a" / "fab.zip") as z:
        assert {i.date_time for i in z.infolist()} == {(2024, 5, 6, 7, 8, 8)}  # zip keeps even seconds
    plain = REGISTRY.call("fab.drill", {"path": BOARD, "output": "c"}, ctx)["files"][0]["path"]
    assert b"2024-05-06" not in (workspace / plain).read_bytes()
    with pytest.raises(InvalidArgs):
        REGISTRY.call("fab.drill", {"path": BOARD, "created": "1970-01-01T00:00:00"}, ctx)


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
    assert r["preset"] == "generic" and r["drc"]["errors"] == 0 and r["drc"]["warnings"] > 0
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
    messages = [m for _, m in seen]
    assert {"plotting Gerbers", "writing drill files", "writing the BOM", "zipping"} <= set(messages)
    assert messages.index("running KiCad DRC") < messages.index("plotting Gerbers")


@pytest.mark.kicad
@pytest.mark.parametrize("stage", ["running KiCad DRC", "writing drill files"])
def test_package_cancelled_mid_way_leaves_nothing(kicad_cli, workspace, stage):
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
    while not (stage in stages and kicad_children()) and time.time() < deadline:
        time.sleep(0.01)  # kicad-cli is running the DRC, or (past the Gerbers) the drill files
    assert kicad_children() > 0 and stages[-1] == stage, f"kicad-cli never started {stage!r}: {stages}"
    token.cancel()
    t.join(30)
    assert outcome["result"] == "cancelled"
    time.sleep(0.2)
    assert kicad_children() == 0
    assert not (workspace / "fab").exists()  # no zip, no partial output
    assert not list(workspace.rglob("*.boardwire-tmp"))


def kicad_drc_errors(kicad_cli: str, board: Path, tmp_path: Path) -> int:
    """Errors (unconnected items included) kicad-cli's DRC finds in a board file."""
    out = tmp_path / "oracle-drc.json"
    subprocess.run([kicad_cli, "pcb", "drc", "--format", "json", "-o", str(out), str(board)],
                   check=True, capture_output=True)
    report = json.loads(out.read_text())
    return sum(v["severity"] == "error" for v in report["violations"] + report["unconnected_items"])


@pytest.mark.kicad
def test_package_refuses_a_board_with_drc_errors_unless_forced(kicad_cli, tmp_path):
    """custom_pads_test has clearance errors: refused with drc-errors, the counts and the
    first violations, nothing written; with force the package is written and says so."""
    ws = tmp_path / "ws"
    shutil.copytree(need(DEMOS / "custom_pads_test"), ws)
    board = "custom_pads_test.kicad_pcb"
    expected = kicad_drc_errors(kicad_cli, DEMOS / "custom_pads_test" / board, tmp_path)
    assert expected > 0
    before = sorted(p.relative_to(ws) for p in ws.rglob("*"))
    seen = []
    ctx = Context(Session(ws), progress_fn=lambda f, m: seen.append(m))
    with pytest.raises(DrcErrors) as e:
        REGISTRY.call("fab.package", {"path": board}, ctx)
    err = e.value.to_dict()
    assert err["code"] == "drc-errors" and "force" in err["hint"]
    assert err["data"]["counts"]["errors"] == expected and f"{expected} errors" in err["message"]
    assert err["data"]["violations"][0]["type"] in err["message"]
    assert 0 < len(err["data"]["violations"]) <= 5
    assert seen == ["running KiCad DRC"]  # refused before any output stage
    assert sorted(p.relative_to(ws) for p in ws.rglob("*")) == before  # nothing written

    r = REGISTRY.call("fab.package", {"path": board, "force": True}, ctx)
    assert r["drc"]["errors"] == expected and "(forced)" in r["summary"]
    assert (ws / "fab" / "fab.zip").stat().st_size == r["zip"]["bytes"] > 0
    assert all((ws / f["path"]).stat().st_size == f["bytes"] for f in r["files"])


@pytest.mark.kicad
def test_package_gate_checks_the_board_in_memory(kicad_cli, workspace):
    """pic_programmer passes KiCad's DRC on disk; moved in memory, C1 leaves unconnected
    items (errors), and the gate sees them."""
    ctx = Context(Session(workspace))
    REGISTRY.call("pcb.move", {"path": BOARD, "reference": "C1", "at": [50, 60]}, ctx)
    with pytest.raises(DrcErrors) as e:
        REGISTRY.call("fab.package", {"path": BOARD}, ctx)
    counts = e.value.data["counts"]
    assert counts["unconnected"] > 0 and counts["errors"] >= counts["unconnected"]
    assert "unconnected_items" in {v["type"] for v in e.value.data["violations"]}
    assert not (workspace / "fab").exists()


CPLX = DEMOS / "complex_hierarchy"
PROTEL = {".gtl", ".gbl", ".gtp", ".gbp", ".gto", ".gbo", ".gts", ".gbs", ".gm1"}


def read_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def read_csv(path: Path) -> list[list[str]]:
    return read_rows(path.read_text(encoding="utf-8"))


def expand(refs: str) -> list[str]:
    """KiCad's reference ranges undone (R1-R3 -> R1, R2, R3), independently of jlcpcb."""
    out = []
    for part in refs.split(","):
        m = re.fullmatch(r"([A-Z]+)(\d+)-\1(\d+)", part)
        out += [f"{m[1]}{n}" for n in range(int(m[2]), int(m[3]) + 1)] if m else [part]
    return out


@pytest.mark.kicad
def test_jlcpcb_preset(kicad_cli, tmp_path):
    """complex_hierarchy's plot settings say no Protel extensions and the aux origin: the
    jlcpcb preset plots with Protel extensions and the absolute origin; its CPL has the
    rows of kicad-cli's position file, its BOM JLC's header over the same designators and
    groups as the generic BOM, with part numbers from symbol fields set in memory."""
    ws = tmp_path / "ws"
    shutil.copytree(need(CPLX), ws)
    board = "complex_hierarchy.kicad_pcb"
    settings = board_plot_options(open_document(ws / board))
    assert settings["protel_extensions"] is False and settings["use_drill_origin"] is True
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    for args in (["pcb", "export", "pos", "-o", str(oracle / "pos.csv"), "--format", "csv", "--units", "mm",
                  "--side", "both", "--exclude-dnp", str(CPLX / board)],
                 ["sch", "export", "bom", "-o", str(oracle / "bom.csv"), "--fields",
                  "Reference,Value,Footprint,${QUANTITY}", "--labels", "Reference,Value,Footprint,Qty",
                  "--group-by", "Value,Footprint", "--exclude-dnp", str(CPLX / "complex_hierarchy.kicad_sch")]):
        subprocess.run([kicad_cli, *args], check=True, capture_output=True)

    ctx = Context(Session(ws))
    sch = "complex_hierarchy.kicad_sch"
    sch_bytes = {p.name: p.read_bytes() for p in ws.glob("*.kicad_sch")}
    REGISTRY.call("sch.setField", {"path": sch, "reference": "C101", "field": "LCSC", "value": "C12345"}, ctx)
    REGISTRY.call("sch.setField", {"path": sch, "reference": "R201", "field": "JLCPCB Part #", "value": "C99999"}, ctx)
    r = REGISTRY.call("fab.package", {"path": board, "preset": "jlcpcb"}, ctx)
    assert r["preset"] == "jlcpcb" and r["drc"]["errors"] == 0 and r["bom_source"] == "schematic"
    assert r["options"]["protel_extensions"] is True and r["options"]["use_drill_origin"] is False
    assert {p.name: p.read_bytes() for p in ws.glob("*.kicad_sch")} == sch_bytes  # nothing saved

    gerbers = [Path(p) for p in r["groups"]["gerbers"] if not p.endswith(".gbrjob")]
    assert {p.suffix for p in gerbers} == PROTEL  # copper, paste, silk, mask, edge; no .gbr
    drills = [Path(p).name for p in r["groups"]["drill"]]
    assert sorted(drills) == ["complex_hierarchy-NPTH.drl", "complex_hierarchy-PTH.drl"]
    with zipfile.ZipFile(ws / r["zip"]["path"]) as z:  # JLC's Gerber upload: no BOM or CPL
        assert set(z.namelist()) == {Path(p).name for p in r["groups"]["gerbers"]} | set(drills)

    [cpl_path] = r["groups"]["positions"]
    cpl = read_csv(ws / cpl_path)
    pos = read_csv(oracle / "pos.csv")
    assert cpl[0] == ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]
    assert pos[0] == ["Ref", "Val", "Package", "PosX", "PosY", "Rot", "Side"]
    assert cpl[1:] == [[ref, x, y, side.capitalize(), rot] for ref, _, _, x, y, rot, side in pos[1:]]
    assert len(cpl) > 50

    [bom_path] = r["groups"]["bom"]
    bom = read_csv(ws / bom_path)
    generic = read_csv(oracle / "bom.csv")
    assert bom[0] == ["Comment", "Designator", "Footprint", "LCSC Part #"]
    designators = [d for row in bom[1:] for d in row[1].split(",")]
    assert sorted(designators) == sorted(d for row in generic[1:] for d in expand(row[0]))
    assert len(designators) == len(set(designators)) > 50

    def groups(rows, refs):
        out: dict = {}
        for row in rows:
            out.setdefault((row[1], row[2].split(":")[-1]), set()).update(refs(row))
        return out

    # the generic groups by value and footprint; JLC's splits them by part number only
    assert groups([[row[1], row[0], row[2]] for row in bom[1:]], lambda row: row[0].split(",")) == \
        groups(generic[1:], lambda row: expand(row[0]))
    parts = {row[1]: row[3] for row in bom[1:] if row[3]}
    assert parts == {"C101": "C12345", "R201,R301": "C99999"}  # R201's sheet is placed twice


def test_jlcpcb_rewrites_kicad_csv():
    """The pure rewrite: kicad-cli's BOM (ranges, a quoted comma, part fields under two
    names) and position file to JLC's columns."""
    kicad_bom = ('"Reference","Value","Footprint","Qty","LCSC","JLCPCB Part #"\n'
                 '"C1,C3","100n","Capacitor_SMD:C_0603_1608Metric","2","C14663",""\n'
                 '"R1-R3,R7","5,1K","Resistor_SMD:R_0603_1608Metric","4","","C23186"\n'
                 '"J1","Conn","Conn_01x02","1","",""\n')
    assert jlcpcb.bom(kicad_bom) == (
        '"Comment","Designator","Footprint","LCSC Part #"\n'
        '"100n","C1,C3","C_0603_1608Metric","C14663"\n'
        '"5,1K","R1,R2,R3,R7","R_0603_1608Metric","C23186"\n'
        '"Conn","J1","Conn_01x02",""\n')
    kicad_pos = ('Ref,Val,Package,PosX,PosY,Rot,Side\n'
                 '"C1","100n","C_0603_1608Metric",110.490000,-78.867000,-90.000000,top\n'
                 '"U1","MCU","QFN-32",84.582000,-90.170000,180.000000,bottom\n')
    assert jlcpcb.cpl(kicad_pos) == (
        '"Designator","Mid X","Mid Y","Layer","Rotation"\n'
        '"C1","110.490000","-78.867000","Top","-90.000000"\n'
        '"U1","84.582000","-90.170000","Bottom","180.000000"\n')
    assert [jlcpcb.is_part_field(n) for n in ("LCSC", "LCSC Part #", "lcsc#", "JLCPCB Part #",
                                              "LCSC Part", "JLCPCB Rotation Offset", "MPN")] == \
        [True, True, True, True, True, False, False]
    assert jlcpcb.expand_refs("C1,R10-R12,U2-U1") == ["C1", "R10", "R11", "R12", "U2-U1"]


def test_jlcpcb_bom_from_the_board(tmp_path):
    """Without a schematic the JLC BOM comes from the footprints: the same designators as
    the generic board BOM, one by one, and a part number from a footprint field."""
    shutil.copy(need(PIC / BOARD), tmp_path)
    session = Session(tmp_path)
    ctx = Context(session)
    REGISTRY.call("pcb.setField", {"path": BOARD, "reference": "R3", "field": "LCSC Part", "value": "C25804"}, ctx)
    board = session.documents[BOARD].doc
    parts = tuple(n for n in board_bom.field_names(board) if jlcpcb.is_part_field(n))
    assert parts == ("LCSC Part",)
    jlc = read_rows(jlcpcb.bom(board_bom.to_csv(board_bom.rows(board, True, parts, ranges=False), parts).decode()))
    generic = read_rows(board_bom.to_csv(board_bom.rows(board)).decode())
    assert sorted(d for r in jlc[1:] for d in r[1].split(",")) == sorted(d for r in generic[1:] for d in expand(r[0]))
    assert [r for r in jlc[1:] if r[3]] == [["10K", "R3", "R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", "C25804"]]
    assert ["10K", "R1,R2,R4,R5,R6,R7", "R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal", ""] in jlc


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


@pytest.mark.kicad
def test_bom_lists_symbols_on_sheets_in_a_subfolder(kicad_cli, tmp_path):
    """A root with C1 and a sheet sub/child.kicad_sch with R1, built by commands and
    saved: kicad-cli's BOM of the saved files lists both, and fab.bom of the design in
    memory must give the same file, from the schematic or from its board."""
    s = Session(tmp_path)

    def call(cid: str, **args) -> dict:
        return REGISTRY.call(cid, args, Context(s))

    call("project.new", name="t", folder=".")
    call("sch.placeSymbol", path="t.kicad_sch", symbol="Device:C", at=[50.8, 50.8], value="100n",
         reference="C1")
    call("sch.addSheet", path="t.kicad_sch", name="child", file="sub/child.kicad_sch", at=[101.6, 50.8],
         size=[25.4, 20.32])
    call("sch.placeSymbol", path="sub/child.kicad_sch", symbol="Device:R", at=[50.8, 50.8], value="10k",
         reference="R1")
    s.save_modified()
    oracle = tmp_path / "oracle.csv"
    subprocess.run([kicad_cli, "sch", "export", "bom", "-o", str(oracle), "--fields",
                    "Reference,Value,Footprint,${QUANTITY}", "--labels", "Reference,Value,Footprint,Qty",
                    "--group-by", "Value,Footprint", "--exclude-dnp", str(tmp_path / "t.kicad_sch")],
                   check=True, capture_output=True)
    expected = read_csv(oracle)
    assert sorted(row[0] for row in expected[1:]) == ["C1", "R1"]
    for path, output in (("t.kicad_sch", "s"), ("t.kicad_pcb", "b")):
        r = call("fab.bom", path=path, output=output)
        assert r["source"] == "schematic"
        assert read_csv(tmp_path / output / "t-bom.csv") == expected, path


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
        with pytest.raises(InvalidArgs) as e:  # a folder above the output is a file
            REGISTRY.call("fab.drill", {"path": BOARD, "output": "afile/sub"}, ctx)
        assert "afile is a file" in e.value.message
        with pytest.raises(PathOutsideWorkspace):
            REGISTRY.call("fab.package", {"path": BOARD, "output": "../elsewhere"}, ctx)
    finally:
        kicad_cli_module._probe.cache_clear()


@pytest.mark.kicad
def test_an_output_name_taken_by_a_folder_or_a_read_only_file_is_refused_before_any_write(kicad_cli, workspace):
    ctx = Context(Session(workspace))
    out = workspace / "fab"
    first = REGISTRY.call("fab.drill", {"path": BOARD}, ctx)["files"]
    names = [Path(f["path"]).name for f in first]
    before = {n: (out / n).read_bytes() for n in names}
    (out / names[1]).unlink()
    (out / names[1]).mkdir()                 # a folder where a drill file goes
    with pytest.raises(InvalidArgs) as e:
        REGISTRY.call("fab.drill", {"path": BOARD}, ctx)
    assert names[1] in e.value.message and (out / names[0]).read_bytes() == before[names[0]]
    (out / names[1]).rmdir()
    (out / names[0]).chmod(0o444)
    try:
        with pytest.raises(ReadOnlyFile):
            REGISTRY.call("fab.drill", {"path": BOARD}, ctx)
        assert not (out / names[1]).exists() and oct((out / names[0]).stat().st_mode & 0o777) == "0o444"
    finally:
        (out / names[0]).chmod(0o644)
