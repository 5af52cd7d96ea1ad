"""The built-in DRC against kicad-cli's, per board, in the same run; and the incremental
check after one edit.

Usage: python bench/bench_drc.py [BOARD ...] [--repeat N] [--edits N] [--no-kicad]
Default boards: KiCad's video demo (5.8 MB) and four other demos. For each board:

* kicad s: wall time of ``kicad-cli pcb drc --format json`` on the file (load, DRC,
  report; median of --repeat runs);
* read s: boardwire parsing the whole file (once per session, shared by every command;
  not part of the DRC);
* model s: building the copper geometry (once per session; kept in step with edits
  afterwards);
* check s: every built-in rule but unconnected_items on the built model, per-item
  constraint values computed afresh (median of --repeat runs, no garbage collection
  inside the timed code, as timeit);
* full s: the same with unconnected_items, the board's copper connectivity and ratsnest
  computed afresh: the whole built-in DRC;
* full/kicad: full s / kicad s (the same run); cold/kicad: (model s + full s) / kicad s,
  for a board whose geometry is not built yet.

Incremental: the board is opened in a session and --edits times a via is moved (pcb.move
by 0.1 mm, through the registry as every door calls it); timed is the work the edit
hook adds (checks.feedback.new_violations: the geometry re-read of what the edit touched and
the before/after check of those items), and the whole pcb.move call with the hook. Prints a
Markdown table.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

DEMOS = Path("/usr/share/kicad/demos")
DEFAULT = [DEMOS / "video" / "video.kicad_pcb", DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb",
           DEMOS / "stickhub" / "StickHub.kicad_pcb", DEMOS / "tiny_tapeout" / "tinytapeout-demo.kicad_pcb",
           DEMOS / "kit-dev-coldfire-xilinx_5213" / "kit-dev-coldfire-xilinx_5213.kicad_pcb"]


def kicad_time(board: Path, repeat: int) -> float | None:
    cli = shutil.which("kicad-cli")
    if cli is None:
        return None
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeat):
            t = time.perf_counter()
            subprocess.run([cli, "pcb", "drc", "--format", "json", "-o", str(Path(tmp) / "r.json"), str(board)],
                           capture_output=True, timeout=3600)
            times.append(time.perf_counter() - t)
    return statistics.median(times)


class _no_gc:
    """As timeit does: a collection first, none during the timed code (a full
    collection walks every object of the parsed board, ~0.1 s for video)."""

    def __enter__(self):
        gc.collect()
        gc.disable()

    def __exit__(self, *exc):
        gc.enable()


def builtin_times(board: Path, repeat: int) -> dict:
    from boardwire.checks import board_rules, run
    from boardwire.documents import open_document
    from boardwire.geometry import geometry_of
    from boardwire.geometry.constraints import Constraints

    t = time.perf_counter()
    doc = open_document(board)
    for _ in doc.items():
        pass
    for view in doc.items():
        view.node.kids  # noqa: B018 - parse every item once
    read = time.perf_counter() - t
    rules = board_rules(doc)
    t = time.perf_counter()
    model = geometry_of(doc)  # the board's model, shared with the ratsnest
    build = time.perf_counter() - t
    checks, full, counts = [], [], {}
    for _ in range(repeat):
        with _no_gc():
            t = time.perf_counter()
            res = run(model, Constraints(model, rules), doc, connectivity=False)
            checks.append(time.perf_counter() - t)
        counts = res.counts()
    for _ in range(repeat):
        doc._connectivity = None  # the ratsnest cache
        with _no_gc():
            t = time.perf_counter()
            run(model, Constraints(model, rules), doc, connectivity=True)
            full.append(time.perf_counter() - t)
    return {"read": read, "model": build, "check": statistics.median(checks),
            "check_ratsnest": statistics.median(full), "violations": sum(counts.values())}


def incremental(board: Path, edits: int) -> dict:
    from boardwire.checks.feedback import new_violations

    from boardwire.geometry import geometry_of
    from boardwire.commands import REGISTRY
    from boardwire.registry import Context
    from boardwire.services.rules import session_rules
    from boardwire.session import Session

    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(board, Path(tmp) / board.name)
        for extra in board.parent.glob(board.stem + ".kicad_pro"):
            shutil.copy(extra, Path(tmp) / extra.name)
        s = Session(tmp)
        od = s.get(board.name, "board")
        model = geometry_of(od.doc)
        ctx = Context(s)
        rules = session_rules(ctx, od)
        via = next(it for it in model.items if it is not None and it.kind == "via")
        hook, calls = [], []
        for k in range(edits):
            step = 100_000 if k % 2 == 0 else -100_000
            # the edit alone (no hook), then the hook's work, timed
            item = od.doc.by_uuid(via.uuid)
            x, y = item.point("at")
            s.edit("bench", lambda: item.set_point("at", (x + step, y)))
            t = time.perf_counter()
            new_violations(model, rules, session_rules(ctx, od))
            hook.append(time.perf_counter() - t)  # collections included
        for k in range(edits):
            step = [0.1, 0] if k % 2 == 0 else [-0.1, 0]
            t = time.perf_counter()
            REGISTRY.call("pcb.move", {"path": board.name, "id": via.uuid, "by": step}, ctx)
            calls.append(time.perf_counter() - t)
        return {"hook_ms": statistics.median(hook) * 1e3, "hook_p90_ms": sorted(hook)[int(0.9 * len(hook))] * 1e3,
                "move_ms": statistics.median(calls) * 1e3}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("boards", nargs="*")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--edits", type=int, default=51)
    ap.add_argument("--no-kicad", action="store_true")
    a = ap.parse_args()
    boards = [Path(b) for b in a.boards] or [b for b in DEFAULT if b.exists()]
    print("| board | MB | kicad s | read s | model s | check s | full s | full/kicad | cold/kicad | violations |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for board in boards:
        kt = None if a.no_kicad else kicad_time(board, a.repeat)
        bt = builtin_times(board, a.repeat)
        r1 = f"{bt['check_ratsnest'] / kt:.3f}" if kt else "n/a"
        r2 = f"{(bt['model'] + bt['check_ratsnest']) / kt:.3f}" if kt else "n/a"
        print(f"| {board.parent.name}/{board.name} | {board.stat().st_size / 1e6:.2f} | "
              f"{kt:.2f} | " if kt else f"| {board.name} | {board.stat().st_size / 1e6:.2f} | n/a | ", end="")
        print(f"{bt['read']:.2f} | {bt['model']:.3f} | {bt['check']:.3f} | {bt['check_ratsnest']:.3f} | {r1} | {r2} | "
              f"{bt['violations']} |", flush=True)
    inc = incremental(boards[0], a.edits)
    print()
    print(f"Incremental, {boards[0].name}, {a.edits} edits (a via moved 0.1 mm): edit hook median "
          f"{inc['hook_ms']:.2f} ms (90th percentile {inc['hook_p90_ms']:.2f} ms); whole pcb.move call with "
          f"the hook, median {inc['move_ms']:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
