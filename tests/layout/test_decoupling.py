"""The one decoupling assignment (layout/place/decoupling.py) on the pins of real
KiCad symbols: the RP2040's (Raspberry Pi MCU, 7 IOVDD pins and more on +3V3), a
W25Q32 flash and an AMS1117-3.3 regulator on one +3V3 rail, read from the installed
libraries (`parts.kicad_source.symbol_pins`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardwire.errors import InvalidArgs
from boardwire.layout.place.decoupling import BULK_TARGET_MM, TARGET_MM, Pads, assign, farads
from boardwire.parts.kicad_source import symbol_pins
from tests.inputs import SYMBOLS, need

pytestmark = pytest.mark.kicad
MCU, FLASH, LDO = "MCU_RaspberryPi:RP2040", "Memory_Flash:W25Q32JVSS", "Regulator_Linear:AMS1117-3.3"


def pads(ref: str, symbol: str, nets: dict[str, str], value: str = "") -> Pads:
    """A footprint with the symbol's pins; pins named in ``nets`` (pin name -> net)
    on that net, others on their own."""
    pins = symbol_pins(symbol, Path.cwd())
    numbers = list(dict.fromkeys(p["number"] for p in pins))
    name = {p["number"]: p["name"] for p in pins}
    return Pads(ref, numbers, [nets.get(name[n], f"{ref}-{n}") for n in numbers], "", value)


@pytest.fixture
def rail():
    for lib in ("MCU_RaspberryPi", "Memory_Flash", "Regulator_Linear"):
        need(SYMBOLS / f"{lib}.kicad_sym")
    mcu = pads("U1", MCU, {"IOVDD": "+3V3", "USB_VDD": "+3V3", "ADC_AVDD": "+3V3", "VREG_VIN": "+3V3",
                           "DVDD": "+1V1", "VREG_VOUT": "+1V1", "GND": "GND"})
    flash = pads("U2", FLASH, {"VCC": "+3V3", "GND": "GND"})
    ldo = pads("U3", LDO, {"VO": "+3V3", "VI": "+5V", "GND": "GND"})
    caps = [Pads(f"C{k}", ["1", "2"], ["+3V3", "GND"], "", "100n") for k in range(1, 13)]
    caps += [Pads("C20", ["1", "2"], ["+3V3", "GND"], "", "10uF"), Pads("C21", ["1", "2"], ["GND", "+5V"], "", "4u7")]
    return [mcu, flash, ldo, *caps]


def test_one_cap_per_pin_the_ic_with_most_supply_pins_first(rail):
    mcu = rail[0]
    supply = sorted({n for n, net in zip(mcu.numbers, mcu.nets) if net == "+3V3"}, key=int)
    assert len(supply) >= 9  # IOVDD x6, USB_VDD, ADC_AVDD, VREG_VIN
    got = {a.cap: a for a in assign(rail)}
    small = [got[f"C{k}"] for k in range(1, 13)]
    # the RP2040's pins first, one each, in pin order; then the flash's and the
    # regulator's output (one pin each); then the RP2040's first pin gets a second
    order = [f"U1.{n}" for n in supply] + ["U2.8", "U3.2", "U1." + supply[0]]
    assert [a.label for a in small] == order[:12]
    assert all(a.target_mm == TARGET_MM and not a.bulk for a in small)
    # bulk: the regulator's pin on the rail (its other pin is on +5V), whatever the IC
    assert (got["C20"].label, got["C20"].bulk, got["C20"].target_mm) == ("U3.2", True, BULK_TARGET_MM)
    assert got["C21"].label == "U3.3" and got["C21"].bulk and got["C21"].net == "+5V"


def test_a_given_pin_is_kept_and_claimed(rail):
    got = {a.cap: a for a in assign(rail, {"C5": "U2.8", "C20": "U1.1"})}
    assert got["C5"].label == "U2.8" and got["C5"].given and got["C5"].ic_pads == [rail[1].numbers.index("8")]
    assert got["C20"].label == "U1.1" and got["C20"].bulk  # a bulk cap goes where it is told
    # U2.8 is taken: the twelve small ones fill the RP2040 and U3.2 before U2.8 has two
    assert sum(a.label == "U2.8" for a in got.values()) == 1


def test_a_wrong_map_names_each_entry(rail):
    with pytest.raises(InvalidArgs) as e:
        assign(rail, {"C99": "U1.1", "C1": "U9.1", "C2": "U1.999", "C3": "U3.3"})
    assert [(x["loc"], x["type"]) for x in e.value.data["errors"]] == [
        ("decouple.C1", "unknown-ref"), ("decouple.C2", "unknown-pin"), ("decouple.C3", "not-decoupling"),
        ("decouple.C99", "unknown-ref")]


def test_capacitor_values():
    assert farads("0.1uF") == pytest.approx(1e-7) and farads("22p") == pytest.approx(2.2e-11)
    assert farads("4u7") == pytest.approx(4.7e-6) and farads("10µF 16V") == pytest.approx(1e-5)
    assert farads("100n") == pytest.approx(1e-7) and farads("C14663") is None and farads("") is None
