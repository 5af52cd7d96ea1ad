"""project.new: a KiCad 9 (or 10) project as KiCad writes one, loaded by kicad-cli, reopened
and saved byte-identical by boardwire, built out of sight and never overwriting."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from boardwire.commands.project import new as project_cmd
from boardwire.documents import open_document
from boardwire.documents.project import new as new_project
from boardwire.errors import InvalidArgs, PathOutsideWorkspace
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, KICAD_SHARE

FILES = ("{n}.kicad_pro", "{n}.kicad_sch", "{n}.kicad_pcb", "sym-lib-table", "fp-lib-table")


def new(tmp_path, **args) -> dict:
    return REGISTRY.call("project.new", args, Context(Session(tmp_path)))


def snapshot_tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("template", ["blank", "2layer-starter"])
def test_files_are_written_and_reopen_byte_identical(tmp_path, template):
    r = new(tmp_path, name="blinky", template=template)
    folder = tmp_path / "blinky"
    assert sorted(p.name for p in folder.iterdir()) == sorted(f.format(n="blinky") for f in FILES)
    assert r["board"] == "blinky/blinky.kicad_pcb" and r["project"] == "blinky/blinky.kicad_pro"
    assert {f["path"]: f["bytes"] for f in r["files"]} == {
        f"blinky/{p.name}": p.stat().st_size for p in folder.iterdir()}
    for p in folder.iterdir():
        data = p.read_bytes()
        doc = open_document(p)
        assert doc.to_bytes() == data, p.name
        doc.save(tmp_path / ("copy-" + p.name))
        assert (tmp_path / ("copy-" + p.name)).read_bytes() == data, p.name
    session = Session(tmp_path)
    desc = REGISTRY.call("query.describe", {"path": "blinky/blinky.kicad_pcb"}, Context(session))
    assert desc["summary"]


def test_formats_are_kicad_9s():
    """The versions KiCad 9.0 writes (as in the installed demos) and KiCad's own
    template project file."""
    files = new_project.project_files("x", "2layer-starter")
    sch, pcb = files["x.kicad_sch"].decode(), files["x.kicad_pcb"].decode()
    demo_sch = [p.read_text(errors="replace")[:200] for p in DEMOS.glob("*/*.kicad_sch")]
    demo_pcb = [p.read_text(errors="replace")[:200] for p in DEMOS.glob("*/*.kicad_pcb")]
    if demo_sch and demo_pcb:
        assert f"(version {new_project.SCHEMATIC_VERSION})" in max(
            set(re.findall(r"\(version \d+\)", "".join(demo_sch))), key="".join(demo_sch).count)
        assert f"(version {new_project.BOARD_VERSION})" in max(
            set(re.findall(r"\(version \d+\)", "".join(demo_pcb))), key="".join(demo_pcb).count)
    assert sch.startswith('(kicad_sch\n\t(version 20250114)\n\t(generator "eeschema")\n\t(generator_version "9.0")\n')
    assert pcb.startswith('(kicad_pcb\n\t(version 20241229)\n\t(generator "pcbnew")\n\t(generator_version "9.0")\n')
    assert files["fp-lib-table"] == b"(fp_lib_table\n  (version 7)\n)\n"
    assert files["sym-lib-table"] == b"(sym_lib_table\n  (version 7)\n)\n"
    installed = KICAD_SHARE / "template" / "kicad.kicad_pro"
    if installed.is_file():  # the bundled copy is KiCad's template, byte for byte
        assert new_project.bundled_template_project() == installed.read_bytes()
        assert new_project.project_files("x", "blank")["x.kicad_pro"] == installed.read_bytes()


@pytest.mark.parametrize("template", ["blank", "2layer-starter"])
def test_kicad_10_project(tmp_path, template):
    """kicad_version 10: KiCad 10's formats (a real pcbnew 10 header, no net table),
    editable by boardwire in those formats; the default stays KiCad 9."""
    assert new(tmp_path, name="a")["kicad_version"] == 9
    r = new(tmp_path, name="k10", template=template, kicad_version=10)
    assert r["kicad_version"] == 10 and "KiCad 10" in r["summary"]
    pcb = (tmp_path / "k10/k10.kicad_pcb").read_bytes()
    sch = (tmp_path / "k10/k10.kicad_sch").read_bytes()
    assert pcb.startswith(b'(kicad_pcb\n\t(version 20260206)\n\t(generator "pcbnew")\n\t(generator_version "10.0")\n')
    assert sch.startswith(b'(kicad_sch\n\t(version 20260306)\n\t(generator "eeschema")\n\t(generator_version "10.0")\n')
    assert b"\n\t(net " not in pcb and b"(covering" in pcb
    board = open_document(tmp_path / "k10/k10.kicad_pcb")
    assert board.named_nets and board.to_bytes() == pcb
    assert (board.outline_bbox() is not None) == (template == "2layer-starter")
    board.add_track((110_000_000, 100_000_000), (120_000_000, 100_000_000), 200_000, "F.Cu", board.ensure_net("GND"))
    assert b'(net "GND")' in board.to_bytes() and b"(net 1" not in board.to_bytes()
    with pytest.raises(InvalidArgs):
        new(tmp_path, name="bad", kicad_version=8)


def test_starter_rules_and_outline(tmp_path):
    new(tmp_path, name="s", template="2layer-starter", folder="boards/s")
    pro = json.loads((tmp_path / "boards/s/s.kicad_pro").read_text())
    rules = pro["board"]["design_settings"]["rules"]
    assert (rules["min_clearance"], rules["min_track_width"], rules["min_via_diameter"],
            rules["min_through_hole_diameter"], rules["min_copper_edge_clearance"]) == (0.2, 0.2, 0.6, 0.3, 0.3)
    default = pro["net_settings"]["classes"][0]
    assert (default["name"], default["clearance"], default["track_width"], default["via_diameter"],
            default["via_drill"]) == ("Default", 0.2, 0.2, 0.6, 0.3)
    assert pro["meta"]["filename"] == "s.kicad_pro"
    board = open_document(tmp_path / "boards/s/s.kicad_pcb")
    edges = [g for g in board.graphics if g.layer == "Edge.Cuts"]
    assert len(edges) == 1 and edges[0].kind == "gr_rect"
    assert board.root.kids[-1].head == "embedded_fonts"  # KiCad's order: items, then fonts


@pytest.mark.kicad
@pytest.mark.parametrize("template", ["blank", "2layer-starter"])
def test_kicad_cli_loads_the_project(kicad_cli, tmp_path, template):
    new(tmp_path, name="p", template=template, folder=".")
    drc = subprocess.run([kicad_cli, "pcb", "drc", "--format", "json", "-o", str(tmp_path / "drc.json"),
                          str(tmp_path / "p.kicad_pcb")], capture_output=True, text=True)
    erc = subprocess.run([kicad_cli, "sch", "erc", "--format", "json", "-o", str(tmp_path / "erc.json"),
                          str(tmp_path / "p.kicad_sch")], capture_output=True, text=True)
    assert drc.returncode == 0 and erc.returncode == 0, drc.stderr + erc.stderr
    report = json.loads((tmp_path / "drc.json").read_text())
    types = [v["type"] for v in report["violations"]]
    # a blank board has no outline yet; the starter's board is clean
    assert types == (["invalid_outline"] if template == "blank" else [])
    erc_report = json.loads((tmp_path / "erc.json").read_text())
    assert [s["path"] for s in erc_report["sheets"]] == ["/"]
    assert not any(s["violations"] for s in erc_report["sheets"])


PCBNEW_NEW = """
import sys, pcbnew
mm = pcbnew.FromMM
b = pcbnew.NewBoard(sys.argv[1])
if sys.argv[2] == "starter":  # Board Setup > Constraints, as a person would set them
    ds = b.GetDesignSettings()
    ds.m_MinClearance, ds.m_TrackMinWidth, ds.m_ViasMinSize = mm(0.2), mm(0.2), mm(0.6)
    ds.m_MinThroughDrill, ds.m_ViasMinAnnularWidth, ds.m_CopperEdgeClearance = mm(0.3), mm(0.15), mm(0.3)
pcbnew.SaveBoard(sys.argv[1], b)
"""

PCBNEW_LOAD = """
import json, sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
ds = b.GetDesignSettings()
nc = ds.m_NetSettings.GetDefaultNetclass()
mm = pcbnew.ToMM
print(json.dumps({"rules": [mm(v) for v in (ds.m_MinClearance, ds.m_TrackMinWidth, ds.m_ViasMinSize,
                                            ds.m_MinThroughDrill, ds.m_ViasMinAnnularWidth,
                                            ds.m_CopperEdgeClearance)],
                  "netclass": [mm(nc.GetClearance()), mm(nc.GetTrackWidth()),
                               mm(nc.GetViaDiameter()), mm(nc.GetViaDrill())],
                  "edges": [d.GetShapeStr() for d in b.GetDrawings() if d.GetLayerName() == "Edge.Cuts"]}))
pcbnew.SaveBoard(sys.argv[1], b)
"""


@pytest.mark.kicad
@pytest.mark.parametrize("template", ["blank", "2layer-starter"])
def test_files_are_as_pcbnew_writes_them(pcbnew_python, tmp_path, template):
    """pcbnew 9 itself, making a new board (and for the starter setting the same rules),
    writes the same board and project files; loading ours, it finds the rules and the
    outline and saves the board back byte-identical."""
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    subprocess.run([pcbnew_python, "-c", PCBNEW_NEW, str(oracle / "p.kicad_pcb"),
                    "starter" if template != "blank" else "blank"], check=True, capture_output=True)
    assert new_project.board_file("blank") == (oracle / "p.kicad_pcb").read_bytes()
    if template != "blank":
        assert new_project.project_file("p", template) == (oracle / "p.kicad_pro").read_bytes()
    new(tmp_path, name="p", template=template, folder="ours")
    ours = tmp_path / "ours" / "p.kicad_pcb"
    before = ours.read_bytes()
    r = subprocess.run([pcbnew_python, "-c", PCBNEW_LOAD, str(ours)], check=True,
                       capture_output=True, text=True)
    seen = json.loads(r.stdout.strip().splitlines()[-1])
    assert ours.read_bytes() == before  # pcbnew's own save of our board: the same bytes
    if template != "blank":
        assert seen["rules"] == [0.2, 0.2, 0.6, 0.3, 0.15, 0.3]
        assert seen["netclass"] == [0.2, 0.2, 0.6, 0.3]
        assert seen["edges"] == ["Rect"]
    else:
        assert seen["edges"] == []


def test_an_existing_project_is_refused_and_left_untouched(tmp_path):
    new(tmp_path, name="a", folder=".")
    (tmp_path / "a.kicad_pcb").write_bytes(b"(kicad_pcb (version 20241229))\n")  # the user's work
    before = snapshot_tree(tmp_path)
    with pytest.raises(InvalidArgs) as e:
        new(tmp_path, name="a", template="2layer-starter", folder=".")
    assert e.value.code == "invalid-args" and "a.kicad_pcb" in e.value.message
    assert "never overwrites" in e.value.hint
    assert snapshot_tree(tmp_path) == before
    # one existing target file is enough: nothing is written beside it
    other = tmp_path / "other"
    other.mkdir()
    (other / "fp-lib-table").write_bytes(b"(fp_lib_table\n  (version 7)\n)\n")
    with pytest.raises(InvalidArgs):
        new(tmp_path, name="b", folder="other")
    assert [p.name for p in other.iterdir()] == ["fp-lib-table"]


def test_half_built_projects_are_never_visible(tmp_path, monkeypatch):
    """A failure while files are moved into place removes those already placed, and the
    private build folder goes too."""
    calls = []
    real_link = os.link

    def flaky_link(src, dst):
        calls.append(dst)
        if len(calls) == 3:
            raise FileExistsError(dst)
        real_link(src, dst)

    monkeypatch.setattr(project_cmd.os, "link", flaky_link)
    with pytest.raises(InvalidArgs):
        new(tmp_path, name="c", folder=".")
    assert list(tmp_path.iterdir()) == []
    # a new folder appears in one step, complete
    monkeypatch.undo()
    r = new(tmp_path, name="d")
    assert sorted(os.listdir(tmp_path)) == ["d"] and len(r["files"]) == 5


def test_bad_names_and_paths(tmp_path):
    for bad in ("", "../x", "a/b", ".hidden", "x" * 101, "x.kicad_pro", "trailing ", "nul\x00"):
        with pytest.raises(InvalidArgs) as e:
            new(tmp_path, name=bad)
        assert "pattern" not in e.value.message  # said in words
    with pytest.raises(PathOutsideWorkspace):
        new(tmp_path, name="ok", folder="../outside")
    (tmp_path / "file").write_text("x")
    for folder in ("file", "file/sub"):
        with pytest.raises(InvalidArgs) as e:
            new(tmp_path, name="ok", folder=folder)
        assert "file is a file" in e.value.message
    assert sorted(os.listdir(tmp_path)) == ["file"]


def _fresh_home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("KICAD_CONFIG_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(var, raising=False)
    return home


def _erc_library_warnings(work: Path) -> list[dict]:
    session = Session(work)
    REGISTRY.call("sch.placeSymbol", {"path": "p.kicad_sch", "symbol": "Device:R", "at": [100.33, 50.8]},
                  Context(session))
    erc = REGISTRY.call("check.erc", {"path": "p.kicad_sch", "format": "json"}, Context(session))
    return [v for v in erc["violations"] if v["type"] == "lib_symbol_issues"]


@pytest.mark.kicad
def test_a_machine_with_no_global_library_tables(kicad_cli, tmp_path, monkeypatch):
    """On a fresh HOME (no ~/.config/kicad/9.0/sym-lib-table) the project's tables list
    KiCad's default libraries, so ERC does not warn on every symbol; the empty table
    project.new wrote before does warn (the check can fail); doctor says how to fix it."""
    _fresh_home(tmp_path, monkeypatch)
    work = tmp_path / "w"
    work.mkdir()
    r = new(work, name="p", folder=".")
    assert set(r["library_tables"]) == {"sym-lib-table", "fp-lib-table"} and "KiCad's default" in r["summary"]
    assert (work / "sym-lib-table").read_bytes() == (KICAD_SHARE / "template" / "sym-lib-table").read_bytes()
    assert (work / "fp-lib-table").read_bytes() == (KICAD_SHARE / "template" / "fp-lib-table").read_bytes()
    assert _erc_library_warnings(work) == []
    (work / "sym-lib-table").write_bytes(new_project.lib_table("sym"))  # the old behaviour
    assert _erc_library_warnings(work)
    from boardwire.kicad.cli import library_tables

    tables = library_tables()
    assert not tables["sym"]["found"] and "cp " in tables["sym"]["fix"] and "ERC" in tables["sym"]["why"]


def test_a_machine_with_global_tables_gets_empty_project_tables(tmp_path, monkeypatch):
    config = tmp_path / "config"
    (config / "9.0").mkdir(parents=True)  # KiCad 9 reads $KICAD_CONFIG_HOME/9.0/
    for kind in ("sym", "fp"):
        (config / "9.0" / f"{kind}-lib-table").write_bytes(new_project.lib_table(kind))
    monkeypatch.setenv("KICAD_CONFIG_HOME", str(config))
    work = tmp_path / "w"
    work.mkdir()
    r = new(work, name="p", folder=".")
    assert "library_tables" not in r
    assert (work / "sym-lib-table").read_bytes() == b"(sym_lib_table\n  (version 7)\n)\n"
