"""A schematic page: its paper (ISO A sizes, landscape as KiCad draws them), the area
inside KiCad's default drawing sheet frame, and the title block's box.

Source: KiCad's default drawing sheet (common/drawing_sheet, ``defaultDrawingSheet``):
margins of 10 mm on every side; the frame drawn twice, at the margins and 2 mm inside
them (the 2 mm band carries the column numbers and row letters); the title block the
rectangle from (110, 34) to (2, 2) mm measured from the bottom-right corner of the
margins. Coordinates integer nanometres, y down, from the page's top-left corner.
"""

from __future__ import annotations

MM = 1_000_000
# name -> (width, height) mm, landscape (KiCad's PAGE_INFO)
PAPERS: dict[str, tuple[int, int]] = {"A4": (297, 210), "A3": (420, 297), "A2": (594, 420),
                                      "A1": (841, 594), "A0": (1189, 841)}
ORDER = ("A4", "A3", "A2", "A1", "A0")
MARGIN = 10  # mm, each side
BAND = 2     # mm, the frame's reference band inside the margins
TITLE_BLOCK = (110, 34, 2, 2)  # mm from the bottom-right corner of the margins: start x, y, end x, y
Box = tuple[int, int, int, int]


def paper_size(name: str) -> tuple[int, int]:
    """(width, height) nm of paper ``name`` (A4..A0); KeyError for another."""
    w, h = PAPERS[name]
    return w * MM, h * MM


def drawing_area(name: str) -> Box:
    """The box inside the frame's inner line (nothing drawn should leave it)."""
    w, h = paper_size(name)
    inset = (MARGIN + BAND) * MM
    return (inset, inset, w - inset, h - inset)


def title_block(name: str) -> Box:
    """The title block's box on paper ``name``."""
    w, h = paper_size(name)
    rx, ry = w - MARGIN * MM, h - MARGIN * MM
    sx, sy, ex, ey = TITLE_BLOCK
    return (rx - sx * MM, ry - sy * MM, rx - ex * MM, ry - ey * MM)


def off_page(box: Box, name: str) -> str | None:
    """Why ``box`` is not where a sheet's items may be on paper ``name`` (outside the
    frame, or on the title block), or None."""
    a = drawing_area(name)
    if box[0] < a[0] or box[1] < a[1] or box[2] > a[2] or box[3] > a[3]:
        return f"outside the {name} frame"
    t = title_block(name)
    if box[0] < t[2] and t[0] < box[2] and box[1] < t[3] and t[1] < box[3]:
        return "on the title block"
    return None


def keep_out(name: str) -> list[Box]:
    """Boxes that cover everything an item may not touch on paper ``name``: four strips
    around the drawing area and the title block."""
    w, h = paper_size(name)
    a = drawing_area(name)
    far = 10 * w
    return [(-far, -far, w + far, a[1]), (-far, a[3], w + far, h + far),
            (-far, -far, a[0], h + far), (a[2], -far, w + far, h + far), title_block(name)]


def off_page_items(doc) -> list[str]:
    """What of schematic ``doc`` (symbol bodies, visible fields, labels: extent's
    boxes) lies outside its paper's frame or on the title block, ``"U1: outside the A4
    frame"`` each; empty for a paper other than A4..A0 (not judged)."""
    from .extent import sheet_extents

    paper = doc.paper
    if paper not in PAPERS:
        return []
    out = []
    for e in sheet_extents(doc):
        why = off_page(e.box, paper)
        if why:
            out.append(f"{e.what}: {why}")
    return out
