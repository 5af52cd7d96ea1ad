"""``.kicad_wks``: a drawing sheet (the title block's layout)."""

from __future__ import annotations

from .sexpr_doc import SexprDocument


class Worksheet(SexprDocument):
    """A ``.kicad_wks`` drawing sheet (title block layout)."""

    kind = "worksheet"
    roots = ("kicad_wks", "page_layout")

    def summary(self) -> dict:
        counts: dict[str, int] = {}
        for kid in self.root.lists():
            counts[kid.head] = counts.get(kid.head, 0) + 1
        return {"kind": self.kind, "version": self.version, "items": counts}
