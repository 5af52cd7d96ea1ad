"""design.*: the 555 blinker and the USB-C 5 V -> 3.3 V breakout built from their JSON
(examples/designs/), then an ATmega328P board (crystal, reset, ISP header, decoupling)
and a CH340C USB-UART bridge, and uno-mini (32 parts: both of those with a regulator,
LEDs and headers), with real parts from KiCad's libraries and the JLCPCB sample
catalogue, judged by kicad-cli on the saved files (ERC 0 errors; DRC with schematic
parity: 0 errors, 0 unconnected, 0 parity issues), the schematic's item boxes (no
overlaps), fab outputs complete; a rebuild byte for byte; check errors a model can act on.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from boardwire.documents.schematic import Schematic
from boardwire.documents.schematic.extent import overlaps, sheet_extents
from boardwire.errors import DesignErrors, InvalidArgs
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import REPO, SYMBOLS, need
from tests.parts.test_parts import SAMPLE

pytestmark = [pytest.mark.kicad, pytest.mark.xdist_group("design-builds")]
DESIGNS = REPO / "examples" / "designs"


def c(session, cid, **args):
    return REGISTRY.call(cid, args, Context(session))


def kicad_erc_errors(sch: Path, tmp: Path) -> int:
    out = tmp / "erc.json"
    subprocess.run(["kicad-cli", "sch", "erc", "--format", "json", "--severity-error", "-o", str(out), str(sch)],
                   check=True, capture_output=True)
    return sum(len(s.get("violations", [])) for s in json.loads(out.read_text())["sheets"])


def kicad_drc(pcb: Path, tmp: Path) -> tuple[int, int, int]:
    out = tmp / "drc.json"
    subprocess.run(["kicad-cli", "pcb", "drc", "--format", "json", "--schematic-parity", "--severity-error",
                    "-o", str(out), str(pcb)], check=True, capture_output=True)
    r = json.loads(out.read_text())
    return len(r.get("violations", [])), len(r.get("unconnected_items", [])), len(r.get("schematic_parity", []))


def designs_workspace(tmp_path_factory, name: str, library: str):
    """A session over a folder holding every example design and the sample catalogue
    imported; skipped (required in CI) without KiCad's ``library`` or kicad-cli."""
    need(SYMBOLS / library)
    need(SAMPLE)
    if shutil.which("kicad-cli") is None:
        need(Path("/usr/bin/kicad-cli"))
    root = tmp_path_factory.mktemp(name)
    shutil.copy(SAMPLE, root / "sample.csv")
    for f in DESIGNS.glob("*.json"):
        shutil.copy(f, root / f.name)
    s = Session(root)
    c(s, "parts.import", file="sample.csv")
    return s, root


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    return designs_workspace(tmp_path_factory, "designs", "Timer.kicad_sym")


@pytest.fixture(scope="module")
def blinker(workspace):
    s, root = workspace
    return c(s, "design.build", file="blinker555.json")


def judge_files(root: Path, out: dict, tmp: Path) -> None:
    folder = root / out["version"]
    name = Path(out["board"]).stem
    sch, pcb = folder / f"{name}.kicad_sch", folder / f"{name}.kicad_pcb"
    assert kicad_erc_errors(sch, tmp) == 0
    assert kicad_drc(pcb, tmp) == (0, 0, 0)
    assert overlaps(sheet_extents(Schematic.load(sch))) == []
    zipped = set(zipfile.ZipFile(folder / "fab" / "fab.zip").namelist())
    for layer in ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_Silkscreen", "Edge_Cuts"):
        assert any(layer in n for n in zipped), layer
    assert any(n.endswith("PTH.drl") for n in zipped)
    assert (folder / "fab" / f"{name}-bom-jlcpcb.csv").is_file() and (folder / "fab" / f"{name}-cpl-jlcpcb.csv").is_file()
    for f in ("design.json", "settings.json", "build.json", "verdict.json", "board.png"):
        assert (folder / f).is_file(), f


def test_blinker_from_json(workspace, blinker, tmp_path):
    s, root = workspace
    v = blinker["verdict"]
    assert v["clean"] and v["unrouted"] == 0 and v["rubric"]["schematic_overlaps"] == 0, blinker["stages"]
    assert [st["stage"] for st in blinker["stages"]][-1] == "fab"
    judge_files(root, blinker, tmp_path)


@pytest.mark.parametrize("name", ["atmega328p", "usb-uart",
                                  pytest.param("uno-mini", marks=pytest.mark.heavy(minutes=2))])
def test_mcu_and_bridge_from_json(workspace, tmp_path, name):
    s, root = workspace
    out = c(s, "design.build", file=f"{name}.json")
    assert out["verdict"]["clean"] and out["verdict"]["rubric"]["schematic_overlaps"] == 0, out["stages"]
    judge_files(root, out, tmp_path)


def test_usbc_breakout_from_json(workspace, tmp_path):
    s, root = workspace
    out = c(s, "design.build", file="usbc-3v3.json")
    assert out["verdict"]["clean"], out["stages"]
    judge_files(root, out, tmp_path)
    folder = root / out["version"]
    with open(folder / "fab" / "usbc-3v3-bom-jlcpcb.csv", newline="") as f:
        rows = {r["Designator"]: r["LCSC Part #"] for r in csv.DictReader(f)}
    assert rows["U1"] == "C6186" and rows["C3"] == "C14663" and rows["R1,R2"] == "C23186"  # catalogue parts carried


def test_rebuild_is_byte_identical(workspace, blinker):
    s, root = workspace
    again = c(s, "design.rebuild", version=blinker["version"])
    assert again["different"] == [] and "blinker555.kicad_pcb" in again["identical"] \
        and "blinker555.kicad_sch" in again["identical"]
    a, b = root / blinker["version"], root / again["version"]
    assert (a / "verdict.json").read_bytes() == (b / "verdict.json").read_bytes()
    # the fab files too: kicad-cli's date stamps carry the first build's time, so every
    # Gerber, drill file and fab.zip repeats byte for byte
    fab = sorted(f.name for f in (a / "fab").iterdir())
    assert "fab.zip" in fab and any(n.endswith(".drl") for n in fab) and len(fab) > 8
    for name in fab:
        assert f"fab/{name}" in again["identical"]
        assert (a / "fab" / name).read_bytes() == (b / "fab" / name).read_bytes(), name


def test_check_reports_what_to_fix(workspace):
    s, _ = workspace
    design = {"name": "bad", "components": [
        {"ref": "U1", "symbol": "Timer:NE555P"}, {"ref": "R1", "symbol": "Device:R", "footprint": "Resistor_SMD:R_0603_1608Metric"},
        {"ref": "C1", "part": "C999999999"}],
        "nets": {"A": ["U1.3", "R1.1"], "B": ["R1.2"], "C": ["U1.9", "R1.1"], "+5V": ["U1.8", "U1.4"]}}
    out = c(s, "design.check", design=design)
    codes = {e["code"] for e in out["errors"]}
    assert {"unknown-part", "single-pin-net", "unknown-pin", "pin-twice", "unconnected-pin", "no-power-source"} <= codes
    assert all(e["fix"] for e in out["errors"])
    with pytest.raises(DesignErrors):
        c(s, "design.build", design=design)
    with pytest.raises(InvalidArgs, match="colour: Extra inputs"):
        c(s, "design.check", design={**design, "colour": "red"})
