"""What a KiCad 5 board keeps in its own file that later versions keep in the project:
its design rules (the ``setup`` section) and net classes (``net_class`` lists).
Values in mm, as the project file has them."""

from __future__ import annotations

# setup keyword -> the KiCad 9 project rule it became (values in mm)
_LEGACY_SETUP = {
    "trace_min": "min_track_width", "via_min_size": "min_via_diameter",
    "via_min_drill": "min_through_hole_diameter", "uvia_min_size": "min_microvia_diameter",
    "uvia_min_drill": "min_microvia_drill", "hole_to_hole_min": "min_hole_to_hole",
    "edge_clearance": "min_copper_edge_clearance", "min_via_annulus": "min_via_annular_width",
    "via_min_annulus": "min_via_annular_width",
}


def legacy_rules(board) -> dict:
    """Design rules from a board's ``setup`` section (KiCad 5 kept them there): the
    KiCad 9 rule names of `_LEGACY_SETUP` in mm, plus ``trace_clearance`` (the Default
    net class's clearance). Empty for KiCad 6+ boards, whose rules are in the project."""
    setup = board.root.find("setup")
    out: dict = {}
    if setup is None:
        return out
    defaults = setup.find("defaults")  # KiCad 5.99: (defaults (edge_clearance ..) ...)
    for k in list(setup.lists()) + (list(defaults.lists()) if defaults is not None else []):
        v = k.atoms()
        if not v:
            continue
        key = _LEGACY_SETUP.get(k.head)
        try:
            if key:
                out[key] = float(v[0])
            elif k.head == "trace_clearance":
                out["trace_clearance"] = float(v[0])
        except ValueError:
            continue
    return out


def legacy_net_classes(board) -> list[dict]:
    """The net classes a KiCad 5 board keeps in its own file (``net_class`` lists):
    name, rule values in mm (clearance, trace_width, via_dia ...), ``nets``. Empty for
    KiCad 6+ boards, whose classes are in the project."""
    if board.root.find("net_class") is None:
        return []
    return board.net_classes
