"""design.build's schematic reads like a person's (issue 34 item 3): parts in blocks by
function on the smallest paper they fit, nothing outside KiCad's drawing frame or on
its title block, no two symbols' drawings overlapping, ERC 0 errors, all judged from
the saved .kicad_sch (tests/design/sheet_judge.py: each symbol's box from its library
graphics and pins, placed). The 45-part RP2040 board (examples/designs/rp2040.json)
stood in one column 1384 mm tall on A4 before, with 208 boxes off the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardwire.documents.schematic import Schematic
from boardwire.documents.schematic.extent import symbol_box
from boardwire.documents.schematic.page import drawing_area, off_page, title_block
from boardwire.registry import REGISTRY, Context
from tests.design.sheet_judge import judge_sheet
from tests.design.test_design import designs_workspace, kicad_erc_errors

pytestmark = [pytest.mark.kicad, pytest.mark.xdist_group("sch-sheet")]
MM = 1_000_000


def c(session, cid, **args):
    return REGISTRY.call(cid, args, Context(session))


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    return designs_workspace(tmp_path_factory, "sheets", "MCU_RaspberryPi.kicad_sym")


def _build(workspace, name: str) -> tuple[dict, Path]:
    s, root = workspace
    out = c(s, "design.build", file=f"{name}.json", until="erc")
    return out, next((root / out["version"]).glob("*.kicad_sch"))


def test_default_drawing_sheet_geometry():
    # KiCad's default drawing sheet: 10 mm margins, a 2 mm band, the title block 108 x 32 mm
    assert drawing_area("A4") == (12 * MM, 12 * MM, 285 * MM, 198 * MM)
    assert title_block("A4") == (177 * MM, 166 * MM, 285 * MM, 198 * MM)
    assert title_block("A3") == (300 * MM, 253 * MM, 408 * MM, 285 * MM)
    assert off_page((20 * MM, 20 * MM, 30 * MM, 30 * MM), "A4") is None
    assert off_page((200 * MM, 170 * MM, 210 * MM, 180 * MM), "A4") == "on the title block"
    assert off_page((280 * MM, 20 * MM, 290 * MM, 30 * MM), "A4") == "outside the A4 frame"


def test_rp2040_board_fills_a_sheet_in_blocks(workspace, tmp_path):
    out, sch = _build(workspace, "rp2040")
    stages = {st["stage"]: st for st in out["stages"]}
    assert stages["schematic"]["status"] == "ok" and stages["erc"]["status"] == "ok", out["stages"]
    judged = judge_sheet(sch)
    assert judged["symbols"] > 100  # 45 parts and their power symbols and flags
    assert judged["off_page"] == [] and judged["overlaps"] == [], judged
    assert judged["paper"] == "A3" and judged["max_y"] < 285
    assert kicad_erc_errors(sch, tmp_path) == 0
    summary = stages["schematic"]["summary"]
    assert summary.startswith("45 symbols on A3 in 10 blocks: ") and stages["schematic"]["data"]["paper"] == "A3"
    blocks = dict(re.findall(r"([\w ]+?) \(([^)]*)\)(?:; |$)", summary.split(" blocks: ", 1)[1].split("; 44 nets")[0]))
    # the MCU with its crystal, pull-ups and buttons; its decoupling beside it; the regulator's input and output caps
    assert {"Y1", "C3", "C4", "R6", "R8", "SW1", "SW2"} <= set(blocks["U2"].split(", "))
    assert len(blocks["U2 decoupling"].split(", ")) >= 10 and blocks["U1"] == "U1, C1, C2"
    assert set(blocks["J1"].split(", ")) == {"J1", "R1", "R2"}  # USB-C with its CC resistors
    # USB-C on the left edge, the headers on the right: from the saved file
    at = {s.reference: s.position[0] / MM for s in Schematic.load(sch).symbols}
    assert at["J1"] < 40 and min(at["J2"], at["J3"], at["J4"]) > 380
    columns = {round(at[r] / 20) for r in ("U1", "U2", "U3", "U4", "C5", "C16", "D1")}
    assert len(columns) >= 4  # a grid of blocks, not one column
    # sch.setPaper: on A4 the same drawing leaves the frame, and says what does
    s, root = workspace
    rel = str(sch.relative_to(root))
    smaller = c(s, "sch.setPaper", path=rel, paper="A4")
    assert smaller["previous"] == "A3" and any("outside the A4 frame" in r for r in smaller["off_page"])
    c(s, "sch.setPaper", path=rel, paper="A2")
    c(s, "session.save", path=rel)
    assert b'(paper "A2")' in sch.read_bytes() and Schematic.load(sch).paper == "A2"


@pytest.mark.parametrize("name", ["blinker555", "usbc-3v3", "atmega328p", "usb-uart", "uno-mini"])
def test_examples_inside_their_sheets(workspace, tmp_path, name):
    out, sch = _build(workspace, name)
    assert [st["status"] for st in out["stages"]] == ["ok", "ok", "ok"], out["stages"]
    judged = judge_sheet(sch)
    assert judged["off_page"] == [] and judged["overlaps"] == [], judged
    assert kicad_erc_errors(sch, tmp_path) == 0


def test_symbol_box_from_library_drawing(workspace):
    _, sch = _build(workspace, "blinker555")
    doc = Schematic.load(sch)
    table = doc.lib_symbol_table()
    r1 = next(s for s in doc.symbols if s.reference == "R1")
    x, y = r1.position
    # Device:R: a 2.032 x 5.08 mm body and pins of 1.27 mm from +-3.81 mm, standing upright
    assert symbol_box(r1, table) == (x - 1_016_000, y - 3_810_000, x + 1_016_000, y + 3_810_000)
    gnd = next(s for s in doc.symbols if s.lib_key == "power:GND")
    gy = gnd.position[1]
    box = symbol_box(gnd, table)
    assert box[1] == gy and box[3] > gy + 2 * MM  # the ground symbol hangs below its pin
