"""Copper clearance: KiCad 9's ``clearance`` test provider
(pcbnew/drc/drc_test_provider_copper_clearance.cpp), which reports

* ``clearance``: two copper items of different nets closer than their clearance,
* ``shorting_items``: two items of different nets touching,
* ``tracks_crossing``: two straight tracks of different nets whose centre lines cross,
* ``hole_clearance``: copper closer to a hole than the hole clearance.

KiCad tests tracks and vias against every copper item near them (items of their own
net, including two items without a net, are skipped), then pads against pads (and
pads' copper against via holes), then copper drawings against pads and drawings;
each pair gives at most one violation per loop (the first layer that fails). A pad or
via that has no copper on a layer (NPTH pads, unused layers removed) is its hole
there. A collision is a gap below ``clearance - epsilon`` (0.5 um), or below
``max(0, hole clearance - epsilon)`` for holes. Zones are in `zones`.

Vectorised: candidate pairs come from the spatial index with their exact gaps; only the
pairs that could fail go through KiCad's per-pair decisions.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import shapely

from ..geometry.constraints import Constraints
from ..geometry.index import KIND, gaps
from .report import Violation, clearance_detail, mm_text

EPSILON = 500.0  # nm: KiCad's DRC epsilon (ADVANCED_CFG m_DRCEpsilon, 0.0005 mm)

TRACKS = {KIND["track"], KIND["arc"], KIND["via"]}


def kicad_layer_order(model, mask: int) -> list[str]:
    """Layers of ``mask`` in KiCad 9's LSET order (layer ids F.Cu 0, B.Cu 2, In1.Cu 4,
    ...): F.Cu, B.Cu, then the inner layers front to back."""
    return _layer_order(tuple(model.layers.names), mask)


@lru_cache(maxsize=4096)
def _layer_order(all_names: tuple, mask: int) -> list[str]:
    names = [n for i, n in enumerate(all_names) if mask >> i & 1]
    outer = [n for n in (all_names[0], all_names[-1]) if n in names] if all_names else []
    return list(dict.fromkeys(outer + names))


def candidate_pairs(model, cons: Constraints, scope) -> tuple[np.ndarray, np.ndarray]:
    """Unordered pairs (lo, hi) of non-zone copper items on a common layer near enough
    to fail a clearance or hole clearance; ``scope``: item ids at least one of each pair
    must be (None: all)."""
    cols = model.cols
    if scope is None:
        ids = model.alive_ids(("pad", "via", "track", "arc", "shape"))
    else:
        ids = np.array([i for i in scope if cols.alive[i] and cols.kind[i] != KIND["zone"]], dtype=np.int64)
    if not len(ids):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    reach = cols.r[ids] + cons.max_clearance() + EPSILON
    if scope is None:
        lo, hi = model.index.candidates(ids, reach, once=True)
    else:
        a, b = model.index.candidates(ids, reach)
        code = np.unique(np.minimum(a, b) * (cols.n + 1) + np.maximum(a, b))
        lo, hi = code // (cols.n + 1), code % (cols.n + 1)
    keep = (cols.mask[lo] & cols.mask[hi]) != 0
    return lo[keep], hi[keep]


class _Pairs:
    """KiCad's per-pair decisions for the pairs that may fail."""

    def __init__(self, model, cons: Constraints):
        self.m, self.c = model, cons
        self.items = model.items
        self.rules = cons.rules

    # shapes on a layer: copper where the item flashes, else its hole
    def shape(self, it, layer: str):
        bit = self.m.layers.bit[layer]
        if self.m.flash(it) & bit or it.hole is None:
            return it.core, it.r
        return it.hole, it.hole_r

    @staticmethod
    def gap(s1, s2) -> tuple[float, float]:
        d = float(shapely.distance(s1[0], s2[0]))
        return d - s1[1] - s2[1], d

    def severity(self, rule: str) -> str:
        return self.rules.severity(rule)

    def clearance(self, a, b) -> float:
        v, _ = self.c.clearance(np.array([a.id]), np.array([b.id]))
        return float(v[0])

    def hole_clearance(self, hole_owner, other) -> float:
        return float(self.c.hole_clearance(np.array([hole_owner.id]), np.array([other.id]))[0])

    def violation(self, rule, items, pos, detail="", actual=None, required=None, layer=None):
        if self.severity(rule) == "ignore":
            return None
        return Violation(rule, self.severity(rule), detail, list(items), pos, actual, required, layer)

    # -- testSingleLayerItemAgainstItem ----------------------------------------------------

    def single_layer(self, item, other, layer: str):
        test = _net_identity(item) != _net_identity(other)
        oshape = self.shape(other, layer)
        if other.kind == "pad" and not self.m.flash(other) & self.m.layers.bit[layer] and not other.plated:
            test = False
        ishape = self.shape(item, layer)
        a, b, sa, sb = item, other, ishape, oshape
        if (a.uuid or "") > (b.uuid or ""):
            a, b, sa, sb = b, a, sb, sa
        if test:
            c = self.clearance(item, other)
            if c > 0:
                if a.kind == "track" and b.kind == "track":
                    hit = shapely.intersection(a.core, b.core)
                    if not hit.is_empty:
                        p = shapely.get_coordinates(hit)[0]
                        return self.violation("tracks_crossing", (a, b), tuple(p), layer=layer)
                g, d = self.gap(sa, sb)
                if g < c - EPSILON or d == 0:
                    pos = _nearest(sa[0], sb[0])
                    if self.net_tie_exclusion(item, other, layer, oshape):
                        return None
                    if g <= 0 and _net_identity(other) is not None:
                        return self.violation("shorting_items", (a, b), pos,
                                              f"(nets {a.net} and {b.net})", g, c, layer)
                    name = self.c.clearance_name(a.id, b.id, c)
                    return self.violation("clearance", (a, b), pos, clearance_detail(name, c, g), g, c, layer)
        if item.hole is not None or other.hole is not None:
            for copper, cshape, owner in ((item, ishape, other), (other, oshape, item)):
                if owner.hole is None:
                    continue
                if owner.kind == "via" and not owner.mask & self.m.layers.bit[layer]:
                    continue
                hc = self.hole_clearance(owner, copper)
                g, d = self.gap(cshape, (owner.hole, owner.hole_r))
                if g < max(0.0, hc - EPSILON) or d == 0:
                    return self.violation("hole_clearance", (copper, owner), _nearest(cshape[0], owner.hole),
                                          _hole_detail(hc, g), g, hc, layer)
        return None

    def net_tie_exclusion(self, item, other, layer: str, oshape) -> bool:
        """KiCad's ``IsNetTieExclusion``: ``item`` entering a pad of its own net in a
        net-tie group of ``other``'s footprint may touch that footprint's copper there."""
        fp = self.m.footprints[other.fp] if other.fp is not None else None
        if fp is None or not fp.net_tie_groups or not item.net:
            return False
        tied = {n for group in fp.net_tie_groups for n in group}
        line = shapely.shortest_line(self.shape(item, layer)[0], oshape[0])
        pos = shapely.Point(shapely.get_coordinates(line)[-1]) if line is not None else None
        for i in fp.pads:
            pad = self.items[i]
            if pad is None or pad.number not in tied or pad.net != item.net:
                continue
            core, r = self.shape(pad, layer)
            if pos is not None and shapely.distance(core, pos) <= r + EPSILON:
                return True
        return False

    # -- testPadAgainstItem ------------------------------------------------------------------

    def pad_against(self, pad, other, layer: str):
        bit = self.m.layers.bit[layer]
        test_clear = True
        test_holes = True
        same_fp = pad.fp is not None and pad.fp == other.fp
        if same_fp and other.kind == "pad":
            if _net_tie(self.m, pad, other):
                test_clear = False
            if pad.number == other.number:
                test_holes = False
        if not pad.plated and not self.m.flash(pad) & bit:
            test_clear = False
        if other.kind == "pad" and not other.plated and not self.m.flash(other) & bit:
            test_clear = False
        if other.kind == "via":
            test_clear = False
        if other.net and other.net == pad.net:
            return None
        if pad.hole is None and other.hole is None:
            test_holes = False
        if same_fp and other.kind == "pad" and pad.number == other.number:
            if not pad.net or pad.net == other.net:
                return None
            if pad.net.startswith("unconnected-(") and other.net.startswith("unconnected-("):
                return None
            return self.violation("shorting_items", (pad, other), other.pos,
                                  f"(nets {pad.net} and {other.net})", 0.0, None, layer)
        ps, os_ = self.shape(pad, layer), self.shape(other, layer)
        if test_clear:
            c = self.clearance(pad, other)
            if c > 0:
                g, d = self.gap(ps, os_)
                if g < max(0.0, c - EPSILON) or d == 0:
                    pos = _nearest(ps[0], os_[0])
                    if g <= 0 and pad.net and other.net:
                        return self.violation("shorting_items", (pad, other), pos,
                                              f"(nets {pad.net} and {other.net})", g, c, layer)
                    name = self.c.clearance_name(pad.id, other.id, c)
                    return self.violation("clearance", (pad, other), pos, clearance_detail(name, c, g), g, c, layer)
        if test_holes and other.hole is not None:
            hc = self.hole_clearance(pad, other)
            if other.kind == "pad" and not self.m.flash(pad) & bit:
                hc = 0.0
            if hc > 0:
                g, d = self.gap(ps, (other.hole, other.hole_r))
                if g < max(0.0, hc - EPSILON) or d == 0:
                    return self.violation("hole_clearance", (pad, other), _nearest(ps[0], other.hole),
                                          _hole_detail(hc, g), g, hc, layer)
        return None


def _net_identity(it):
    """What KiCad compares when it asks whether two items share a net: a copper drawing
    without a net has none at all (not even the "no net" that pads and tracks without a
    net share), so it differs from everything."""
    if it.kind == "shape" and not it.net:
        return None
    return it.net


def _hole_detail(hc: float, g: float) -> str:
    if hc:
        return f"(board setup constraints hole clearance {mm_text(hc)}; actual {mm_text(max(g, 0.0))})"
    return f"(board setup constraints hole clearance {mm_text(hc)}; actual < 0)"


def _nearest(g1, g2) -> tuple[float, float]:
    line = shapely.shortest_line(g1, g2)
    if line is None or line.is_empty:
        return tuple(shapely.get_coordinates(g1)[0])
    return tuple(shapely.get_coordinates(line)[0])


def _net_tie(model, pad, other) -> bool:
    fp = model.footprints[pad.fp] if pad.fp is not None else None
    if fp is None:
        return False
    for group in fp.net_tie_groups:
        if pad.number in group and other.number in group:
            return True
    return False


def copper_clearance(model, cons: Constraints, scope=None, pairs=None) -> list[Violation]:
    """Clearance, shorting, crossing and hole-clearance violations between copper
    items (zones excepted), following KiCad's three loops; ``scope``: only pairs with
    an item in it; ``pairs``: `candidate_pairs` of that scope when already computed."""
    cols = model.cols
    lo, hi = pairs if pairs is not None else candidate_pairs(model, cons, scope)
    # items of one net are never tested against each other, except that two pads
    # without a net are, and a copper drawing is still tested against holes
    shape, pad = KIND["shape"], KIND["pad"]
    keep = (cols.net[lo] != cols.net[hi]) | (cols.kind[lo] == shape) | (cols.kind[hi] == shape) \
        | ((cols.net[lo] == 0) & (cols.kind[lo] == pad) & (cols.kind[hi] == pad))
    lo, hi = lo[keep], hi[keep]
    if not len(lo):
        return []
    g = gaps(cols, lo, hi)
    c, _ = cons.clearance(lo, hi)
    hc = cons.hole_clearance(lo, hi)
    # copper gaps bound every layer's gap from below (a hole lies inside its copper); a
    # pair fails only below its clearance (its hole clearance where a hole is) less the
    # epsilon, or when touching: pads on a fine grid exactly at the clearance are many
    # and all pass
    wide = np.maximum(c, hc)
    reach = np.where(cols.holed[lo] | cols.holed[hi], wide, c)
    maybe = (g < reach - EPSILON) | (g <= 0)
    # except two pads of one number in one footprint: on different nets they short
    # whatever their gap (KiCad tests the pairs within its clearance reach)
    edge = np.flatnonzero(~maybe & (g < wide) & (cols.kind[lo] == pad) & (cols.kind[hi] == pad))
    if len(edge):
        items = model.items
        maybe[[k for k, a, b in zip(edge.tolist(), lo[edge].tolist(), hi[edge].tolist())
               if items[a].fp is not None and items[a].fp == items[b].fp
               and items[a].number == items[b].number]] = True
    lo, hi, g = lo[maybe], hi[maybe], g[maybe]
    partners: dict[int, list[tuple[float, int]]] = {}
    for a, b, gap in zip(lo.tolist(), hi.tolist(), g.tolist()):
        partners.setdefault(a, []).append((gap, b))
        partners.setdefault(b, []).append((gap, a))
    P = _Pairs(model, cons)
    items = model.items
    order = sorted(partners, key=lambda i: (items[i].seq, i))
    out: list[Violation] = []
    _track_loop(model, P, order, partners, out)
    _pad_loop(model, P, order, partners, out)
    _graphic_loop(model, P, order, partners, out)
    return out


class _Tested:
    """KiCad's record of the pairs a loop tested: each pair once per layer, and (in
    the track and pad loops) none again after it failed on one layer."""

    def __init__(self) -> None:
        self.state: dict[tuple[int, int], list] = {}

    def first(self, a: int, b: int, bit: int) -> bool:
        """Whether the pair is to be tested on layer ``bit`` (and mark it tested)."""
        st = self.state.setdefault((min(a, b), max(a, b)), [0, False])
        if st[1] or st[0] & bit:
            return False
        st[0] |= bit
        return True

    def failed(self, a: int, b: int) -> None:
        self.state[(min(a, b), max(a, b))][1] = True


def _loop(model, order, partners, out, kinds, layers_of, wanted, test, once: bool, first_only: bool) -> None:
    """One of KiCad's loops: items of ``kinds`` in board order, each on each layer of
    ``layers_of(item)`` (KiCad's layer order) against the ``wanted`` items near it,
    nearest first; ``once``: a pair that failed is not tested again on other layers;
    ``first_only``: an item's first failure on a layer ends its search there."""
    items, layers = model.items, model.layers
    tested = _Tested()
    for t in order:
        it = items[t]
        if it.kind not in kinds:
            continue
        near = sorted(partners[t])
        for layer in kicad_layer_order(model, layers_of(it)):
            bit = layers.bit[layer]
            for _, o in near:
                other = items[o]
                if not other.mask & bit or not wanted(it, other) or not tested.first(t, o, bit):
                    continue
                v = test(it, other, layer)
                if v is None:
                    continue
                out.append(v)
                if once:
                    tested.failed(t, o)
                if first_only:
                    break


def _track_loop(model, P: _Pairs, order, partners, out) -> None:
    """Tracks, arcs and vias against the copper near them (items of the track's net
    code, 0 included, skipped); one violation per track and layer (KiCad's default of
    not reporting all track errors)."""
    _loop(model, order, partners, out, ("track", "arc", "via"), lambda it: it.mask,
          lambda it, other: other.net != it.net, P.single_layer, once=True, first_only=True)


def _pad_loop(model, P: _Pairs, order, partners, out) -> None:
    """Pads, each on the layers it lists, against pads and vias (their holes) near it."""
    _loop(model, order, partners, out, ("pad",), lambda it: it.own,
          lambda it, other: other.kind in ("pad", "via"), P.pad_against, once=True, first_only=False)


def _graphic_loop(model, P: _Pairs, order, partners, out) -> None:
    """Copper drawings against the pads and drawings near them (tracks and vias are the
    track loop's); drawings of one footprint are not tested against each other, and a
    net-tie footprint's drawings not at all (KiCad 9 reports none of them: its copper
    drawings join nets by design)."""
    def wanted(shape, other) -> bool:
        if _is_net_tie(model, shape.fp) or other.kind in ("track", "arc", "via"):
            return False
        return not (shape.fp is not None and shape.fp == other.fp and other.kind == "shape")

    _loop(model, order, partners, out, ("shape",), lambda it: it.mask, wanted, P.single_layer,
          once=False, first_only=False)


def _is_net_tie(model, fp: int | None) -> bool:
    rec = model.footprints[fp] if fp is not None else None
    return bool(rec and rec.net_tie_groups)
