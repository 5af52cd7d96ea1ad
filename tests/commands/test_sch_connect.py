"""sch.connect: the 555 blinker's schematic drawn from its nets, judged by kicad-cli's
ERC (0 errors) and by the item boxes (no overlaps); bad pins refused."""

from __future__ import annotations

import pytest

from boardwire.documents.schematic.extent import label_box, overlaps, sheet_extents
from boardwire.errors import InvalidArgs
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import SYMBOLS, need

SMD_R, SMD_C = "Resistor_SMD:R_0805_2012Metric", "Capacitor_SMD:C_0805_2012Metric"
PARTS = {"U1": ("Timer:NE555P", "NE555P", "Package_DIP:DIP-8_W7.62mm", (101.6, 88.9)),
         "R1": ("Device:R", "1k", SMD_R, (139.7, 63.5)), "R2": ("Device:R", "10k", SMD_R, (160.02, 63.5)),
         "R3": ("Device:R", "470", SMD_R, (180.34, 63.5)), "C1": ("Device:C", "10u", SMD_C, (139.7, 114.3)),
         "C2": ("Device:C", "10n", SMD_C, (160.02, 114.3)), "C3": ("Device:C", "100n", SMD_C, (180.34, 114.3)),
         "D1": ("Device:LED", "red", "LED_SMD:LED_0805_2012Metric", (200.66, 88.9)),
         "J1": ("Connector_Generic:Conn_01x02", "5V in",
                "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical", (50.8, 88.9))}
NETS = {"GND": ["U1.1", "C1.2", "C2.2", "C3.2", "D1.1", "J1.2"], "THR": ["U1.2", "U1.6", "R2.2", "C1.1"],
        "OUT": ["U1.3", "R3.1"], "VCC": ["U1.4", "U1.8", "R1.1", "C3.1", "J1.1"], "CV": ["U1.5", "C2.1"],
        "DIS": ["U1.7", "R1.2", "R2.1"], "LED": ["R3.2", "D1.2"]}


def c(session, cid, **args):
    return REGISTRY.call(cid, args, Context(session))


@pytest.fixture
def placed(tmp_path):
    need(SYMBOLS / "Timer.kicad_sym")
    s = Session(tmp_path)
    sch = c(s, "project.new", name="bl", template="2layer-starter", folder=".")["schematic"]
    for ref, (sym, val, fp, at) in PARTS.items():
        c(s, "sch.placeSymbol", path=sch, symbol=sym, at=list(at), value=val, footprint=fp, reference=ref)
    return s, sch


@pytest.mark.kicad
def test_blinker_from_nets_is_erc_clean(placed):
    s, sch = placed
    out = c(s, "sch.connect", path=sch, nets=NETS)
    assert out["counts"]["label"] == 13 and out["overlaps"] == [] and out["unplaced"] == []
    # GND and VCC come in on J1 (passive pins): one PWR_FLAG each, plus 11 power symbols
    assert out["counts"]["power"] == 11 + 2
    c(s, "sch.annotate", path=sch)
    erc = c(s, "check.erc", path=sch)
    assert erc["counts"]["errors"] == 0, erc.get("violations")
    conn = c(s, "query.connectivity", path=sch)
    nets = {n["net"].lstrip("/"): sorted(n["pins"]) for n in conn["nets"]}
    for net, pins in NETS.items():
        assert nets[net] == sorted(pins), net
    doc = s.get(sch, "schematic", "test").doc
    assert overlaps(sheet_extents(doc)) == []


def test_unknown_pin_and_pin_in_two_nets(placed):
    s, sch = placed
    with pytest.raises(InvalidArgs, match="U1 has pins"):
        c(s, "sch.connect", path=sch, nets={"X": ["U1.9", "R1.1"]})
    with pytest.raises(InvalidArgs, match="is in"):
        c(s, "sch.connect", path=sch, nets={"X": ["R1.1", "R2.1"], "Y": ["R1.1", "R3.1"]})
    with pytest.raises(InvalidArgs, match="no symbol Q9"):
        c(s, "sch.connect", path=sch, nets={"X": ["Q9.1", "R2.1"]})


def test_overlap_is_measured():
    a = label_box((0, 0), "LONGNAME", 0)
    b = label_box((2_540_000, 0), "X", 0)
    assert a[2] > b[0]  # the second label sits on the first's text


def test_set_field_moves_turns_and_hides(placed):
    s, sch = placed
    c(s, "sch.setField", path=sch, reference="R1", field="Value", at=[145.0, 70.0], angle=90)
    c(s, "sch.setField", path=sch, reference="R1", field="Reference", hidden=True)
    doc = s.get(sch, "schematic", "test").doc
    r1 = next(x for x in doc.symbols if x.reference == "R1")
    fields = {e.what: e.box for e in sheet_extents(doc) if e.what.startswith("R1 ")}
    assert "R1 Reference" not in fields  # hidden: no box
    x1, y1, x2, y2 = fields["R1 Value"]
    assert (x1 + x2) // 2 == 145_000_000 and (y1 + y2) // 2 == 70_000_000 and y2 - y1 > x2 - x1  # turned
    assert r1.value == "1k"


@pytest.mark.kicad
def test_flags_drawn_apart_when_no_room_beside(placed, monkeypatch):
    """A power net whose points have no free spot beside them (a BME280 board of a
    blind trial lost its PWR_FLAG so, and ERC failed) gets the flag apart: the net's
    power symbol drawn again where nothing is, the flag on a wire under it."""
    from boardwire.layout import sch_connect

    monkeypatch.setattr(sch_connect, "_flag_beside", lambda *a: False)  # every spot beside taken
    s, sch = placed
    out = c(s, "sch.connect", path=sch, nets=NETS)
    assert out["flags_missing"] == [] and out["unplaced"] == [] and out["overlaps"] == []
    assert out["counts"]["power"] == 11 + 2 * 2  # each flag with its net's symbol drawn again
    c(s, "sch.annotate", path=sch)
    erc = c(s, "check.erc", path=sch)
    assert erc["counts"]["errors"] == 0, erc.get("violations")
    nets = {n["net"].lstrip("/"): sorted(n["pins"]) for n in c(s, "query.connectivity", path=sch)["nets"]}
    for net, pins in NETS.items():
        assert nets[net] == sorted(pins), net


def test_a_flag_is_never_dropped_silently():
    """Crowded round a net's point, the flag goes apart; with no room anywhere near, the
    net is named in missing_flags (sch.connect's flags_missing; design.build then stops)."""
    from boardwire.layout.sch_connect import MM, Plan, Sheet, place_flag

    at = (100 * MM, 100 * MM)
    crowd = ("body:U9", (80 * MM, 80 * MM, 120 * MM, 120 * MM))  # 20 mm each way: beyond every wire tried beside
    plan = Plan()
    assert place_flag(Sheet([crowd], {at: "VCC"}, []), [at], "VCC", plan, "supply", ("power:VCC", None))
    drawn = [(op.symbol, op.at) for op in plan.ops if op.kind == "power"]
    assert [sym for sym, _ in drawn] == ["power:VCC", "power:PWR_FLAG"] and plan.missing_flags == []
    assert all(not (80 * MM <= x <= 120 * MM and 80 * MM <= y <= 120 * MM) for _, (x, y) in drawn)
    everywhere = ("body:U9", (-200 * MM, -200 * MM, 400 * MM, 400 * MM))
    plan = Plan()
    assert not place_flag(Sheet([everywhere], {at: "VCC"}, []), [at], "VCC", plan, "supply", ("power:VCC", None))
    assert plan.missing_flags == ["VCC"] and plan.ops == [] and "PWR_FLAG of VCC: no free place" in plan.overlaps


def test_nothing_drawn_off_the_page_unreported(placed):
    # J1's pins end 0.7 mm inside the A4 frame's left line (12 mm), pointing out of it:
    # its power symbols have no room on the page; sch.connect says so, naming the pins
    # and what lies off the page (before, it drew them beyond the frame and said "no overlaps")
    s, sch = placed
    c(s, "sch.move", path=sch, reference="J1", at=[17.78, 88.9])
    out = c(s, "sch.connect", path=sch, nets=NETS)
    assert {u.split(" ")[0] for u in out["unplaced"]} >= {"J1.1", "J1.2"}, out["unplaced"]
    assert out["off_page"] and all("outside the A4 frame" in r for r in out["off_page"]), out["off_page"]
    assert "off the page" in out["summary"]
    # the rest of the sheet is drawn as before: nothing else reported
    assert all(u.startswith("J1.") or u.startswith("PWR_FLAG") for u in out["unplaced"]), out["unplaced"]
