"""Heavy jobs through the work queue: N KiCad DRC jobs (check.drc, kicad-cli) through
one and through two `boardwire worker` processes, in jobs per minute.

Usage: python bench/bench_queue.py [BOARD] [--jobs N]
Starts its own redis-server on a free loopback port, a session with the queue
(`boardwire.jobs.queue.QueueRunner`, as `boardwire mcp --http --queue` makes), sends
N check.drc calls at once with wait_s 0 and waits for every job; the board defaults
to the bundled blinker (a design-size board: 2 layers, 12 footprints). Prints a
Markdown table, and the same N jobs in-process (one after another) for comparison.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from boardwire.jobs import jobs_of
from boardwire.jobs.queue import QueueRunner
from boardwire.commands import REGISTRY
from boardwire.registry import Context
from boardwire.session import Session

BLINKER = Path(__file__).resolve().parent.parent / "src" / "boardwire" / "examples" / "blinker" / "blinker.kicad_pcb"
CLI = [sys.executable, "-m", "boardwire.cli.main"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(folder: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(folder)], stdout=subprocess.DEVNULL)
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def run(folder: Path, board: str, url: str | None, workers: int, n: int) -> float:
    """Seconds for ``n`` DRC jobs with ``workers`` workers (``url`` None: in-process, one at a time)."""
    session = Session(folder)
    procs = []
    if url is not None:
        jobs_of(session).queue = QueueRunner(url)
        procs = [subprocess.Popen([*CLI, "worker", "--queue", url, "--name", f"w{i}"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True) for i in range(workers)]
        time.sleep(3)  # the workers import boardwire and register
    try:
        t = time.perf_counter()
        if url is None:
            for _ in range(n):
                REGISTRY.call("check.drc", {"path": board}, Context(session))
            return time.perf_counter() - t
        handles = [REGISTRY.call("check.drc", {"path": board, "wait_s": 0}, Context(session, door="script"))
                   for _ in range(n)]
        for h in handles:
            out = REGISTRY.call("job.wait", {"job": h["job"], "wait_s": 600}, Context(session, door="script"))
            assert out["summary"].startswith("DRC"), out
        return time.perf_counter() - t
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("board", nargs="?", default=str(BLINKER))
    ap.add_argument("--jobs", type=int, default=20)
    a = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bw-queue-"))
    board = Path(a.board).name
    shutil.copy(a.board, folder / board)
    redis, url = start_redis(folder)
    try:
        rows = [("in-process, one after another", run(folder, board, None, 0, a.jobs))]
        for w in (1, 2):
            rows.append((f"queue, {w} worker{'s' if w > 1 else ''}", run(folder, board, url, w, a.jobs)))
    finally:
        redis.terminate()
        redis.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{a.jobs} KiCad DRC jobs (check.drc) on {board}, {os.cpu_count()} cores\n")
    print("| how | seconds | jobs per minute |\n|---|---:|---:|")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.1f} | {a.jobs / seconds * 60:.0f} |")


if __name__ == "__main__":
    main()
