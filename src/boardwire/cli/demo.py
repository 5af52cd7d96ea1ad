"""``boardwire demo``: the main job, end to end, as an agent's host runs it.

Spawns ``boardwire mcp`` with the official SDK client over stdio (exactly as an MCP
client would), and on a copy of KiCad's "ecc83" demo board (bundled) lists the
tools, reads the summary, queries nets and the ratsnest, moves a footprint, routes
the connection the move broke (from the old pad position, where its track ends, to
the new one), refills the ground zone with KiCad's filler, runs KiCad's DRC (0 errors),
renders a PNG, undoes and redoes one step and saves into the output folder. Prints the
transcript with each call's time.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..registry.tables import decode

BOARD = "ecc83-pp.kicad_pcb"
MOVED = "R4"  # 3 mm to the right is free space: the edit leaves KiCad's DRC at 0 errors


def bundled_project() -> Path:
    return Path(__file__).resolve().parent.parent / "examples" / "ecc83"


def prepare(out: Path) -> Path:
    """Copy the bundled demo project into a folder holding none of its files: ``out``,
    or if that has some already (a board the user may have edited since), the first
    free ``out-2``, ``out-3``...; the folder used. Never overwrites a file."""
    files = list(bundled_project().glob("ecc83-pp.*"))
    folder, n = out, 1
    while any((folder / f.name).exists() or (folder / f.name).is_symlink() for f in files):
        n += 1
        folder = out.with_name(f"{out.name}-{n}")
    folder.mkdir(parents=True, exist_ok=True)
    for f in files:
        with open(f, "rb") as src, open(folder / f.name, "xb") as dst:  # "x": never over a file
            shutil.copyfileobj(src, dst)
    return folder


async def transcript(out: Path) -> list[dict]:
    """Run the demo session against a spawned server; one row per call."""
    from mcp import Client, StdioServerParameters

    from ..protocols.mcp.tools import measured_tokens

    def _tokens(obj) -> str:
        n, how = measured_tokens(obj)
        return f"{n} tokens ({how})"

    rows: list[dict] = []
    server = StdioServerParameters(command=sys.executable, args=["-m", "boardwire.cli.main", "mcp"], cwd=str(out),
                                    env=dict(os.environ))  # the same boardwire as this process (PYTHONPATH)

    async with Client(server, mode="auto") as client:
        async def call(tool: str, args: dict) -> dict:
            t0 = time.perf_counter()
            r = await client.call_tool(tool, args)
            while not r.is_error and (r.structured_content or {}).get("state") == "running":  # a job: wait
                r = await client.call_tool("job_wait", {"job": r.structured_content["job"]})
            ms = (time.perf_counter() - t0) * 1000
            body = r.structured_content or {}
            text = body.get("error", {}).get("message") if r.is_error else body.get("summary")
            rows.append({"call": tool, "args": args, "ms": round(ms, 1), "ok": not r.is_error,
                         "result": text or (r.content[0].text if r.content else "")})
            return body

        t0 = time.perf_counter()
        listed = (await client.list_tools()).tools
        rows.append({"call": "tools/list", "args": {}, "ms": round((time.perf_counter() - t0) * 1000, 1), "ok": True,
                     "result": f"{len(listed)} tools, {_tokens([t.model_dump(by_alias=True, exclude_none=True) for t in listed])} "
                               f"(protocol {client.protocol_version})"})
        await call("query_describe", {"path": BOARD})
        await call("query_nets", {"path": BOARD})
        await call("query_unrouted", {"path": BOARD})
        before = await call("query_pads", {"path": BOARD, "reference": MOVED})
        await call("pcb_move", {"path": BOARD, "reference": MOVED, "by": [3, 0]})
        unrouted = await call("query_unrouted", {"path": BOARD})
        was = {f"{MOVED}-{p['number']}": p["at"] for p in decode(before.get("pads", ""))[0]}
        for link in unrouted.get("links", [])[:1]:  # reconnect the pad to where its track ends
            pad, now = (link["from"], link["from_at"]) if link["from"] in was else (link["to"], link["to_at"])
            if pad in was:
                await call("pcb_route", {"path": BOARD, "points": [was[pad], now], "layers": ["B.Cu"],
                                         "width": 0.5, "net": link["net"]})
        await call("query_unrouted", {"path": BOARD})
        await call("pcb_fillZones", {"path": BOARD})  # the ground zone flows around the new track
        await call("check_drc", {"path": BOARD})
        await call("render_png", {"path": BOARD, "output": "ecc83-pp.png"})
        await call("session_undo", {"path": BOARD})
        await call("toolset_enable", {"toolset": "core"})  # session_redo is outside the default set
        await call("session_redo", {"path": BOARD})
        await call("session_save", {"path": BOARD})
    return rows


def run(out: Path, as_json: bool = False) -> int:
    """Run the demo into ``out``; returns the exit status (0 when every call but the
    KiCad ones succeeded; KiCad's absence is reported, not fatal)."""
    import anyio

    asked, out = out, prepare(out)
    if out != asked:
        print(f"{asked} already holds the demo's files (kept as they are); this run is in {out}", file=sys.stderr)
    rows = anyio.run(transcript, out)
    if as_json:
        print(json.dumps(rows, indent=1))
    else:
        table = Table(title=f"boardwire demo in {out}", title_justify="left")
        for col in ("#", "call", "ms", "result"):
            table.add_column(col, overflow="fold", no_wrap=col in ("#", "ms"))
        for i, row in enumerate(rows, 1):
            result = escape(row["result"]) if row["ok"] else f"[red]{escape(row['result'])}[/red]"
            table.add_row(str(i), escape(row["call"]), f"{row['ms']:.1f}", result)
        Console().print(table)
        Console().print(f"saved {out / BOARD}; render {out / 'ecc83-pp.png'}")
    hard = [r for r in rows if not r["ok"] and r["call"] not in ("check_drc", "render_png", "pcb_fillZones")]
    return 1 if hard else 0
