"""Courtyards overlap: KiCad 9's ``courtyard_clearance`` provider
(pcbnew/drc/drc_test_provider_courtyard_clearance.cpp), ``courtyards_overlap`` part.

Each footprint's courtyard is the polygon its F.CrtYd (or B.CrtYd) drawings close
(KiCad's polygon lies the board's max_error inside the lines).
Two footprints whose front courtyards (or back courtyards) overlap, or come closer
than a courtyard clearance set by a custom rule, are reported once per side, items in
the order of their uuids. Courtyards that only touch along an edge do not overlap.
Footprints whose courtyard lines do not close (KiCad's ``malformed_courtyard``) are not
tested.
"""

from __future__ import annotations

import shapely

from ..geometry.constraints import Constraints
from .report import Violation, mm_text


def courtyards_overlap(model, cons: Constraints, scope_fps=None, *, always: bool = False) -> list[Violation]:
    """The overlaps (``scope_fps``: only those involving these footprint ids); none
    where the project's severity for ``courtyards_overlap`` is ignore, unless
    ``always`` (a placement's judge counts them whatever the project says)."""
    rules = cons.rules
    if rules.severity("courtyards_overlap") == "ignore" and not always:
        return []
    fps = [f for f in model.footprints if f is not None and f.courtyard and not f.malformed]
    fps.sort(key=lambda f: f.uuid or "")
    out: list[Violation] = []
    clearance = 0.0
    # KiCad's courtyard polygons lie inside the courtyard lines by the board's max_error
    # (its polygons are approximated "error inside"): measured on pcbnew's courtyards
    shrink = float(rules.value("max_error"))
    for side in ("front", "back"):
        polys = [(f, shapely.buffer(f.courtyard[side], -shrink, join_style="mitre"))
                 for f in fps if side in f.courtyard]
        polys = [(f, p) for f, p in polys if not p.is_empty]
        if len(polys) < 2:
            continue
        tree = shapely.STRtree([p for _, p in polys])
        src, tgt = tree.query([p for _, p in polys], predicate="dwithin", distance=clearance)
        for s, t in zip(src.tolist(), tgt.tolist()):
            if s >= t:
                continue
            fa, pa = polys[s]
            fb, pb = polys[t]
            if scope_fps is not None and fa.id not in scope_fps and fb.id not in scope_fps:
                continue
            if clearance > 0:
                d = float(shapely.distance(pa, pb))
                if d >= clearance:
                    continue
                detail = f"(courtyard clearance {mm_text(clearance)}; actual {mm_text(d)})"
            else:
                if not shapely.intersects(pa, pb) or shapely.intersection(pa, pb).area <= 0:
                    continue
                d, detail = 0.0, ""
            pos = tuple(shapely.get_coordinates(shapely.intersection(pa, pb).representative_point())[0]) \
                if d == 0 else fa.pos
            out.append(Violation("courtyards_overlap", rules.severity("courtyards_overlap"), detail,
                                 [fa, fb], pos, d, clearance, "F.CrtYd" if side == "front" else "B.CrtYd"))
    return out
