"""Bad input gets a stable error code and changes nothing: non-finite or out-of-range
numbers, coerced types, unknown keys, layers the board lacks, degenerate geometry,
render outputs that would overwrite a document, read-only files, and several separate
`boardwire call` processes editing one file at once."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from boardwire.errors import BoardwireError
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need

BOARD = "b.kicad_pcb"


@pytest.fixture
def ws(tmp_path) -> Path:
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    return tmp_path


def refused(session: Session, cid: str, **args) -> str:
    """Run a command that must fail; return its error code after checking the board
    did not change."""
    before = session.open(BOARD).doc.to_bytes() if BOARD in session.documents else None
    with pytest.raises(BoardwireError) as e:
        REGISTRY.call(cid, {"path": BOARD, **args}, Context(session))
    od = session.documents.get(BOARD)
    if before is not None and od is not None:
        assert od.doc.to_bytes() == before and od.revision == 0
    return e.value.code


BAD_ARGS = [
    ("pcb.addVia", {"at": [float("nan"), 1]}),
    ("pcb.addVia", {"at": [float("inf"), 1]}),
    ("pcb.addVia", {"at": [1e9, 1]}),                  # beyond KiCad's 32-bit world
    ("pcb.addVia", {"at": ["1", "2"]}),               # no string-to-number coercion
    ("pcb.addVia", {"at": [1, 2], "colour": "red"}),  # unknown key
    ("pcb.addVia", {"at": [1, 2], "size": 0}),
    ("pcb.addTrack", {"points": [[0, 0]], "width": 0.2}),
    ("pcb.addTrack", {"points": [[0, 0], [1, 1]], "width": -1}),
    ("pcb.move", {"reference": "", "to": [1, 1]}),
    ("pcb.rotate", {"reference": "U1", "angle": 1e12}),
    ("pcb.placeFootprint", {"footprint": "../../etc:passwd", "reference": "X1", "at": [0, 0]}),
    ("pcb.setField", {"reference": "U1", "field": "Footprint", "value": "Lib:Other"}),
    ("query.items", {"kind": ["footprint", "spaceship"]}),
    ("query.items", {"limit": True}),                  # a bool is not an int
]


@pytest.mark.parametrize("cid, args", BAD_ARGS, ids=[f"{c}-{i}" for i, (c, _) in enumerate(BAD_ARGS)])
def test_bad_arguments_are_invalid_args(ws, cid, args):
    session = Session(ws)
    session.open(BOARD)
    assert refused(session, cid, **args) == "invalid-args"


def test_a_layer_the_board_lacks_is_refused(ws):
    session = Session(ws)
    session.open(BOARD)
    assert refused(session, "pcb.addTrack", points=[[0, 0], [5, 0]], width=0.25, layer="In7.Cu") == "invalid-args"
    assert refused(session, "pcb.addZone", outline=[[0, 0], [5, 0], [5, 5]], layer="F.SilkS") == "invalid-args"
    assert refused(session, "pcb.addGraphic", shape="line", points=[[0, 0], [1, 1]], layer="Nope.Layer") == "invalid-args"


def test_degenerate_geometry_is_refused(ws):
    session = Session(ws)
    session.open(BOARD)
    assert refused(session, "pcb.addTrack", points=[[3, 3], [3, 3]], width=0.25) == "invalid-args"
    assert refused(session, "pcb.addZone", outline=[[0, 0], [1, 1], [2, 2]], layer="F.Cu") == "invalid-args"
    assert refused(session, "pcb.outline", rect=[0, 0, 0, 10]) == "invalid-args"


def test_render_never_overwrites_a_document(ws):
    session = Session(ws)
    session.open(BOARD)
    before = (ws / BOARD).read_bytes()
    assert refused(session, "render.png", output=BOARD) == "invalid-args"
    assert refused(session, "render.png", output="../out.png") == "path-outside-workspace"
    assert (ws / BOARD).read_bytes() == before


def test_swap_keeps_fields_and_flags(ws):
    session = Session(ws)
    board = session.open(BOARD).doc
    ref = next(fp.reference for fp in board.footprints if fp.reference)
    REGISTRY.call("pcb.setField", {"path": BOARD, "reference": ref, "field": "MPN", "value": "ABC-123",
                                   "dnp": True}, Context(session))
    REGISTRY.call("pcb.swapFootprint", {"path": BOARD, "reference": ref,
                                        "footprint": "Resistor_SMD:R_0805_2012Metric"}, Context(session))
    fp = next(f for f in board.footprints if f.reference == ref)
    text = board.to_bytes().decode()
    assert fp.lib_id.endswith("R_0805_2012Metric")
    assert '(property "MPN" "ABC-123"' in text and "(attr smd dnp)" in text


def test_read_only_file_is_refused_on_save(ws):
    session = Session(ws)
    session.open(BOARD)
    REGISTRY.call("pcb.addVia", {"path": BOARD, "at": [1, 1]}, Context(session))
    os.chmod(ws / BOARD, 0o444)
    with pytest.raises(BoardwireError) as e:
        session.save(BOARD)
    assert e.value.code == "read-only"


def test_save_keeps_permissions(ws):
    os.chmod(ws / BOARD, 0o640)
    session = Session(ws)
    session.open(BOARD)
    REGISTRY.call("pcb.addVia", {"path": BOARD, "at": [1, 1]}, Context(session))
    session.save(BOARD)
    assert (ws / BOARD).stat().st_mode & 0o777 == 0o640


def test_concurrent_calls_never_lose_an_edit(ws):
    """Four `boardwire call` processes add a via each to the same file at once. Each
    either lands (its via is in the saved file) or fails with file-changed; none is
    silently lost."""
    procs = []
    for i in range(4):
        args = json.dumps({"path": BOARD, "at": [5 + i, 5]})
        procs.append(subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "call", "pcb.addVia", args],
                                      cwd=ws, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    outcomes = []
    for p in procs:
        out, _ = p.communicate(timeout=300)
        outcomes.append(json.loads(out))
    final = (ws / BOARD).read_text()
    landed = 0
    for res in outcomes:
        if "error" in res:
            assert res["error"]["code"] == "file-changed", res
        else:
            assert res["id"] in final, "an edit reported saved is missing from the file"
            landed += 1
    assert landed >= 1


def test_a_nul_in_a_path_is_invalid_args(ws):
    session = Session(ws)
    with pytest.raises(BoardwireError) as e:
        REGISTRY.call("query.describe", {"path": "b\x00.kicad_pcb"}, Context(session))
    assert e.value.code == "invalid-args"


def test_a_sheet_cannot_contain_itself(tmp_path):
    src = need(DEMOS / "ecc83")
    for name in ("ecc83-pp.kicad_sch", "ecc83-pp.kicad_pro"):
        shutil.copy(src / name, tmp_path / name)
    session = Session(tmp_path)
    before = (tmp_path / "ecc83-pp.kicad_sch").read_bytes()
    with pytest.raises(BoardwireError) as e:
        REGISTRY.call("sch.addSheet", {"path": "ecc83-pp.kicad_sch", "name": "self",
                                       "file": "ecc83-pp.kicad_sch", "at": [50.8, 50.8]}, Context(session))
    assert e.value.code == "invalid-args" and "itself" in e.value.message
    assert session.get("ecc83-pp.kicad_sch").doc.to_bytes() == before


@pytest.mark.parametrize("text, said", [
    ("[]", "a KiCad project file is a JSON object"),
    ('{"net_settings": 5}', "net_settings is not an object"),
    ('{"net_settings": {"classes": "x"}}', "net_settings.classes is not a list of objects"),
    ('{"board": {"design_settings": {"rules": {"min_clearance": "x"}}}}',
     'board.design_settings.rules.min_clearance is "x", not a number, 0 or more (mm)'),
    ('{"net_settings": {"classes": [{"name": "Default", "clearance": -1}]}}',
     "net class 'Default'.clearance is -1"),
    ('{"net_settings": {"classes": [{"name": "Default", "track_width": 0}]}}',
     "net class 'Default'.track_width is 0, not a number above 0"),
])
def test_a_broken_project_file_is_a_parse_error(tmp_path, text, said):
    """Found by a fresh-user trial: such project files made autoroute and autoplace
    fail `internal`, scorePlacement print NaN, and autoroute fail on a zero width
    after 12 s of routing. Each is now parse-error naming the value; nothing changes."""
    src = need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb")
    shutil.copy(src, tmp_path / "b.kicad_pcb")
    (tmp_path / "b.kicad_pro").write_text(text)
    before = (tmp_path / "b.kicad_pcb").read_bytes()
    for command in ("pcb.autoroute", "pcb.autoplace", "pcb.scorePlacement"):
        with pytest.raises(BoardwireError) as e:
            REGISTRY.call(command, {"path": "b.kicad_pcb"}, Context(Session(tmp_path)))
        assert e.value.code == "parse-error" and said in e.value.message, (command, e.value.message)
    assert (tmp_path / "b.kicad_pcb").read_bytes() == before
