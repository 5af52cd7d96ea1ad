"""The live view's board drawing: boardwire's own SVG (web/board_svg.py) against
kicad-cli's SVG plot of a snapshot (render.svg), on KiCad's demo boards.

For each board (a copy, opened in a session), after one ``pcb.move`` so the geometry
follows an edit as it does in the view:

* own SVG: `board_svg` alone (median of ``--repeat`` runs, ms), and the whole
  /view/board.svg work (query.unrouted for the ratsnest + built-in DRC markers + SVG);
* kicad-cli: ``render.svg`` of F.Cu, B.Cu, silk, mask and Edge.Cuts (snapshot + plot;
  median of 3 runs, ms);
* agreement: the F.Cu copper of both drawings (kicad-cli's plotted on its page, whose
  user space is the board's millimetres) rasterised at 20 px/mm in the board's
  Edge.Cuts box (copper and vias dark on white, holes white, zones included) and compared
  pixel by pixel: intersection over union of the copper, best over shifts of up to
  1 px (rounding of the two plots).

Prints a Markdown table (docs/benchmarks.md). Needs kicad-cli and cairosvg.
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import statistics
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from boardwire.geometry import geometry_of  # noqa: E402
from boardwire.kicad.cli import kicad_cli  # noqa: E402
from boardwire.kicad.snapshot import snapshot  # noqa: E402
from boardwire.commands import REGISTRY  # noqa: E402
from boardwire.registry import Context
from boardwire.session import Session  # noqa: E402
from boardwire.web.app import View  # noqa: E402
from boardwire.web.board_svg import board_svg  # noqa: E402

DEMOS = Path("/usr/share/kicad/demos")
BOARDS = ["ecc83/ecc83-pp.kicad_pcb", "pic_programmer/pic_programmer.kicad_pcb", "interf_u/interf_u.kicad_pcb",
          "video/video.kicad_pcb"]
PX_PER_MM = 20
SVG = "{http://www.w3.org/2000/svg}"


def timed(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, out


def _mask(png: bytes):
    import numpy as np
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("L")) < 128


def _own_fcu(svg: str, box) -> bytes:
    """Our drawing's F.Cu layer, vias and holes alone, black on white, in ``box`` (mm)
    (every via of these boards reaches F.Cu)."""
    import cairosvg

    root = ET.fromstring(svg)
    body = ""
    for name, colour in (("F.Cu", "#000"), ("Vias", "#000"), ("Holes", "#fff")):
        layer = next(g for g in root.iter(SVG + "g") if g.get("data-layer") == name)
        for el in layer.iter():
            for attr in ("fill", "color"):
                if el.get(attr) not in (None, "none"):
                    el.set(attr, colour)
            el.attrib.pop("opacity", None)
        body += ET.tostring(layer, encoding="unicode").replace("ns0:", "").replace(":ns0", "")
    x0, y0, x1, y1 = box
    doc = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0} {y0} {x1 - x0} {y1 - y0}">'
           f'<style>.t{{fill:none;stroke:currentColor;stroke-linecap:round;stroke-linejoin:round}}</style>'
           f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" fill="#fff"/>'
           f'<g transform="scale(0.001)">{body}</g></svg>')
    return cairosvg.svg2png(bytestring=doc.encode(), output_width=round((x1 - x0) * PX_PER_MM),
                            output_height=round((y1 - y0) * PX_PER_MM))


def _kicad_fcu(session, od, box) -> bytes:
    """kicad-cli's F.Cu plot of the in-memory board on its page (user space: the
    board's mm), cut to ``box``."""
    import cairosvg

    with snapshot(session, od) as board:
        out = board.parent / "fcu.svg"
        kicad_cli().run_for(["pcb", "export", "svg", "--mode-single", "--exclude-drawing-sheet",
                             "--page-size-mode", "0", "-l", "F.Cu", "-o", str(out), str(board)], out)
        svg = out.read_text()
    svg = re.sub(r"<\?xml[^>]*>\s*|<!DOCTYPE[^>]*>", "", svg)
    x0, y0, x1, y1 = box
    svg = re.sub(r'width="[^"]*" height="[^"]*" viewBox="[^"]*"',
                 f'viewBox="{x0} {y0} {x1 - x0} {y1 - y0}"', svg, count=1)
    return cairosvg.svg2png(bytestring=svg.encode(), output_width=round((x1 - x0) * PX_PER_MM),
                            output_height=round((y1 - y0) * PX_PER_MM), background_color="white")


def agreement(session, od, svg: str) -> float:
    import numpy as np

    x0, y0, x1, y1 = (v / 1e6 for v in geometry_of(od.doc).outline().bounds)
    box = (x0, y0, x1, y1)
    own = _mask(_own_fcu(svg, box))
    kicad = _mask(_kicad_fcu(session, od, box))
    best = 0.0
    for dx in range(-1, 2):
        for dy in range(-1, 2):
            shifted = np.roll(np.roll(own, dy, 0), dx, 1)
            union = np.logical_or(shifted, kicad).sum()
            best = max(best, np.logical_and(shifted, kicad).sum() / union if union else 1.0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print("| board | own SVG ms | view work ms (ratsnest + DRC + SVG) | kicad-cli render.svg ms | own / kicad-cli | "
          "own KB | kicad-cli KB | F.Cu agreement (IoU) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for rel in BOARDS:
        src = DEMOS / rel
        if not src.exists():
            continue
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(src, Path(tmp) / src.name)
            session = Session(tmp)
            ctx = Context(session, actor="bench")
            od = session.open(src.name)
            ref = next(f.reference for f in od.doc.footprints if f.reference)
            REGISTRY.call("pcb.move", {"path": od.path, "reference": ref, "by": [0.5, 0]}, ctx)
            own_ms, svg = timed(lambda: board_svg(od.doc, path=od.path), args.repeat)
            # a new View each time: its drawing cache would answer the repeats
            work_ms, _ = timed(lambda: View(lambda n, f: session).board_svg(session, od.path, "front"), args.repeat)
            kicad_ms, ksvg = timed(lambda: REGISTRY.call("render.svg", {"path": od.path}, ctx)["svg"], 3)
            iou = agreement(session, od, svg)
            print(f"| {rel} | {own_ms:.0f} | {work_ms:.0f} | {kicad_ms:.0f} | {own_ms / kicad_ms:.2f} | "
                  f"{len(svg) // 1024} | {len(ksvg) // 1024} | {iou:.3f} |", flush=True)


if __name__ == "__main__":
    main()
