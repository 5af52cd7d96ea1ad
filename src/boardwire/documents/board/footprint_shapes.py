"""A footprint's pads and drawings as plain data in board coordinates, for geometry
and design-rule checks (the footprint part of `shapes`).

`read_footprint` reads a footprint's pads (every shape KiCad 4 to 9 writes: circle,
rect, oval, roundrect, chamfered_rect, trapezoid, custom primitives), its drawings
(copper, Edge.Cuts, courtyards) in board coordinates, and its local clearance and
net-tie pad groups. Units: integer nanometres, degrees; KiCad's axes (y down). Source:
KiCad's "Footprint Library File Format" page; a ``custom`` padstack (KiCad 9 per-layer
pad shapes) is read as its default (front) shape.
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass, field

from ...sexpr.node import SList
from ..views import Point, View
from . import Footprint
from .shapes import (
    DrawingData,
    FootprintPlace,
    _flag,
    _kids,
    _layers,
    _net_of,
    _nm,
    _pt,
    _text,
    _uuid,
    _vals,
    read_drawing,
)


@dataclass(slots=True)
class PadData:
    """A pad in board coordinates.

    ``at`` is the pad's anchor (the hole's centre), ``angle`` its absolute angle;
    ``offset`` moves the copper shape from the anchor in the pad's own frame. ``size``
    is (x, y) in the pad's frame; ``drill`` (x, y) or None (x == y: round). Custom pads
    carry their ``primitives`` in the pad's own frame (relative to the shape's centre,
    unrotated). ``local_clearance`` is the pad's own clearance override (nm) or None.
    """

    number: str
    pad_type: str  # smd, thru_hole, np_thru_hole, connect
    shape: str  # circle, rect, oval, roundrect, chamfered_rect, trapezoid, custom
    at: Point
    angle: float
    size: Point
    drill: Point | None
    offset: Point
    layers: tuple[str, ...]
    net: int | None
    net_name: str | None
    uuid: str | None
    roundrect_rratio: float = 0.0
    chamfer_ratio: float = 0.0
    chamfer: frozenset = frozenset()
    rect_delta: Point = (0, 0)
    anchor: str = "circle"
    primitives: list[DrawingData] = field(default_factory=list)
    local_clearance: int | None = None
    castellated: bool = False
    remove_unused_layers: bool = False
    keep_end_layers: bool = False


_PAD_DEFAULT_RRATIO = 0.25
_WORDS: dict[bytes, str] = {}


def _word(atom: bytes) -> str:
    """`_text` of a keyword atom (pad types and shapes: a few, read for every pad)."""
    w = _WORDS.get(atom)
    if w is None:
        w = _text(atom)
        if len(_WORDS) < 1024:
            _WORDS[atom] = w
    return w


_pad_fields = operator.attrgetter(*(f.name for f in dataclasses.fields(PadData)))  # at is 4th


def _read_pad(node: SList, place: FootprintPlace) -> tuple[PadData, Point]:
    """The pad and its anchor in the footprint's frame."""
    kids = _kids(node)
    vals = node.atoms()
    number = _text(vals[0]) if vals else ""
    pad_type = _word(vals[1]) if len(vals) > 1 else ""
    shape = _word(vals[2]) if len(vals) > 2 else ""
    at = _vals(kids.get(b"at"))
    local = (_nm(at[0]), _nm(at[1])) if len(at) >= 2 else (0, 0)
    angle = float(at[2]) if len(at) > 2 else 0.0
    size = _pt(kids.get(b"size")) or (0, 0)
    drill, offset = None, (0, 0)
    d = kids.get(b"drill")
    if d is not None:
        dv = d.atoms()
        oval = bool(dv) and dv[0] == b"oval"
        nums = [v for v in dv if v != b"oval"]
        if nums:
            dx = _nm(nums[0])
            dy = _nm(nums[1]) if oval and len(nums) > 1 else dx
            drill = (dx, dy) if dx or dy else None
        offset = _pt(_kids(d).get(b"offset")) or (0, 0)
    rr = _vals(kids.get(b"roundrect_rratio"))
    cr = _vals(kids.get(b"chamfer_ratio"))
    corners = frozenset(_text(v) for v in _vals(kids.get(b"chamfer")))
    delta = _pt(kids.get(b"rect_delta")) or (0, 0)
    anchor, prims = "circle", []
    if shape == "custom":
        opts = kids.get(b"options")
        if opts is not None:
            a = _vals(_kids(opts).get(b"anchor"))
            anchor = _text(a[0]) if a else "circle"
        p = kids.get(b"primitives")
        if p is not None:
            for prim in p.lists():
                dd = read_drawing(View(None, prim))
                if dd is not None:
                    if dd.shape == "circle" and dd.width == 0:
                        dd.filled = True  # KiCad 5 and 6: a primitive circle without width is a disc
                    prims.append(dd)
    clearance = _vals(kids.get(b"clearance"))
    net, name = _net_of(kids)
    prop = _vals(kids.get(b"property"))
    return PadData(number, pad_type, shape, place.place(local), angle, size, drill, offset,
                   _layers(kids), net, name, _uuid(kids),
                   float(rr[0]) if rr else (_PAD_DEFAULT_RRATIO if shape == "roundrect" else 0.0),
                   float(cr[0]) if cr else 0.0, corners, delta, anchor, prims,
                   _nm(clearance[0]) if clearance and _nm(clearance[0]) > 0 else None,
                   b"pad_prop_castellated" in prop,
                   _flag(node, kids, b"remove_unused_layers"), _flag(node, kids, b"keep_end_layers")), local


@dataclass(slots=True)
class FootprintData:
    """A footprint's copper-relevant content in board coordinates."""

    reference: str
    uuid: str | None
    at: Point
    angle: float
    side: str  # front or back
    pads: list[PadData]
    drawings: list[DrawingData]
    local_clearance: int | None
    net_tie_pad_groups: list[list[str]]
    attributes: tuple[str, ...]
    zones: list[View]


class PadReads:
    """The pads of the footprints read so far, for reading a footprint again after an
    edit (`read_footprint`): a pad list that no edit touched since (not in ``log``'s
    `ChangeLog.changed`) is not parsed again, only placed where its footprint is now,
    so moving a footprint of 100,000 pads re-reads none of them."""

    def __init__(self, log) -> None:
        self.log = log
        self.by_fp: dict[int, tuple[SList, dict]] = {}  # footprint list -> its pads

    def take(self, node: SList) -> dict:
        """The pads read from footprint list ``node`` before (pad list id -> (pad list,
        local anchor, PadData, place)), forgotten here."""
        got = self.by_fp.pop(id(node), None)
        return got[1] if got is not None and got[0] is node else {}

    def keep(self, node: SList, pads: dict) -> None:
        self.by_fp[id(node)] = (node, pads)

    def forget(self, fp: View) -> None:
        """Drop what was read from ``fp`` (a footprint gone from the board)."""
        self.by_fp.pop(id(fp.node), None)


def read_footprint(fp: Footprint, reads: PadReads | None = None) -> FootprintData:
    """A footprint's pads and drawings (every layer) in board coordinates; ``reads``:
    pads read before, reused where no edit touched them (see `PadReads`)."""
    node = fp.node
    kids = _kids(node)
    at = _vals(kids.get(b"at"))
    place = FootprintPlace((_nm(at[0]), _nm(at[1])) if len(at) >= 2 else (0, 0),
                           float(at[2]) if len(at) > 2 else 0.0)
    before = reads.take(node) if reads is not None else {}
    changed = reads.log.changed if before else {}
    now: dict = {}
    pads, drawings, zones = [], [], []
    for k in node.kids:
        if type(k) is not SList:
            continue
        h = k.head_bytes()
        if h == b"pad":
            hit = before.get(id(k))
            if hit is not None and hit[0] is k and id(k) not in changed:
                _, local, pad, was = hit
                if was != place:
                    fields = _pad_fields(pad)
                    pad = PadData(*fields[:3], place.place(local), *fields[4:])
            else:
                pad, local = _read_pad(k, place)
            pads.append(pad)
            if reads is not None:
                now[id(k)] = (k, local, pad, place)
        elif h.startswith(b"fp_") and h not in (b"fp_text", b"fp_text_box"):
            d = read_drawing(View(fp.doc, k), place)
            if d is not None:
                drawings.append(d)
        elif h == b"zone":
            zones.append(View(fp.doc, k))
    if reads is not None:
        reads.keep(node, now)
    clearance = _vals(kids.get(b"clearance"))
    groups = [[n.strip() for n in _text(v).split(",") if n.strip()]
              for v in _vals(kids.get(b"net_tie_pad_groups"))]
    tags = _vals(kids.get(b"tags"))
    version = getattr(fp.doc, "version", None) or 0
    if not groups and tags and _text(tags[0]).lower().startswith("net tie") and version < 20221018:
        # before KiCad 7 a footprint tagged "net tie" tied all its pads together
        groups = [sorted({p.number for p in pads if p.number})]
    layer = _vals(kids.get(b"layer"))
    side = "back" if layer and _text(layer[0]).startswith("B.") else "front"
    return FootprintData(fp.reference, _uuid(kids), place.at, place.angle, side, pads, drawings,
                         _nm(clearance[0]) if clearance and _nm(clearance[0]) > 0 else None,
                         groups, tuple(_text(v) for v in _vals(kids.get(b"attr"))), zones)


# -- zones ----------------------------------------------------------------------------------
