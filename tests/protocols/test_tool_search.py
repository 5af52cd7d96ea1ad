"""Tools are found by a client's tool search: an Okapi BM25 ranking over each tool's
name and description (as clients that load MCP schemas on demand search them) puts
the right tool in the top 3 for typical requests, over the full list and over the
default set plus toolset_enable.

BM25 as in Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and
Beyond" (2009): idf = ln(1 + (N - n + 0.5) / (n + 0.5)), k1 = 1.2, b = 0.75.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from boardwire.protocols.mcp import toolsets

# (request, the tool that does it, or a set of tools that each do it); written as a user
# would ask, before ranking.
REQUESTS = [
    ("route the board", "pcb_autoroute"),
    ("find a 10k 0603 resistor", "parts_search"),
    ("find a timer symbol in the KiCad libraries", "lib_search"),
    ("build the board from my design document", "design_build"),
    ("import a parts catalogue file", "parts_import"),
    ("check clearances", "check_drc"),
    ("make gerbers", "fab_gerbers"),
    ("open a board file", "session_open"),
    ("save my changes to disk", "session_save"),
    ("undo the last edit", "session_undo"),
    ("list the nets of the board", "query_nets"),
    ("which connections are not routed yet", "query_unrouted"),
    ("move a footprint", "pcb_move"),
    ("rotate a part by 90 degrees", "pcb_rotate"),
    ("add a ground plane", "pcb_addZone"),
    ("refill the copper pours", "pcb_fillZones"),
    ("draw the board outline", "pcb_outline"),
    ("place a symbol in the schematic", "sch_placeSymbol"),
    ("connect two pins with a wire", "sch_wire"),
    ("annotate the reference designators", "sch_annotate"),
    ("run the electrical rules check", "check_erc"),
    ("show me a picture of the board", "render_png"),
    ("update the PCB from the schematic", "project_updatePcb"),
    ("create a new KiCad project", "project_new"),
    ("export a bill of materials", "fab_bom"),
    ("flash the firmware to the board", "fw_flash"),
    ("pad positions of a footprint", "query_pads"),
    ("set track width and clearance for a net class", "pcb_setNetclass"),
    ("read the serial monitor output", "fw_monitor_read"),
    ("pick and place file for assembly", "fab_positions"),
    ("get more tools for firmware", toolsets.ENABLE_TOOL),
]


def words(text: str) -> list[str]:
    """Lower-case words; camelCase and snake_case names split into their words."""
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return re.findall(r"[a-z0-9]+", text.lower())


class BM25:
    def __init__(self, docs: dict[str, str], k1: float = 1.2, b: float = 0.75) -> None:
        self.terms = {name: Counter(words(text)) for name, text in docs.items()}
        self.lengths = {name: sum(c.values()) for name, c in self.terms.items()}
        self.avg = sum(self.lengths.values()) / len(docs)
        df = Counter(t for c in self.terms.values() for t in c)
        n = len(docs)
        self.idf = {t: math.log(1 + (n - m + 0.5) / (m + 0.5)) for t, m in df.items()}
        self.k1, self.b = k1, b

    def score(self, name: str, query: str) -> float:
        tf, length = self.terms[name], self.lengths[name]
        total = 0.0
        for t in set(words(query)):
            f = tf.get(t, 0)
            if f:
                total += self.idf[t] * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * length / self.avg))
        return total

    def top(self, query: str, k: int = 3) -> list[str]:
        return sorted(self.terms, key=lambda name: -self.score(name, query))[:k]


def _wanted(tool) -> set[str]:
    return set(tool) if isinstance(tool, (set, frozenset)) else {tool}


def _index(listed: list[dict]) -> BM25:
    return BM25({t["name"]: f"{t['name']} {t['description']}" for t in listed})


@pytest.mark.parametrize("request_text, tool", REQUESTS, ids=[r for r, _ in REQUESTS])
def test_the_full_list_finds_the_tool_in_the_top_3(request_text, tool):
    found = _index(toolsets.tool_list(["all"]) + [toolsets.enable_tool(["default"])]).top(request_text)
    assert set(found) & _wanted(tool), (request_text, found)


def test_the_default_set_finds_its_tools_or_the_way_to_them():
    """Over what `boardwire mcp` serves: a request for a default tool finds it; any
    other finds toolset_enable in the top 3, whose description names the family."""
    listed = toolsets.tool_list()
    served = {t["name"] for t in listed}
    index = _index(listed)
    missed = []
    for request_text, tool in REQUESTS:
        found = set(index.top(request_text))
        wanted = _wanted(tool) & served or {toolsets.ENABLE_TOOL}
        if not found & wanted:
            missed.append((request_text, tool, found))
    assert len(REQUESTS) >= 25 and not missed, missed
