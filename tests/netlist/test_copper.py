"""The ratsnest from the board's own copper, against KiCad's DRC "unconnected items"
count stored beside each corpus board (kicad-cli 9.0.8, default options)."""

from __future__ import annotations

import csv

import pytest

import boardwire
from boardwire.netlist.copper import connectivity
from tests.inputs import CORPUS, DEMOS, need, need_corpus


@pytest.mark.heavy(minutes=1.2)
def test_unrouted_count_equals_kicad_drc_on_the_corpus():
    need_corpus()
    rows = [r for r in csv.DictReader(open(CORPUS / "INDEX.tsv"), delimiter="\t")
            if r["kind"] == "pcb" and r["unconnected"] != ""]
    same, different = 0, []
    for r in rows:
        board = boardwire.open(CORPUS / r["project"] / r["path"])
        ours, kicad = connectivity(board).unrouted, int(r["unconnected"])
        if ours == kicad:
            same += 1
        else:
            different.append((r["path"], ours, kicad))
    print("differences (ours, KiCad):", different)
    assert len(rows) >= 70
    # the copper comes from geometry/ (pad shapes checked against pcbnew, each zone
    # island its own item): every corpus board agrees
    assert same == len(rows), different


def test_a_routed_demo_has_no_ratsnest_and_a_cut_track_makes_one(tmp_path):
    board = boardwire.open(need(DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb"))
    assert connectivity(board).unrouted == 0
    names = {n.number: n.name for n in board.nets}
    track = next(t for t in board.tracks if names.get(t.net) not in ("GND", ""))
    net = names[track.net]
    board.delete(track)
    links = connectivity(board).links
    assert len(links) == 1 and links[0].net == net
