"""Whole processes from a cold start, as a shell script or a CI job runs boardwire: each
figure the median of --repeat runs after one warm-up run (the OS file cache warm, no
process reused), on this machine, with kicad-cli's DRC of the same board in the same run.

Usage: python bench/bench_cold.py [--repeat 5] [--src DIR ...] [BOARD ...]

Rows:
* python: ``python -c pass`` (the floor every Python process pays);
  every process runs with its bytecode cached, as an installed package does
  (PYTHONDONTWRITEBYTECODE is dropped; the warm-up run writes the caches);
* --help, --version: ``boardwire --help`` / ``--version``;
* describe: ``boardwire call query.describe`` on the bundled example board (5 footprints);
* drc BOARD: ``boardwire call check.drc {"engine": "builtin"}`` on a copy of the board,
  beside ``kicad-cli pcb drc`` on the same copy; wall ratio = boardwire / kicad-cli.

Each process is timed by the wall clock and by CPU time (user + system, children
included): on a machine shared with other work the CPU time moves less (kicad-cli's
DRC runs on several threads, so its CPU time can exceed its wall time).

``--src DIR`` times the boardwire found in DIR (a checkout's src/, e.g. of an older
commit) too, one column each, so a change is measured against its parent in one run.
Default boards: KiCad's demos pic_programmer, stickhub, kit-dev-coldfire-xilinx_5213,
video. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
DEMOS = Path("/usr/share/kicad/demos")
BOARDS = [DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb", DEMOS / "stickhub" / "StickHub.kicad_pcb",
          DEMOS / "kit-dev-coldfire-xilinx_5213" / "kit-dev-coldfire-xilinx_5213.kicad_pcb",
          DEMOS / "video" / "video.kicad_pcb"]


def timed(argv: list[str], repeat: int, cwd: Path, env: dict | None = None) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system, the process and its
    children) of ``argv`` over ``repeat`` runs after a warm-up; a run that fails (exit
    status other than 0 and 3, a check that found errors) stops the bench."""
    walls, cpus = [], []
    for i in range(repeat + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, timeout=600)
        dt = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode not in (0, 3):
            raise SystemExit(f"{argv} failed ({r.returncode}): {r.stderr.decode()[-1000:]}")
        if i:
            walls.append(dt)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("boards", nargs="*", type=Path)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--src", action="append", default=[], help="another checkout's src/ to time too")
    a = ap.parse_args()
    srcs = [HERE / "src", *map(Path, a.src)]
    # as an installed package runs: bytecode cached (the warm-up run writes it)
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    envs = [{**base, "PYTHONPATH": str(s.resolve())} for s in srcs]
    bw = [sys.executable, "-m", "boardwire.cli.main"]
    cli = shutil.which("kicad-cli")
    example = HERE / "src" / "boardwire" / "examples" / "blinker" / "blinker.kicad_pcb"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copy(example, work / example.name)
        names = [s.parent.name or str(s) for s in srcs]
        head = " | ".join(["what", *[f"{n} wall s | {n} cpu s" for n in names], "kicad-cli wall s | kicad-cli cpu s",
                           "wall ratio"])
        print(f"| {head} |\n|{'---|' * (2 * len(srcs) + 4)}")
        rows = [("python -c pass", [sys.executable, "-c", "pass"], None),
                ("boardwire --help", [*bw, "--help"], None),
                ("boardwire --version", [*bw, "--version"], None),
                ("call query.describe (example, 5 footprints)",
                 [*bw, "call", "query.describe", f'{{"path": "{example.name}"}}'], None)]
        for board in a.boards or BOARDS:
            if not board.is_file():
                continue
            shutil.copy(board, work / board.name)
            rows.append((f"DRC {board.name}", [*bw, "call", "check.drc", f'{{"path": "{board.name}", "engine": "builtin"}}'],
                         [cli, "pcb", "drc", "--format", "json", "-o", str(work / "r.json"), board.name] if cli else None))
        for name, argv, peer in rows:
            ours = [timed(argv, a.repeat, work, env) for env in envs]
            theirs = timed(peer, a.repeat, work) if peer else None
            cells = [f"{w:.3f} | {c:.3f}" for w, c in ours]
            cells += [f"{theirs[0]:.3f} | {theirs[1]:.3f}" if theirs else "- | -",
                      f"{ours[0][0] / theirs[0]:.2f}" if theirs else "-"]
            print(f"| {name} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
