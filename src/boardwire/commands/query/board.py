"""query.* for boards: items, nets, net classes, describe, footprint, pads."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...documents.board import Arc, Board, Footprint, Graphic, Text, Track, Via, Zone
from ...registry import Context, command
from ...services.board import board_of, footprint_of
from ..common import Coord, DocArgs, Name, NetName, mm, mm_pt, nm
from .results import DiffPairs, DocumentDescribed, FootprintResult, Items, LengthGroups, NetClasses, Nets, Unrouted


def item_dict(item, nets: dict[int, str]) -> dict:
    """A compact, model-readable record of one board item (mm, degrees)."""
    out: dict = {"kind": item.kind, "id": item.uuid}
    if isinstance(item, Footprint):
        out.update(ref=item.reference, value=item.value, lib_id=item.lib_id,
                   at=mm_pt(item.position), angle=item.orientation, side=item.side,
                   pads=item.pad_count)
        return out
    if isinstance(item, Track):
        out.update(start=mm_pt(item.start), end=mm_pt(item.end), width=mm(item.width),
                   layer=item.layer)
        if isinstance(item, Arc):
            out["mid"] = mm_pt(item.mid)
    elif isinstance(item, Via):
        out.update(at=mm_pt(item.position), size=mm(item.size), drill=mm(item.drill),
                   layers=item.layers)
        if item.via_type != "through":
            out["type"] = item.via_type
    elif isinstance(item, Zone):
        out.update(layers=item.layers, name=item.name, corners=len(item.outline),
                   filled=item.filled, keepout=item.is_keepout)
    elif isinstance(item, Text):
        out.update(text=item.text, at=mm_pt(item.point("at")), layer=item.layer)
    elif isinstance(item, Graphic):
        out.update(layer=item.layer)
        for head in ("start", "end", "center", "mid"):
            p = item.point(head)
            if p is not None:
                out[head] = mm_pt(p)
    else:
        out["layer"] = getattr(item, "layer", None)
    net = getattr(item, "net", None)
    if net is not None:
        out["net"] = nets.get(net, str(net))
    elif getattr(item, "net_name", None):
        out["net"] = item.net_name
    return {k: v for k, v in out.items() if v is not None}


def anchor(item) -> tuple[int, int] | None:
    for head in ("at", "start", "center"):
        p = item.point(head)
        if p is not None:
            return p
    if isinstance(item, Zone) and item.outline:
        return item.outline[0]
    return None


ItemKind = Literal["footprint", "module", "segment", "arc", "via", "zone", "gr_line", "gr_rect",
                   "gr_circle", "gr_arc", "gr_poly", "gr_curve", "gr_bezier", "gr_text",
                   "gr_text_box", "group", "dimension"]


class ItemsArgs(DocArgs):
    kind: list[ItemKind] | None = Field(None, max_length=20)
    layer: str | None = Field(None, description="e.g. F.Cu")
    net: NetName | None = None
    reference: str | None = Field(None, max_length=1000, description="Footprint reference, e.g. R1")
    bbox: list[Coord] | None = Field(None, min_length=4, max_length=4, description="[x1, y1, x2, y2] mm")
    offset: int = Field(0, ge=0)
    limit: int = Field(50, ge=1, le=1000)


@command("query.items", kind="query", args=ItemsArgs, result=Items, units="mm, degrees", tables=("items",),
         idempotent=True, examples=({"path": "b.kicad_pcb", "kind": ["via"], "net": "GND"},))
def items(ctx: Context, a: ItemsArgs) -> dict:
    """Board items filtered by kind, layer, net, footprint reference and bounding box; paged."""
    from ...documents.board import BOARD_KINDS

    board = board_of(ctx, a.path)
    idx = board.index
    nets = {n: name for name, n in board.net_table.items()}
    kinds = set(a.kind) if a.kind else set(BOARD_KINDS)
    # start from the smallest index that applies, then check the rest per record
    pools: list[tuple[int, object]] = []
    if a.kind:
        pools.append((sum(len(idx.by_kind.get(k, ())) for k in kinds),
                      lambda: [e for k in kinds for e in idx.by_kind.get(k, {}).values()]))
    if a.net is not None:
        by_number = idx.by_net.get(idx.net_table.get(a.net), {})
        by_name = idx.by_net.get(a.net, {})
        pools.append((len(by_number) + len(by_name),
                      lambda: [*by_number.values(), *by_name.values()]))
    if a.reference is not None:
        e = idx.by_ref.get(a.reference)
        pools.append((1, lambda: [e] if e is not None else []))
    pool = min(pools, key=lambda p: p[0])[1]() if pools else idx.entries.values()
    if a.bbox is not None:
        x1, x2 = sorted((nm(a.bbox[0]), nm(a.bbox[2])))
        y1, y2 = sorted((nm(a.bbox[1]), nm(a.bbox[3])))
    want_net = {idx.net_table.get(a.net), a.net} if a.net is not None else None
    found, total = [], 0
    for e in pool:
        if e.kind not in kinds or (a.layer is not None and a.layer not in e.layers):
            continue
        if want_net is not None and e.net not in want_net:
            continue
        if a.reference is not None and e.ref != a.reference:
            continue
        if a.bbox is not None and (e.anchor is None or not (x1 <= e.anchor[0] <= x2 and y1 <= e.anchor[1] <= y2)):
            continue
        total += 1
        if a.offset < total <= a.offset + a.limit:
            found.append(item_dict(board.view(e), nets))
    more = total > a.offset + len(found)
    return {"summary": f"{total} item{'s' if total != 1 else ''} match; showing {len(found)}"
                       + (f" from {a.offset}" if a.offset else "") + ("; more with offset" if more else ""),
            "total": total, "offset": a.offset, "items": found}


class PagedArgs(DocArgs):
    offset: int = Field(0, ge=0)
    limit: int = Field(100, ge=1, le=5000)


class NetsArgs(PagedArgs):
    match: str | None = Field(None, max_length=200,
                              description="Only nets whose name contains this (case-insensitive), or matches it as a glob with * and ?")


def _matcher(pattern: str | None):
    if not pattern:
        return lambda name: True
    if any(c in pattern for c in "*?["):
        import fnmatch

        return lambda name: fnmatch.fnmatchcase(name.casefold(), pattern.casefold())
    return lambda name: pattern.casefold() in name.casefold()


@command("query.nets", kind="query", args=NetsArgs, result=Nets, idempotent=True, tables=("nets",),
         examples=({"path": "b.kicad_pcb", "match": "usb*"},))
def nets(ctx: Context, a: NetsArgs) -> dict:
    """The board's nets (by net number, paged) with how many pads, tracks and vias each has."""
    board = board_of(ctx, a.path)
    idx, table = board.index, board.net_table
    names = {n: name for name, n in table.items()}
    tracks: dict = {}
    vias: dict = {}
    for (net, kind), count in idx.net_kinds.items():
        name = names.get(net, net)  # KiCad 10 items name their net
        if kind == "via":
            vias[name] = vias.get(name, 0) + count
        elif kind in ("segment", "arc"):
            tracks[name] = tracks.get(name, 0) + count
    pads: dict = {}
    for net, count in idx.pad_nets.items():
        name = names.get(net, net)
        pads[name] = pads.get(name, 0) + count
    keep = _matcher(a.match)
    rows = [{"net": name, "number": n, "pads": pads.get(name, 0), "tracks": tracks.get(name, 0),
             "vias": vias.get(name, 0)} for name, n in table.items() if n > 0 and keep(name)]
    page = rows[a.offset:a.offset + a.limit]
    shown = f" (showing {a.offset + 1}-{a.offset + len(page)})" if len(page) < len(rows) else ""
    return {"summary": f"{len(rows)} nets{shown}", "total": len(rows), "offset": a.offset, "nets": page}


@command("query.netclasses", kind="query", args=DocArgs, result=NetClasses, idempotent=True)
def netclasses(ctx: Context, a: DocArgs) -> dict:
    """Net classes and their rules (from the board's project file, or the board for KiCad 5)."""
    from ...services.rules import net_classes

    classes = net_classes(ctx, ctx.session.get(a.path, "board", ctx.actor))
    return {"summary": f"{len(classes)} net classes", "netclasses": classes}


class RefArgs(DocArgs):
    reference: Name = Field(description="Footprint reference, e.g. U1")


def footprint_text_rows(fp) -> list[dict]:
    """A footprint's fields and free texts for a result (mm, degrees)."""
    from ...documents.board.footprint_text import footprint_texts

    return [{"name": t.name, "text": t.text, "id": t.uuid, "at": mm_pt(t.at), "angle": t.angle,
             "layer": t.layer, "visible": t.visible} for t in footprint_texts(fp)]


def pad_dict(pad, nets: dict[int, str]) -> dict:
    out = {"number": pad.number, "type": pad.pad_type, "shape": pad.shape,
           "at": mm_pt(pad.world_position), "size": mm_pt(pad.size), "layers": pad.layers,
           "net": pad.net_name or nets.get(pad.net or 0) or None}
    return {k: v for k, v in out.items() if v is not None}


@command("query.footprint", kind="query", args=RefArgs, result=FootprintResult, idempotent=True,
         units="mm, degrees", examples=({"path": "b.kicad_pcb", "reference": "U1"},))
def footprint(ctx: Context, a: RefArgs) -> dict:
    """One footprint: fields, library id, placement, side, its pads with board positions and nets, and its texts (fields and free texts: id, board position, angle, layer, visible)."""
    board = board_of(ctx, a.path)
    fp = footprint_of(board, a.reference)
    nets = {n.number: n.name for n in board.nets}
    d = item_dict(fp, nets)
    d.update(fields=fp.fields, pads=[pad_dict(p, nets) for p in fp.pads], attributes=fp.attributes,
             texts=footprint_text_rows(fp))
    return {"summary": f"{fp.reference} {fp.value} ({fp.lib_id}) at {d['at']} {fp.side}", **d}


@command("query.describe", kind="query", args=DocArgs, result=DocumentDescribed, idempotent=True,
         units="mm")
def describe(ctx: Context, a: DocArgs) -> dict:
    """A one-screen summary to read first: for a board its size, layers, counts, nets, unrouted connections, design rules; for a schematic its sheets, parts, power nets and largest nets."""
    from ...services.describe import describe_board, describe_schematic
    from ...services.rules import design_rules, net_classes

    od = ctx.session.get(a.path, ("board", "schematic"), ctx.actor)
    if od.kind == "schematic":
        return describe_schematic(ctx, a.path)
    return describe_board(od.doc, design_rules(ctx, od), net_classes(ctx, od))


@command("query.unrouted", kind="query", args=PagedArgs, result=Unrouted, idempotent=True,
         units="mm")
def unrouted(ctx: Context, a: PagedArgs) -> dict:
    """The ratsnest: connections not routed yet, computed from the board's own copper (pads, tracks, vias, zone fills), shortest first per net."""
    from ...netlist.copper import connectivity

    conn = connectivity(board_of(ctx, a.path))
    links = conn.links
    rows = [{"net": l.net, "from": l.a, "to": l.b, "from_at": mm_pt(l.a_at), "to_at": mm_pt(l.b_at),
             "length": round(l.length / 1e6, 3)} for l in links[a.offset:a.offset + a.limit]]
    nets = len({l.net for l in links})
    return {"summary": f"{len(links)} unrouted connection{'s' if len(links) != 1 else ''} on {nets} nets",
            "total": len(links), "links": rows}


def track_lengths(board: Board) -> dict[str, float]:
    """Routed length per net name in mm (segments and arcs)."""
    import math

    from ...geometry.shapes import arc_points

    names = {n.number: n.name for n in board.nets}
    out: dict[str, float] = {}
    for t in board.items(("segment", "arc")):
        name = t.net_name or names.get(t.net or 0, "")
        if not name:
            continue
        pts = arc_points(t.start, t.mid, t.end) if t.kind == "arc" else [t.start, t.end]
        length = sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))
        out[name] = out.get(name, 0.0) + length / 1e6
    return out


def pair_of(name: str) -> str | None:
    """KiCad's differential-pair naming: a net ending in + / - or P / N has a partner."""
    for pos, neg in (("+", "-"), ("P", "N"), ("p", "n")):
        if name.endswith(pos):
            return name[: -len(pos)] + neg
    return None


@command("query.diffPairs", kind="query", args=DocArgs, result=DiffPairs, idempotent=True, units="mm")
def diff_pairs(ctx: Context, a: DocArgs) -> dict:
    """Differential pairs found by KiCad's naming rule (NAME+/NAME-, NAMEP/NAMEN), with each side's routed length and the skew."""
    board = board_of(ctx, a.path)
    names = {n.name for n in board.nets}
    lengths = track_lengths(board)
    pairs = []
    for name in sorted(names):
        other = pair_of(name)
        if other and other in names:
            lp, ln = lengths.get(name, 0.0), lengths.get(other, 0.0)
            pairs.append({"positive": name, "negative": other, "length_p": round(lp, 3),
                          "length_n": round(ln, 3), "skew": round(abs(lp - ln), 3)})
    return {"summary": f"{len(pairs)} differential pair{'s' if len(pairs) != 1 else ''}", "pairs": pairs}


@command("query.lengthGroups", kind="query", args=DocArgs, result=LengthGroups, idempotent=True,
         units="mm")
def length_groups(ctx: Context, a: DocArgs) -> dict:
    """Length-matched groups: the custom rules (.kicad_dru) with a length or skew constraint, the nets their condition names, and each net's routed length."""
    import fnmatch
    import re

    od = ctx.session.get(a.path, "board", ctx.actor)
    board = od.doc
    rules = ctx.session.project_file(od, ".kicad_dru")
    groups = []
    if rules is not None:
        lengths = track_lengths(board)
        nets = [n.name for n in board.nets if n.name]
        for rule in rules.rules:
            constraints = rule.constraints(("length", "skew"))
            if not constraints:
                continue
            cond = rule.condition
            pats = re.findall(r"NetName\s*==\s*'([^']*)'", cond)
            members = sorted({n for n in nets for p in pats if fnmatch.fnmatchcase(n, p)})
            groups.append({"rule": rule.name, "condition": cond, "constraints": constraints,
                           "nets": [{"net": n, "length": round(lengths.get(n, 0.0), 3)} for n in members]})
    return {"summary": f"{len(groups)} length rule{'s' if len(groups) != 1 else ''}"
                       + ("" if rules is not None else " (no .kicad_dru beside the board)"),
            "groups": groups}
