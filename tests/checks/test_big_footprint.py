"""A footprint of thousands of pads (issue 37): the first edit's feedback tests only
the pairs that could fail, builds each pad definition's shape once, and finds the
same violations.

The board is the bundled example with a grid of 0.3 mm pads at 0.5 mm pitch added to
R2: every neighbour pair sits exactly at the 0.2 mm clearance, none fails."""

from __future__ import annotations


import numpy as np
import pytest
import shapely

from boardwire.checks import clearance
from boardwire.documents import open_document
from boardwire.documents.board.footprint_shapes import read_footprint
from boardwire.geometry import geometry_of
from boardwire.geometry import index as index_module
from boardwire.geometry.shapes import pad_copper, pad_coppers
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, big_footprint_board, need

PADS = 2000


@pytest.fixture
def counted(monkeypatch):
    """The number of pad pairs KiCad's per-pair decisions were asked about."""
    calls = [0]
    real = clearance._Pairs.pad_against

    def pad_against(self, pad, other, layer):
        calls[0] += 1
        return real(self, pad, other, layer)
    monkeypatch.setattr(clearance._Pairs, "pad_against", pad_against)
    return calls


def move(tmp_path, reference, by):
    s = Session(tmp_path)
    return REGISTRY.call("pcb.move", {"path": "big.kicad_pcb", "reference": reference, "by": by}, Context(s))


def test_moving_the_big_footprint_tests_only_pairs_that_could_fail(tmp_path, counted):
    big_footprint_board(tmp_path / "big.kicad_pcb", PADS)
    out = move(tmp_path, "R2", [0.5, 0])
    # 2 x ~4000 neighbour pairs at exactly the clearance were tested one by one before
    assert counted[0] < 100, counted[0]
    assert all(v["rule"] != "clearance" or "R2" not in str(v) for v in out["new_violations"])


def test_a_footprint_moved_onto_the_grid_reports_its_new_violations(tmp_path, counted):
    board = big_footprint_board(tmp_path / "big.kicad_pcb", PADS)
    doc = open_document(board)
    grid = next(f for f in doc.footprints if f.reference == "R2")
    pad = read_footprint(grid).pads[-1].at  # a pad of the grid (nm)
    other = next(f for f in doc.footprints if f.reference == "R1")
    at = other.at if hasattr(other, "at") else read_footprint(other).at
    out = move(tmp_path, "R1", [(pad[0] - at[0]) / 1e6, (pad[1] - at[1]) / 1e6])
    rules = {v["rule"] for v in out["new_violations"]}
    assert rules & {"clearance", "shorting_items"}, out["new_violations"]


@pytest.mark.parametrize("demo", ["video/video.kicad_pcb", "pic_programmer/pic_programmer.kicad_pcb"])
def test_pad_coppers_are_pad_copper_to_the_bit(demo):
    doc = open_document(need(DEMOS / demo))
    n = 0
    for fp in doc.footprints:
        pads = read_footprint(fp).pads
        for pad, made in zip(pads, pad_coppers(pads)):
            if made is None:
                continue
            core, r = pad_copper(pad)
            assert r == made[1] and shapely.equals_exact(core, made[0], tolerance=0), pad
            n += 1
    assert n > 100


def test_candidates_in_chunks_are_the_candidates(monkeypatch):
    model = geometry_of(open_document(need(DEMOS / "video" / "video.kicad_pcb")))
    ids = model.alive_ids(("pad", "via", "track"))
    reach = model.cols.r[ids] + 300_000.0
    whole = model.index.candidates(ids, reach)
    monkeypatch.setattr(index_module, "_CHUNK", 97)
    parts = model.index.candidates(ids, reach)
    n = model.cols.n + 1
    assert np.array_equal(np.sort(whole[0] * n + whole[1]), np.sort(parts[0] * n + parts[1]))
