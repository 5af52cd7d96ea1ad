"""design.build's stages say when what they made will fail a later check: the
schematic stage stops the build when sch.connect found no room for a PWR_FLAG (the
flag dropped, ERC would fail while the stage said ok: a BME280 board of a blind trial),
when a label could not be placed cleanly, boxes overlap or items lie off the page
(a 31-part RP2040 board ran to y = 1242 mm on A4 and the stage said "no overlaps");
the ERC stage is ok only with 0 errors."""

from __future__ import annotations

import pytest

from boardwire.design.check import Report
from boardwire.design.document import Design
from boardwire.design.pipeline import Build, Stage, StageFailed

DESIGN = Design.model_validate({"name": "flagless", "components": [
    {"ref": "J1", "symbol": "Connector_Generic:Conn_01x02"}, {"ref": "R1", "symbol": "Device:R"}],
    "nets": {"VCC": ["J1.1", "R1.1"], "GND": ["J1.2", "R1.2"]}})


def _build(connected: dict, erc: dict | None = None) -> Build:
    answers = {"sch.connect": connected, "check.erc": erc or {}}
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


def test_schematic_stage_fails_on_what_it_could_not_place():
    clean = {"summary": "2 nets: 4 wires; no overlaps", "overlaps": [], "unplaced": [], "flags_missing": []}
    off = _build({**clean, "off_page": ["R1: outside the A4 frame", "label VCC: on the title block"]})
    with pytest.raises(StageFailed, match="2 lie off the page: R1: outside the A4 frame; label VCC: on the title block"):
        off._schematic(Stage("schematic"))
    label = _build({**clean, "unplaced": ["R1.1 VCC: overlaps J1"], "overlaps": ["R1 / J1 Value"]})
    with pytest.raises(StageFailed, match=r"1 could not be placed cleanly: R1.1 VCC: overlaps J1 and 1 overlap: R1 / J1 Value"):
        label._schematic(Stage("schematic"))


def test_erc_stage_ok_only_without_errors():
    errors = {"summary": "ERC: 1 errors, 2 warnings on 1 sheet", "counts": {"violations": 3, "errors": 1, "warnings": 2},
              "violations": [{"type": "power_pin_not_driven", "severity": "error", "description": "Input Power pin not driven"},
                             {"type": "lib_symbol_mismatch", "severity": "warning", "description": "..."}]}
    with pytest.raises(StageFailed, match="1 errors.*power_pin_not_driven: Input Power pin not driven"):
        _build({}, errors)._erc(Stage("erc"))
    warned = {**errors, "summary": "ERC: 0 errors, 2 warnings on 1 sheet",
              "counts": {"violations": 2, "errors": 0, "warnings": 2}, "violations": errors["violations"][1:]}
    assert _build({}, warned)._erc(Stage("erc")) == "ERC: 0 errors, 2 warnings on 1 sheet"
