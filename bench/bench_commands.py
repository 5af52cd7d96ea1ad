"""Median latency of common commands on an open board (issue: <= 2 ms each).

Usage: python bench/bench_commands.py [BOARD] [--repeat N]
Opens the board in a session (default: KiCad's video demo, 5.8 MB), reads every item
once (the first whole-board query pays for parsing; see docs/benchmarks.md), then
times each command N times through the registry, as every protocol door calls it, and
prints a Markdown table of the median and 90th percentile in milliseconds. Edits are
undone between runs so each run sees the same board.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from boardwire.commands import REGISTRY
from boardwire.registry import Context
from boardwire.session import Session

DEFAULT = Path("/usr/share/kicad/demos/video/video.kicad_pcb")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("board", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=200)
    a = ap.parse_args()
    src = Path(a.board)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(src, Path(tmp) / src.name)
        session = Session(tmp)
        ctx = Context(session, actor="bench")
        path = src.name
        t0 = time.perf_counter()
        REGISTRY.call("session.open", {"path": path}, ctx)
        t1 = time.perf_counter()
        REGISTRY.call("query.nets", {"path": path}, ctx)  # reads every item once
        t2 = time.perf_counter()
        board = session.get(path).doc
        ref = next(fp.reference for fp in board.footprints if fp.reference)
        nets = REGISTRY.call("query.nets", {"path": path, "limit": 5000}, ctx)["nets"]
        net = max(nets, key=lambda n: n["tracks"])["net"]  # the busiest net
        cases = [
            ("query.items", {"path": path, "kind": ["footprint"], "limit": 20}, False),
            ("query.items", {"path": path, "net": net, "limit": 20}, False),
            ("query.nets", {"path": path}, False),
            ("pcb.move", {"path": path, "reference": ref, "by": [0.5, 0]}, True),
            ("pcb.addTrack", {"path": path, "points": [[10, 10], [20, 10]], "width": 0.25, "net": net}, True),
        ]
        print(f"{src.name}: open {1000 * (t1 - t0):.0f} ms, first whole-board query "
              f"{1000 * (t2 - t1):.0f} ms; {a.repeat} runs each\n")
        print("| command | arguments | median ms | p90 ms |")
        print("|---|---|---:|---:|")
        for cid, args, undo in cases:
            times = []
            for _ in range(a.repeat):
                t = time.perf_counter()
                REGISTRY.call(cid, args, ctx)
                times.append(1000 * (time.perf_counter() - t))
                if undo:
                    session.undo(path)
            times.sort()
            shown = {k: v for k, v in args.items() if k != "path"}
            print(f"| {cid} | `{shown}` | {statistics.median(times):.2f} | {times[int(len(times) * 0.9)]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
