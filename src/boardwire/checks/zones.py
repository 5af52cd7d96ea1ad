"""Copper clearance to zone fills: the zone part of KiCad 9's ``clearance`` provider
(``testItemAgainstZone`` and ``testZonesToZones`` in
pcbnew/drc/drc_test_provider_copper_clearance.cpp).

* Every track, arc and via on each of its layers, every pad on each layer it lists,
  and every copper drawing, against each zone fill on that layer of another net (a
  zone without a net is tested against everything): ``clearance`` when the item's
  copper (its hole where a pad or via has no copper on that layer) comes within
  ``clearance - epsilon`` of the fill, then ``hole_clearance`` when its hole does
  (both may be reported). A pad with neither copper nor a plated hole on the layer is
  only tested for its hole.
* Two zones of different nets on a layer: ``clearance`` when their fill outlines come
  closer than the clearance (no epsilon; once per pair and layer).
"""

from __future__ import annotations

import numpy as np
import shapely

from ..geometry.constraints import Constraints
from ..geometry.index import KIND
from .clearance import EPSILON, _hole_detail, _nearest
from .report import Violation, clearance_detail


def _zone_ids(model) -> list[int]:
    return model.alive_ids(("zone",)).tolist()


def item_zone_clearance(model, cons: Constraints, scope=None) -> list[Violation]:
    """Items against zone fills; ``scope``: item ids (items or zones) to test (None:
    all). Each fill is prepared once; the items near it are measured against it in one
    vectorised call and only those that may fail are looked at one by one."""
    cols = model.cols
    items = model.items
    zones = _zone_ids(model)
    if not zones:
        return []
    scope_set = None if scope is None else set(scope)
    maxc = cons.max_clearance() + EPSILON
    out: list[Violation] = []
    for z in zones:
        zone = items[z]
        if scope_set is None or z in scope_set:
            x0, y0, x1, y1 = shapely.bounds(zone.core)
            reach = maxc + zone.r
            cand = model.index.candidates_in(shapely.box(x0 - reach, y0 - reach, x1 + reach, y1 + reach))
        else:
            cand = np.array([i for i in scope_set if cols.alive[i] and cols.kind[i] != KIND["zone"]],
                            dtype=np.int64)
        if not len(cand):
            continue
        cand = cand[(cols.mask[cand] & zone.mask) != 0]
        if zone.net and len(cand):
            code = model.net_code(zone.net)
            cand = cand[cols.net[cand] != code]
        if not len(cand):
            continue
        _fill(model, zone)
        zi = np.full(len(cand), z)
        c, _ = cons.clearance(cand, zi)
        hc = cons.hole_clearance(cand, zi)
        # the item's copper holds its hole: measuring the copper finds every candidate
        need = np.maximum(c, hc)
        near = shapely.dwithin(zone.core, cols.core[cand], cols.r[cand] + zone.r + np.maximum(need, 0) + 1.0)
        layer = model.layers.of(zone.mask)[0]
        for i in cand[near].tolist():
            it = items[i]
            if it.kind == "pad" and not it.own & zone.mask:
                continue
            out.extend(_item_vs_zone(model, cons, it, zone, layer))
    return out


class _Fill:
    """A zone fill kept ready for many distance questions: prepared for the inside
    test, and its boundary as segments in a tree for the nearest edge."""

    def __init__(self, zone):
        shapely.prepare(zone.core)
        xy = [shapely.get_coordinates(r) for r in shapely.get_parts(shapely.boundary(zone.core))]
        segs = np.concatenate([np.stack([c[:-1], c[1:]], axis=1) for c in xy if len(c) > 1])
        self.zone = zone
        self.edges = shapely.linestrings(segs)
        self.tree = shapely.STRtree(self.edges)

    def nearest(self, geom) -> tuple[float, object]:
        """(distance from ``geom`` to the fill's copper, the fill's nearest edge)."""
        k = self.tree.query_nearest(geom, all_matches=False)
        edge = self.edges[k[0]] if len(k) else None
        if shapely.intersects(self.zone.core, geom):
            return 0.0, edge
        return float(shapely.distance(geom, edge)) if edge is not None else float("inf"), edge


def _fill(model, zone) -> _Fill:
    """The `_Fill` of ``zone``, kept on the model while the zone item lives."""
    fills = model.__dict__.setdefault("_fills", {})
    f = fills.get(zone.id)
    if f is None or f.zone is not zone:
        f = fills[zone.id] = _Fill(zone)
    return f


def _shape(model, it, layer):
    bit = model.layers.bit[layer]
    if model.flash(it) & bit or it.hole is None:
        return it.core, it.r
    return it.hole, it.hole_r


def _item_vs_zone(model, cons, it, zone, layer) -> list[Violation]:
    rules = cons.rules
    bit = model.layers.bit[layer]
    out = []
    test_clear = True
    if it.kind == "pad" and not model.flash(it) & bit and not (it.hole is not None and it.plated):
        test_clear = False
    fill = _fill(model, zone)
    if test_clear:
        c, _ = cons.clearance(np.array([it.id]), np.array([zone.id]))
        c = float(c[0])
        if c > 0 and rules.severity("clearance") != "ignore":
            core, r = _shape(model, it, layer)
            d, edge = fill.nearest(core)
            g = d - r - zone.r
            if g < max(0.0, c - EPSILON) or d == 0:
                name = cons.clearance_name(it.id, zone.id, c)
                out.append(Violation("clearance", rules.severity("clearance"), clearance_detail(name, c, g),
                                     [it, zone], _nearest(core, edge if edge is not None else zone.core), g, c, layer))
    if it.hole is not None and (it.kind != "via" or it.mask & bit):
        hc = float(cons.hole_clearance(np.array([it.id]), np.array([zone.id]))[0])
        if hc > 0 and rules.severity("hole_clearance") != "ignore":
            d, edge = fill.nearest(it.hole)
            g = d - it.hole_r - zone.r
            if g < max(0.0, hc - EPSILON) or d == 0:
                out.append(Violation("hole_clearance", rules.severity("hole_clearance"), _hole_detail(hc, g),
                                     [it, zone], _nearest(it.hole, edge if edge is not None else zone.core),
                                     g, hc, layer))
    return out


def _segments(geom) -> np.ndarray:
    """The boundary segments of a fill (N x 2 x 2), each turned to run left to right,
    in KiCad's sort order: by start point, then end point, where KiCad's VECTOR2
    compares points by their length (distance from the origin), not by x."""
    segs = []
    for ring in shapely.get_parts(shapely.boundary(geom)):
        xy = np.rint(shapely.get_coordinates(ring))
        if len(xy) > 1:
            segs.append(np.stack([xy[:-1], xy[1:]], axis=1))
    if not segs:
        return np.zeros((0, 2, 2))
    s = np.concatenate(segs)
    flip = s[:, 0, 0] > s[:, 1, 0]
    s[flip] = s[flip][:, ::-1]
    na = s[:, 0, 0] ** 2 + s[:, 0, 1] ** 2
    nb = s[:, 1, 0] ** 2 + s[:, 1, 1] ** 2
    return s[np.lexsort((nb, na))]


def _zone_gap(za, zb, clearance: float) -> float | None:
    """KiCad 9's zone-to-zone measure (``testZonesToZones``): A's fill segments in
    order, each against B's segments in order until the first one that starts right of
    its end (a sweep meant for segments sorted by x, run on segments sorted by length
    from the origin, so it can stop early); the first pair closer than ``clearance``
    answers with its rounded distance (0: the fills meet, KiCad's zones_intersect).
    None: no pair closer."""
    sa, sb = _segments(za.core), _segments(zb.core)
    if not len(sa) or not len(sb):
        return None
    la, lb = shapely.linestrings(sa), shapely.linestrings(sb)
    tree = shapely.STRtree(lb)
    i, j = tree.query(la, predicate="dwithin", distance=clearance + za.r + zb.r)
    if not len(i):
        return None
    # B's segments examined for A's segment i: those before the first that starts
    # right of i's end
    first_right = np.searchsorted(np.maximum.accumulate(sb[:, 0, 0]), sa[:, 1, 0], side="right")
    keep = j < first_right[i]
    i, j = i[keep], j[keep]
    if not len(i):
        return None
    d = np.maximum(np.floor(shapely.distance(la[i], lb[j]) - za.r - zb.r + 0.5), 0.0)
    hit = d < clearance
    if not hit.any():
        return None
    i, j, d = i[hit], j[hit], d[hit]
    return float(d[np.lexsort((j, i))[0]])


def zone_zone_clearance(model, cons: Constraints, scope=None) -> list[Violation]:
    """Fills of two zones of different nets closer than their clearance, as KiCad 9
    measures it (`_zone_gap`), zones in KiCad's order (board zones, then footprint
    zones); fills that meet are KiCad's zones_intersect (not built in)."""
    items = model.items
    zones = sorted(_zone_ids(model), key=lambda i: (items[i].fp is not None, i))
    out = []
    scope_set = None if scope is None else set(scope)
    for k, a in enumerate(zones):
        za = items[a]
        for b in zones[k + 1:]:
            zb = items[b]
            if not za.mask & zb.mask or za.data is zb.data:
                continue
            if scope_set is not None and a not in scope_set and b not in scope_set:
                continue
            if za.net == zb.net:
                continue
            c, _ = cons.clearance(np.array([a]), np.array([b]))
            c = float(c[0])
            if c <= 0 or not shapely.dwithin(za.core, zb.core, c + za.r + zb.r):
                continue
            d = _zone_gap(za, zb, c)
            if d is not None and d > 0:
                layer = model.layers.of(za.mask)[0]
                name = cons.clearance_name(a, b, c)
                out.append(Violation("clearance", cons.rules.severity("clearance"),
                                     clearance_detail(name, c, d), [za, zb],
                                     _nearest(za.core, zb.core), d, c, layer))
    return out
