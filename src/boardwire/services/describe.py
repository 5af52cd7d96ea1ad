"""query.describe's board summary: the one screen a model reads first about a board."""

from __future__ import annotations

from ..documents.board import Board
from ..documents.units import mm
from ..netlist.copper import connectivity


def describe_board(board: Board, rules: dict, net_classes: list[dict]) -> dict:
    """The board's one-screen summary; ``rules`` and ``net_classes`` are its project's
    (`project_rules.design_rules`, `project_rules.net_classes`)."""
    s = board.summary()
    nm_box = board.outline_bbox()
    box = None if nm_box is None else [mm(v) for v in nm_box]
    conn = connectivity(board)
    per_net: dict[str, int] = {}
    for link in conn.links:
        per_net[link.net] = per_net.get(link.net, 0) + 1
    worst = sorted(per_net.items(), key=lambda kv: -kv[1])[:8]
    rules = {k: rules[k] for k in ("min_clearance", "min_track_width", "min_via_diameter",
                                   "min_through_hole_diameter", "min_copper_edge_clearance") if k in rules}
    classes = [c.get("name") for c in net_classes]
    size = None if box is None else [round(box[2] - box[0], 3), round(box[3] - box[1], 3)]
    text = (f"{s['kind']} KiCad {s['kicad']} (format {s['version']}); "
            f"{len(s['copper_layers'])} copper layers; "
            + (f"{size[0]} x {size[1]} mm; " if size else "no outline; ")
            + f"{s['footprints']} footprints, {s['pads']} pads, {s['tracks'] + s['arcs']} tracks, "
              f"{s['vias']} vias, {s['zones']} zones, {s['nets']} nets; {conn.unrouted} unrouted")
    return {"summary": text, "size_mm": size, "outline_bbox": box,
            "copper_layers": s["copper_layers"],
            "counts": {k: s[k] for k in ("footprints", "pads", "tracks", "arcs", "vias", "zones",
                                         "nets", "graphics", "texts", "groups", "dimensions")},
            "unrouted": conn.unrouted, "unrouted_by_net": dict(worst),
            "design_rules": rules, "net_classes": classes, "format": s["version"]}
