"""Size rules of single items, as KiCad 9's providers define them:

* ``track_width`` (drc_test_provider_track_width.cpp): a track or arc narrower than the
  board's minimum track width (or outside a custom rule's min/max).
* ``via_diameter`` (drc_test_provider_via_diameter.cpp): a via smaller than the board's
  minimum via diameter; a micro via is held to its net class's micro via diameter
  when the class sets one (KiCad's implicit "netclass (uvia)" rule), else to the board's
  micro via minimum.
* ``annular_width`` (drc_test_provider_annular_width.cpp): a via's ring
  ``(diameter - drill) / 2``, or a plated pad's thinnest copper around its hole
  (circle, oval, rect, roundrect and mildly chamfered pads centred on their hole:
  ``min(size - drill) / 2``; other pads: the distance from the hole to the pad's edge),
  below the board's minimum annular width. A pad with other pads of the same number
  in its footprint is not tested (KiCad then measures the stack; not built in).
* ``drill_out_of_range`` (drc_test_provider_hole_size.cpp): a pad hole's smaller side
  or a via's drill below the board's minimum through-hole size;
  ``microvia_drill_out_of_range`` for micro vias against the micro via minimum.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import shapely

from ..geometry.constraints import Constraints
from ..geometry.shapes import pad_shape_name
from .report import Violation, mm_text


def _ids(model, scope, kinds):
    if scope is None:
        return model.alive_ids(kinds)
    cols = model.cols
    return np.array([i for i in scope if cols.alive[i] and model.items[i].kind in kinds], dtype=np.int64)


def _v(rules, rule, detail, item, actual, required):
    return Violation(rule, rules.severity(rule), detail, [item], item.pos, actual, required)


def _below(out, cons, rule, constraint, it, actual, board_min, what) -> None:
    """Appends a ``rule`` violation when ``actual`` (nm) is below the minimum of
    ``constraint`` for item ``it`` (``board_min`` unless a custom rule sets it);
    ``what``: KiCad's word for the measure ("diameter", "annular width", "hole")."""
    need = float(cons.minimum(constraint, np.array([it.id]), board_min)[0]) if cons.rules.custom \
        else float(board_min)
    if actual < need:
        out.append(_v(cons.rules, rule, f"(board setup constraints min {what} {mm_text(need)}; "
                                         f"actual {mm_text(actual)})", it, actual, need))


def track_width(model, cons: Constraints, scope=None) -> list[Violation]:
    rules = cons.rules
    if rules.severity("track_width") == "ignore":
        return []
    ids = _ids(model, scope, ("track", "arc"))
    if not len(ids):
        return []
    widths = model.cols.r[ids] * 2
    mins = cons.minimum("track_width", ids, rules.value("min_track_width"))
    out = []
    for k in np.flatnonzero(widths < mins).tolist():
        it = model.items[int(ids[k])]
        out.append(_v(rules, "track_width", f"(board setup constraints min width {mm_text(mins[k])}; "
                                            f"actual {mm_text(widths[k])})", it, widths[k], mins[k]))
    return out


def via_diameter(model, cons: Constraints, scope=None) -> list[Violation]:
    rules = cons.rules
    if rules.severity("via_diameter") == "ignore":
        return []
    ids = _ids(model, scope, ("via",))
    out = []
    for i in ids.tolist():
        it = model.items[i]
        size = it.r * 2
        if it.data.via_type == "micro":
            nc = rules.netclass(it.net)
            need = nc.microvia_diameter or rules.value("min_microvia_diameter")
        else:
            need = rules.value("min_via_diameter")
        _below(out, cons, "via_diameter", "via_diameter", it, size, need, "diameter")
    return out


def _pad_ring(model, it) -> float:
    """The annular width of a plated pad (nm), as KiCad measures it."""
    pad = it.data
    shape = pad_shape_name(pad)
    simple = pad.offset == (0, 0) and (shape in ("circle", "oval", "rect", "roundrect")
                                       or shape == "chamfered_rect" and pad.chamfer_ratio <= 0.30)
    if simple:
        if shape == "circle":
            return (pad.size[0] - pad.drill[0]) / 2
        return min(pad.size[0] - pad.drill[0], pad.size[1] - pad.drill[1]) / 2
    outline = shapely.buffer(it.core, it.r, quad_segs=16) if it.r else it.core
    if not shapely.contains(outline, shapely.Point(pad.at)):
        return 0.0
    return float(shapely.distance(shapely.boundary(outline), it.hole)) - it.hole_r


def annular_width(model, cons: Constraints, scope=None) -> list[Violation]:
    rules = cons.rules
    if rules.severity("annular_width") == "ignore":
        return []
    ids = _ids(model, scope, ("via", "pad"))
    board = rules.value("min_via_annular_width")
    numbers: dict = {}
    out = []
    for i in ids.tolist():
        it = model.items[i]
        if it.kind == "via":
            if not it.data.drill:
                continue
            ring = (it.data.size - it.data.drill) / 2
        else:
            if it.hole is None or not it.plated or it.data.pad_type != "thru_hole":
                continue
            if _same_number(model, it, numbers):
                continue  # KiCad measures a stack of same-numbered pads together
            ring = _pad_ring(model, it)
        _below(out, cons, "annular_width", "annular_width", it, ring, board, "annular width")
    return out


def _same_number(model, pad, numbers: dict) -> bool:
    """True when another pad of the pad's footprint has its number (``numbers``: the
    pad numbers counted per footprint, filled as footprints come up)."""
    fp = model.footprints[pad.fp] if pad.fp is not None else None
    if fp is None:
        return False
    count = numbers.get(pad.fp)
    if count is None:
        count = numbers[pad.fp] = Counter(model.items[j].number for j in fp.pads if model.items[j] is not None)
    return count[pad.number] > 1


def hole_size(model, cons: Constraints, scope=None) -> list[Violation]:
    rules = cons.rules
    ids = _ids(model, scope, ("via", "pad"))
    out = []
    for i in ids.tolist():
        it = model.items[i]
        if it.kind == "pad":
            if not it.data.drill:
                continue
            actual = float(min(it.data.drill))
            rule, need = "drill_out_of_range", rules.value("min_through_hole_diameter")
        else:
            actual = float(it.data.drill)
            if it.data.via_type == "micro":
                rule, need = "microvia_drill_out_of_range", rules.value("min_microvia_drill")
            else:
                rule, need = "drill_out_of_range", rules.value("min_through_hole_diameter")
        if rules.severity(rule) == "ignore":
            continue
        if actual:
            _below(out, cons, rule, "hole_size", it, actual, need, "hole")
    return out
