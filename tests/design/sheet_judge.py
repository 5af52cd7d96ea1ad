"""A schematic judged from its saved file: each symbol's box from its library drawing
(graphics and pins, placed: documents/schematic/extent.symbol_box) with its visible
fields, where it lies on the paper (inside KiCad's default frame, off the title block:
documents/schematic/page) and which boxes overlap."""

from __future__ import annotations

from pathlib import Path

from boardwire.documents.schematic import Schematic
from boardwire.documents.schematic.extent import (
    boxes_overlap,
    field_extents,
    symbol_box,
)
from boardwire.documents.schematic.page import off_page


def judge_sheet(path: Path) -> dict:
    """{paper, symbols, max_y (mm), off_page: ["U1: outside the A4 frame"...],
    overlaps: ["U1 / C3"...]} of the saved schematic at ``path``."""
    doc = Schematic.load(path)
    table = doc.lib_symbol_table()
    boxes = []
    for sym in doc.symbols:
        b = symbol_box(sym, table)
        assert b is not None, f"{sym.reference}: no library drawing"
        boxes.append((sym.reference, b, [f.box for f in field_extents(sym)]))
    off = [f"{r}: {why}" for r, b, fields in boxes for why in [off_page(x, doc.paper) for x in [b, *fields]] if why]
    overlaps = []
    for i, (ra, a, _) in enumerate(boxes):
        for rb, b, _ in boxes[i + 1:]:
            if boxes_overlap(a, b):
                overlaps.append(f"{ra} / {rb}")
    return {"paper": doc.paper, "symbols": len(boxes), "max_y": max((b[3] for _, b, _ in boxes), default=0) / 1e6,
            "off_page": off, "overlaps": overlaps}
