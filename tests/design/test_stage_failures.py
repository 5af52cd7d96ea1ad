"""design.build's stages say when what they made will fail a later check: the
schematic stage stops the build when sch.connect found no room for a PWR_FLAG (the
flag dropped, ERC would fail while the stage said ok: a BME280 board of a blind trial)."""

from __future__ import annotations

import pytest

from boardwire.design.check import Report
from boardwire.design.document import Design
from boardwire.design.pipeline import Build, Stage, StageFailed

DESIGN = Design.model_validate({"name": "flagless", "components": [
    {"ref": "J1", "symbol": "Connector_Generic:Conn_01x02"}, {"ref": "R1", "symbol": "Device:R"}],
    "nets": {"VCC": ["J1.1", "R1.1"], "GND": ["J1.2", "R1.2"]}})


def _build(connected: dict) -> Build:
    answers = {"sch.connect": connected}
    build = Build(DESIGN, Report(), "builds/x/v001", lambda cid, args: answers.get(cid, {}),
                  lambda cid: True, lambda f, m: None)
    build._items = lambda: []  # no symbols to arrange: the stage's own judgement is under test
    build.sch = "x.kicad_sch"
    return build


def test_schematic_stage_fails_when_a_flag_found_no_room():
    build = _build({"summary": "2 nets: ...; NO ROOM for the PWR_FLAG of VCC", "overlaps": [],
                    "unplaced": ["PWR_FLAG of VCC: no free place"], "flags_missing": ["VCC"]})
    with pytest.raises(StageFailed, match="no room on the schematic for the PWR_FLAG of VCC"):
        build._schematic(Stage("schematic"))
    ok = _build({"summary": "2 nets: 4 wires", "overlaps": [], "unplaced": [], "flags_missing": []})
    assert ok._schematic(Stage("schematic")).endswith("2 nets: 4 wires")
