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
