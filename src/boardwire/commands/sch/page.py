"""sch.setPaper: a sheet's paper size, and what would lie off it."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...documents.schematic.page import off_page_items
from ...registry import Context, command
from ...services.schematic import editable
from ..common import EditArgs
from .results import PaperSet


class PaperArgs(EditArgs):
    paper: Literal["A4", "A3", "A2", "A1", "A0"] = Field(description="ISO paper size, landscape")


@command("sch.setPaper", kind="edit", args=PaperArgs, result=PaperSet,
         examples=({"path": "board.kicad_sch", "paper": "A3"},))
def set_paper(ctx: Context, a: PaperArgs) -> dict:
    """Set a schematic sheet's paper size (A4 297 x 210 mm up to A0 1189 x 841 mm, landscape, KiCad's default drawing sheet). Result: the paper before, and off_page: symbols, fields and labels outside the frame or on the title block on the new paper (the first 20)."""
    doc = editable(ctx, a.path).doc
    before = doc.paper
    doc.set_paper(a.paper)
    off = off_page_items(doc)
    return {"summary": f"paper {a.paper} (was {before or 'none'})" + (f"; {len(off)} items off the page" if off else ""),
            "paper": a.paper, "previous": before, "off_page": off[:20]}
