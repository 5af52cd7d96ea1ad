"""A whole board built by an agent over MCP, judged by KiCad (issue 7's evidence).

examples/agent_blinker.py drives a spawned ``boardwire mcp`` from an empty folder to a
routed, filled, checked 555 blinker and its fabrication package. Here kicad-cli, not
boardwire, judges the saved files: ERC, DRC with schematic parity, the netlist against
the circuit the agent meant, and the contents of fab.zip.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import re
import subprocess
import sys
import zipfile
from collections import defaultdict
from pathlib import Path

import anyio
import pytest

from tests.oracle import netlist_nets

pytestmark = [pytest.mark.kicad, pytest.mark.xdist_group("end-to-end")]  # one `built` per run
ROOT = Path(__file__).resolve().parent.parent


def _agent():
    spec = importlib.util.spec_from_file_location("agent_blinker", ROOT / "examples" / "agent_blinker.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def built(kicad_cli, tmp_path_factory):
    """The build on a machine with no KiCad configuration yet (an empty
    KICAD_CONFIG_HOME: no global library tables), as a new user's, so its numbers do
    not depend on this machine's."""
    agent = _agent()
    folder = tmp_path_factory.mktemp("agent") / "blinker"
    config = tmp_path_factory.mktemp("kicad-config")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KICAD_CONFIG_HOME", str(config))
        rows = anyio.run(agent.build, folder)
    return agent, folder, rows


def _cli(kicad_cli: str, *args: str) -> None:
    r = subprocess.run([kicad_cli, *args], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]


def test_every_call_succeeded_and_the_folder_started_empty(built):
    agent, folder, rows = built
    assert rows[0]["tool"] == "project_new"
    assert all(r["ok"] for r in rows)
    assert {p.name for p in folder.iterdir()} >= {f"{agent.NAME}.kicad_pro", f"{agent.NAME}.kicad_sch",
                                                   f"{agent.NAME}.kicad_pcb", "fab"}


def test_kicad_erc_finds_no_error(built, kicad_cli, tmp_path):
    agent, folder, _ = built
    report = tmp_path / "erc.json"
    _cli(kicad_cli, "sch", "erc", "--format", "json", "-o", str(report), str(folder / f"{agent.NAME}.kicad_sch"))
    violations = [v for s in json.loads(report.read_text())["sheets"] for v in s["violations"]]
    assert [v for v in violations if v["severity"] == "error"] == []


def test_kicad_drc_with_schematic_parity_is_clean(built, kicad_cli, tmp_path):
    agent, folder, _ = built
    report = tmp_path / "drc.json"
    _cli(kicad_cli, "pcb", "drc", "--schematic-parity", "--format", "json", "-o", str(report),
         str(folder / f"{agent.NAME}.kicad_pcb"))
    drc = json.loads(report.read_text())
    assert [v for v in drc["violations"] if v["severity"] == "error"] == []
    assert drc["unconnected_items"] == []
    assert drc["schematic_parity"] == []
    board = (folder / f"{agent.NAME}.kicad_pcb").read_text()
    assert board.count("(segment") >= 20 and "(zone" in board and "(filled_polygon" in board


def test_the_schematic_is_the_circuit_the_agent_meant(built, kicad_cli, tmp_path):
    agent, folder, _ = built
    netlist = tmp_path / "net.net"
    _cli(kicad_cli, "sch", "export", "netlist", "--format", "kicadsexpr", "-o", str(netlist),
         str(folder / f"{agent.NAME}.kicad_sch"))
    meant = defaultdict(set)
    for ref, (_sym, _value, _fp, pins) in agent.PARTS.items():
        for pin, net in pins.items():
            meant[net].add(f"{ref}.{pin}")
    assert sorted(netlist_nets(netlist).values(), key=sorted) == sorted(map(frozenset, meant.values()), key=sorted)


def test_fab_zip_holds_every_layer_drill_positions_and_bom(built, kicad_cli, tmp_path):
    agent, folder, _ = built
    with zipfile.ZipFile(folder / "fab" / "fab.zip") as z:
        files = {n: z.read(n) for n in z.namelist()}
    functions = set()
    for name, data in files.items():
        if name.endswith(".gbr"):
            functions |= set(re.findall(rb"%TF\.FileFunction,([^*]*)\*%", data))
    assert {b"Copper,L1,Top", b"Copper,L2,Bot", b"Soldermask,Top", b"Soldermask,Bot",
            b"Legend,Top", b"Legend,Bot", b"Profile,NP"} <= functions
    drills = [n for n in files if n.endswith(".drl")]
    assert any(n.endswith("-PTH.drl") for n in drills) and any(n.endswith("-NPTH.drl") for n in drills)
    pth = next(files[n] for n in drills if n.endswith("-PTH.drl"))
    assert pth.startswith(b"M48") and pth.count(b"\nX") >= 10  # 8 DIP pins, 2 header pins, vias
    pos = next(files[n] for n in files if n.endswith("-pos.csv")).decode()
    assert {row["Ref"] for row in csv.DictReader(io.StringIO(pos))} == set(agent.PARTS)
    bom = next(files[n] for n in files if n.endswith("-bom.csv")).decode()
    rows = list(csv.DictReader(io.StringIO(bom)))
    # the schematic's symbols (kicad-cli's own BOM of the saved schematic) are the BOM's rows
    theirs = tmp_path / "bom.csv"
    _cli(kicad_cli, "sch", "export", "bom", "--fields", "Reference,Value,Footprint", "-o", str(theirs),
         str(folder / f"{agent.NAME}.kicad_sch"))
    symbols = {(r["Reference"], r["Value"], r["Footprint"]) for r in csv.DictReader(theirs.open())}
    assert {(r["Reference"], r["Value"], r["Footprint"]) for r in rows} == symbols
    assert {r["Reference"] for r in rows} == set(agent.PARTS)


def test_readme_records_the_calls_and_tokens_of_this_build(built):
    agent, _, rows = built
    t = agent.totals(rows)
    said = re.search(r"agent_blinker\.py took (\d+) tool calls\s+and ([\d,]+) tokens", (ROOT / "README.md").read_text())
    calls, tokens = (int(n.replace(",", "")) for n in said.groups())
    assert calls == t["calls"]
    assert abs(tokens - t["tokens"]) <= 0.05 * t["tokens"], (tokens, t)  # ids and times vary a little


def test_the_audit_log_lists_every_call_with_its_seconds(built):
    """Every call the agent made is a line of the workspace's audit log, in order, with
    its seconds (a long call answered with a job: the line written when the job ended;
    the job_wait calls are lines of their own); session.export renders them."""
    from boardwire.protocols.mcp.tools import command_for
    from boardwire.registry import REGISTRY, Context
    from boardwire.session import Session, audit

    agent, folder, rows = built
    lines = list(audit.read(folder))
    assert lines and all(x["door"] == "mcp" and x["client"] and x["seconds"] > 0 for x in lines)
    calls = [x for x in lines if not x["command"].startswith("job.") and x.get("state") != "running"]
    assert [x["command"] for x in calls] == [command_for(r["tool"]).id for r in rows]
    assert not any(x["error"] for x in calls)
    for x, r in zip(calls, rows):
        assert x["seconds"] <= r["ms"] / 1000 + 0.5 or "job" in x
    report = REGISTRY.call("session.export", {}, Context(Session(folder)))["markdown"]
    assert f"{len(lines)} calls" in report and all(f"`{x['command']}`" in report for x in calls)
