"""What the placer takes and gives: a placement problem in, footprint poses out.

Plain data, no documents: `boardwire.layout.place_board` builds a `Problem` from a
board and writes a `Result` back with the board's own move, rotate and flip
primitives. Lengths are nanometres (floats), angles degrees as KiCad writes them
(counter-clockwise on screen, y down).

A part's shapes are given in its *stored frame*: the footprint's own coordinates at
angle 0 on the side it is on now (a back footprint's are already mirrored, as KiCad
stores them). A pose is (x, y, quarter turns q, flipped f): a point p of the stored
frame lands at ``(x, y) + rotate(mirror_y(p) if f else p, 90 q)``; flipping mirrors
about the x axis as pcbnew's top-bottom flip does (`documents.board.footprint_ops.flip`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

EDGES = ("left", "right", "top", "bottom")


@dataclass
class Part:
    """One footprint. ``box``: its courtyard's bounding box (x1, y1, x2, y2) in the
    stored frame; ``outline``: the courtyard polygon itself (shapely, stored frame;
    what the result is judged by). ``pads``: (k, 2) pad centres in the stored frame,
    ``pad_nets`` their net ids (-1: none). ``through``: it has drilled pads, so it
    takes room on both sides. ``movable``: placed by the engine (else a fixed
    obstacle at ``pose``). ``flippable``: may change side. ``sheet``: the schematic
    sheet it belongs to (parts of one sheet are kept together). ``edge``: a board
    edge it must sit on, facing out (`EDGES`). ``pad_boxes``: (k, 4) the pads' copper
    boxes (x1, y1, x2, y2, stored frame) grown by the clearance, kept off `Problem.art`.
    ``pad_numbers``: the pads' numbers (empty: 1, 2, 3... in order); ``value``: the
    footprint's value (a capacitor's tells a bulk one, `decoupling`)."""

    ref: str
    box: tuple[float, float, float, float]
    outline: object
    pads: np.ndarray
    pad_nets: list[int]
    side: str  # front or back: the side of the stored frame
    pose: tuple[float, float, int, int]  # x, y, quarter turns, flipped (the pose now)
    through: bool = False
    movable: bool = True
    flippable: bool = False
    sheet: str = ""
    edge: str | None = None
    facing: tuple[float, float] | None = None  # stored frame: the way its mating side looks
    pad_boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    box_now: tuple[float, float, float, float] | None = None  # board nm: its courtyard's box where it is
    pad_numbers: list[str] = field(default_factory=list)
    value: str = ""


@dataclass
class Decoupling:
    """Capacitor ``cap`` serves pin ``pin`` of IC ``ic`` on net ``net``: pad ``cap_pad``
    of the cap belongs next to pads ``ic_pads`` (that pin's pads; indices into each
    part's pads), within ``target`` (nm, pad edge to pad edge; `decoupling.TARGET_MM`)."""

    cap: int
    cap_pad: int
    ic: int
    ic_pads: list[int]
    net: str
    pin: str = ""
    target: float = 2e6


@dataclass
class Problem:
    """Parts, the nets joining their pads (``nets[i]``: name; a net's pins come from
    the parts' ``pad_nets``), the region parts must stay inside (a shapely polygon,
    already shrunk by the edge clearance) and fixed obstacles per side (shapely
    geometries in board coordinates: keep-outs that forbid footprints, parts not
    modelled as `Part`; courtyards keep off them), and per side the copper and
    solder-mask art that stays where it is (``art``: pads keep off it, since a pad
    there would short to the copper or be bared beside others), and silkscreen that
    stays (``silk``: courtyards keep off it while any spot without it is left). ``gap``: the
    courtyard-to-courtyard gap to keep."""

    parts: list[Part]
    nets: list[str]
    region: object
    gap: float
    obstacles: dict[str, list] = field(default_factory=lambda: {"front": [], "back": []})
    decoupling: list[Decoupling] = field(default_factory=list)
    layers: int = 2  # copper layers (for the routability estimate)
    track_pitch: float = 400_000.0  # nm: a track plus its clearance
    art: dict[str, list] = field(default_factory=lambda: {"front": [], "back": []})
    silk: dict[str, list] = field(default_factory=lambda: {"front": [], "back": []})
    pad_margin: float = 0.0  # nm the parts' pad_boxes are grown by


@dataclass
class Options:
    """``effort`` 1-3 sets the number of annealing moves (3, the default, the most:
    measured in docs/benchmarks.md, Autoplace, eighth round); ``seed`` their random
    order (same problem, options and seed: same result); ``time_limit`` (s) is a safety
    net that stops annealing early; ``grid`` (nm) the step positions are placed on;
    ``spacing`` (0-1) how much of the free area is handed out around parts as room
    for routing; ``restarts`` how many placements to make from different random
    walks, keeping the one whose ratsnest crosses least (`engine.place`);
    ``progress(fraction, message)`` is called between stages and may raise to
    cancel."""

    effort: int = 3
    seed: int = 0
    time_limit: float = 60.0
    grid: float = 127_000.0
    spacing: float = 0.5
    restarts: int = 1
    progress: Callable[[float, str], None] | None = None


@dataclass
class Result:
    """Poses per part index (movable parts only), parts that found no legal spot, and
    the seconds taken; ``state``: what `rework.rework` starts from (None when nothing
    was placed)."""

    poses: dict[int, tuple[float, float, int, int]]
    unplaced: list[int]
    seconds: float
    moves: int = 0
    state: object = None


class OutOfTime(Exception):
    """The time limit ran out while the parts were being made legal: a placement
    with parts left where they were would have the placed ones over them, so none is
    given. ``placed`` of ``total`` movable parts had a legal spot by then."""

    def __init__(self, placed: int, total: int):
        super().__init__(f"{placed} of {total} parts placed when the time ran out")
        self.placed, self.total = placed, total
