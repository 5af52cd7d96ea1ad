"""pcb.setNetclass and pcb.setDesignRules: the board's net classes and minimum rules,
kept in its project file (project_rules.py edits it); sizes mm."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ..registry import Context, command
from .common import EditArgs, Name, Result, Size

Gap = Annotated[float, Field(ge=0, le=100, description="mm")]


class NetclassArgs(EditArgs):
    name: Name = Field(description="Net class name (created if new; KiCad compares names without case)")
    nets: list[Name] | None = Field(None, max_length=10000, description="Nets to put in the class (exact names or KiCad wildcards)")
    clearance: Gap | None = None
    track_width: Size | None = None
    via_diameter: Size | None = None
    via_drill: Size | None = None
    diff_pair_width: Size | None = None
    diff_pair_gap: Gap | None = None


@command("pcb.setNetclass", kind="edit", args=NetclassArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "name": "Power", "nets": ["VCC", "GND"], "track_width": 0.5},))
def set_netclass(ctx: Context, a: NetclassArgs) -> dict:
    """Create or change a net class (clearance, widths, via sizes) and assign nets to it, in the board's project file."""
    from .project_rules import set_netclass as apply

    return apply(ctx, a)


class RulesArgs(EditArgs):
    min_clearance: Gap | None = None
    min_track_width: Gap | None = None
    min_via_diameter: Gap | None = None
    min_via_annular_width: Gap | None = None
    min_through_hole_diameter: Gap | None = None
    min_hole_to_hole: Gap | None = None
    min_copper_edge_clearance: Gap | None = None
    min_silk_clearance: Gap | None = None


@command("pcb.setDesignRules", kind="edit", args=RulesArgs, result=Result, units="mm",
         examples=({"path": "b.kicad_pcb", "min_clearance": 0.15, "min_track_width": 0.15},))
def set_design_rules(ctx: Context, a: RulesArgs) -> dict:
    """Set the board's minimum design rules (Board Setup > Constraints) in its project file."""
    from .project_rules import set_rules

    return set_rules(ctx, a)
