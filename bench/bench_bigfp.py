"""One footprint of many pads (issue 37): the first edit of a session, which builds the
board's copper geometry and runs the edit feedback, and query.describe.

Usage: python bench/bench_bigfp.py [--pads N] [--board PCB]
Generates, in a temporary folder, the bundled example board with N (default 100,000)
0.3 mm SMD pads at 0.5 mm pitch and no net added to footprint R2 (neighbours exactly
at the 0.2 mm clearance), then in one process: session.open, pcb.move of R2 (the first
edit: geometry built, R2 checked before and after, re-read), pcb.move of R1, and
query.describe in a fresh session. --board times a given board instead (first edit: the
first footprint moved by 0.1 mm). Prints CPU seconds (time.process_time: on a loaded
machine wall time says little) and the process's peak RSS after each step.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from tests.inputs import big_footprint_board  # noqa: E402  (the board the tests use)


def step(label: str, fn) -> None:
    c = time.process_time()
    fn()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"| {label} | {time.process_time() - c:.2f} | {rss:.0f} |", flush=True)


def main() -> int:
    from boardwire.api import run
    from boardwire.documents import open_document

    ap = argparse.ArgumentParser()
    ap.add_argument("--pads", type=int, default=100_000)
    ap.add_argument("--board")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if a.board:
            board = Path(tmp) / Path(a.board).name
            shutil.copy(a.board, board)
            for extra in Path(a.board).parent.glob(Path(a.board).stem + ".kicad_pro"):
                shutil.copy(extra, Path(tmp) / extra.name)
            first = open_document(board).footprints[0].reference
            moves = [(f"first edit: pcb.move {first}", {"reference": first, "by": [0.1, 0]})]
        else:
            board = big_footprint_board(Path(tmp) / "big.kicad_pcb", a.pads)
            moves = [(f"first edit: pcb.move R2 ({a.pads} pads)", {"reference": "R2", "by": [0.5, 0]}),
                     ("pcb.move R1", {"reference": "R1", "by": [0.5, 0]})]
        path = str(board)
        print(f"{board.name}: {board.stat().st_size / 1e6:.1f} MB\n")
        print("| step | CPU s | peak RSS MB |\n|---|---|---|")
        step("session.open", lambda: run("session.open", path=path))
        for label, args in moves:
            step(label, lambda args=args: run("pcb.move", path=path, **args))
        step("query.describe", lambda: run("query.describe", path=path))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
