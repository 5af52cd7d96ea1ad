"""query.describe: the one screen a model reads first about a board or a schematic."""

from __future__ import annotations

from collections import Counter

from ..documents.board import Board
from ..documents.units import mm
from ..netlist.copper import connectivity
from .schematic import connectivity_of, sheet_rows


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe_board(board: Board, rules: dict, net_classes: list[dict]) -> dict:
    """The board's one-screen summary; ``rules`` and ``net_classes`` are its project's
    (`services.rules.design_rules`, `services.rules.net_classes`)."""
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


def describe_schematic(ctx, path: str) -> dict:
    """query.describe for a schematic: one screen about the design rooted at ``path``."""
    od = ctx.session.get(path, "schematic", ctx.actor)
    s = od.doc.summary()
    conn = connectivity_of(ctx, path)
    parts = [p for p in conn.symbols if p.in_netlist]
    power = sorted({p.power_net() for p in conn.pins if p.is_power})
    refs = {p.reference for p in parts}
    nets = [n for n in conn.nets if n.netlist_pins]
    named = [n for n in nets if not n.name.startswith(("Net-(", "unconnected-("))]
    single = sum(1 for n in nets if len(n.nodes) == 1 and not n.no_connect)
    biggest = sorted(nets, key=lambda n: -len(n.nodes))[:8]
    labels = Counter(lab.kind for lab in conn.labels)
    files = {x.file for x in conn.sheets}
    missing = sorted({x.file for x in conn.sheets if x.missing})
    title = od.doc.title
    text = (f"schematic KiCad {s['kicad']} (format {s['version']})"
            + (f" \"{title}\"" if title else "") + "; "
            f"{_plural(len(conn.sheets), 'sheet instance')} of {_plural(len(files), 'file')}; "
            f"{_plural(len(refs), 'part')} ({_plural(len(parts), 'placed unit')}), "
            f"{_plural(len(power), 'power net')}; {_plural(len(nets), 'net')} "
            f"({len(named)} named, {single} with a single pin)")
    sheets = sheet_rows(conn)
    out = {"summary": text, "title": title, "format": s["version"],
           "counts": {"sheet_instances": len(conn.sheets), "sheet_files": len(files),
                      "parts": len(refs), "placed_units": len(parts),
                      "power_symbols": sum(1 for p in conn.symbols if p.lib is not None and p.lib.power),
                      "nets": len(nets), "named_nets": len(named), "single_pin_nets": single,
                      "labels": labels.get("label", 0), "global_labels": labels.get("global_label", 0),
                      "hierarchical_labels": labels.get("hierarchical_label", 0),
                      "sheet_pins": labels.get("sheet_pin", 0),
                      "wires_on_root": s["wires"], "buses_on_root": s["buses"]},
           "power_nets": power[:20],
           "sheets": [{"path": x["path"], "file": x["file"], "symbols": x["symbols"]}
                      for x in sheets[:12]],
           "largest_nets": [{"net": n.name, "pins": len(n.nodes)} for n in biggest]}
    if len(sheets) > 12:
        out["sheets_more"] = len(sheets) - 12
    if missing:
        out["missing_sheets"] = missing[:10]
    return out
