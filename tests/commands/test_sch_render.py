"""render.svg / render.png of schematic sheets: KiCad's plotter on the in-memory
hierarchy, one page at a time."""

from __future__ import annotations

import re
import shutil

import pytest

from boardwire.errors import BoardwireError
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need

pytestmark = pytest.mark.kicad
ROOT = "complex_hierarchy.kicad_sch"


def test_pages_and_in_memory_edits_are_drawn(tmp_path, kicad_cli):
    shutil.copytree(need(DEMOS / "complex_hierarchy"), tmp_path / "d")
    ws = tmp_path / "d"
    on_disk = (ws / ROOT).read_bytes()
    session = Session(ws)
    ctx = Context(session)

    def svg(**a):  # without the <title> line, which carries the plot's date and time
        text = REGISTRY.call("render.svg", {"path": ROOT, **a}, ctx)["svg"]
        return re.sub(r"<title>.*?</title>", "", text)

    page1, page2 = svg(), svg(page="2")
    assert page1.startswith("<?xml") and page2.startswith("<?xml") and page1 != page2
    assert svg(page="1") == page1 and svg(page="3") not in (page1, page2)
    REGISTRY.call("sch.label", {"path": ROOT, "text": "DRAWN_FROM_MEMORY", "at": [50.8, 25.4]}, ctx)
    assert svg() != page1  # the unsaved label is in the picture
    assert (ws / ROOT).read_bytes() == on_disk
    png = REGISTRY.call("render.png", {"path": ROOT, "output": "p1.png"}, ctx)
    assert (ws / "p1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png["output"] == "p1.png"
    for bad in ({"page": "99"}, {"view": "3d"}):
        with pytest.raises(BoardwireError) as e:
            REGISTRY.call("render.png", {"path": ROOT, **bad}, ctx)
        assert e.value.code == "invalid-args"
