"""A schematic symbol drawn from a pin table, as KiCad's library conventions (KLC S3,
S4) draw one: a rectangle body, pins 100 mil (2.54 mm) long on the 100 mil grid,
inputs on the left, outputs on the right, supply pins at the top and ground pins at
the bottom, each side's pins grouped by electrical type with one grid step between
groups, the body wide and tall enough for the pin names (50 mil text); Reference above
the body, Value below, Footprint, Datasheet and Description hidden.

Coordinates are the library's: millimetres, y up (a symbol file's axis; the schematic
flips it). Geometry is worked in grid steps (`GRID`), so every pin end is on grid.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ...sexpr import atoms
from ...sexpr.node import SList
from ..sexpr_doc import make

GRID = 2.54  # 100 mil: KLC S4.1 pin grid and length
TEXT = 1.27  # 50 mil: KLC S4.2 text size
NAME_OFFSET = 0.508  # KiCad's default pin name offset (20 mil)
CHAR = 0.85 * TEXT  # a pin name's character width, KiCad's stroke font (about 0.7-0.9 x size)
BODY_LINE = 0.254  # KLC S3.3: body outline 10 mil

ELECTRICAL_TYPES = ("input", "output", "bidirectional", "tri_state", "passive", "free", "unspecified",
                    "power_in", "power_out", "open_collector", "open_emitter", "no_connect")
SIDES = ("left", "right", "top", "bottom")
# The order of type groups along a side, and the side a type takes by default.
TYPE_ORDER = {t: i for i, t in enumerate(("power_in", "power_out", "input", "bidirectional", "tri_state", "output",
                                          "open_collector", "open_emitter", "passive", "unspecified", "free",
                                          "no_connect"))}
DEFAULT_SIDE = {"input": "left", "passive": "left", "unspecified": "left", "free": "left",
                "output": "right", "tri_state": "right", "open_collector": "right", "open_emitter": "right",
                "power_out": "right"}
GROUND = re.compile(r"^(A|D|P|S)?(GND|VSS|VEE|V-|EP|PAD|0V)", re.IGNORECASE)


@dataclass
class PinSpec:
    number: str
    name: str
    type: str
    side: str | None = None


def default_side(pin: PinSpec, counts: dict[str, int]) -> str:
    """The side KiCad's conventions put ``pin`` on: ground pins (GND, VSS, VEE...) at the
    bottom, other power inputs at the top, `DEFAULT_SIDE` by type, and bidirectional
    and no-connect pins on whichever of left and right has fewer so far."""
    if pin.type == "power_in":
        return "bottom" if GROUND.match(pin.name) else "top"
    if pin.type in DEFAULT_SIDE:
        return DEFAULT_SIDE[pin.type]
    return "left" if counts["left"] <= counts["right"] else "right"


def _slots(pins: list[PinSpec]) -> list[PinSpec | None]:
    """A side's pins grouped by type (`TYPE_ORDER`, the table's order within a group),
    None for the free grid step between two groups."""
    ordered = sorted(pins, key=lambda p: TYPE_ORDER.get(p.type, 99))
    out: list[PinSpec | None] = []
    for p in ordered:
        if out and out[-1] is not None and out[-1].type != p.type:
            out.append(None)
        out.append(p)
    return out


def _span(count: int) -> list[int]:
    """``count`` grid positions, one step apart, centred on 0 (rounded up: on grid)."""
    top = (count - 1) // 2 + (count - 1) % 2
    return [top - i for i in range(count)]


def _text_len(name: str) -> float:
    return 0.0 if name in ("", "~") else len(name) * CHAR


def _effects(hide: bool = False, justify: str | None = None) -> SList:
    return make("effects", make("font", make("size", atoms.num(TEXT), atoms.num(TEXT))),
                make("justify", justify.encode()) if justify else None,
                make("hide", b"yes") if hide else None)


def _property(name: str, value: str, x: float, y: float, hide: bool = False, justify: str | None = None) -> SList:
    return make("property", atoms.quote(name), atoms.quote(value),
                make("at", atoms.num(round(x, 4)), atoms.num(round(y, 4)), b"0"), _effects(hide, justify))


@dataclass
class Drawn:
    """The symbol's list and its size (body width and height, mm)."""

    node: SList
    width: float
    height: float
    sides: dict[str, list[str]]


def draw_symbol(name: str, pins: list[PinSpec], reference: str = "U", value: str | None = None,
                footprint: str = "", datasheet: str = "", description: str = "",
                keywords: str = "") -> Drawn:
    """The ``(symbol "NAME" ...)`` of a one-unit symbol with ``pins`` (sides as given,
    else `default_side`), ready for `SymbolLibrary` insertion. ValueError for an
    electrical type KiCad lacks, a side not in `SIDES`, or a pin number twice."""
    counts = {s: 0 for s in SIDES}
    seen = set()
    by_side: dict[str, list[PinSpec]] = {s: [] for s in SIDES}
    for p in pins:
        if p.type not in ELECTRICAL_TYPES:
            raise ValueError(f"pin {p.number}: electrical type {p.type!r} is not KiCad's ({', '.join(ELECTRICAL_TYPES)})")
        if p.number in seen:
            raise ValueError(f"pin number {p.number} twice")
        seen.add(p.number)
        side = p.side or default_side(p, counts)
        if side not in SIDES:
            raise ValueError(f"pin {p.number}: side {side!r} is not one of {', '.join(SIDES)}")
        counts[side] += 1
        by_side[side].append(p)
    slots = {s: _slots(by_side[s]) for s in SIDES}
    longest = {s: max((_text_len(p.name) for p in slots[s] if p is not None), default=0.0) for s in SIDES}
    # vertical: the left/right rows, plus room for the top and bottom pins' (vertical) names
    rows = max(len(slots["left"]), len(slots["right"]), 1)
    head = math.ceil((longest["top"] + NAME_OFFSET) / GRID) if slots["top"] else 0
    foot = math.ceil((longest["bottom"] + NAME_OFFSET) / GRID) if slots["bottom"] else 0
    ys = _span(rows)
    top_edge = ys[0] + 1 + head  # grid steps
    bottom_edge = ys[-1] - 1 - foot
    # horizontal: the left and right names side by side, and the top/bottom pins
    names = longest["left"] + longest["right"] + 2 * NAME_OFFSET + GRID
    cols = max(len(slots["top"]), len(slots["bottom"]), 1)
    half = max(2, math.ceil(names / 2 / GRID), math.ceil((cols + 1) / 2))
    body = make("symbol", atoms.quote(f"{name}_0_1"),
                make("rectangle", make("start", atoms.num(-half * GRID), atoms.num(round(top_edge * GRID, 4))),
                     make("end", atoms.num(half * GRID), atoms.num(round(bottom_edge * GRID, 4))),
                     make("stroke", make("width", atoms.num(BODY_LINE)), make("type", b"default")),
                     make("fill", make("type", b"background"))))
    pin_nodes = []
    placed: dict[str, list[str]] = {s: [] for s in SIDES}
    for side in SIDES:
        n = len(slots[side])
        if side in ("left", "right"):  # a shorter side centred on the longer one
            start = (rows - n) // 2
            spots = [(-(half + 1) if side == "left" else half + 1, ys[start + i]) for i in range(n)]
            angle = 0 if side == "left" else 180
        else:
            edge = top_edge + 1 if side == "top" else bottom_edge - 1
            spots = [(-x, edge) for x in _span(n)]  # left to right
            angle = 270 if side == "top" else 90
        for p, (gx, gy) in zip(slots[side], spots):
            if p is None:
                continue
            placed[side].append(p.number)
            pin_nodes.append(make("pin", p.type.encode(), b"line",
                                  make("at", atoms.num(round(gx * GRID, 4)), atoms.num(round(gy * GRID, 4)),
                                       str(angle).encode()),
                                  make("length", atoms.num(GRID)),
                                  make("name", atoms.quote(p.name or "~"), _effects()),
                                  make("number", atoms.quote(p.number), _effects())))
    unit = make("symbol", atoms.quote(f"{name}_1_1"), *pin_nodes)
    top_y = (top_edge + (1 if slots["top"] else 0)) * GRID + TEXT
    bottom_y = (bottom_edge - (1 if slots["bottom"] else 0)) * GRID - TEXT
    left_x = -half * GRID
    props = [_property("Reference", reference, left_x, top_y, justify="left"),
             _property("Value", value if value is not None else name, left_x, bottom_y, justify="left"),
             _property("Footprint", footprint, 0, 0, hide=True),
             _property("Datasheet", datasheet or "~", 0, 0, hide=True),
             _property("Description", description, 0, 0, hide=True)]
    if keywords:
        props.append(_property("ki_keywords", keywords, 0, 0, hide=True))
    node = make("symbol", atoms.quote(name), make("pin_names", make("offset", atoms.num(NAME_OFFSET))),
                make("exclude_from_sim", b"no"), make("in_bom", b"yes"), make("on_board", b"yes"),
                *props, body, unit, make("embedded_fonts", b"no"))
    return Drawn(node, 2 * half * GRID, (top_edge - bottom_edge) * GRID, placed)


EMPTY_LIBRARY = (b'(kicad_symbol_lib\n\t(version 20241209)\n\t(generator "boardwire")\n'
                 b'\t(generator_version "9.0")\n)\n')
