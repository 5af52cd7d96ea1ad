"""Net classes and design rules, which KiCad 6+ keeps in the project file.

They are edited in the ``.kicad_pro`` beside the board (opened in the session, so the
change is undoable and saved with session.save like any document). Sections and keys
follow KiCad 9's project file: ``net_settings.classes`` and ``netclass_patterns``,
``board.design_settings.rules``.
"""

from __future__ import annotations

import copy

from ..errors import NoDocument
from ..registry import Context


def _project(ctx: Context, board_path: str):
    od = ctx.session.get(board_path, "board", ctx.actor)
    pro = od.full.with_suffix(".kicad_pro")
    if not pro.is_file():
        raise NoDocument(f"{od.path} has no project file {pro.name}",
                         hint="Create the project first (KiCad or project.new): net classes and "
                              "rules live in the .kicad_pro.")
    return ctx.session.get(ctx.session.workspace.relative(pro), "project", ctx.actor)


def set_netclass(ctx: Context, a) -> dict:
    pro = _project(ctx, a.path)
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


def set_rules(ctx: Context, a) -> dict:
    pro = _project(ctx, a.path)
    rules = pro.doc.data.setdefault("board", {}).setdefault("design_settings", {}).setdefault("rules", {})
    changed = {}
    for key in RULE_KEYS:
        value = getattr(a, key)
        if value is not None:
            rules[key] = value
            changed[key] = value
    pro.doc.touch()
    return {"summary": f"{len(changed)} rules set in {pro.path}", "rules": changed, "project": pro.path}


def netclass_of(board, net: str | None) -> dict:
    """The net class (as in the project file) a net belongs to: the first pattern that
    matches it, else Default; {} without a project file."""
    import json

    pro = board.path.with_suffix(".kicad_pro") if board.path else None
    if pro is None or not pro.is_file():
        return {}
    try:
        data = json.loads(pro.read_text())
    except ValueError:
        return {}
    return netclass_lookup(data)(net)


def netclass_lookup(project: dict):
    """``net name -> net class dict`` for a project file's data (KiCad 9's
    ``net_settings``: the first of ``netclass_patterns`` that matches, KiCad's
    wildcards, else Default)."""
    import fnmatch

    settings = project.get("net_settings", {})
    classes = {c.get("name"): c for c in settings.get("classes", [])}
    patterns = settings.get("netclass_patterns") or []

    def lookup(net: str | None) -> dict:
        for p in patterns:
            if net and fnmatch.fnmatchcase(net, p.get("pattern", "")) and p.get("netclass") in classes:
                return classes[p["netclass"]]
        return classes.get("Default", {})

    return lookup
