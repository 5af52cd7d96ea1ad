"""The results of project.* (see `boardwire.commands.results`)."""

from __future__ import annotations

from pydantic import Field

from ..results import Change, Edited, FileWritten, Row, Typed


class RefChange(Change):
    ref: str


class PadNetChange(RefChange):
    pad: str


class FootprintSwap(RefChange):
    dropped_pads: list[str] = Field(None, description="Pads without a match: their nets are dropped")


class FootprintKept(Row):
    ref: str
    board: str = Field(description="The board's library id")
    symbol: str = Field(description="The symbol's Footprint field")


class Problem(Row):
    ref: str
    message: str


class PcbUpdated(Edited):
    dry_run: bool
    added: list[str] = Field(description="References of the footprints added")
    references_changed: list[Change]
    footprints_swapped: list[FootprintSwap]
    nets_changed: list[PadNetChange]
    nets_renamed: list[Change]
    values_changed: list[RefChange]
    deleted: list[str]
    extra_footprints: list[str] = Field(description="Footprints without a symbol, kept")
    relinked: list[str] = None
    footprints_differ: list[FootprintKept] = Field(None, description="swap false: kept with another library id")
    problems: list[Problem] = None


class SheetChange(Change):
    sheet: str


class BackAnnotated(Edited):
    dry_run: bool
    changed: list[SheetChange]
    unlinked: list[str] = Field(description="Footprints linked to no symbol")
    unannotated: list[str]


class ProjectCreated(Typed):
    project: str
    board: str
    schematic: str
    template: str
    kicad_version: int
    files: list[FileWritten]
    library_tables: dict[str, str] = Field(None, description="What the project's library tables list, and why")
    rules: dict[str, float] = Field(None, description="2layer-starter: its design rules, mm")
    outline: list[float] = Field(None, description="2layer-starter: [x1, y1, x2, y2] mm")
