"""Decoupling by pin on uno-mini (examples/designs: an ATmega328P-A with three supply
pins on +5V, a CH340C and an AMS1117 regulator on the same rail; KiCad's libraries and
the JLCPCB sample catalogue), built to its placement stage.

* A design's ``constraints.decouple`` is honoured: each mapped capacitor ends within
  its 2 mm target of its pin (copper edge to edge), as pcb.scorePlacement measures it.
* Without it each small capacitor gets a supply pin of its own, the IC with the most
  supply pins first (U3's 4, 6, 18), the bulk ones the regulator's pins.
* The verdict measures a capacitor to the pin it serves, not to the nearest IC pad on
  its supply: C1, placed by U3.4, mapped to U1.16, is reported far from U1.16.
"""

from __future__ import annotations

import json
import shutil

import pytest

from boardwire.design.verdict import rubric
from boardwire.errors import InvalidArgs
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import REPO, SYMBOLS, need
from tests.parts.test_parts import SAMPLE

pytestmark = [pytest.mark.kicad, pytest.mark.xdist_group("decouple-builds"), pytest.mark.heavy(minutes=1)]
UNO = json.loads((REPO / "examples" / "designs" / "uno-mini.json").read_text())
MAP = {"C1": "U1.16", "C5": "U3.4", "C6": "U3.18"}  # C1 by the CH340C, as the schematic means it


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(session, call, board path) per variant: "auto" (no map) and "map" (MAP)."""
    need(SYMBOLS / "MCU_Microchip_ATmega.kicad_sym")
    need(SAMPLE)
    out = {}
    for variant in ("auto", "map"):
        root = tmp_path_factory.mktemp(f"uno-{variant}")
        shutil.copy(SAMPLE, root / "sample.csv")
        design = json.loads(json.dumps(UNO))
        if variant == "map":
            design["constraints"]["decouple"] = MAP
        (root / "uno.json").write_text(json.dumps(design))
        s = Session(root)

        def call(cid, args, s=s):
            return REGISTRY.call(cid, args, Context(s))

        call("parts.import", {"file": "sample.csv"})
        b = call("design.build", {"file": "uno.json", "until": "placement"})
        out[variant] = (call, b["board"])
    return out


def rows(call, pcb, decouple=None) -> dict[str, dict]:
    args = {"path": pcb, **({"decouple": decouple} if decouple else {})}
    return {r["capacitor"]: r for r in call("pcb.scorePlacement", args)["decoupling"]}


def test_the_map_is_honoured(built):
    call, pcb = built["map"]
    got = rows(call, pcb, MAP)
    assert {c: got[c]["pin"] for c in MAP} == MAP
    for c in MAP:
        assert got[c]["target"] == 2.0 and got[c]["distance"] <= 2.0 and not got[c]["beyond"], got[c]
    score = call("pcb.scorePlacement", {"path": pcb})
    assert score["overlaps"] == 0 and score["off_board"] == 0


def test_automatic_assignment_one_cap_per_pin_most_supply_pins_first(built):
    call, pcb = built["auto"]
    got = rows(call, pcb)
    # small ones (100 nF) on +5V: the ATmega's three supply pins, one each, before the
    # CH340C (one pin) gets any; bulk ones (10 uF, 22 uF) at the regulator's pins
    assert {c: r["pin"] for c, r in got.items()} == {
        "C1": "U3.4", "C5": "U3.6", "C6": "U3.18", "C8": "U2.3", "C10": "U2.3", "C11": "U2.2"}
    assert [got[c]["target"] for c in ("C1", "C8")] == [2.0, 5.0]
    assert not any(r["beyond"] for r in got.values()), got


def test_a_wrong_map_is_refused_with_its_entry(built):
    call, pcb = built["auto"]
    with pytest.raises(InvalidArgs) as e:
        call("pcb.scorePlacement", {"path": pcb, "decouple": {"C3": "U3.4", "C5": "U3.99"}})
    assert [(x["loc"], x["type"]) for x in e.value.data["errors"]] == [
        ("decouple.C3", "not-decoupling"), ("decouple.C5", "unknown-pin")]


def test_the_verdict_measures_to_the_assigned_pin(built):
    call, pcb = built["auto"]
    near = rows(call, pcb)["C1"]  # placed by U3.4 (auto)
    assert near["pin"] == "U3.4" and near["distance"] <= 2.0
    mapped = {r["ref"]: r for r in rubric(call, pcb, None, None, {"C1": "U1.16"})["decoupling"]}
    far = mapped["C1"]
    # the nearest IC pad on +5V is U3.4's; the verdict measures to U1.16 all the same
    assert far["pin"] == "U1.16" and far["net"] == "+5V"
    assert far["distance_mm"] > far["target_mm"] == 2.0 and far["beyond"] is True
    assert {r: v["pin"] for r, v in mapped.items()}["C5"] == "U3.4"  # the freed pin goes to the next one
