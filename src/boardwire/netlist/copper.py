"""Copper connectivity and the ratsnest of a board, computed from its own copper.

The rule follows KiCad's connectivity algorithm (``pcbnew/connectivity``): items of the
same net touch when an *anchor* of one lies on the copper of the other, on a copper
layer both are on. Anchors are a pad's and a via's centre and a track's two ends, and
a track's or via's anchor reaches as far as its half width (its round end); pads and
vias also connect to any same-net copper they overlap (a track crossing a pad); a
zone connects the tracks with an anchor inside its filled copper, and the pads, vias and
zones its fill touches (thermal spokes meet a pad's edge, not its centre). Clusters with neither a pad nor a via are orphans and do not count. The ratsnest of a net
joins its clusters by the shortest pad-to-pad links (a minimum spanning tree); the
number of links is the board's unrouted count, which KiCad's DRC reports as
"unconnected items".

Coordinates are nanometres; shapes are shapely geometries.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box

from ..documents.board import Board, Pad
from ..documents.board_copper import pad_primitives, zone_fills

ARC_SEGMENTS = 16
EDGE_SLACK = 5  # nm


@dataclass
class CopperItem:
    kind: str  # pad, track, arc, via, zone
    net: str
    layers: tuple[str, ...]
    shape: object  # shapely geometry (for zones: per-layer dict)
    anchors: tuple[tuple[int, int], ...]
    ref: str = ""  # pads: "R1-2"
    uuid: str | None = None
    reach: int = 0  # tracks and vias: half their width, the slack KiCad's hit test gives


@dataclass
class Link:
    """One missing connection of the ratsnest (mm at the API edge)."""

    net: str
    a: str
    b: str
    a_at: tuple[int, int]
    b_at: tuple[int, int]

    @property
    def length(self) -> float:
        return math.dist(self.a_at, self.b_at)


@dataclass
class Connectivity:
    items: list[CopperItem]
    cluster: list[int]  # cluster id of each item
    links: list[Link]

    @property
    def unrouted(self) -> int:
        return len(self.links)


def copper_order(board: Board) -> list[str]:
    """Copper layers front to back (F.Cu, In1.Cu ... B.Cu) as the board names them."""
    layers = [layer for layer in board.layers if layer.is_copper]
    # KiCad 9 numbers copper 0 (F), 2 (B), 4.. (inner); older files 0 (F) .. 31 (B).
    def key(layer):
        if layer.name == "F.Cu" or layer.ordinal == 0:
            return -1
        if layer.name == "B.Cu" or layer.ordinal in (2, 31) and layer.name.startswith("B"):
            return 10_000
        return layer.ordinal
    return [layer.name for layer in sorted(layers, key=key)]


def _expand(names: list[str], copper: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for n in names:
        if n == "*.Cu":
            out.extend(copper)
        elif n == "F&B.Cu":
            out.extend([copper[0], copper[-1]])
        elif n in copper:
            out.append(n)
    return tuple(dict.fromkeys(out))


def pad_shape(pad: Pad) -> object:
    """The copper outline of a pad on the board (shapely, nm)."""
    cx, cy = pad.world_position
    w, h = pad.size or (0, 0)
    angle = pad.orientation % 360
    if angle in (90, 270):  # quarter turns exactly: no floating-point rotation
        w, h, angle = h, w, 0
    elif angle == 180:
        angle = 0
    shape = pad.shape
    if shape == "circle":
        g = Point(cx, cy).buffer(w / 2, 16)
    elif shape == "oval":
        r = min(w, h) / 2
        dx, dy = (w / 2 - r, 0) if w >= h else (0, h / 2 - r)
        g = LineString([(cx - dx, cy - dy), (cx + dx, cy + dy)]).buffer(r, 8) if (dx or dy) \
            else Point(cx, cy).buffer(r, 16)
    elif shape == "roundrect":
        ratio = pad.values("roundrect_rratio")
        r = min(w, h) * (float(ratio[0]) if ratio else 0.25)
        g = box(cx - w / 2 + r, cy - h / 2 + r, cx + w / 2 - r, cy + h / 2 - r).buffer(r, 4) \
            if r > 0 else box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    else:  # rect, trapezoid, chamfered_rect, custom anchor
        g = box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    if shape == "custom":
        extra = _custom_primitives(pad, cx, cy)
        if extra is not None:
            g = g.union(extra)
    if angle:
        g = affinity.rotate(g, -angle, origin=(cx, cy))
    # A few nanometres of slack so an anchor exactly on the edge (KiCad counts it as
    # inside) is not lost to floating-point rounding.
    return g.buffer(EDGE_SLACK, 2)


def _custom_primitives(pad: Pad, cx: int, cy: int):
    shapes = []
    for p in pad_primitives(pad):
        pts = [(cx + x, cy + y) for x, y in p.points]
        if p.kind == "gr_poly":
            if len(pts) >= 3:
                shapes.append(Polygon(pts).buffer(p.width / 2 if p.width else 0))
        elif p.kind == "gr_circle":
            shapes.append(Point(pts[0]).buffer(math.dist(pts[0], pts[1]) + p.width / 2, 16))
        else:
            shapes.append(box(*pts[0], *pts[1]) if p.kind == "gr_rect" else
                          LineString(pts).buffer(max(p.width, 1) / 2))
    return shapely.union_all(shapes) if shapes else None


def _arc_points(start, mid, end) -> list[tuple[float, float]]:
    (ax, ay), (bx, by), (cx, cy) = start, mid, end
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if not d:
        return [start, end]
    ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) + (cx * cx + cy * cy) * (ay - by)) / d
    uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) + (cx * cx + cy * cy) * (bx - ax)) / d
    r = math.hypot(ax - ux, ay - uy)
    a0, a1, am = (math.atan2(p[1] - uy, p[0] - ux) for p in (start, end, mid))
    sweep = (a1 - a0) % (2 * math.pi)
    if (am - a0) % (2 * math.pi) > sweep:  # the arc goes the other way round
        sweep -= 2 * math.pi
    return [(ux + r * math.cos(a0 + sweep * i / ARC_SEGMENTS), uy + r * math.sin(a0 + sweep * i / ARC_SEGMENTS))
            for i in range(ARC_SEGMENTS + 1)]


def copper_items(board: Board) -> list[CopperItem]:
    copper = copper_order(board)
    names = {n.number: n.name for n in board.nets}
    out: list[CopperItem] = []

    def net_of(item) -> str:
        name = item.net_name
        if name is None:
            name = names.get(item.net or 0, "")
        return name or ""

    for fp in board.footprints:
        ref = fp.reference
        for pad in fp.pads:
            layers = _expand(pad.layers, copper)
            if not layers or pad.pad_type == "np_thru_hole" and not pad.size:
                continue
            out.append(CopperItem("pad", net_of(pad), layers, pad_shape(pad),
                                  (pad.world_position,), f"{ref}-{pad.number}", pad.uuid))
    tracks, lines, widths = [], [], []
    for t in board.items(("segment", "arc")):
        if t.layer not in copper:
            continue
        start, end = t.start, t.end
        lines.append(_arc_points(start, t.mid, end) if t.kind == "arc" else [start, end])
        widths.append(max(t.width, 1) / 2)
        tracks.append(CopperItem(t.kind, net_of(t), (t.layer,), None, (start, end), uuid=t.uuid,
                                 reach=t.width // 2))
    if tracks:  # one vectorised buffer for all tracks
        shapes = shapely.buffer(shapely.linestrings(lines) if all(len(p) == 2 for p in lines)
                                else np.array([LineString(p) for p in lines], dtype=object),
                                np.array(widths), quad_segs=4)
        for item, shape in zip(tracks, shapes):
            item.shape = shape
        out.extend(tracks)
    for v in board.vias:
        ends = [n for n in v.layers if n in copper]
        if len(ends) >= 2 and v.via_type != "through":
            i, j = sorted((copper.index(ends[0]), copper.index(ends[-1])))
            layers = tuple(copper[i:j + 1])
        else:
            layers = tuple(copper)
        out.append(CopperItem("via", net_of(v), layers, Point(v.position).buffer(v.size / 2, 16),
                              (v.position,), uuid=v.uuid, reach=v.size // 2))
    for z in board.zones:
        if z.is_keepout:
            continue
        fills: dict[str, object] = {}
        for name, xy in zone_fills(z):
            if len(xy) >= 3:
                # KiCad's fills are "fractured" (holes joined by zero-width slits), which
                # GEOS calls invalid; its predicates still answer correctly off the slits,
                # and repairing 100k-vertex polygons costs seconds. Keep them as they are.
                fills.setdefault(name, []).append(Polygon(xy))
        if fills:
            merged = {name: (polys[0] if len(polys) == 1 else shapely.MultiPolygon(polys))
                      for name, polys in fills.items()}
            out.append(CopperItem("zone", net_of(z), tuple(merged), merged, (), uuid=z.uuid))
    return out


def _shape_on(item: CopperItem, layer: str):
    return item.shape[layer] if item.kind == "zone" else item.shape


def _probes(items: list[CopperItem], which: list[int]):
    """Anchor probes of ``which`` items: points, or discs of half the track width."""
    pts, owner, reach = [], [], []
    for i in which:
        for a in items[i].anchors:
            pts.append(a)
            owner.append(i)
            reach.append(items[i].reach)
    if not pts:
        return np.array([], dtype=object), owner
    probes = shapely.points(np.array(pts, dtype=float))
    wide = np.array(reach) > 0  # a point buffered by 0 would be empty
    probes[wide] = shapely.buffer(probes[wide], np.array(reach, dtype=float)[wide], quad_segs=4)
    return probes, owner


class _Union:
    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def connectivity(board: Board) -> Connectivity:
    """Clusters of connected copper and the ratsnest links that would join them
    (cached until the board is edited)."""
    cached = getattr(board, "_connectivity", None)
    if cached is not None and cached[0] == board.edits:
        return cached[1]
    result = _compute(board)
    board._connectivity = (board.edits, result)
    return result


def _compute(board: Board) -> Connectivity:
    items = copper_items(board)
    uf = _Union(len(items))
    by_layer: dict[str, list[tuple[int, object]]] = {}
    for i, it in enumerate(items):
        for layer in it.layers:
            shape = it.shape[layer] if it.kind == "zone" else it.shape
            by_layer.setdefault(layer, []).append((i, shape))
    for layer, entries in by_layer.items():
        plain = [(i, g) for i, g in entries if items[i].kind != "zone"]
        zones = [(i, g) for i, g in entries if items[i].kind == "zone" and items[i].net]
        # Anchors against the other items' copper. Zones stay out of this tree: testing
        # thousands of points against a 100k-vertex fill one by one is what is slow.
        idx = np.array([i for i, _ in plain], dtype=int)
        tree = shapely.STRtree([g for _, g in plain])
        probes, owner = _probes(items, [i for i, _ in plain])
        if len(probes):
            for p, t in zip(*tree.query(probes, predicate="intersects")):
                a, b = owner[p], int(idx[t])
                if a != b and items[a].net == items[b].net and items[a].net:
                    uf.join(a, b)
        # Pads and vias connect to whatever copper of their net they overlap, anchor or
        # not (a track crossing a pad is connected to it in KiCad).
        solid = [k for k, (i, _) in enumerate(plain) if items[i].kind in ("pad", "via") and items[i].net]
        if solid:
            for s_, t in zip(*tree.query(np.array([plain[k][1] for k in solid], dtype=object),
                                         predicate="intersects")):
                a, b = int(idx[solid[s_]]), int(idx[t])
                if a != b and items[a].net == items[b].net:
                    uf.join(a, b)
        # Each fill, prepared once, against the same-net items in its box: pads, vias
        # and zones by shape (thermal spokes meet a pad's edge), tracks by their anchors.
        for zi, (i, g) in enumerate(zones):
            shapely.prepare(g)
            near = [int(idx[t]) for t in tree.query(g)]
            near = [j for j in near if items[j].net == items[i].net]
            shapes = [j for j in near if items[j].kind not in ("segment", "arc")]
            if shapes:
                hit = shapely.intersects(g, np.array([_shape_on(items[j], layer) for j in shapes], dtype=object))
                for j in np.array(shapes)[hit]:
                    uf.join(i, int(j))
            tracks = [j for j in near if items[j].kind in ("segment", "arc")]
            if tracks:
                pts, who = _probes(items, tracks)
                for k in np.flatnonzero(shapely.intersects(g, pts)):
                    uf.join(i, who[k])
            for j, h in zones[zi + 1:]:
                if items[j].net == items[i].net and shapely.intersects(g, h):
                    uf.join(i, j)
    cluster = [uf.find(i) for i in range(len(items))]
    return Connectivity(items, cluster, _ratsnest(items, cluster))


def _ratsnest(items: list[CopperItem], cluster: list[int]) -> list[Link]:
    """Per net, the minimum spanning tree joining its clusters that hold pads or vias
    (KiCad draws ratsnest lines to stray vias too): Prim's algorithm over those
    anchors, where reaching one brings in its whole cluster."""
    pads_by_net: dict[str, list[int]] = {}
    for i, it in enumerate(items):
        if it.kind in ("pad", "via") and it.net:
            pads_by_net.setdefault(it.net, []).append(i)
    links: list[Link] = []
    for net, pads in pads_by_net.items():
        groups = np.array([cluster[i] for i in pads])
        if len(set(groups.tolist())) < 2:
            continue
        pos = np.array([items[i].anchors[0] for i in pads], dtype=float)
        inside = groups == groups[0]
        best = np.full(len(pads), np.inf)
        source = np.zeros(len(pads), dtype=int)

        def reach(new: np.ndarray) -> None:
            for k in np.flatnonzero(new):
                d = np.hypot(pos[:, 0] - pos[k, 0], pos[:, 1] - pos[k, 1])
                closer = d < best
                best[closer] = d[closer]
                source[closer] = k

        reach(inside)
        while not inside.all():
            cand = np.where(inside, np.inf, best)
            j = int(cand.argmin())
            a, b = items[pads[source[j]]], items[pads[j]]
            links.append(Link(net, a.ref or f"via {a.uuid}", b.ref or f"via {b.uuid}",
                              a.anchors[0], b.anchors[0]))
            new = (groups == groups[j]) & ~inside
            inside |= new
            reach(new)
    return links
