"""Copper to board edge: KiCad 9's ``edge_clearance`` provider
(pcbnew/drc/drc_test_provider_edge_clearance.cpp), ``copper_edge_clearance`` part.

Every copper item (pads except castellated and edge-connector ``connect`` pads, vias,
tracks, arcs, copper drawings; not zone fills, which KiCad 9 leaves out) is tested against the board
edges: Edge.Cuts and Margin drawings as zero-width lines (their stroke is ignored) and
the oval holes of NPTH pads (slots are milled like edges). A gap below the edge
clearance is a violation (exactly the clearance is allowed; no epsilon); each item is
reported once per edge layer, against the first edge found. A castellated pad's hole
excuses a track that reaches the edge inside it.
"""

from __future__ import annotations

import numpy as np
import shapely

from ..geometry.constraints import Constraints
from .clearance import _nearest
from .report import Violation, clearance_detail


def _edge_index(model):
    """The board's edges (Edge.Cuts and Margin lines, oval NPTH holes) and their tree,
    and the castellated pads, kept per model generation."""
    cache = model.__dict__.setdefault("_edges", {})
    hit = cache.get(model.generation)
    if hit is None:
        items = model.items
        slots = [it for it in items if it is not None and it.kind == "pad" and not it.plated
                 and it.hole is not None and it.hole.geom_type == "LineString"]
        castellated = [it for it in items if it is not None and it.kind == "pad"
                       and getattr(it.data, "castellated", False) and it.hole is not None]
        targets = [(e.core, 0.0, e, e.layer) for e in model.edges if e is not None]
        targets += [(s.hole, s.hole_r, s, "Edge.Cuts") for s in slots]
        tree = shapely.STRtree([t[0] for t in targets]) if targets else None
        cache.clear()
        hit = cache[model.generation] = (targets, tree, castellated)
    return hit


def edge_clearance(model, cons: Constraints, scope=None) -> list[Violation]:
    rules = cons.rules
    if rules.severity("copper_edge_clearance") == "ignore":
        return []
    items = model.items
    targets, tree, castellated = _edge_index(model)
    if not targets:
        return []
    kinds = ("pad", "via", "track", "arc", "shape")  # KiCad 9 leaves zone fills out
    if scope is None:
        ids = model.alive_ids(kinds)
    else:
        ids = np.array([i for i in scope if model.cols.alive[i] and model.items[i].kind in kinds], dtype=np.int64)
    if not len(ids):
        return []
    ec = cons.edge_clearance(ids)
    cols = model.cols
    reach = cols.r[ids] + ec
    src, tgt = tree.query(cols.core[ids], predicate="dwithin", distance=reach + max(t[1] for t in targets))
    out: list[Violation] = []
    seen: set = set()
    order = np.lexsort((tgt, src))
    for k in order.tolist():
        i, t = int(ids[src[k]]), int(tgt[k])
        it = items[i]
        if it.kind == "pad" and (getattr(it.data, "castellated", False) or it.data.pad_type == "connect"
                                 or not it.flash):
            continue  # castellated and edge-connector pads may reach the edge; bare NPTH holes are no copper
        core, r, edge, layer = targets[t]
        if edge is it:
            continue
        key = (i, layer)
        if key in seen:
            continue
        d = float(shapely.distance(cols.core[i], core))
        g = d - cols.r[i] - r
        c = float(ec[src[k]])
        if not (g < c or d == 0) or (c > 0 and g == c):
            continue
        pos = _nearest(cols.core[i], core)
        if it.kind in ("track", "arc") and any(shapely.dwithin(p.hole, shapely.Point(pos), p.hole_r)
                                               for p in castellated):
            continue
        seen.add(key)
        detail = clearance_detail("board setup constraints edge", c, g) if c > 0 else ""
        out.append(Violation("copper_edge_clearance", rules.severity("copper_edge_clearance"), detail,
                             [edge, it], pos, g, c, layer))
    return out
