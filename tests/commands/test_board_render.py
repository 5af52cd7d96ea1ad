"""render.png of a board: layers painted back to front, as KiCad's 2D view stacks them,
so front copper stays visible over a back pour and its mask openings (counted in pixels of the front-copper
colour); progress sent by every render (issue 17, item 3)."""

from __future__ import annotations

import io
import shutil

import numpy as np
import pytest
from PIL import Image

from boardwire.commands.render import DEFAULT_LAYERS
from boardwire.kicad.plots import paint_order
from boardwire.kicad import cli as kicad
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need

pytestmark = pytest.mark.kicad
BOARD = "pic_programmer.kicad_pcb"  # a GND pour on B.Cu under the front tracks
FRONT = np.array([200, 52, 52])  # KiCad's default F.Cu colour (#C83434)


def _front_pixels(png: bytes) -> int:
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)
    return int((np.abs(rgb - FRONT).sum(axis=2) < 40).sum())


def _render(session, progress=None, **args) -> bytes:
    import base64

    out = REGISTRY.call("render.png", {"path": BOARD, "width": 800, **args},
                        Context(session, progress_fn=progress))
    return base64.b64decode(out["image"]["data"])


def test_front_copper_is_painted_over_a_back_pour(tmp_path, kicad_cli):
    shutil.copy(need(DEMOS / "pic_programmer" / BOARD), tmp_path)
    session = Session(tmp_path)
    stages: list[str] = []
    alone = _front_pixels(_render(session, layers=["F.Cu"]))
    full = _front_pixels(_render(session, progress=lambda f, m: stages.append(m)))
    assert alone > 10_000
    assert full > 0.85 * alone, (full, alone)  # silk and mask cover a little, the back pour nothing
    assert any("KiCad plotting" in m for m in stages) and any("PNG" in m for m in stages)
    # the order kicad-cli was given before (front, then back) hides most of it: the check can fail
    svg = tmp_path / "old.svg"
    kicad.kicad_cli().run_for(["pcb", "export", "svg", "--mode-single", "--exclude-drawing-sheet", "--page-size-mode", "2",
                         "-l", ",".join(DEFAULT_LAYERS), "-o", str(svg), str(tmp_path / BOARD)], svg)
    import cairosvg

    old = _front_pixels(cairosvg.svg2png(bytestring=svg.read_bytes(), output_width=800, background_color="white"))
    assert old < 0.6 * full, (old, full)


def test_paint_order_keeps_each_sides_order():
    assert paint_order(["F.Cu", "B.Cu", "F.SilkS", "In1.Cu", "Edge.Cuts", "B.SilkS", "F.Mask", "F.Fab"]) == \
        ["B.Cu", "B.SilkS", "In1.Cu", "F.Mask", "F.Cu", "F.SilkS", "F.Fab", "Edge.Cuts"]
