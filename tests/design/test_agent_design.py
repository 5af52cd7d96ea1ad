"""examples/agent_design.py: the USB-C breakout over MCP from an empty folder in at most
12 tool calls, judged by kicad-cli on the saved files; the README's line about it is
the measurement."""

from __future__ import annotations

import re
import sys

import anyio
import pytest

from tests.design.test_design import kicad_drc, kicad_erc_errors
from tests.inputs import REPO, SYMBOLS, need
from tests.parts.test_parts import SAMPLE

pytestmark = [pytest.mark.kicad, pytest.mark.heavy(minutes=1)]


def test_agent_builds_the_breakout_in_twelve_calls(tmp_path):
    need(SYMBOLS / "Connector.kicad_sym")
    need(SAMPLE)
    sys.path.insert(0, str(REPO / "examples"))
    import agent_design
    from agent_blinker import totals

    rows, built = anyio.run(agent_design.build, tmp_path / "usbc", SAMPLE)
    assert len(rows) <= 12 and all(r["ok"] for r in rows)
    assert built["verdict"]["clean"], built["stages"]
    folder = tmp_path / "usbc" / built["version"]
    assert kicad_erc_errors(folder / "usbc-3v3.kicad_sch", tmp_path) == 0
    assert kicad_drc(folder / "usbc-3v3.kicad_pcb", tmp_path) == (0, 0, 0)
    t = totals(rows)
    said = re.search(r"agent_design\.py took (\d+) tool calls\s+and ([\d,]+) tokens", (REPO / "README.md").read_text())
    calls, tokens = (int(n.replace(",", "")) for n in said.groups())
    assert calls == t["calls"]
    assert abs(tokens - t["tokens"]) <= 0.05 * t["tokens"], (tokens, t)
