"""The live view in Debian's chromium on a KiCad demo board (default: video, 5.8 MB):
first paint, and an update after an edit, with the page patching only the changed
items (``?patch=1``, the default) and replacing the whole drawing (``?patch=0``).

For each mode, a `boardwire view` on a copy of the board, a fresh page:

* first paint: from navigation to the drawing shown (``#drawing[data-revision]``), ms;
* update: ``pcb.move`` of one footprint by 0.5 mm sent over the page's own bridge
  (its ``rpc``), to the drawing at the new revision, ms (median of ``--repeat``); of
  which the page's own DOM work (``data-draw-ms``: parse, patch or replace, up to the
  painted frame) and the items replaced (``data-replaced``).

Prints a Markdown table (docs/view.md).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.conftest import CHROMIUM, running  # noqa: E402


def measure(board: Path, patch: bool, repeat: int, ref: str) -> dict:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(board, Path(tmp) / board.name)
        with running(["view", "--open", board.name], Path(tmp)) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            start = time.perf_counter()
            page.goto(url + f"/view/?patch={int(patch)}")
            page.wait_for_selector("#drawing[data-draw-ms]", timeout=300_000)
            first = (time.perf_counter() - start) * 1000
            first_dom = float(page.get_attribute("#drawing", "data-draw-ms"))
            updates, doms, replaced = [], [], []
            for i in range(repeat):
                rev = page.get_attribute("#drawing", "data-revision")
                t = time.perf_counter()
                page.evaluate("([p, r, dx]) => rpc('pcb.move', {path: p, reference: r, by: [dx, 0]})",
                              [board.name, ref, 0.5 if i % 2 == 0 else -0.5])
                page.wait_for_function(
                    f"() => {{ const d = document.getElementById('drawing'); return d.dataset.revision !== '{rev}'"
                    " && d.dataset.drawMs !== undefined && !state.loading; }", timeout=300_000)
                updates.append((time.perf_counter() - t) * 1000)
                doms.append(float(page.get_attribute("#drawing", "data-draw-ms")))
                replaced.append(page.get_attribute("#drawing", "data-replaced"))
            browser.close()
    return {"first": first, "first_dom": first_dom, "update": statistics.median(updates),
            "dom": statistics.median(doms), "replaced": replaced[-1]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--board", default="/usr/share/kicad/demos/video/video.kicad_pcb")
    ap.add_argument("--ref", default="R1")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    board = Path(args.board)
    print("| board | mode | first paint ms (page DOM ms) | update after pcb.move ms | of which page DOM ms | items replaced |")
    print("|---|---|---:|---:|---:|---:|")
    for patch in (True, False):
        r = measure(board, patch, args.repeat, args.ref)
        print(f"| {board.name} | {'patch' if patch else 'whole'} | {r['first']:.0f} ({r['first_dom']:.0f}) | "
              f"{r['update']:.0f} | {r['dom']:.0f} | {r['replaced']} |", flush=True)


if __name__ == "__main__":
    main()
