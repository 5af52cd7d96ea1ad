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

from ..documents.board import Board
from ..geometry import geometry_of

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

    def clusters_of(self, net: str) -> dict[int, list[CopperItem]]:
        out: dict[int, list[CopperItem]] = {}
        for item, c in zip(self.items, self.cluster):
            if item.net == net:
                out.setdefault(c, []).append(item)
        return out


def copper_items(board: Board) -> list[CopperItem]:
    """The board's connectable copper from its geometry (`geometry.geometry_of`, the one
    home of pad, track, via and zone shapes): pads where they have copper, tracks,
    arcs, vias, and zone fills per layer (KiCad 5 fills thickened as KiCad reads them)."""
    model = geometry_of(board)
    names = model.layers.of
    out: list[CopperItem] = []
    tracks = []
    for it in model.items:
        if it is None or it.kind == "shape":
            continue
        if it.kind == "pad":
            flash = model.flash(it)
            if not flash:
                continue  # a bare NPTH hole
            fp = model.footprints[it.fp]
            shape = shapely.buffer(it.core, it.r + EDGE_SLACK, quad_segs=8)
            out.append(CopperItem("pad", it.net, tuple(names(flash)), shape, (tuple(it.data.at),),
                                  f"{fp.reference}-{it.number}", it.uuid))
        elif it.kind in ("track", "arc"):
            t = it.data
            tracks.append(it)
            out.append(CopperItem("segment" if it.kind == "track" else "arc", it.net, tuple(names(it.mask)),
                                  None, (t.start, t.end), uuid=it.uuid, reach=t.width // 2))
        elif it.kind == "via":
            v = it.data
            out.append(CopperItem("via", it.net, tuple(names(it.mask)),
                                  shapely.buffer(it.core, max(it.r, 1.0), quad_segs=8), (tuple(v.at),),
                                  uuid=it.uuid, reach=v.size // 2))
    shapes = iter(shapely.buffer(np.array([t.core for t in tracks], dtype=object),
                                 np.array([max(t.r, 0.5) for t in tracks]), quad_segs=4)) if tracks else iter(())
    for item in out:
        if item.kind in ("segment", "arc"):
            item.shape = next(shapes)
    for it in model.items:
        if it is None or it.kind != "zone":
            continue
        layer = names(it.mask)[0]
        # each island of a fill is its own item, as in KiCad's connectivity
        for part in shapely.get_parts(it.core):
            fill = shapely.buffer(part, it.r, quad_segs=4) if it.r else part
            anchor = tuple(shapely.get_coordinates(part)[0])
            out.append(CopperItem("zone", it.net, (layer,), {layer: fill}, (anchor,), uuid=it.uuid))
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
            links.append(Link(net, a.ref or f"{a.kind} {a.uuid}", b.ref or f"{b.kind} {b.uuid}",
                              a.anchors[0], b.anchors[0]))
            new = (groups == groups[j]) & ~inside
            inside |= new
            reach(new)
    return links
