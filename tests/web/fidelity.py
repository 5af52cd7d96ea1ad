"""How close the live view's board drawing is to KiCad's: both SVGs rasterised by the
same headless chromium in the same framing, compared by SSIM.

* ours: `board_svg` of the board with only the compared layers shown (F.Cu, B.Cu,
  F.SilkS, Edge.Cuts, with vias and holes), its viewBox set to the board's Edge.Cuts box;
* KiCad's: ``kicad-cli pcb export svg`` of the same layers on its page (whose user
  space is the board's millimetres), its viewBox set to the same box; both on the
  view's background colour, ``PX`` pixels across;
* `ssim`: the structural similarity of Wang et al. (2004) on the grayscale pictures,
  mean over 7 x 7 uniform windows, C1 = (0.01 L)^2, C2 = (0.03 L)^2, L = 255 (numpy only).
"""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import numpy as np

LAYERS = ("B.Cu", "F.Cu", "F.SilkS", "Edge.Cuts")  # plotted in this order: F.Cu over B.Cu, as the front view
SHOWN = (*LAYERS, "Vias", "Holes")
PX = 1000
BACKGROUND = "#001023"


def ssim(a: np.ndarray, b: np.ndarray, win: int = 7) -> float:
    """Mean SSIM of two grayscale pictures (same shape, 0-255)."""
    a, b = a.astype(np.float64), b.astype(np.float64)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2

    def mean(x):  # uniform win x win window means over the valid region (integral image)
        s = np.pad(x, ((1, 0), (1, 0))).cumsum(0).cumsum(1)
        return (s[win:, win:] - s[:-win, win:] - s[win:, :-win] + s[:-win, :-win]) / (win * win)

    n = win * win
    ma, mb = mean(a), mean(b)
    va = (mean(a * a) - ma * ma) * n / (n - 1)  # sample variances, as Wang et al.
    vb = (mean(b * b) - mb * mb) * n / (n - 1)
    cov = (mean(a * b) - ma * mb) * n / (n - 1)
    s = ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
    return float(s.mean())


def _framed(svg: str, box, size) -> str:
    """``svg`` with its root's size and viewBox replaced: ``box`` (mm) drawn at ``size`` px."""
    x0, y0, x1, y1 = box
    svg = re.sub(r"<\?xml[^>]*>\s*|<!DOCTYPE[^>]*>", "", svg)
    head = re.search(r"<svg\b[^>]*>", svg).group(0)
    new = re.sub(r'\s(width|height|viewBox)="[^"]*"', "", head)
    new = new[:-1] + (f' width="{size[0]}" height="{size[1]}" viewBox="{x0} {y0} {x1 - x0} {y1 - y0}"'
                      f' preserveAspectRatio="none">')
    return svg.replace(head, new, 1)


def ours(svg: str) -> str:
    """Our drawing with only the compared layers shown."""
    hide = "".join(f'g.layer:not({",".join(f"[data-layer={n!r}]" for n in SHOWN)}){{display:none}}')
    return svg.replace("<style>", "<style>" + hide, 1) if "<style>" in svg else \
        svg.replace(">", f"><style>{hide}</style>", 1)


def kicad_svg(board: Path, out: Path) -> str:
    """kicad-cli's plot of ``LAYERS`` of ``board`` on its page (no drawing sheet)."""
    subprocess.run(["kicad-cli", "pcb", "export", "svg", "--mode-single", "--exclude-drawing-sheet",
                    "--page-size-mode", "0", "-l", ",".join(LAYERS), "-o", str(out), str(board)],
                   check=True, capture_output=True, timeout=300)
    return out.read_text()


def size_of(box) -> tuple[int, int]:
    x0, y0, x1, y1 = box
    return PX, round(PX * (y1 - y0) / (x1 - x0))


def rasterise(page, svg: str, box) -> np.ndarray:
    """``svg`` framed on ``box`` (mm) as an RGB array, by chromium (a Playwright page)."""
    w, h = size_of(box)
    page.set_viewport_size({"width": w, "height": h})
    page.set_content(f'<html><body style="margin:0;background:{BACKGROUND}">{_framed(svg, box, (w, h))}'
                     "</body></html>")
    from PIL import Image

    png = page.screenshot(clip={"x": 0, "y": 0, "width": w, "height": h})
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def gray(rgb: np.ndarray) -> np.ndarray:
    return rgb @ np.array([0.299, 0.587, 0.114])


def side_by_side(a: np.ndarray, b: np.ndarray, path: Path, width: int = 1100) -> None:
    """ours | KiCad as one PNG ``width`` px across (palette PNG, kept small)."""
    from PIL import Image

    gap = np.full((a.shape[0], 8, 3), 255, np.uint8)
    img = Image.fromarray(np.concatenate([a, gap, b], axis=1).astype(np.uint8))
    img = img.resize((width, round(width * img.height / img.width)), Image.LANCZOS)
    img.quantize(64).save(path, optimize=True)
