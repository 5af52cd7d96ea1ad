"""pcb.setNetclass and pcb.setDesignRules: the board's net classes and minimum rules,
kept in its project file (`services.rules.editable_project`); sizes mm."""

from __future__ import annotations

import copy
from typing import Annotated

from pydantic import Field

from ...registry import Context, command
from ...services.rules import editable_project
from ..common import EditArgs, Name, Size
from .results import NetClassSet, RulesSet

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


@command("pcb.setNetclass", kind="edit", args=NetclassArgs, result=NetClassSet, units="mm",
         examples=({"path": "b.kicad_pcb", "name": "Power", "nets": ["VCC", "GND"], "track_width": 0.5},))
def set_netclass(ctx: Context, a: NetclassArgs) -> dict:
    """Create or change a net class (clearance, widths, via sizes) and assign nets to it, in the board's project file."""
    return _apply_netclass(ctx, a)


class RulesArgs(EditArgs):
    min_clearance: Gap | None = None
    min_track_width: Gap | None = None
    min_via_diameter: Gap | None = None
    min_via_annular_width: Gap | None = None
    min_through_hole_diameter: Gap | None = None
    min_hole_to_hole: Gap | None = None
    min_copper_edge_clearance: Gap | None = None
    min_silk_clearance: Gap | None = None


@command("pcb.setDesignRules", kind="edit", args=RulesArgs, result=RulesSet, units="mm",
         examples=({"path": "b.kicad_pcb", "min_clearance": 0.15, "min_track_width": 0.15},))
def set_design_rules(ctx: Context, a: RulesArgs) -> dict:
    """Set the board's minimum design rules (Board Setup > Constraints) in its project file."""
    return _apply_rules(ctx, a)


def _apply_netclass(ctx: Context, a: NetclassArgs) -> dict:
    pro = editable_project(ctx, a.path)
    data = pro.doc.data
    settings = data.setdefault("net_settings", {})
    classes = settings.setdefault("classes", [])
    cls = next((c for c in classes if c.get("name") == a.name), None)
    created = cls is None
    if created:
        default = next((c for c in classes if c.get("name") == "Default"), {})
        cls = copy.deepcopy(default)
        cls["name"] = a.name
        cls["priority"] = sum(1 for c in classes if c.get("name") != "Default")
        classes.append(cls)
    for key in ("clearance", "track_width", "via_diameter", "via_drill", "diff_pair_width",
                "diff_pair_gap"):
        value = getattr(a, key)
        if value is not None:
            cls[key] = value
    added = []
    if a.nets:
        patterns = settings.get("netclass_patterns") or []
        for net in a.nets:
            patterns = [p for p in patterns if p.get("pattern") != net]
            patterns.append({"netclass": a.name, "pattern": net})
            added.append(net)
        settings["netclass_patterns"] = patterns
    pro.doc.touch()
    return {"summary": f"net class {a.name} {'created' if created else 'updated'}"
                       + (f"; {len(added)} nets assigned" if added else "") + f" in {pro.path}",
            "netclass": cls, "project": pro.path}


RULE_KEYS = ("min_clearance", "min_track_width", "min_via_diameter", "min_via_annular_width",
             "min_through_hole_diameter", "min_hole_to_hole", "min_copper_edge_clearance",
             "min_silk_clearance")


def _apply_rules(ctx: Context, a: RulesArgs) -> dict:
    pro = editable_project(ctx, a.path)
    rules = pro.doc.data.setdefault("board", {}).setdefault("design_settings", {}).setdefault("rules", {})
    changed = {}
    for key in RULE_KEYS:
        value = getattr(a, key)
        if value is not None:
            rules[key] = value
            changed[key] = value
    pro.doc.touch()
    return {"summary": f"{len(changed)} rules set in {pro.path}", "rules": changed, "project": pro.path}
