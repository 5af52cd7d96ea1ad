"""Pad copper from geometry/ against KiCad's own: pcbnew's
``PAD::TransformShapeToPolygon`` on real boards (every pad shape KiCad writes, custom
primitives, pads turned with their footprint, drill offsets, both sides).

The oracle polygon is KiCad's, approximated within 1 um (its maxError argument here);
ours is exact for round ends (a core swept by a radius, drawn here with fine arcs). A
custom pad is a union of primitives whose rounded parts KiCad itself builds with the
board's max_error (5 um on these boards), so it is compared within 2 x max_error."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
import shapely

from boardwire.documents import open_document
from boardwire.geometry import BoardGeometry
from boardwire.geometry.shapes import pad_shape_name
from tests.inputs import CORPUS, DEMOS, need

pytestmark = pytest.mark.kicad

_PADS = r'''
import sys, json, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
out = []
for fp in b.GetFootprints():
    for pad in fp.Pads():
        if not pad.IsOnCopperLayer():
            continue  # paste or mask only: no copper
        layer = pcbnew.F_Cu if pad.IsOnLayer(pcbnew.F_Cu) else pcbnew.B_Cu
        ps = pcbnew.SHAPE_POLY_SET()
        pad.TransformShapeToPolygon(ps, layer, 0, 1000, pcbnew.ERROR_INSIDE)
        polys = [[[ps.COutline(i).CPoint(k).x, ps.COutline(i).CPoint(k).y]
                  for k in range(ps.COutline(i).PointCount())] for i in range(ps.OutlineCount())]
        out.append({"ref": fp.GetReference(), "number": pad.GetNumber(),
                    "at": [pad.GetPosition().x, pad.GetPosition().y], "polys": polys})
json.dump(out, sys.stdout)
'''

BOARDS = [DEMOS / "custom_pads_test" / "custom_pads_test.kicad_pcb",
          DEMOS / "royalblue54L_feather" / "RoyalBlue54L-Feather.kicad_pcb",
          DEMOS / "stickhub" / "StickHub.kicad_pcb",
          CORPUS / "OLIMEX__ESP32-POE/HARDWARE/ESP32-PoE-hardware-revision-M1/ESP32-PoE_Rev_M1.kicad_pcb",
          CORPUS / "KiCad__kicad-source-mirror/qa/data/pcbnew/padstacks.kicad_pcb"]


def kicad_pads(python: str, board) -> list[dict]:
    r = subprocess.run([python, "-c", _PADS, str(board)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


@pytest.mark.parametrize("board", BOARDS, ids=lambda p: p.stem)
def test_pad_copper_matches_kicad(board, pcbnew_python):
    need(board)
    theirs = kicad_pads(pcbnew_python, board)
    model = BoardGeometry(open_document(board))
    ours = {}
    for it in model.items:
        if it is not None and it.kind == "pad":
            ref = model.footprints[it.fp].reference
            ours.setdefault((ref, it.number, round(it.data.at[0]), round(it.data.at[1])), []).append(it)
    shapes_seen = set()
    compared = 0
    for pad in theirs:
        key = (pad["ref"], pad["number"], pad["at"][0], pad["at"][1])
        mine = ours.get(key)
        assert mine, f"{board.name}: no pad {key} in the model"
        polys = [shapely.polygons(np.array(p, dtype=float)) for p in pad["polys"] if len(p) >= 3]
        if not polys:
            continue
        kicad = shapely.union_all(polys)
        # same-numbered pads at one spot (stacked pads): the closest one is this one
        errors = []
        for it in mine:
            copper = shapely.buffer(it.core, it.r, quad_segs=64) if it.r else it.core
            errors.append((shapely.hausdorff_distance(kicad, copper), it))
        error, it = min(errors, key=lambda e: e[0])
        shape = pad_shape_name(it.data)
        shapes_seen.add(shape)
        limit = 10_000 if shape == "custom" else 1_500
        assert error <= limit, f"{board.name} {key} {shape}: {error:.0f} nm from KiCad's copper"
        compared += 1
    assert compared >= 5
    if board.stem == "custom_pads_test":
        assert {"custom", "circle", "oval", "roundrect", "trapezoid"} <= shapes_seen


_OUTLINE = r'''
import sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
ps = pcbnew.SHAPE_POLY_SET()
b.GetBoardPolygonOutlines(ps)
print(ps.Area(), sum(ps.HoleCount(i) for i in range(ps.OutlineCount())))
'''


@pytest.mark.parametrize("board", [DEMOS / "stickhub" / "StickHub.kicad_pcb",
                                   CORPUS / "foostan__crkbd/plates/3x6/pcb/plate-top-cherrymx.kicad_pcb"],
                         ids=lambda p: p.stem)
def test_board_outline_with_arcs_and_cutouts(board, pcbnew_python):
    """The outline Edge.Cuts closes (arcs, cut-outs) has KiCad's area and hole count
    (``BOARD::GetBoardPolygonOutlines``)."""
    need(board)
    r = subprocess.run([pcbnew_python, "-c", _OUTLINE, str(board)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    area, holes = r.stdout.split()
    outline = BoardGeometry(open_document(board)).outline()
    assert outline is not None
    assert abs(outline.area - float(area)) <= 1e-4 * float(area)
    ours_holes = sum(len(p.interiors) for p in shapely.get_parts(outline))
    assert ours_holes == int(holes)
