"""The typed views read what KiCad reads: counts against the corpus index, positions
against pcbnew."""

from __future__ import annotations

import csv

import pytest

import boardwire
from tests.inputs import CORPUS, DEMOS, need, need_corpus
from tests.oracle import pcbnew_dump


def index_rows(kind: str):
    need_corpus()
    with open(CORPUS / "INDEX.tsv", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["kind"] == kind and not row["oracle"].startswith("fail"):
                yield row


def test_board_counts_match_the_corpus_index():
    checked = 0
    for row in index_rows("pcb"):
        path = CORPUS / row["project"] / row["path"]
        if not path.exists() or not row["footprints"]:
            continue
        s = boardwire.open(path).summary()
        assert s["footprints"] == int(row["footprints"]), path
        assert s["tracks"] == int(row["segments"]), path
        assert s["arcs"] == int(row["arcs"]), path
        assert s["vias"] == int(row["vias"]), path
        assert s["zones"] == int(row["zones"]), path
        assert len(s["copper_layers"]) == int(row["copper_layers"]), path
        checked += 1
    assert checked > 50


def test_lazy_pad_count_equals_parsed_pad_count():
    for name in ("video/video.kicad_pcb", "kit-dev-coldfire-xilinx_5213/kit-dev-coldfire-xilinx_5213.kicad_pcb"):
        board = boardwire.open(need(DEMOS / name))
        lazy = board.summary()["pads"]
        assert lazy == sum(len(fp.pads) for fp in board.footprints) > 100


def test_schematic_counts_match_the_corpus_index():
    import json

    checked = 0
    for row in index_rows("sch"):
        path = CORPUS / row["project"] / row["path"]
        extras = json.loads(row["extras"] or "{}")
        if not path.exists() or "wire" not in extras:
            continue
        s = boardwire.open(path).summary()
        assert s["wires"] == extras["wire"], path
        assert s["symbols"] == extras.get("symbols_placed", s["symbols"]), path
        assert s["global_labels"] == extras.get("global_label", 0), path
        checked += 1
    assert checked > 20


@pytest.mark.kicad
def test_pad_positions_equal_pcbnew(pcbnew_python):
    # boards with rotated and back-side footprints
    for name in ("pic_programmer/pic_programmer.kicad_pcb", "video/video.kicad_pcb"):
        path = need(DEMOS / name)
        kicad = {f["uuid"]: f for f in pcbnew_dump(pcbnew_python, path)["footprints"]}
        board = boardwire.open(path)
        n = 0
        for fp in board.footprints:
            ref = kicad[fp.uuid]
            assert (fp.position, fp.orientation) == ((ref["x"], ref["y"]), ref["angle"])
            ours = sorted((p.number, *p.world_position) for p in fp.pads)
            theirs = sorted((p[0], p[1], p[2]) for p in ref["pads"])
            assert ours == theirs, (name, fp.reference)
            n += len(ours)
        assert n > 200


def test_footprint_text_unlocked_without_an_angle(tmp_path):
    # KiCad 6-7 write a text's "unlocked" with or without an angle: (at -4 3.4 unlocked)
    # on OLIMEX's RVPC board; reading the footprint's texts failed on it ("could not
    # convert string to float"), and a move dropped the flag
    import shutil

    from boardwire.documents import open_document
    from boardwire.documents.board.footprint_text import footprint_texts, place_text
    from tests.inputs import need, need_corpus

    src = need(need_corpus() / "OLIMEX__RVPC" / "HARDWARE" / "RVPC_Rev.B" / "RVPC_Rev_B.kicad_pcb")
    board_path = tmp_path / src.name
    shutil.copy(src, board_path)
    board = open_document(board_path)
    fp = next(f for f in board.footprints if any(t.text == "o" for t in footprint_texts(f)))
    text = next(t for t in footprint_texts(fp) if t.text == "o")
    assert text.angle == 0.0 and text.name == "user"
    original = board.to_bytes()
    place_text(fp, text, (text.at[0] + 1_000_000, text.at[1]))
    changed = board.to_bytes()
    assert changed.count(b"unlocked") == original.count(b"unlocked")
    lines = [(a, b) for a, b in zip(original.splitlines(), changed.splitlines()) if a != b]
    assert lines == [(b'    (fp_text user "o" (at -4 3.4 unlocked) (layer "F.SilkS")',
                      b'    (fp_text user "o" (at -3 3.4 unlocked) (layer "F.SilkS")')]


def test_footprint_turned_with_an_unlocked_text(tmp_path):
    # turning a footprint turned its texts' angles with float("unlocked") on OLIMEX's
    # RVPC board (pcb.autoplace and pcb.rotate of U1 failed); the flag stays
    import shutil

    from boardwire.documents import open_document
    from boardwire.documents.board.footprint_text import footprint_texts
    from tests.inputs import need, need_corpus

    src = need(need_corpus() / "OLIMEX__RVPC" / "HARDWARE" / "RVPC_Rev.B" / "RVPC_Rev_B.kicad_pcb")
    shutil.copy(src, tmp_path / src.name)
    board = open_document(tmp_path / src.name)
    fp = next(f for f in board.footprints if any(t.text == "o" for t in footprint_texts(f)))
    fp.rotate_to(fp.orientation + 90)
    text = next(t for t in footprint_texts(fp) if t.text == "o")
    assert text.angle == 90.0
    assert text.node.find("at").atoms()[2:] == [b"90", b"unlocked"]
