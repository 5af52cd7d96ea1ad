"""JSON-RPC throughput and latency: query.nets on an open board over `boardwire serve
--socket`, with 1 and 8 concurrent clients.

Usage: python bench/bench_rpc.py [BOARD] [--requests N] [--clients 1,8]
Copies the board (default: KiCad's video demo, 5.8 MB) to a temporary folder, starts
`boardwire serve --socket PATH --open BOARD`, warms the board up (the first whole-board
query reads every item), then each client connects on its own Unix socket connection
and sends N requests one after the other (newline-delimited JSON; the next request
leaves when the reply has arrived). Prints a Markdown table: requests per second over
the wall time of the whole run, and the median (p50) and p90 round trip in
milliseconds as the clients saw them. Clients are threads of this process; a reply is
checked for its id and a result, not parsed in full, so the clients cost little.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

DEFAULT = Path("/usr/share/kicad/demos/video/video.kicad_pcb")


class Client:
    """One connection: blocking request/reply over newline-delimited JSON."""

    def __init__(self, path: Path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.buf = b""
        self.next_id = 0

    def call(self, method: str, params: dict) -> bytes:
        self.next_id += 1
        rid = self.next_id
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}).encode() + b"\n")
        tag = b'"id":%d,' % rid
        while True:
            line = self._line()
            if tag in line[:40]:  # the reply (notifications have no id)
                if b'"result"' not in line[:80]:
                    raise RuntimeError(f"{method} failed: {line[:300]!r}")
                return line

    def _line(self) -> bytes:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def close(self) -> None:
        self.sock.close()


def start_server(root: Path, board: str) -> tuple[subprocess.Popen, Path]:
    sock = Path(tempfile.mkdtemp(prefix="bw-bench-", dir="/tmp")) / "bw.sock"
    proc = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "serve", "--socket", str(sock),
                             "--root", str(root), "--open", board],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while not sock.exists():
        if proc.poll() is not None or time.time() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    return proc, sock


def run(sock: Path, board: str, clients: int, requests: int) -> dict:
    latencies: list[float] = []
    lock = threading.Lock()
    conns = [Client(sock) for _ in range(clients)]
    start = threading.Barrier(clients + 1)

    def work(c: Client) -> None:
        mine = []
        start.wait()
        for _ in range(requests):
            t0 = time.perf_counter()
            c.call("query.nets", {"path": board})
            mine.append((time.perf_counter() - t0) * 1000)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=work, args=(c,)) for c in conns]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    for c in conns:
        c.close()
    latencies.sort()
    return {"clients": clients, "requests": len(latencies), "rps": len(latencies) / wall,
            "p50": statistics.median(latencies), "p90": latencies[int(0.9 * (len(latencies) - 1))]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("board", nargs="?", default=str(DEFAULT))
    ap.add_argument("--requests", type=int, default=300, help="requests per client")
    ap.add_argument("--clients", default="1,8", help="comma-separated client counts")
    a = ap.parse_args()
    src = Path(a.board)
    root = Path(tempfile.mkdtemp(prefix="bw-bench-root-"))
    shutil.copy(src, root / src.name)
    proc, sock = start_server(root, src.name)
    try:
        warm = Client(sock)
        t0 = time.perf_counter()
        reply = warm.call("query.nets", {"path": src.name})
        first = (time.perf_counter() - t0) * 1000
        for _ in range(20):
            warm.call("query.nets", {"path": src.name})
        warm.close()
        rows = [run(sock, src.name, int(n), a.requests) for n in a.clients.split(",")]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(sock.parent, ignore_errors=True)
    print("| clients | requests | requests/s | p50 ms | p90 ms |")
    print("|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['clients']} | {r['requests']} | {r['rps']:.0f} | {r['p50']:.2f} | {r['p90']:.2f} |")
    print(f"\n{src.name} ({src.stat().st_size / 1e6:.1f} MB): query.nets reply {len(reply) / 1000:.1f} kB; "
          f"first call (reads every item) {first:.0f} ms; {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}, {time.strftime('%Y-%m-%d')}, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
