"""The built-in DRC: KiCad 9's rules on the board's copper geometry.

`run` checks a whole board; `check_scope` only what involves some items (the
incremental check after an edit). Rules built in, named and defined as KiCad 9 names
and defines them (each module cites its KiCad test provider):

==========================  ===============================================
clearance, shorting_items,  `clearance` (items), `zones` (zone fills)
tracks_crossing,
hole_clearance
copper_edge_clearance       `edges`
hole_to_hole,               `holes`
holes_co_located
track_width, via_diameter,  `sizes`
annular_width,
drill_out_of_range,
microvia_drill_out_of_range
courtyards_overlap          `courtyards`
unconnected_items           `unconnected` (board copper connectivity)
==========================  ===============================================

Not built in (KiCad reports them; use engine "kicad"): the silkscreen, solder mask,
text, library and schematic parity checks, items_not_allowed (keep-out rule areas),
zones_intersect, starved_thermal, isolated_copper, copper_sliver, connection_width,
track_dangling, via_dangling, malformed/missing courtyards, pth/npth_inside_courtyard,
diff pair and length rules, creepage, footprint checks, invalid_outline.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..geometry.constraints import Constraints
from .clearance import candidate_pairs, copper_clearance
from .courtyards import courtyards_overlap
from .edges import edge_clearance
from .holes import hole_to_hole
from .report import Violation
from .sizes import annular_width, hole_size, track_width, via_diameter
from .unconnected import unconnected_items
from .zones import item_zone_clearance, zone_zone_clearance

BUILT_IN = ("clearance", "shorting_items", "tracks_crossing", "hole_clearance",
            "copper_edge_clearance", "hole_to_hole", "holes_co_located", "track_width",
            "via_diameter", "annular_width", "drill_out_of_range", "microvia_drill_out_of_range",
            "courtyards_overlap", "unconnected_items")


@dataclass
class Result:
    violations: list[Violation] = field(default_factory=list)
    unconnected: list[Violation] = field(default_factory=list)

    def counts(self) -> dict:
        out: dict[str, int] = {}
        for v in self.violations:
            out[v.type] = out.get(v.type, 0) + 1
        return out


def run(model, cons: Constraints, board=None, connectivity=True) -> Result:
    """Every built-in rule on the whole board (``board`` is needed for
    unconnected_items: the board's copper connectivity)."""
    vs: list[Violation] = []
    # one neighbour query serves the clearance rules and the copper connectivity (its
    # touching pairs are among the pairs near enough to fail a clearance)
    pairs = candidate_pairs(model, cons, None)
    vs += copper_clearance(model, cons, pairs=pairs)
    vs += item_zone_clearance(model, cons)
    vs += zone_zone_clearance(model, cons)
    vs += edge_clearance(model, cons)
    vs += hole_to_hole(model, cons)
    vs += track_width(model, cons)
    vs += via_diameter(model, cons)
    vs += annular_width(model, cons)
    vs += hole_size(model, cons)
    vs += courtyards_overlap(model, cons)
    vs = _kept(vs, cons.rules)
    unconnected = unconnected_items(board, cons.rules, near=pairs) if connectivity and board is not None else []
    return Result(vs, unconnected)


def check_scope(model, cons: Constraints, ids, footprints=None) -> list[Violation]:
    """The violations that involve items ``ids`` (item ids) or footprints
    ``footprints`` (footprint record ids, for courtyards)."""
    ids = list(ids)
    vs: list[Violation] = []
    if ids:
        vs += copper_clearance(model, cons, ids)
        vs += item_zone_clearance(model, cons, ids)
        vs += zone_zone_clearance(model, cons, ids)
        vs += edge_clearance(model, cons, ids)
        vs += hole_to_hole(model, cons, ids)
        vs += track_width(model, cons, ids)
        vs += via_diameter(model, cons, ids)
        vs += annular_width(model, cons, ids)
        vs += hole_size(model, cons, ids)
    if footprints:
        vs += courtyards_overlap(model, cons, set(footprints))
    return _kept(vs, cons.rules)


def _kept(vs: list[Violation], rules) -> list[Violation]:
    """Without ignored severities and the project's excluded violations."""
    return [v for v in vs if v.severity != "ignore"
            and not rules.excluded(v.type, [getattr(i, "uuid", None) for i in v.items])]
