"""Result tokens of the table commands, compact line tables against JSON rows, on
KiCad's demo boards and libraries (issue 17's evidence).

Usage: python bench/bench_tables.py
Each command runs twice on the same input, with ``format: "table"`` (the default over
MCP) and ``format: "json"``; tokens are those of the whole result as the client
receives it (structuredContent, JSON), counted with the Claude tokenizer Anthropic
published (anthropic==0.34.2, a test extra) or, without it, the word/punctuation
upper bound. ERC needs kicad-cli.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from boardwire.protocols.mcp.tools import measured_tokens
from boardwire.commands import REGISTRY
from boardwire.registry import Context
from boardwire.session import Session

DEMOS = Path("/usr/share/kicad/demos")
FILES = ["ecc83/ecc83-pp.kicad_pcb", "stickhub/StickHub.kicad_pcb",
         *[f"video/{p.name}" for p in sorted((DEMOS / "video").glob("video.kicad_p*"))],
         *[f"video/{p.name}" for p in sorted((DEMOS / "video").glob("*.kicad_sch"))]]
CALLS = [
    ("query.items", {"path": "video.kicad_pcb"}),
    ("query.items", {"path": "video.kicad_pcb", "limit": 500}),
    ("query.nets", {"path": "video.kicad_pcb"}),
    ("query.nets", {"path": "ecc83-pp.kicad_pcb"}),
    ("query.pads", {"path": "video.kicad_pcb"}),
    ("query.pads", {"path": "StickHub.kicad_pcb", "reference": "U1"}),
    ("lib.search", {"query": "0603 resistor"}),
    ("lib.search", {"query": "LM358", "kind": "symbol"}),
    ("check.drc", {"path": "StickHub.kicad_pcb", "engine": "builtin"}),
    ("check.erc", {"path": "video.kicad_sch"}),
]


def main() -> None:
    root = Path(tempfile.mkdtemp())
    for f in FILES:
        if (DEMOS / f).exists():
            shutil.copy(DEMOS / f, root)
    session = Session(root)
    how = ""
    print("| command | arguments | rows | JSON tokens | table tokens | saved |")
    print("|---|---|---:|---:|---:|---:|")
    for cid, args in CALLS:
        try:
            as_json = REGISTRY.call(cid, {**args, "format": "json"}, Context(session))
            table = REGISTRY.call(cid, {**args, "format": "table"}, Context(session))
        except Exception as e:  # noqa: BLE001 - e.g. no kicad-cli: say so, go on
            print(f"| {cid} | {args} | - | - | - | {type(e).__name__} |")
            continue
        rows = sum(len(v) for k, v in as_json.items() if k in REGISTRY.get(cid).tables)
        (j, how), (t, _) = measured_tokens(as_json), measured_tokens(table)
        shown = ", ".join(f"{k}={v}" for k, v in args.items())
        print(f"| {cid} | {shown} | {rows} | {j} | {t} | {100 * (j - t) / j:.0f}% |")
    print(f"\nTokens counted with the {how}.")
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
