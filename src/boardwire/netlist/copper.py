"""Copper connectivity and the ratsnest of a board, computed from its own copper.

The rule follows KiCad's connectivity algorithm (``pcbnew/connectivity``): items of the
same net touch when an *anchor* of one lies on the copper of the other, on a copper
layer both are on. Anchors are a pad's and a via's centre and a track's two ends, and
a track's or via's anchor reaches as far as its half width (its round end); pads and
vias also connect to any same-net copper they overlap (a track crossing a pad); a
zone connects the tracks with an anchor inside its filled copper, and the pads, vias and
zones its fill touches (thermal spokes meet a pad's edge, not its centre). The ratsnest
of a net joins its clusters by the shortest links between their anchors (a minimum
spanning tree); clusters of zone fill alone are left out (KiCad leaves out a lone zone
island). The number of links is the board's unrouted count, which KiCad's DRC reports
as "unconnected items".

Coordinates are nanometres; shapes are shapely geometries.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain

import numpy as np
import shapely

from ..documents.board import Board
from ..geometry import geometry_of

EDGE_SLACK = 5  # nm


@dataclass
class CopperItem:
    kind: str  # pad, segment, arc, via, zone
    net: str
    layers: tuple[str, ...]
    core: object  # shapely geometry; the copper is what lies within ``r`` of it
    r: float
    anchors: tuple[tuple[int, int], ...]
    ref: str = ""  # pads: "R1-2"
    uuid: str | None = None
    reach: int = 0  # tracks and vias: half their width, the slack KiCad's hit test gives
    mask: int = 0  # copper layer bits (`geometry.items.Layers`)
    id: int = -1  # the geometry item's id


@dataclass
class Link:
    """One missing connection of the ratsnest (mm at the API edge)."""

    net: str
    a: str
    b: str
    a_at: tuple[int, int]
    b_at: tuple[int, int]
    a_id: str | None = None  # the UUIDs of the two items (a pad's own, a track's, a via's)
    b_id: str | None = None

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

def copper_items(board: Board) -> list[CopperItem]:
    """The board's connectable copper from its geometry (`geometry.geometry_of`, the one
    home of pad, track, via and zone shapes): pads where they have copper, tracks,
    arcs, vias, and each island of a zone fill (KiCad 5 fills thickened as KiCad reads
    them)."""
    model = geometry_of(board)
    seen: dict[int, tuple[str, ...]] = {}

    def names(mask: int) -> tuple[str, ...]:
        got = seen.get(mask)
        if got is None:
            got = seen[mask] = tuple(model.layers.of(mask))
        return got

    kept = model.__dict__.setdefault("_copper_items", {})
    out: list[CopperItem] = []
    for it in model.items:
        if it is None or it.kind == "shape":
            continue
        flash = model.flash(it) if it.kind == "pad" else 0
        hit = kept.get(it.id)
        if hit is None or hit[0] is not it or hit[1] != flash:
            hit = kept[it.id] = (it, flash, _copper_of(model, it, flash, names))
        out.extend(hit[2])
    if len(kept) > 2 * len(out) + 64:  # forget removed items
        for i in [i for i in kept if model.items[i] is None]:
            del kept[i]
    return out


def _copper_of(model, it, flash: int, names) -> list[CopperItem]:
    """The connectivity items of geometry item ``it`` (``flash``: a pad's copper layers)."""
    if it.kind == "pad":
        if not flash:
            return []  # a bare NPTH hole
        fp = model.footprints[it.fp]
        return [CopperItem("pad", it.net, names(flash), it.core, it.r, (tuple(it.data.at),),
                           f"{fp.reference}-{it.number}", it.uuid, mask=flash, id=it.id)]
    if it.kind in ("track", "arc"):
        t = it.data
        return [CopperItem("segment" if it.kind == "track" else "arc", it.net, names(it.mask),
                           it.core, it.r, (t.start, t.end), uuid=it.uuid, reach=t.width // 2,
                           mask=it.mask, id=it.id)]
    if it.kind == "via":
        v = it.data
        return [CopperItem("via", it.net, names(it.mask), it.core, it.r, (tuple(v.at),),
                           uuid=it.uuid, reach=v.size // 2, mask=it.mask, id=it.id)]
    if it.kind == "zone":
        # each island of a fill is its own item, as in KiCad's connectivity
        return [CopperItem("zone", it.net, names(it.mask), part, it.r, (tuple(shapely.get_coordinates(part)[0]),),
                           uuid=it.uuid, mask=it.mask, id=it.id)
                for part in shapely.get_parts(it.core)]
    return []


def _components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Connected components of ``n`` nodes joined by edges a[k]-b[k]: each node's
    label is the smallest node of its component (hook roots to smaller roots, then
    jump pointers until every node points at its root)."""
    labels = np.arange(n)
    while len(a):
        la, lb = labels[a], labels[b]
        apart = la != lb
        if not apart.any():
            break
        a, b, la, lb = a[apart], b[apart], la[apart], lb[apart]
        np.minimum.at(labels, np.maximum(la, lb), np.minimum(la, lb))
        while True:
            jumped = labels[labels]
            if (jumped == labels).all():
                break
            labels = jumped
    return labels


def connectivity(board: Board, near=None) -> Connectivity:
    """Clusters of connected copper and the ratsnest links that would join them
    (cached until the board is edited). ``near``: optional (lo, hi) arrays of geometry
    item ids, a superset of the pairs of non-zone copper items whose cores come within
    their radii of each other (the DRC's clearance candidates are), saving the
    neighbour query."""
    cached = getattr(board, "_connectivity", None)
    if cached is not None and cached[0] == board.edits:
        return cached[1]
    result = _compute(board, near)
    board._connectivity = (board.edits, result)
    return result


def _grown(geoms, d):
    """The bounding boxes of ``geoms`` grown by ``d`` (what an STRtree answers fastest)."""
    b = shapely.bounds(geoms)
    return shapely.box(b[..., 0] - d, b[..., 1] - d, b[..., 2] + d, b[..., 3] + d)


def _compute(board: Board, near=None) -> Connectivity:
    """Every touching same-net pair as distance tests between cores: the pairs of
    tracks, pads and vias come from the geometry's spatial index in one query, each
    zone island's neighbours from a box query."""
    model = geometry_of(board)
    items = copper_items(board)
    n = len(items)
    if not n:
        return Connectivity(items, [], [])
    codes: dict[str, int] = {"": 0}
    net = np.array([codes.setdefault(it.net, len(codes)) for it in items], dtype=np.int64)
    mask = np.array([it.mask for it in items], dtype=np.int64)
    core = np.fromiter((it.core for it in items), dtype=object, count=n)
    rad = np.array([it.r for it in items], dtype=float)
    zone = np.array([it.kind == "zone" for it in items])
    track = np.array([it.kind in ("segment", "arc") for it in items])
    ends = np.fromiter(chain.from_iterable((*it.anchors[0], *(it.anchors[1] if t else it.anchors[0]))
                                           for it, t in zip(items, track.tolist())),
                       dtype=float, count=4 * n).reshape(n, 2, 2)  # a track's two ends (x, y)
    # copper index of each geometry item (-1: none, or a zone)
    of_id = np.full(model.cols.n, -1, dtype=np.int64)
    plain = np.flatnonzero(~zone)
    of_id[[items[i].id for i in plain.tolist()]] = plain
    edges_a: list[np.ndarray] = []
    edges_b: list[np.ndarray] = []

    def join(a, b, ok):
        edges_a.append(a[ok])
        edges_b.append(b[ok])

    # tracks, pads and vias: a pad or via meets whatever copper of its net it overlaps
    # (a track crossing a pad is connected to it in KiCad); two tracks meet where an end
    # of one lies on the other's copper (within the end's half width)
    if near is None:
        ids = np.array([items[i].id for i in plain.tolist()], dtype=np.int64)
        ga, gb = model.index.candidates(ids, model.cols.r[ids] + EDGE_SLACK, once=True)
    else:
        ga, gb = near
        ok = model.index.box_gap(ga, gb) <= model.cols.r[ga] + model.cols.r[gb] + EDGE_SLACK
        ga, gb = ga[ok], gb[ok]
    a, b = of_id[ga], of_id[gb]
    keep = (a >= 0) & (b >= 0)
    a, b = a[keep], b[keep]
    keep = (net[a] == net[b]) & (net[a] > 0) & ((mask[a] & mask[b]) != 0)
    a, b = a[keep], b[keep]
    d = shapely.distance(core[a], core[b])
    both = track[a] & track[b]
    join(a, b, ~both & (d <= rad[a] + rad[b] + EDGE_SLACK))
    a, b = a[both], b[both]
    if len(a):
        reach = rad[a] + rad[b] + EDGE_SLACK
        on_b = [shapely.distance(shapely.points(ends[a, k]), core[b]) <= reach for k in (0, 1)]
        on_a = [shapely.distance(shapely.points(ends[b, k]), core[a]) <= reach for k in (0, 1)]
        join(a, b, on_b[0] | on_b[1] | on_a[0] | on_a[1])
    # each fill island against the same-net items near it on its layer: pads and vias
    # by their copper (thermal spokes meet a pad's edge), tracks by their ends
    zs = np.flatnonzero(zone & (net > 0))
    rmax = model.index.rmax() + EDGE_SLACK
    boxes = _grown(core[zs], rad[zs] + rmax) if len(zs) else []
    for z, area in zip(zs.tolist(), boxes):
        near = of_id[model.index.candidates_in(area)]
        near = near[near >= 0]
        near = near[(net[near] == net[z]) & ((mask[near] & mask[z]) != 0)]
        if not len(near):
            continue
        g = core[z]
        shapely.prepare(g)
        body = near[~track[near]]
        join(np.full(len(body), z), body, shapely.dwithin(g, core[body], rad[z] + rad[body] + EDGE_SLACK))
        t = near[track[near]]
        if len(t):
            reach = rad[z] + rad[t] + EDGE_SLACK
            hit = shapely.dwithin(g, shapely.points(ends[t, 0]), reach) \
                | shapely.dwithin(g, shapely.points(ends[t, 1]), reach)
            join(np.full(len(t), z), t, hit)
    # zone islands of a net touching on a layer
    if len(zs) > 1:
        s, t = shapely.STRtree(core[zs]).query(_grown(core[zs], rad[zs] + EDGE_SLACK + rad[zs].max()))
        a, b = zs[s], zs[t]
        keep = (a < b) & (net[a] == net[b]) & ((mask[a] & mask[b]) != 0)
        a, b = a[keep], b[keep]
        join(a, b, shapely.dwithin(core[a], core[b], rad[a] + rad[b] + EDGE_SLACK))
    cluster = _components(n, np.concatenate(edges_a + [np.zeros(0, np.int64)]).astype(np.int64),
                          np.concatenate(edges_b + [np.zeros(0, np.int64)]).astype(np.int64)).tolist()
    return Connectivity(items, cluster, _ratsnest(items, cluster))


def _ratsnest(items: list[CopperItem], cluster: list[int]) -> list[Link]:
    """Per net, the minimum spanning tree joining its clusters (KiCad's
    ``CONNECTIVITY_DATA::RecalculateRatsnest`` takes every cluster but a lone zone
    island, so stray vias and tracks touching nothing get lines too; here clusters of
    zone fill alone are left out): Prim's algorithm
    over the anchors of the pads and vias, and of the tracks in clusters with neither,
    where reaching one anchor brings in its whole cluster."""
    nodes_by_net: dict[str, list[tuple[int, tuple]]] = {}
    held = {cluster[i] for i, it in enumerate(items) if it.kind in ("pad", "via")}
    for i, it in enumerate(items):
        if not it.net:
            continue
        if it.kind in ("pad", "via"):
            nodes_by_net.setdefault(it.net, []).append((i, it.anchors[0]))
        elif it.kind in ("segment", "arc") and cluster[i] not in held:
            nodes_by_net.setdefault(it.net, []).extend((i, p) for p in it.anchors)
    links: list[Link] = []
    for net, nodes in nodes_by_net.items():
        groups = np.array([cluster[i] for i, _ in nodes])
        if len(set(groups.tolist())) < 2:
            continue
        pos = np.array([p for _, p in nodes], dtype=float)
        inside = groups == groups[0]
        best = np.full(len(nodes), np.inf)
        source = np.zeros(len(nodes), dtype=int)

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
            (ia, pa), (ib, pb) = nodes[source[j]], nodes[j]
            a, b = items[ia], items[ib]
            links.append(Link(net, a.ref or f"{a.kind} {a.uuid}", b.ref or f"{b.kind} {b.uuid}", pa, pb,
                              a.uuid, b.uuid))
            new = (groups == groups[j]) & ~inside
            inside |= new
            reach(new)
    return links
