"""lib.newSymbol: a symbol drawn from a pin table (taken from real parts: the installed
Timer:NE555P and Interface_UART:MAX3232), judged by kicad-cli (``sym export svg`` and
``sym upgrade`` load the library; the ERC of a design built with the symbol and a
lib.newFootprint SOIC-8 finds the library) and by KiCad's conventions read back through
lib.symbol: every pin end on the 100 mil grid, no two at one point, power pins at the
top and ground at the bottom, inputs on the left, outputs on the right, the body wide
enough for the names."""

from __future__ import annotations

import json
import subprocess

import pytest

from boardwire.errors import InvalidArgs
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import SYMBOLS, need

GRID = 2.54


def c(s, cid, **args):
    return REGISTRY.call(cid, args, Context(s))


def pin_table(s: Session, lib_id: str) -> list[dict]:
    need(SYMBOLS / f"{lib_id.split(':')[0]}.kicad_sym")
    return [{"number": p["number"], "name": p["name"], "type": p["type"]} for p in c(s, "lib.symbol", id=lib_id)["pins"]]


def on_grid(v: float) -> bool:
    return abs(v / GRID - round(v / GRID)) < 1e-6


@pytest.mark.parametrize("lib_id", ["Timer:NE555P", "Interface_UART:MAX3232"])
def test_drawn_as_kicads_conventions(tmp_path, lib_id):
    s = Session(tmp_path)
    table = pin_table(s, lib_id)
    name = lib_id.split(":")[1] + "_X"
    out = c(s, "lib.newSymbol", name=name, pins=table, footprint="Project:SOIC-8_3.9x4.9mm_P1.27mm")
    assert out["id"] == f"Project:{name}" and out["table"] == "sym-lib-table"
    sym = c(s, "lib.symbol", id=out["id"])
    assert sym["fields"]["Footprint"] == "Project:SOIC-8_3.9x4.9mm_P1.27mm" and sym["fields"]["Reference"] == "U"
    pins = {p["number"]: p for p in sym["pins"]}
    assert {(p["number"], p["name"], p["type"]) for p in sym["pins"]} == {(p["number"], p["name"], p["type"]) for p in table}
    assert all(on_grid(v) for p in sym["pins"] for v in p["at"]) and all(p["length"] == GRID for p in sym["pins"])
    assert len({tuple(p["at"]) for p in sym["pins"]}) == len(pins)
    width, height = out["body"]
    for p in table:
        got = pins[p["number"]]
        x, y = got["at"]  # schematic axes: y down
        if p["type"] == "power_in":
            ground = p["name"].upper().startswith("GND")
            assert got["orientation"] == (90 if ground else 270) and (y > height / 2 if ground else y < -height / 2)
        elif p["type"] in ("input", "passive"):
            assert got["orientation"] == 0 and x < -width / 2
        elif p["type"] in ("output", "open_collector", "power_out"):
            assert got["orientation"] == 180 and x > width / 2
    left = max(len(p["name"]) for p in table if pins[p["number"]]["orientation"] == 0)
    right = max(len(p["name"]) for p in table if pins[p["number"]]["orientation"] == 180)
    assert width >= (left + right) * 1.0 + 1.0  # 50 mil names (about 1 mm a character) fit side by side
    # grouped by type: a side's pins of one type are consecutive
    for side, numbers in out["sides"].items():
        kinds = [pins[n]["type"] for n in numbers]
        for k in set(kinds):
            at = [i for i, x in enumerate(kinds) if x == k]
            assert at == list(range(at[0], at[-1] + 1)), (side, kinds)


def test_library_grows_and_refuses(tmp_path):
    s = Session(tmp_path)
    pins = [{"number": "1", "name": "A", "type": "input"}, {"number": "2", "name": "Y", "type": "output"}]
    c(s, "lib.newSymbol", name="BUF", pins=pins, library="Logic")
    again = c(s, "lib.newSymbol", name="BUF2", pins=pins, library="Logic", value="buffer")
    assert "table" not in again and (tmp_path / "sym-lib-table").read_text().count("(lib") == 1
    assert {r["id"] for r in c(s, "lib.search", query="BUF", kind="symbol")["items"]} >= {"Logic:BUF", "Logic:BUF2"}
    with pytest.raises(InvalidArgs):
        c(s, "lib.newSymbol", name="BUF", pins=pins, library="Logic")
    c(s, "lib.newSymbol", name="BUF", pins=pins + [{"number": "3", "name": "OE", "type": "input"}],
      library="Logic", overwrite=True)
    assert len(c(s, "lib.symbol", id="Logic:BUF")["pins"]) == 3
    with pytest.raises(InvalidArgs):  # a pin number twice
        c(s, "lib.newSymbol", name="X", pins=pins + [pins[0]], library="Logic")
    with pytest.raises(InvalidArgs):  # not a KiCad electrical type
        c(s, "lib.newSymbol", name="X", pins=[{"number": "1", "type": "analog"}], library="Logic")
    with pytest.raises(InvalidArgs):  # the nickname of an installed library
        c(s, "lib.newSymbol", name="X", pins=pins, library="Device")


@pytest.mark.kicad
def test_kicad_loads_it_and_a_design_builds_with_it(tmp_path, kicad_cli):
    s = Session(tmp_path)
    table = pin_table(s, "Timer:NE555P")
    fp = c(s, "lib.newFootprint", package="soic", pins=8)["id"]
    header = c(s, "lib.newFootprint", package="pin_header", pins=2)["id"]
    sym = c(s, "lib.newSymbol", name="TIMER555", pins=table, footprint=fp)["id"]
    lib = tmp_path / "Project.kicad_sym"
    r = subprocess.run([kicad_cli, "sym", "export", "svg", str(lib), "-o", str(tmp_path / "svg")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and (tmp_path / "svg" / "TIMER555_unit1.svg").is_file(), r.stdout + r.stderr
    r = subprocess.run([kicad_cli, "sym", "upgrade", str(lib), "-o", str(tmp_path / "up.kicad_sym")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    design = {"name": "timer", "components": [
        {"ref": "U1", "symbol": sym, "footprint": fp, "value": "NE555"},
        {"ref": "R1", "symbol": "Device:R", "footprint": "Resistor_SMD:R_0603_1608Metric", "value": "10k"},
        {"ref": "R2", "symbol": "Device:R", "footprint": "Resistor_SMD:R_0603_1608Metric", "value": "10k"},
        {"ref": "J1", "symbol": "Connector:Conn_01x02_Pin", "footprint": header, "value": "power"}],
        "nets": {"VCC": ["U1.8", "U1.4", "R1.1", "J1.1"], "GND": ["U1.1", "R2.2", "J1.2"],
                 "TRIG": ["U1.2", "U1.6", "U1.7", "R1.2", "R2.1"]},
        "no_connect": ["U1.3", "U1.5"]}
    built = c(s, "design.build", design=design, until="update")
    assert [st["status"] for st in built["stages"]] == ["ok"] * 4, built["stages"]
    board = s.get(built["board"]).doc
    u1 = board.footprint("U1")
    assert u1.lib_id == fp and {p.number: p.net_name for p in u1.pads}["8"] == "VCC"
    sch = next((tmp_path / built["version"]).glob("*.kicad_sch"))
    report = tmp_path / "erc.json"
    subprocess.run([kicad_cli, "sch", "erc", "--format", "json", "--severity-all", "-o", str(report), str(sch)],
                   capture_output=True, timeout=600)
    kinds = [v["type"] for sheet in json.loads(report.read_text())["sheets"] for v in sheet["violations"]]
    assert "lib_symbol_issues" not in kinds and "lib_symbol_mismatch" not in kinds, kinds
    assert "endpoint_off_grid" not in kinds, kinds  # the pins land on the schematic's grid
