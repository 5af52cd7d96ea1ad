"""Two DRC reports of one board compared, rule by rule: which violations both engines
found and which only one did.

Reports are in KiCad's JSON shape (``kicad-cli pcb drc --format json``, or
`report.Violation.to_report`). An item is known by its kind (read from KiCad's
description: pad, via, track, zone, footprint, rule area, other) and its reported
position to 1 um: uuids cannot be used, since KiCad makes up new ones on every load for
items an old file gives none. A violation is known by its type and its items; for
rules about one item (sizes) only that item counts, and for copper_edge_clearance only
the copper item (which edge segment KiCad names first depends on its R-tree).

Pairing is exact when both reports name the same items. Where KiCad stops at the first
failure of a track on a layer (its R-tree order decides which neighbour that is), the
two engines may name different partners for one track: a violation left over on each
side that shares an item with one on the other side is matched as "ambiguous pairing"
(the same count, different partners).
"""

from __future__ import annotations

from collections import Counter

from .engine import BUILT_IN

SINGLE = ("drill_out_of_range", "annular_width", "via_diameter", "track_width",
          "microvia_drill_out_of_range")


def item_kind(description: str) -> str:
    d = description
    if d.startswith(("Pad", "PTH pad", "NPTH pad")):
        return "pad"
    if "Via" in d.split("[")[0]:
        return "via"
    if d.startswith("Track"):
        return "track"
    if d.startswith(("Zone", "Teardrop")):
        return "zone"
    if d.startswith("Footprint"):
        return "footprint"
    if d.startswith("Rule Area"):
        return "rule area"
    return "other"


def item_key(item: dict) -> tuple:
    pos = item.get("pos") or {}
    return (item_kind(item.get("description", "")), round(float(pos.get("x", 0.0)), 3),
            round(float(pos.get("y", 0.0)), 3))


def violation_key(v: dict) -> frozenset:
    keys = [item_key(i) for i in v.get("items", [])]
    if v.get("type") == "copper_edge_clearance":
        keys = [k for k in keys if k[0] != "other"] or keys[:1]
    elif v.get("type") in SINGLE:
        keys = keys[:1]
    return frozenset(keys)


def compare(kicad: list[dict], ours: list[dict]) -> dict:
    """Violations of one type from both engines: counts, exact and ambiguous matches,
    and the violations only one engine found (as given)."""
    k = Counter(violation_key(v) for v in kicad)
    o = Counter(violation_key(v) for v in ours)
    exact = k & o
    k_left, o_left = list((k - exact).elements()), list((o - exact).elements())
    ambiguous = 0
    if k_left and o_left:
        rest = []
        for kk in k_left:
            hit = next((j for j, oo in enumerate(o_left) if kk & oo), None)
            if hit is None:
                rest.append(kk)
            else:
                ambiguous += 1
                o_left.pop(hit)
        k_left = rest
    only_k, only_o = Counter(k_left), Counter(o_left)

    def pick(vs, left):
        out = []
        for v in vs:
            key = violation_key(v)
            if left[key] > 0:
                left[key] -= 1
                out.append(v)
        return out

    return {"kicad": len(kicad), "builtin": len(ours), "matched": sum(exact.values()) + ambiguous,
            "ambiguous": ambiguous, "only_kicad": pick(kicad, only_k), "only_builtin": pick(ours, only_o)}


def compare_reports(kicad: dict, ours: dict, rules) -> dict:
    """Per rule in ``rules``: `compare` of the violations of that type (unconnected
    items compared by count)."""
    out = {}
    for rule in rules:
        if rule == "unconnected_items":
            nk, no = len(kicad.get("unconnected_items", [])), len(ours.get("unconnected_items", []))
            out[rule] = {"kicad": nk, "builtin": no, "matched": min(nk, no), "ambiguous": 0,
                         "only_kicad": [], "only_builtin": []}
            continue
        kv = [v for v in kicad.get("violations", []) if v.get("type") == rule]
        ov = [v for v in ours.get("violations", []) if v.get("type") == rule]
        if kv or ov:
            out[rule] = compare(kv, ov)
    return out


def agreement(kicad: dict, builtin: dict, limit: int) -> dict:
    """For each built-in rule: how many violations each engine found, how many both
    found, and (up to ``limit``) those only one found."""
    out = {}
    for rule, c in compare_reports(kicad, builtin, BUILT_IN).items():
        out[rule] = {"kicad": c["kicad"], "builtin": c["builtin"], "both": c["matched"],
                     "only_kicad": c["only_kicad"][:limit], "only_builtin": c["only_builtin"][:limit]}
    return out
