"""Pictures from kicad-cli 9: a board's layers as one SVG, its 3D view as a PNG, a
schematic hierarchy's pages as SVGs (``kicad-cli pcb export svg``, ``pcb render``,
``sch export svg``; KiCad's "Command-Line Interface" page documents the options).

Each function takes a file KiCad can read (a snapshot, `kicad.snapshot`) and writes its
output into ``folder``; ``cancel`` (a `registry.CancelToken`) kills kicad-cli. Raises
ServiceUnavailable without kicad-cli, CheckFailed when KiCad wrote nothing.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ServiceUnavailable
from .cli import kicad_cli


def paint_order(layers: list[str]) -> list[str]:
    """``layers`` in the order to paint them, as KiCad's 2D view stacks them: back side
    first, then inner copper, then the front, then board-wide layers (Edge.Cuts,
    drawings) on top; within a side mask and paste, then copper, then silkscreen, then
    fab and courtyard; otherwise the given order. kicad-cli's single-file SVG paints
    layers in the order of its ``-l`` list, opaque, so front copper drawn before a
    back pour or its own mask openings is hidden under them."""
    def side(name: str) -> int:
        if name.startswith("B."):
            return 0
        if name.startswith("In") and name.endswith(".Cu"):
            return 1
        return 2 if name.startswith("F.") else 3

    def kind(name: str) -> int:
        suffix = name.split(".", 1)[-1]
        return {"Mask": 0, "Paste": 0, "Cu": 1, "SilkS": 2, "Silkscreen": 2}.get(suffix, 3)

    return sorted(layers, key=lambda n: (side(n), kind(n)))


def board_svg(board: Path, layers: list[str], cancel=None) -> bytes:
    """The board's ``layers`` as one SVG (painted in `paint_order`), without the
    drawing sheet, the page fitted to the board."""
    out = board.parent / "render.svg"
    kicad_cli().run_for(["pcb", "export", "svg", "--mode-single", "--exclude-drawing-sheet",
                         "--page-size-mode", "2", "-l", ",".join(paint_order(layers)), "-o", str(out),
                         str(board)], out, cancel=cancel)
    return out.read_bytes()


def board_3d_png(board: Path, width: int, side: str, cancel=None) -> bytes:
    """KiCad's 3D view of the board from ``side`` ("top" or "bottom"), ``width`` pixels
    wide and 3/4 as high, on an opaque background."""
    out = board.parent / "render.png"
    height = max(64, width * 3 // 4)
    kicad_cli().run_for(["pcb", "render", "-o", str(out), "-w", str(width), "-h", str(height),
                         "--side", side, "--background", "opaque", str(board)], out, cancel=cancel)
    return out.read_bytes()


def schematic_page_svg(root: Path, sheet_path: str, cancel=None) -> bytes:
    """The SVG of the sheet instance ``sheet_path`` (``/``, ``/Power/``) of the hierarchy
    whose root sheet file is ``root``, without the drawing sheet. kicad-cli 9.0.8's
    ``--pages`` draws the root page whatever page it names (and, in a folder that
    exists, whatever it names): every page is plotted and the file KiCad names after
    the sheet's path is taken (SCH_EDIT_FRAME::GetUniqueFilenameForCurrentSheet)."""
    out = root.parent / "boardwire-render"
    kicad_cli().run_for(["sch", "export", "svg", "--exclude-drawing-sheet", "-o", str(out), str(root)],
                        out, cancel=cancel)
    return _page_file(out, root.stem, sheet_path).read_bytes()


def _page_file(folder: Path, root_stem: str, sheet_path: str) -> Path:
    """The SVG kicad-cli wrote for the sheet at ``sheet_path``: ``<root>.svg`` for the
    root, ``<root>-<names joined by ->.svg`` for a sheet, compared ignoring characters
    KiCad may replace in file names. Raises ServiceUnavailable when no file matches."""
    names = [n for n in sheet_path.strip("/").split("/") if n]
    want = "-".join([root_stem, *names])
    key = lambda s: "".join(c for c in s.lower() if c.isalnum())  # noqa: E731
    files = sorted(folder.glob("*.svg"))
    for f in files:
        if f.stem == want:
            return f
    found = [f for f in files if key(f.stem) == key(want)]
    if len(found) == 1:
        return found[0]
    raise ServiceUnavailable(f"kicad-cli plotted no page named {want}.svg (wrote {', '.join(f.name for f in files)})")
