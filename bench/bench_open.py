#!/usr/bin/env python3
"""Benchmark opening KiCad boards: boardwire against KiCad's own ``pcbnew.LoadBoard``.

Prints a Markdown table, one row per ``.kicad_pcb``:

- ``boardwire open s``: ``boardwire.open(path)`` (reads the file, parses lazily);
- ``open+summary s``: ``boardwire.open(path).summary()`` (counts footprints, pads...);
- ``open+first query s``: the first whole-board query from the file: in a session (the
  command modules imported untimed), ``session.open`` of the board then ``query.nets``
  through the registry, as every protocol door calls them. ``query.nets`` builds the
  board index (documents/board/index.py) that every whole-board query (query.items,
  query.nets, lookups by net, reference or UUID) starts from: it reads every top-level
  item, every footprint's pads included. The file is a copy in a temporary folder;
- ``full read s``: after an (untimed) open, reading every list of the tree (``.kids``
  recursively): every list materialised, more than any query needs;
- ``save s``: ``doc.save(tmp)`` of an unedited document (to a new file in a temp dir);
- ``re-serialise s``: ``doc.tree.to_bytes()`` after that full read ("!": not the file);
- ``peak RSS MB (open)`` / ``(full read)``: peak memory of the open / full-read process;
- ``pcbnew LoadBoard s`` / ``pcbnew RSS MB``: the same for KiCad, run by Debian's
  ``/usr/bin/python3`` (the only interpreter that can import ``pcbnew``);
- ratios: boardwire time / pcbnew time (lower is better); ``first query/pcbnew`` is
  ``open+first query s`` over ``pcbnew LoadBoard s``.

Units: seconds (median of ``--repeat`` runs), sizes and memory in MB = 10^6 bytes.
Every run of every measurement is a fresh subprocess; the time is taken with
``time.perf_counter`` around the operation only (no interpreter start, no imports).
Peak RSS is ``ru_maxrss`` of that subprocess, interpreter and imports included (the
maximum over the repeats; not baseline-subtracted); the import-time baseline is printed
under the table. The file is read once, untimed, before a board's measurements (warm
page cache). On Linux a child's ``ru_maxrss`` starts at least at the parent's peak RSS
(vfork + exec), so this script keeps its own memory small (~10 MB).

Usage: ``python bench/bench_open.py [--repeat N] [--corpus N|all] [--only NAME ...]``.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import importlib.metadata
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEMOS = Path(os.environ.get("BOARDWIRE_KICAD_SHARE", "/usr/share/kicad")) / "demos"
CORPUS = Path(os.environ.get("BOARDWIRE_CORPUS", REPO.parent / "shared" / "corpus"))
KICAD_PY = "/usr/bin/python3"
OPEN_GOALS = {"video": 0.25, "vme-wren": 0.1}  # open time / pcbnew time, per demo
QUERY_GOALS = {"video": 0.5}  # open + first whole-board query time / pcbnew time
RSS_GOAL_MB = 1000.0  # 1 GB
KINDS = ("open", "summary", "query", "full", "save")  # boardwire measurements

# Run in a fresh interpreter: argv = kind, path. Prints one JSON line.
CHILD = r"""
import json, os, resource, sys, tempfile, time
def rss():  # ru_maxrss is in KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6
kind, path = sys.argv[1], sys.argv[2]
res = {}
if kind == "pcbnew":
    import pcbnew
    res["base"] = rss()
    t = time.perf_counter(); board = pcbnew.LoadBoard(path)
    res["t"] = time.perf_counter() - t
elif kind == "query":
    import shutil
    from boardwire.commands import REGISTRY
    from boardwire.registry import Context
    from boardwire.session import Session
    REGISTRY.get("query.nets")  # imports every command module: not timed
    tmp = tempfile.mkdtemp()
    name = os.path.basename(path)
    shutil.copy(path, os.path.join(tmp, name))
    ctx = Context(Session(tmp), actor="bench")
    res["base"] = rss()
    t = time.perf_counter()
    REGISTRY.call("session.open", {"path": name}, ctx)
    nets = REGISTRY.call("query.nets", {"path": name}, ctx)["nets"]
    res["t"] = time.perf_counter() - t
    res["nets"] = len(nets)
else:
    import boardwire
    res["base"] = rss()
    t = time.perf_counter(); d = boardwire.open(path)
    if kind == "summary":
        d.summary()
    res["t"] = time.perf_counter() - t
    res["lazy"] = getattr(d.tree, "fast", True)  # False: exact (non-lazy) reader used
    from boardwire.sexpr import node
    res["compiled"] = getattr(node, "_compiled", None) is not None  # the C reader/writer
    if kind == "full":
        t = time.perf_counter()
        stack = [d.tree.root]
        while stack:
            stack.extend(k for k in stack.pop().kids if type(k) is not bytes)
        res["full"] = time.perf_counter() - t
        t = time.perf_counter(); out = d.tree.to_bytes()
        res["reser"] = time.perf_counter() - t
        res["identical"] = out == d.original
    elif kind == "save":
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter(); d.save(os.path.join(tmp, "out.kicad_pcb"))
            res["save"] = time.perf_counter() - t
res["peak"] = rss()
sys.stdout.write(json.dumps(res) + "\n"); sys.stdout.flush()
os._exit(0)  # skip tearing down a big board: not part of any measurement
"""


def run_child(python: str, kind: str, path: Path, repeat: int) -> dict:
    """Run one measurement ``repeat`` times; medians of times, max of RSS, or error."""
    runs = []
    for _ in range(repeat):
        proc = subprocess.run([python, "-c", CHILD, kind, str(path)], capture_output=True,
                              text=True, timeout=1800, cwd="/tmp")
        lines = proc.stdout.strip().splitlines()
        if proc.returncode != 0 or not lines or not lines[-1].startswith("{"):
            err = (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]
            return {"error": err[:160]}
        runs.append(json.loads(lines[-1]))
    out = {key: statistics.median([r[key] for r in runs]) for key in runs[0]}
    out.update(peak=max(r["peak"] for r in runs), base=max(r["base"] for r in runs))
    for key in ("identical", "lazy", "compiled"):
        if key in out:
            out[key] = all(r[key] for r in runs)
    return out


def demo_boards() -> list[tuple[str, Path]]:
    return [(str(p.relative_to(DEMOS)), p) for p in sorted(DEMOS.rglob("*.kicad_pcb"))]


def corpus_boards(count: int | None) -> list[tuple[str, Path]]:
    """The ``count`` largest corpus boards (all if None), largest first."""
    index = CORPUS / "INDEX.tsv"
    if not index.exists():
        return []
    with index.open(newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["kind"] == "pcb"]
    found = [(CORPUS / r["project"] / r["path"], r) for r in rows]
    found = [(p, r) for p, r in found if p.exists()]
    found.sort(key=lambda pr: -pr[0].stat().st_size)
    boards = []
    for p, r in found[:count]:
        tail = "/".join(Path(r["path"]).parts[-2:])
        boards.append((f"{r['project'].split('__')[-1]}:{tail}", p))
    return boards


def pcbnew_version() -> str | None:
    try:
        proc = subprocess.run([KICAD_PY, "-c", "import pcbnew; print(pcbnew.Version())"],
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def fmt(value, spec: str = ".3g") -> str:
    """A number as text (3 significant digits by default); "n/a" for None."""
    if value is None:
        return "n/a"
    return value if isinstance(value, str) else format(value, spec)


def measure(label: str, path: Path, repeat: int, kicad: bool) -> dict:
    with path.open("rb") as f:  # warm the page cache, in chunks: see the docstring
        while f.read(1 << 20):
            pass
    row = {"board": label, "mb": path.stat().st_size / 1e6}
    row["pcbnew"] = {}
    for kind in KINDS + (("pcbnew",) if kicad else ()):
        print(f"  {label}: {kind}", file=sys.stderr, flush=True)
        python = KICAD_PY if kind == "pcbnew" else sys.executable
        row[kind] = run_child(python, kind, path, repeat)
    return row


def get(row: dict, kind: str, key: str):
    res = row[kind]
    return "err" if "error" in res else res.get(key)


def ratio(a, b):
    return a / b if isinstance(a, float) and isinstance(b, float) and b > 0 else None


def table(rows: list[dict]) -> list[str]:
    head = ["board", "size MB", "boardwire open s", "open+summary s", "open+first query s",
            "full read s", "save s", "re-serialise s", "peak RSS MB (open)",
            "peak RSS MB (full read)", "pcbnew LoadBoard s", "pcbnew RSS MB",
            "ratio open/pcbnew", "ratio open+summary/pcbnew", "ratio first query/pcbnew"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        op, su, pc = get(r, "open", "t"), get(r, "summary", "t"), get(r, "pcbnew", "t")
        qu = get(r, "query", "t")
        reser = fmt(get(r, "full", "reser"))
        if get(r, "full", "identical") is False:
            reser += " !"
        cells = [r["board"], fmt(r["mb"], ".2f"), fmt(op), fmt(su), fmt(qu),
                 fmt(get(r, "full", "full")), fmt(get(r, "save", "save")), reser,
                 fmt(get(r, "open", "peak"), ".0f"), fmt(get(r, "full", "peak"), ".0f"),
                 fmt(pc), fmt(get(r, "pcbnew", "peak"), ".0f"), fmt(ratio(op, pc)),
                 fmt(ratio(su, pc)), fmt(ratio(qu, pc))]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def goal_lines(rows: list[dict]) -> list[str]:
    out = []
    for kind, what, goals in (("open", "open", OPEN_GOALS),
                              ("query", "open+first query", QUERY_GOALS)):
        for name, goal in goals.items():
            row = next((r for r in rows if r["board"] == f"{name}/{name}.kicad_pcb"), None)
            rat = ratio(get(row, kind, "t"), get(row, "pcbnew", "t")) if row else None
            verdict = ("not measured" if rat is None
                       else f"{rat:.3f} -> {'met' if rat <= goal else 'NOT met'}")
            out.append(f"- {what}/pcbnew on {name} (goal <= {goal}): {verdict}")
    for kind, what in (("open", "open"), ("summary", "open+summary"),
                       ("query", "open+first query"),
                       ("full", "full read + re-serialise"), ("save", "open + save")):
        peaks = [(r[kind]["peak"], r["board"]) for r in rows if "peak" in r[kind]]
        if peaks:
            peak, board = max(peaks)
            verdict = "met" if peak <= RSS_GOAL_MB else "NOT met"
            out.append(f"- peak RSS, boardwire {what} (goal <= 1 GB): {peak:.0f} MB "
                       f"on {board} -> {verdict}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    ap.add_argument("--corpus", default="10", metavar="N|all",
                    help="also the N largest corpus boards (default 10; 0 = none)")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="only boards whose name contains NAME (repeatable)")
    args = ap.parse_args(argv)
    count = None if args.corpus == "all" else int(args.corpus)
    boards = demo_boards() + (corpus_boards(count) if count != 0 else [])
    if args.only:
        boards = [b for b in boards if any(n in b[0] for n in args.only)]
    version = pcbnew_version()
    git = subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"],
                         capture_output=True, text=True).stdout.strip() or "?"
    rows = []
    for label, path in boards:
        rows.append(measure(label, path, args.repeat, version is not None))

    bw_base = [r[k]["base"] for r in rows for k in KINDS if "base" in r[k]]
    kc_base = [r["pcbnew"]["base"] for r in rows if "base" in r["pcbnew"]]
    print(f"boardwire {importlib.metadata.version('boardwire')} ({git}, Python "
          f"{platform.python_version()}) vs pcbnew {version or 'unavailable'}; "
          f"{datetime.date.today()}, {os.cpu_count()} CPUs, {platform.machine()}, "
          f"median of {args.repeat} run(s), warm file cache\n")
    print("\n".join(table(rows)))
    print("\nNotes:")
    if version is None:
        print(f"- {KICAD_PY} cannot import pcbnew: KiCad columns are n/a.")
    print("- Peak RSS is the whole child process (interpreter + imports included, max of"
          " the runs); import-time baseline: boardwire "
          + (f"{min(bw_base):.0f}-{max(bw_base):.0f} MB" if bw_base else "n/a")
          + ", pcbnew " + (f"{min(kc_base):.0f}-{max(kc_base):.0f} MB" if kc_base else "n/a")
          + ".")
    if any(r["open"].get("compiled") is False for r in rows):
        print("- boardwire.sexpr._sexpr (the compiled reader and writer) is not built: the"
              " Python reader and writer were measured (pip install -e . builds it).")
    exact = [r["board"] for r in rows if r["open"].get("lazy") is False]
    if exact:
        print("- Read by the exact, non-lazy reader (the fast scan declined the file, so"
              " open parses everything): " + ", ".join(exact) + ".")
    for r in rows:
        for kind in (*KINDS, "pcbnew"):
            if "error" in r[kind]:
                print(f"- {r['board']}: {kind} failed: {r[kind]['error']}")
    print("\nGoals:")
    print("\n".join(goal_lines(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
