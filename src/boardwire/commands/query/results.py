"""The results of query.* (see `boardwire.commands.results`): mm, degrees."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..results import TABLE, XY, Box, Degrees, Mm, OpenRow, Paged, Row, Typed

# -- boards -----------------------------------------------------------------------------


class BoardItem(Row):
    """One board item: the keys its kind has (footprint, track, via, zone, text, drawing)."""

    kind: str
    id: str = None
    ref: str = Field(None, description="Footprint reference")
    value: str = None
    lib_id: str = None
    at: XY = None
    angle: Degrees = None
    side: str = Field(None, description="front or back")
    pads: int = None
    start: XY = None
    end: XY = None
    mid: XY = None
    center: XY = None
    width: Mm = None
    layer: str = None
    size: float = Field(None, description="Via diameter, mm")
    drill: Mm = None
    layers: list[str] = None
    type: str = Field(None, description="Via type: blind, micro (through is left out)")
    name: str = Field(None, description="Zone name")
    corners: int = Field(None, description="Zone outline corners")
    filled: bool = None
    keepout: bool = None
    text: str = None
    net: str = None


class Items(Paged):
    items: list[BoardItem] | str = Field(description=TABLE)


class NetRow(Row):
    net: str
    number: int
    pads: int
    tracks: int = Field(description="Segments and arcs")
    vias: int


class Nets(Paged):
    nets: list[NetRow] | str = Field(description=TABLE)


class NetClass(OpenRow):
    """A net class as KiCad keeps it (its project's keys; sizes mm)."""

    name: str


class NetClasses(Typed):
    netclasses: list[NetClass]


class PadOfFootprint(Row):
    number: str
    type: str
    shape: str
    at: XY = Field(description="Board position [x, y] mm")
    size: list[float] = Field(description="[w, h] mm")
    layers: list[str]
    net: str = None


class FootprintText(Row):
    name: str = Field(description="Field name, or user for a free text")
    text: str
    id: str | None
    at: XY
    angle: Degrees
    layer: str | None
    visible: bool


class FootprintResult(Typed):
    kind: str
    id: str = None
    ref: str
    value: str = None
    lib_id: str = None
    at: XY
    angle: Degrees
    side: str
    fields: dict[str, str]
    pads: list[PadOfFootprint]
    attributes: list[str]
    texts: list[FootprintText]


class DocumentDescribed(Typed):
    """A board's or a schematic's one-screen summary: the keys of its kind."""

    format: int | None = Field(description="The file's format version")
    counts: dict[str, int]
    # boards
    size_mm: list[float] | None = Field(None, description="Board: [width, height] mm of the outline (null without one)")
    outline_bbox: Box | None = None
    copper_layers: list[str] = None
    unrouted: int = None
    unrouted_by_net: dict[str, int] = Field(None, description="Board: the nets with most unrouted")
    design_rules: dict[str, float] = Field(None, description="Board: minimum rules, mm")
    net_classes: list[str | None] = None
    # schematics
    title: str | None = None
    power_nets: list[str] = None
    sheets: list[dict[str, Any]] = Field(None, description="Schematic: path, file, symbols (the first 12)")
    sheets_more: int = None
    largest_nets: list[dict[str, Any]] = Field(None, description="Schematic: net, pins")
    missing_sheets: list[str] = None


class Link(Row):
    net: str
    from_: str = Field(alias="from", description="REF.PAD")
    to: str
    from_at: XY
    to_at: XY
    length: Mm


class Unrouted(Typed):
    total: int
    links: list[Link] = Field(description="Shortest first per net")


class DiffPair(Row):
    positive: str
    negative: str
    length_p: Mm
    length_n: Mm
    skew: Mm


class DiffPairs(Typed):
    pairs: list[DiffPair]


class NetLength(Row):
    net: str
    length: Mm


class LengthGroup(Row):
    rule: str
    condition: str
    constraints: dict[str, dict[str, str]] = Field(description='As written: {"length": {"min": "10mm"}}')
    nets: list[NetLength]


class LengthGroups(Typed):
    groups: list[LengthGroup]


class PadRow(Row):
    number: str
    reference: str
    id: str = None
    type: str
    shape: str
    at: XY
    angle: float = Field(description="Absolute, degrees 0..360")
    size: XY
    layers: list[str]
    net: str = None
    bbox: list[float] = Field(description="[x1, y1, x2, y2] mm in board axes")
    drill: list[float] = Field(None, description="[w, h] mm")


class Pads(Paged):
    pads: list[PadRow] | str = Field(description=TABLE)


# -- schematics -------------------------------------------------------------------------

class SymbolRow(Row):
    reference: str
    value: str
    footprint: str = None
    lib_id: str
    unit: int
    sheet: str = Field(description="Sheet instance path")
    at: XY
    angle: Degrees
    mirror: str = Field(None, description="x or y")
    dnp: bool = None
    in_bom: bool
    on_board: bool
    id: str
    power: bool = None


class Symbols(Paged):
    symbols: list[SymbolRow]


class PinRow(Row):
    number: str
    name: str
    type: str = Field(description="Electrical type")
    at: XY = Field(description="On the sheet, [x, y] mm")
    net: str = None
    unit: int
    hidden: bool = None
    sheet: str = Field(None, description="When the reference is on several sheet instances")


class Pins(Typed):
    reference: str
    value: str
    lib_id: str
    sheets: list[str]
    pins: list[PinRow]


class LabelRow(Row):
    kind: str = Field(description="label, global_label, hierarchical_label, sheet_pin")
    text: str
    sheet: str
    at: XY
    net: str = None
    id: str = None
    bus: bool = None


class Labels(Paged):
    labels: list[LabelRow]


class SheetRow(Row):
    path: str = Field(description="Sheet instance path, e.g. /Power/")
    name: str = None
    file: str
    page: str = None
    uuid_path: str
    parent: str = None
    symbols: int
    missing: bool = None


class SheetTree(Typed):
    sheets: list[SheetRow]


class SchematicNet(Row):
    net: str
    code: int
    pins: list[str] = Field(description="REF.PIN")
    sheets: list[str]
    no_connect: bool = None


class Connectivity(Paged):
    nets: list[SchematicNet]
