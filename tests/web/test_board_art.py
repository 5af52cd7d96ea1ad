"""The live view's board drawing without a browser: KiCad demo boards drawn by
`board_svg` hold their silkscreen texts (mirrored on the back), copper text, edge arcs
as SVG arcs, and one ``data-k`` group per item, so an edit changes only the groups of
the items it touched (what the page patches)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from boardwire.documents.board import Board
from boardwire.documents.board.footprint_text import footprint_texts
from boardwire.web.board_art import _arc, text_svg
from boardwire.web.board_svg import board_svg
from tests.inputs import DEMOS, need

NS = "{http://www.w3.org/2000/svg}"


def _layers(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.get("data-layer"): g for g in root.iter(NS + "g") if g.get("class") == "layer"}


def _groups(svg: str) -> dict[tuple[str, str], str]:
    """(layer, item key) -> the item's SVG text."""
    out = {}
    for name, g in _layers(svg).items():
        for sub in g.iter(NS + "g"):
            if sub.get("data-k") is not None:
                out[(name, sub.get("data-k"))] = ET.tostring(sub, encoding="unicode")
    return out


@pytest.fixture(scope="module")
def pic():
    return Board.load(need(DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb"))


def test_silkscreen_and_copper_texts_are_drawn(pic):
    layers = _layers(board_svg(pic))
    silk = [t.text for t in layers["F.SilkS"].iter(NS + "text")]
    fcu = [t.text for t in layers["F.Cu"].iter(NS + "text")]
    refs = {f.reference for f in pic.footprints
            if any(t.name == "Reference" and t.visible and t.layer == "F.SilkS" for t in footprint_texts(f))}
    assert refs and refs <= set(silk)
    assert "PIC 40 PINS" in fcu  # a gr_text on F.Cu: the geometry model has no text
    # the back's texts are mirrored (KiCad's "justify mirror")
    back = [t for t in layers["B.Cu"].iter(NS + "text") if t.text == "J-P CHARRAS"]
    assert back and "scale(-1 1)" in back[0].get("transform")
    # silkscreen lines and fab outlines are there too
    assert len(list(layers["F.SilkS"].iter(NS + "path"))) > 50
    assert len(list(layers["F.Fab"].iter(NS + "path"))) > 20


def test_footprint_text_effects_are_read(pic):
    jp1 = next(f for f in pic.footprints if f.reference == "JP1")
    ref = next(t for t in footprint_texts(jp1) if t.name == "Reference")
    assert ref.layer == "B.SilkS" and "mirror" in ref.justify
    assert ref.thickness and ref.thickness > 0


def test_board_outline_arcs_are_svg_arcs():
    board = Board.load(need(DEMOS / "stickhub" / "StickHub.kicad_pcb"))
    edge = ET.tostring(_layers(board_svg(board))["Edge.Cuts"], encoding="unicode")
    assert re.search(r'd="M-?\d+ -?\d+A\d+ \d+ 0 [01] [01] ', edge), edge[:500]


def test_arc_direction_and_size():
    # y down: start left, mid above, end right is clockwise on screen (sweep 1)
    assert _arc((0, 0), (1_000_000, -400_000), (2_000_000, 0)).split()[3:5] == ["0", "1"]
    assert _arc((0, 0), (1_000_000, 400_000), (2_000_000, 0)).split()[3:5] == ["0", "0"]
    # three quarters of a circle of radius 1 mm about (0, 0): the large arc
    big = _arc((1_000_000, 0), (-1_000_000, 0), (0, 1_000_000))
    assert big.startswith("A1000 1000 0 1 ")
    assert _arc((0, 0), (1, 1), (2, 2)) is None


def test_text_is_kept_upright_and_justified():
    upside = text_svg("R1", (0, 0), 180.0, (1_000_000, 1_000_000), (), None, upright=True)
    assert "rotate(" not in upside  # 180 degrees reads as 0
    left = text_svg("R1", (0, 0), 90.0, (1_000_000, 1_000_000), ("left",), None)
    assert 'text-anchor="start"' in left and "rotate(-90)" in left


def test_an_edit_changes_only_the_groups_of_the_items_it_touched(pic):
    before = _groups(board_svg(pic))
    fp = next(f for f in pic.footprints if f.reference == "R1")
    fp.translate(2_000_000, 0)
    after = _groups(board_svg(pic))
    assert len(before) > 500  # one group per item and layer
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    assert changed and {key for _, key in changed} == {fp.uuid}
    assert {layer for layer, _ in changed} >= {"F.SilkS", "F.Cu", "B.Cu"}


def test_delta_names_only_the_moved_footprint():
    from boardwire.web.board_delta import delta
    from boardwire.web.board_svg import board_parts

    board = Board.load(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"))
    before = board_parts(board, revision=1)
    assert delta(before, board_parts(board, side="back", revision=1)) is None  # another frame: the whole drawing
    fp = next(f for f in board.footprints if f.reference == "R1")
    fp.translate(1_000_000, 0)
    change = delta(before, board_parts(board, revision=2))
    keyed = [d for d in change["layers"] if "raw" not in d]
    assert {d["layer"] for d in change["layers"] if "raw" in d} == {"References"}  # its text moved
    assert keyed and change["items"] == sum(len(d["set"]) for d in keyed) + 1
    assert {k for d in keyed for k in d["set"]} == {fp.uuid}
    assert delta(before, before) == {"layers": [], "items": 0}


def test_a_drawing_after_edits_is_the_drawing_of_the_edited_board(tmp_path):
    # elements are kept per item between drawings: after edits, every item's group is
    # what a fresh read of the saved board draws
    board = Board.load(need(DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb"))
    board_svg(board)
    for ref, dx in (("R1", 2_000_000), ("U1", -1_000_000), ("R1", 500_000)):
        next(f for f in board.footprints if f.reference == ref).translate(dx, 0)
        kept = _groups(board_svg(board))
    path = tmp_path / "edited.kicad_pcb"
    path.write_bytes(board.to_bytes())
    assert kept == _groups(board_svg(Board.load(path)))
