"""MCP costs: the tool list in tokens (per toolset), and tools/call latency over stdio
and Streamable HTTP.

Usage: python bench/bench_mcp.py [BOARD] [--repeat N]
Spawns `boardwire mcp` (stdio) and `boardwire mcp --http --no-auth` with the official
SDK client, opens the board (default: KiCad's video demo), and times N calls of
query_nets on it after a warm-up, printing Markdown tables. Tokens of the tool list
(the JSON a client forwards to its model) are counted with the Claude tokenizer
Anthropic published (anthropic==0.34.2, a test extra), with word runs and single
punctuation marks (an upper bound for any BPE tokenizer), and as characters / 4.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

from boardwire.protocols.mcp.tools import count_tokens
from boardwire.protocols.mcp.toolsets import DEFAULT_MAX_TOOLS, DEFAULT_TOKEN_BUDGET, families, tool_list

DEFAULT = Path("/usr/share/kicad/demos/video/video.kicad_pcb")


def token_table() -> None:
    print("| tool set | tools | Claude tokenizer | upper bound | chars / 4 |")
    print("|---|---:|---:|---:|---:|")
    for name in ["default", *families(), "all"]:
        tools = tool_list([name])
        if tools:
            print(f"| {name} | {len(tools)} | {count_tokens(tools, 'claude')} | {count_tokens(tools, 'upper')} "
                  f"| {len(json.dumps(tools, separators=(',', ':'))) // 4} |")
    print(f"\nBudget: the default set, at most {DEFAULT_MAX_TOOLS} tools and {DEFAULT_TOKEN_BUDGET} tokens; "
          "a family's list includes toolset_enable.\n")


async def timed_calls(client, path: str, repeat: int) -> list[float]:
    await client.call_tool("session_open", {"path": path})
    for _ in range(10):  # warm-up: the first whole-board query reads every item
        await client.call_tool("query_nets", {"path": path})
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = await client.call_tool("query_nets", {"path": path})
        out.append((time.perf_counter() - t0) * 1000)
        assert not r.is_error
    return out


async def over_stdio(root: Path, path: str, repeat: int) -> list[float]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "boardwire.cli.main", "mcp"], cwd=str(root),
                                    env=dict(os.environ))
    async with Client(params, mode="legacy") as client:
        return await timed_calls(client, path, repeat)


async def over_http(root: Path, path: str, repeat: int) -> list[float]:
    from mcp import Client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "mcp", "--http", "--no-auth",
                             "--port", str(port)], cwd=root, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):  # up to a minute on a busy machine
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as client:
            return await timed_calls(client, path, repeat)
    finally:
        proc.terminate()
        proc.wait()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("board", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=200)
    a = ap.parse_args()
    token_table()
    src = Path(a.board)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(src, Path(tmp) / src.name)
        print(f"tools/call query_nets on {src.name}, {a.repeat} calls after 10 warm-up calls:\n")
        print("| transport | p50 ms | p95 ms |")
        print("|---|---:|---:|")
        for name, fn in (("stdio", over_stdio), ("Streamable HTTP", over_http)):
            ms = anyio.run(fn, Path(tmp), src.name, a.repeat)
            q = statistics.quantiles(ms, n=20)
            print(f"| {name} | {statistics.median(ms):.2f} | {q[18]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
