"""fw.pins on a real ESP32 design (OLIMEX ESP32-PoE, from the shared corpus) against
KiCad's own netlist (kicad-cli sch export netlist): every GPIO of the module with the
net KiCad names and the parts KiCad puts on it."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tests.inputs import need, need_corpus
from tests.oracle import netlist_nets

from .conftest import call, context

POE = "OLIMEX__ESP32-POE/HARDWARE/ESP32-PoE-hardware-revision-M1/ESP32-PoE_Rev_M1.kicad_sch"


@pytest.mark.kicad
def test_pins_of_the_esp32_poe_match_kicads_netlist(kicad_cli, ws, tmp_path):
    src = need(need_corpus() / POE)
    shutil.copy(src, ws / src.name)
    out = call(context(ws), "fw.pins", {"path": src.name})
    netlist = tmp_path / "poe.net"
    subprocess.run([kicad_cli, "sch", "export", "netlist", "--format", "kicadsexpr", "-o", str(netlist),
                    str(ws / src.name)], check=True, capture_output=True, timeout=600)
    kicad = netlist_nets(netlist)  # net name -> {REF.PIN}
    mcu = out["mcu"]["reference"]
    assert mcu == "U6" and "ESP32" in out["mcu"]["value"]
    by_pin = {node: (name, nodes) for name, nodes in kicad.items() for node in nodes if node.startswith(f"{mcu}.")}
    gpio_pins = {n.split(".")[1] for n in by_pin}
    rows = {r["number"]: r for r in out["pins"]}
    # every module pin KiCad connects whose name carries a GPIO number is listed
    module_pins = call(context(ws), "query.pins", {"path": src.name, "reference": mcu})["pins"]
    expected = {p["number"] for p in module_pins if re.search(r"(?:^|[/(])GPIO?\d", p["name"])}
    assert set(rows) == expected and expected <= gpio_pins
    for number, row in rows.items():
        name, nodes = by_pin[f"{mcu}.{number}"]
        assert row["net"] == name, number
        assert set(row["parts"]) == {n for n in nodes if not n.startswith(f"{mcu}.")}, number
    # what is on the nets, as a firmware author reads it
    sda = next(r for r in out["pins"] if r.get("gpio") == 13)
    assert any(s.startswith("pull-up R35") and s.endswith("+3.3V") for s in sda["on_net"])
    button = next(r for r in out["pins"] if r.get("gpio") == 34)
    assert any(s.startswith("button BUT1") for s in button["on_net"])
