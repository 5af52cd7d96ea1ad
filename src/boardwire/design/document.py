"""The design document: what a board is, as a model writes it (JSON).

A closed schema (unknown keys are errors): ``components`` (reference, a KiCad symbol
or a catalogue part, value, footprint, fields), ``nets`` (name -> pins ``REF.PIN``),
``power`` (nets drawn as power symbols; default by name), ``no_connect`` pins, the
``board`` (outline size or polygon in mm, copper layers, rules preset, ground plane)
and ``constraints`` (pinned placements, connectors at the edge, keep-outs, router
settings, the pin each decoupling capacitor serves). `schema()` is the published JSON Schema (docs/design-schema.json).
Units: mm and degrees, KiCad's axes (x right, y down), board coordinates relative to
the outline's top-left corner.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from ..documents.board.tables import bounded_net_name
from ..layout.route.engines import RouteOptions

SCHEMA_VERSION = 1
Ref = Annotated[str, Field(pattern=r"^[A-Z][A-Z_]*[0-9]+$", max_length=20, description="Reference designator, e.g. U1")]
PinRef = Annotated[str, Field(pattern=r"^[A-Z][A-Z_]*[0-9]+\.[^\s.]+$", max_length=40, description="REF.PIN, e.g. U1.3")]
LibId = Annotated[str, Field(pattern=r"^[^:/\\\s]+:[^:/\\]+$", max_length=300)]
Mm = Annotated[float, Field(ge=-1000, le=1000)]
XY = Annotated[list[Mm], Field(min_length=2, max_length=2)]
NetName = Annotated[str, AfterValidator(bounded_net_name)]  # at most MAX_NET_NAME characters


class Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Component(Closed):
    ref: Ref
    symbol: LibId | None = Field(None, description="KiCad symbol Lib:Name; default the part's")
    part: str | None = Field(None, pattern=r"^C[0-9]+$", description="Catalogue LCSC code (parts.search)")
    value: str | None = Field(None, max_length=100, description="Default: the part's number or the symbol's value")
    footprint: LibId | None = Field(None, description="Default: the part's package footprint or the symbol's")
    fields: dict[str, str] = Field(default_factory=dict, description="Extra symbol fields (LCSC and MPN come from part)")

    @model_validator(mode="after")
    def _source(self):
        if self.symbol is None and self.part is None:
            raise ValueError(f"{self.ref}: give symbol or part")
        return self


class Board(Closed):
    size: list[Annotated[float, Field(gt=5, le=500)]] | None = Field(
        None, min_length=2, max_length=2, description="[width, height] mm; default from the parts' area")
    outline: list[XY] | None = Field(None, min_length=3, description="Polygon instead of size")
    layers: Literal[2] = 2
    rules: Literal["2layer-starter", "jlcpcb"] = Field(
        "2layer-starter", description="2layer-starter: 0.2 mm clearance and tracks, 0.6/0.3 mm vias; "
                                      "jlcpcb: JLCPCB's 2-layer minimums, 0.127 mm clearance, 0.2 mm tracks")
    ground_plane: NetName | None = Field("GND", description="Net poured on B.Cu after routing; null for none")


class Pinned(Closed):
    at: XY = Field(description="Footprint anchor, mm from the outline's top-left corner")
    angle: Literal[0, 90, 180, 270] = 0


def _box(b: list[float]) -> list[float]:
    if b[0] >= b[2] or b[1] >= b[3]:
        raise ValueError("a keep-out is [x1, y1, x2, y2] with x1 < x2 and y1 < y2")
    return b


SIDES = ("left", "right", "top", "bottom")
Side = Literal[SIDES]  # type: ignore[valid-type]


class Constraints(Closed):
    pinned: dict[str, Pinned] = Field(
        default_factory=dict, description="ref -> placement kept exactly as given (front side); never moved")
    edge: list[Ref] | dict[Ref, Side] = Field(
        default_factory=list, description="Connectors placed flush with a board edge, facing out: ref -> "
                                          "left/right/top/bottom, or a list of refs (spread in turn: left, right, top, bottom, left...)")
    keepouts: list[Annotated[list[Mm], Field(min_length=4, max_length=4), AfterValidator(_box)]] = Field(
        default_factory=list, description="[x1, y1, x2, y2] mm no courtyard may enter (either side)")
    router: RouteOptions = Field(default_factory=RouteOptions, description="pcb.autoroute's options")
    routing: Literal["auto", "none"] = Field("auto", description="none: leave routing to the caller")
    decouple: dict[Ref, PinRef] = Field(
        default_factory=dict, description="capacitor -> the IC pin it decouples (REF.PIN), placed within 2 mm of "
                                          "it; others: each small capacitor to a free supply pin of its rail, the "
                                          "IC with most supply pins first")

    def edges(self) -> dict[str, str]:
        """ref -> board edge of each edge connector: a list spreads them in turn over
        the left, right, top and bottom edges (two on one edge of a small board may not
        both fit)."""
        if isinstance(self.edge, dict):
            return dict(self.edge)
        return {ref: SIDES[i % len(SIDES)] for i, ref in enumerate(self.edge)}


class Design(Closed):
    version: Literal[1] = SCHEMA_VERSION
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
    description: str = Field("", max_length=2000)
    components: list[Component] = Field(min_length=1, max_length=2000)
    nets: dict[NetName, list[PinRef]] = Field(description="Net name -> pins")
    power: list[NetName] | None = Field(None, description="Nets drawn as power symbols; default GND*, +*, VCC, VDD, VBUS")
    no_connect: list[PinRef] = Field(default_factory=list)
    board: Board = Field(default_factory=Board)
    constraints: Constraints = Field(default_factory=Constraints)


def schema() -> dict:
    """The published JSON Schema of a design document."""
    return Design.model_json_schema()


def dumps(design: Design) -> str:
    """The JSON text of a design as built: every field with its default filled in, keys
    in the schema's order and nets in the order given (the order the build draws and
    numbers them), two-space indent, a final newline."""
    return json.dumps(design.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
