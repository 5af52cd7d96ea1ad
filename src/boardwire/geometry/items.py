"""Records of a board's copper, holes, edges and courtyards, built from the documents
layer's plain data (`documents.board.shapes`).

Each copper item carries its shape as a core and a radius (`shapes`), its net name,
the copper layers it is on (a bit mask over `Layers`), the layers where it has copper
("flashes": a through-hole pad or via with unused layers removed has only its hole
elsewhere), its hole (core and radius) if any, and what a report shows: the position
KiCad reports and a description in KiCad's words ("Pad 2 [GND] of R1 on F.Cu").
Units: nanometres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import Point

from ..documents.board.footprint_shapes import FootprintData, PadData
from ..documents.board.shapes import DrawingData, TrackData, ViaData, ZoneData
from . import shapes


class Layers:
    """A board's copper layers, front to back, and their bits (bit i: layer i)."""

    def __init__(self, names: list[str]):
        self.names = list(names)
        self.bit = {n: 1 << i for i, n in enumerate(self.names)}
        self.all = (1 << len(self.names)) - 1
        self._masks: dict[tuple, int] = {}  # memos of `mask` and `of`
        self._names: dict[int, tuple[str, ...]] = {}

    def mask(self, names) -> int:
        """The bits of layer names as KiCad writes them (``*.Cu``, ``F&B.Cu``, names)."""
        if type(names) is tuple:  # pads and drawings repeat a few lists
            m = self._masks.get(names)
            if m is None:
                m = self._masks[names] = self._mask(names)
            return m
        return self._mask(names)

    def _mask(self, names) -> int:
        m = 0
        for n in names:
            if n == "*.Cu":
                m |= self.all
            elif n == "F&B.Cu":
                if self.names:
                    m |= self.bit[self.names[0]] | self.bit[self.names[-1]]
            else:
                m |= self.bit.get(n, 0)
        return m

    def span(self, a: str, b: str) -> int:
        """The bits of layers ``a`` to ``b`` inclusive (a via's span)."""
        if a not in self.bit or b not in self.bit:
            return self.all
        i, j = sorted((self.names.index(a), self.names.index(b)))
        return sum(1 << k for k in range(i, j + 1))

    def of(self, mask: int) -> list[str]:
        names = self._names.get(mask)
        if names is None:
            names = self._names[mask] = tuple(n for n in self.names if mask & self.bit[n])
        return list(names)

    @property
    def outer(self) -> int:
        if not self.names:
            return 0
        return self.bit[self.names[0]] | self.bit[self.names[-1]]


def copper_order(layers) -> list[str]:
    """Copper layer names front to back from a board's layer table (`Board.layers`):
    KiCad 9 numbers copper F.Cu 0, B.Cu 2, inner layers 4, 6...; KiCad 5 to 8 F.Cu 0,
    inner layers 1..30, B.Cu 31."""
    cu = [layer for layer in layers if layer.is_copper]

    def key(layer):
        if layer.name == "F.Cu" or layer.ordinal == 0:
            return -1
        if layer.name == "B.Cu" or (layer.ordinal in (2, 31) and layer.name.startswith("B")):
            return 10_000
        return layer.ordinal
    return [layer.name for layer in sorted(cu, key=key)]


@dataclass(eq=False)
class Item:
    """One copper item (kind: pad, via, track, arc, zone, shape)."""

    kind: str
    uuid: str | None
    net: str
    mask: int
    core: object
    r: float
    desc: str
    pos: tuple[float, float]
    flash: int = 0  # layers with copper (else only the hole there)
    hole: object = None  # core of the hole, or None
    hole_r: float = 0.0
    plated: bool = True
    fp: int | None = None  # footprint record (pads, footprint drawings)
    number: str = ""  # pad number
    local_clearance: int | None = None  # pad/footprint override
    zone_clearance: int = 0
    data: object = None  # the documents record
    id: int = -1
    owner: object = None
    seq: int = 0  # document order of the top-level item that holds it
    own: int | None = None  # the layers the item lists (pads: as written; a hole reaches all)

    def __post_init__(self) -> None:
        if self.own is None:
            self.own = self.mask

    @property
    def has_hole(self) -> bool:
        return self.hole is not None


@dataclass(eq=False)
class FootprintRec:
    """A footprint: its courtyards (shapely polygons or None per side), its local
    clearance and net-tie groups, and its pads (item ids)."""

    reference: str
    uuid: str | None
    pos: tuple[int, int]
    side: str
    courtyard: dict
    malformed: bool
    local_clearance: int | None
    net_tie_groups: list[list[str]]
    attributes: tuple[str, ...]
    pads: list[int] = field(default_factory=list)
    id: int = -1
    owner: object = None

    @property
    def desc(self) -> str:
        return f"Footprint {self.reference or '<no reference designator>'}"


@dataclass(eq=False)
class Edge:
    """A board edge (Edge.Cuts or Margin line, zero width) or an oval NPTH hole."""

    uuid: str | None
    core: object
    r: float
    desc: str
    pos: tuple[float, float]
    layer: str
    id: int = -1
    owner: object = None


@dataclass(eq=False)
class Keepout:
    """A rule area (keep-out): its outline polygon, layers and what it forbids."""

    uuid: str | None
    name: str | None
    mask: int
    polygon: object
    flags: dict
    owner: object = None
    desc: str = "Rule Area"
    pos: tuple = (0, 0)


def _net_text(net: str) -> str:
    return net if net else "<no net>"


def fmt_mm(nm: float) -> str:
    return f"{nm / 1e6:.4f} mm"


def pad_item(pad: PadData, fp: FootprintData, layers: Layers, net: str, copper=None) -> Item | None:
    """The copper item of ``pad`` (None when it is on no copper layer); ``copper``: its
    (core, radius) when already made (`shapes.pad_coppers`)."""
    mask = layers.mask(pad.layers)
    hole = shapes.pad_hole(pad)
    if hole is not None:
        mask |= layers.all  # KiCad: a hole pierces every copper layer
    if not mask:
        return None
    if copper is not None:
        core, r = copper
    else:
        core, r = shapes.pad_copper(pad) if pad.size[0] > 0 and pad.size[1] > 0 else (None, 0.0)
    own = layers.mask(pad.layers)
    if pad.pad_type == "thru_hole" and hole is not None:
        own = layers.all  # KiCad 9 gives a plated through-hole pad every copper layer
    flash = own
    if pad.pad_type == "np_thru_hole" and pad.drill and pad.shape in ("circle", "oval"):
        if pad.size[0] <= pad.drill[0] and pad.size[1] <= pad.drill[1]:
            flash = 0  # an NPTH pad no bigger than its hole has no copper
    if core is None:
        flash = 0
        core, r = (hole if hole is not None else (Point(pad.at), 0.0))
    ref = fp.reference
    first = layers.of(flash or mask)
    if pad.pad_type == "np_thru_hole":
        desc = f"NPTH pad of {ref}"
    elif pad.pad_type == "thru_hole":
        desc = f"PTH pad {pad.number} [{_net_text(net)}] of {ref}"
    else:
        desc = f"Pad {pad.number} [{_net_text(net)}] of {ref} on {first[0] if first else pad.layers[0] if pad.layers else ''}"
    item = Item("pad", pad.uuid, net, mask, core, r, desc, pad.at, flash,
                hole[0] if hole else None, hole[1] if hole else 0.0,
                pad.pad_type != "np_thru_hole", number=pad.number, own=own,
                local_clearance=pad.local_clearance if pad.local_clearance is not None else fp.local_clearance,
                data=pad)
    return item


def track_items(tracks: list[TrackData], layers: Layers, nets: list[str]) -> list[Item | None]:
    """`track_item` for many tracks, straight segments made in one vectorised call."""
    straight = [k for k, t in enumerate(tracks) if not (t.kind == "arc" and t.mid is not None)
                and t.start != t.end]
    cores: dict[int, object] = {}
    if straight:
        xy = np.array([(tracks[k].start, tracks[k].end) for k in straight], dtype=float)
        cores = dict(zip(straight, shapely.linestrings(xy)))
    return [track_item(t, layers, n, cores.get(k)) for k, (t, n) in enumerate(zip(tracks, nets))]


def track_item(t: TrackData, layers: Layers, net: str, core=None) -> Item | None:
    mask = layers.bit.get(t.layer, 0)
    if not mask:
        return None
    if core is not None:
        length = math.dist(t.start, t.end)
    elif t.kind == "arc" and t.mid is not None:
        pts = shapes.arc_points(t.start, t.mid, t.end)
        core = shapely.linestrings(pts) if len(pts) > 1 else Point(t.start)
        length = _arc_length(t.start, t.mid, t.end)
    else:
        core = shapes.segment(t.start, t.end)
        length = math.dist(t.start, t.end)
    is_arc = t.kind == "arc" and t.mid is not None
    word = "Track (arc)" if is_arc else "Track"
    desc = f"{word} [{_net_text(net)}] on {t.layer}, length {fmt_mm(length)}"
    pos = t.start
    if is_arc:  # KiCad reports an arc at its centre
        c = shapes.arc_centre(t.start, t.mid, t.end)
        pos = (c[0], c[1]) if c else t.start
    return Item("arc" if t.kind == "arc" else "track", t.uuid, net, mask, core, t.width / 2, desc,
                pos, mask, data=t)


def _arc_length(a, m, b) -> float:
    c = shapes.arc_centre(a, m, b)
    if c is None:
        return math.dist(a, b)
    pts = shapes.arc_points(a, m, b)
    return float(shapely.length(shapely.linestrings(pts)))


def via_item(v: ViaData, layers: Layers, net: str) -> Item:
    ends = [n for n in v.layers if n in layers.bit]
    if v.via_type != "through" and len(ends) >= 2:
        mask = layers.span(ends[0], ends[-1])
    else:
        mask = layers.all
    kind = {"micro": "Micro Via", "blind": "Blind/Buried Via"}.get(v.via_type, "Via")
    lo = layers.of(mask)
    desc = f"{kind} [{_net_text(net)}] on {lo[0] if lo else ''} - {lo[-1] if lo else ''}"
    return Item("via", v.uuid, net, mask, Point(v.at), v.size / 2, desc, v.at, mask,
                Point(v.at) if v.drill else None, v.drill / 2, True, data=v)


def zone_items(z: ZoneData, layers: Layers, net: str) -> list[Item]:
    out = []
    pos = z.outline[0][0] if z.outline and z.outline[0] else (0, 0)
    r = z.min_thickness / 2 if z.fill_thickness else 0.0
    names = ", ".join(z.layers)
    for layer, rings in z.fills.items():
        bit = layers.bit.get(layer, 0)
        if not bit:
            continue
        geom = shapes.fill_polygons(rings)
        if geom is None:
            continue
        desc = (f"Teardrop [{_net_text(net)}] on {names}" if z.teardrop
                else f"Zone [{_net_text(net)}] on {names}, priority {z.priority}")
        out.append(Item("zone", z.uuid, net, bit, geom, r, desc, pos, bit,
                        zone_clearance=z.clearance, data=z))
    return out


def shape_item(d: DrawingData, layers: Layers, net: str) -> Item | None:
    mask = layers.mask(d.layers)
    if not mask:
        return None
    core, r = shapes.drawing_copper(d)
    if core is None:
        return None
    word = {"segment": "Segment", "arc": "Arc", "circle": "Circle", "rect": "Rectangle",
            "poly": "Polygon", "bezier": "Bezier"}.get(d.shape, "Shape")
    desc = f"{word} [{_net_text(net)}] on {', '.join(d.layers)}" if net else f"{word} on {', '.join(d.layers)}"
    return Item("shape", d.uuid, net, mask, core, r, desc, drawing_pos(d), mask, data=d)


def edge_items(d: DrawingData) -> list[Edge]:
    """A drawing on Edge.Cuts or Margin as zero-width edges (KiCad tests copper against
    the line, not its stroke); a filled shape's outline counts."""
    line = shapes.drawing_line(d)
    if line is None:
        return []
    word = {"segment": "Segment", "arc": "Arc", "circle": "Circle", "rect": "Rectangle",
            "poly": "Polygon", "bezier": "Bezier"}.get(d.shape, "Shape")
    layer = d.layers[0] if d.layers else "Edge.Cuts"
    return [Edge(d.uuid, line, 0.0, f"{word} on {layer}", drawing_pos(d), layer)]


def drawing_pos(d: DrawingData):
    """Where KiCad reports a drawing: an arc or circle at its centre, others at their
    first point."""
    if d.shape == "arc" and len(d.points) >= 3:
        c = shapes.arc_centre(*d.points[:3])
        if c:
            return (c[0], c[1])
    if d.shape == "circle" and d.points:
        return d.points[0]
    return d.points[0] if d.points else (0, 0)


def courtyards(fp: FootprintData) -> tuple[dict, bool]:
    """The footprint's courtyard polygons per side (front, back) from its drawings on
    F.CrtYd / B.CrtYd: closed outlines become polygons; ``malformed`` when the lines
    do not close."""
    out, malformed = {}, False
    for side, layer in (("front", "F.CrtYd"), ("back", "B.CrtYd")):
        lines, areas = [], []
        for d in fp.drawings:
            if layer not in d.layers:
                continue
            fill = shapes.drawing_fill(d) if d.shape in ("rect", "poly", "circle") else None
            if d.shape in ("rect", "poly", "circle"):
                d2 = DrawingData(d.shape, d.points, d.width, True, d.layers)
                fill = shapes.drawing_fill(d2)
                if fill is not None and fill.is_valid:
                    areas.append(fill)
                    continue
            line = shapes.drawing_line(d)
            if line is not None and not line.is_empty and line.length > 0:
                lines.append(line)
        if lines:
            merged = shapely.line_merge(shapely.union_all(shapely.set_precision(lines, 1000.0)))
            polys = list(shapely.get_parts(shapely.polygonize(shapely.get_parts(merged))))
            if polys:
                areas.extend(polys)
            else:
                malformed = True
        if areas:
            out[side] = shapely.union_all(areas)
    return out, malformed
