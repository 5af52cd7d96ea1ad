"""The results of sch.* (see `boardwire.commands.results`): mm, degrees."""

from __future__ import annotations

from pydantic import Field

from ..results import XY, Created, Edited, Row


class ConnectCounts(Row):
    wire: int
    label: int
    power: int
    no_connect: int


class Connected(Edited):
    counts: ConnectCounts = Field(description="Items added")
    overlaps: list[str] = Field(description="Overlaps left (the first 20)")
    unplaced: list[str] = Field(description="Pins whose label still overlaps (the first 20)")
    flags_missing: list[str] = Field(description="Power nets left without the PWR_FLAG they need (no room): "
                                                 "ERC will report their power inputs undriven")
    off_page: list[str] = Field(description="Items outside the paper's frame or on the title block (the first 20)")


class PaperSet(Edited):
    paper: str = Field(description="The paper size now set")
    previous: str | None = Field(description="The paper size before")
    off_page: list[str] = Field(description="Items outside the frame or on the title block on that paper (the first 20)")


class SheetPin(Row):
    name: str
    at: XY


class SheetAdded(Created):
    file: str = Field(description="The sheet file, relative to the working directory")
    created_file: bool
    pins: list[SheetPin]


class Annotation(Row):
    sheet: str
    from_: str = Field(alias="from")
    to: str
    id: str


class Renumbered(Edited):
    changes: list[Annotation]


class PinAt(Row):
    number: str
    at: XY


class SymbolPlaced(Created):
    reference: str
    value: str
    angle: int = Field(description="degrees")
    mirror: str = Field(description="none, x or y")
    pins: list[PinAt]
    instances: list[str] = Field(description="Sheet instance paths")


class FieldSet(Edited):
    sheet: str = Field(None, description="Reference: the sheet instance whose reference changed")
    shared_by: list[str] = Field(None, description="Sheet instances sharing the change")


class Dangling(Edited):
    dangling: list[XY] = Field(None, description="Wire ends left dangling")


class SymbolMoved(Dangling):
    at: XY


class SymbolTurned(Dangling):
    angle: int = Field(description="degrees")
    mirror: str = Field(description="none, x or y")


class ItemsDeleted(Dangling):
    deleted: list[str] = Field(description="Ids")


class DanglingEnd(Row):
    index: int = Field(description="Of the point")
    at: XY


class Wired(Edited):
    ids: list[str]
    junctions: list[XY] = None
    dangling: list[DanglingEnd] = None


class Labelled(Created):
    connects: list[str] = Field(description="What the point connects to")
    dangling: bool = None


class NoConnect(Created):
    pins: list[str]
