"""Arguments the sch.* edits share: a symbol named by reference (see
`services.schematic` for how a reference is found across a design)."""

from __future__ import annotations

from pydantic import Field

from ..common import EditArgs, Name


class SymbolRef(EditArgs):
    reference: Name = Field(description="Symbol reference (as shown on the sheet instance)")
    sheet: str | None = Field(None, min_length=1, max_length=4096,
                              description="Sheet instance path (e.g. /amp_left/) where the reference is on several")


