"""lib.search latency: cold (index built from the library files), from the disk cache
(a new process), and warm (the index in memory).

Usage: python bench/bench_lib.py [--repeat N] [QUERY ...]
Each phase runs in a fresh Python process with its own empty cache directory
(``BOARDWIRE_CACHE_DIR``), so the user's cache is neither used nor touched. Prints a
Markdown table in milliseconds (median and 90th percentile for warm searches).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

QUERIES = ["0603 resistor", "LM358", "USB-C receptacle"]

CHILD = r"""
import json, statistics, sys, time
from boardwire.commands import REGISTRY
from boardwire.registry import Context
from boardwire.session import Session
queries, repeat = json.loads(sys.argv[1]), int(sys.argv[2])
ctx = Context(Session("."))
t = time.perf_counter()
REGISTRY.call("lib.search", {"query": queries[0], "limit": 5}, ctx)
first = 1000 * (time.perf_counter() - t)
warm = {}
for q in queries:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = REGISTRY.call("lib.search", {"query": q, "limit": 5}, ctx)
        times.append(1000 * (time.perf_counter() - t))
    times.sort()
    warm[q] = [statistics.median(times), times[int(len(times) * 0.9)],
               [r["id"] for r in out["items"]]]
print(json.dumps({"first": first, "warm": warm}))
"""


def run(cache: str, queries: list[str], repeat: int) -> dict:
    env = dict(os.environ, BOARDWIRE_CACHE_DIR=cache)
    with tempfile.TemporaryDirectory() as cwd:
        out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(queries), str(repeat)],
                             env=env, cwd=cwd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("queries", nargs="*", default=QUERIES)
    ap.add_argument("--repeat", type=int, default=20)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        cold = run(cache, a.queries, 1)
        disk = run(cache, a.queries, a.repeat)
    print(f"first lib.search in a process: {cold['first']:.0f} ms building the index from the "
          f"library files, {disk['first']:.0f} ms from the disk cache\n")
    print("| query | warm median ms | warm p90 ms | first five rows |")
    print("|---|---:|---:|---|")
    for q, (median, p90, ids) in disk["warm"].items():
        print(f"| `{q}` | {median:.1f} | {p90:.1f} | {', '.join(ids)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
