"""A board as a routing problem, and a routing result back into the board.

The one adapter (this package: here and `shapes`) between the router (`boardwire.layout.route`, which knows no
documents) and a KiCad board. It reads:

- copper and connectivity from `boardwire.netlist.copper` (pads of every shape,
  tracks, vias, clusters of connected copper);
- the board's rules as the DRC resolves them (`geometry.rules.Rules`: net classes with
  their patterns and assignments, the board setup constraints of the project or of a
  KiCad 5 board, KiCad 9's defaults), turned into the router's own `route.problem.Rules`
  and `NetRule` (nm) by `router_rules` and `net_rule`;
- the board outline (Edge.Cuts), copper drawings and text, pad and via holes, local
  clearances and keep-out rule areas from the document views.

`route` builds the problem and runs a routing engine on it through the seam
(`layout.route.engines`); `apply_result` writes a result into the board.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString, Point, Polygon

from ...documents.board import Board, Zone
from ...documents.views import View
from ...geometry.items import copper_order
from ...geometry.rules import Rules as BoardRules
from ...netlist.copper import connectivity
from ..route import engines
from ..route.problem import Net, NetRule, Obstacle, Piece, Plane, Problem, Result, Rules
from .shapes import MM, _nm, copper_art, edge_lines, hole_of, keepouts, local_clearance, outline_of


@dataclass
class BoardProblem:
    problem: Problem
    net_numbers: dict[int, int]  # problem net id -> the board's net number
    layer_names: list[str]


def net_rule(rules: BoardRules, net: str) -> NetRule:
    """What ``net`` gets from its net class (`BoardRules.effective`: values it does not
    set come from the Default class) within the board's minimums (track width, through
    hole, via diameter, via annular ring), in nm. Raises KeyError for rules without
    those minimums (`geometry.rules.build_rules` always sets them)."""
    nc, v = rules.effective(net), rules.values
    width = max(nc.track_width, v["min_track_width"])
    drill = max(nc.via_drill, v["min_through_hole_diameter"])
    dia = max(nc.via_diameter, v["min_via_diameter"], drill + 2 * v["min_via_annular_width"])
    return NetRule(width, nc.clearance, dia, drill)


def router_rules(rules: BoardRules) -> Rules:
    """The board setup constraints the router honours, from the board's rules (nm)."""
    v = rules.values
    return Rules(v["min_clearance"], v["min_copper_edge_clearance"], v["min_hole_to_hole"],
                 v["min_hole_clearance"])


def build_problem(board: Board, board_rules: BoardRules, *,
                  nets: set[str] | None = None, layers: list[str] | None = None,
                  area: tuple[int, int, int, int] | None = None) -> BoardProblem:
    """The routing problem of ``board`` under ``board_rules`` (`geometry.rules.Rules`, as
    `services.rules.session_rules` gives them): its unrouted connections (only ``nets``,
    or only connections with every pad inside ``area`` (x0, y0, x1, y1 nm), when given),
    routed on ``layers`` (default: every copper layer but inner planes).

    Zones: their fills are redrawn after routing, so they are neither obstacles nor
    connections, except on planes (`plane_zones`), which a via reaches."""
    copper = copper_order(board.layers)
    layer_index = {name: i for i, name in enumerate(copper)}
    outline = outline_of(board)
    centres = [pad.world_position for fp in board.footprints for pad in fp.pads]
    if outline is not None and centres and \
            sum(outline.contains(Point(c)) for c in centres) < len(centres) / 2:
        outline = None  # edges that do not close around the parts: kept away from as lines
    planes = plane_zones(board, copper, outline)
    default = [n for n in copper if n not in {z.layer for z in planes}]
    routable = tuple(layer_index[n] for n in (layers or default) if n in layer_index)
    rules = router_rules(board_rules)
    class_cache: dict[str, NetRule] = {}

    def rule_of(net: str) -> NetRule:
        if net not in class_cache:
            class_cache[net] = net_rule(board_rules, net)
        return class_cache[net]

    conn = connectivity(_without_zones(board))
    items = conn.items
    pads = {(fp.reference, pad.number, pad.world_position): (pad, fp)
            for fp in board.footprints for pad in fp.pads}
    vias = {v.uuid: v for v in board.vias}
    obstacles: list[Obstacle] = []
    pieces: dict[int, Piece] = {}
    names = sorted({it.net for it in items if it.net})
    ids = {name: i + 1 for i, name in enumerate(names)}
    for k, it in enumerate(items):
        it.shape = shapely.buffer(it.core, it.r, quad_segs=16) if it.r else it.core
        li = tuple(layer_index[n] for n in it.layers if n in layer_index)
        nid = ids.get(it.net, 0)
        # an item without a net has the Default class's clearance, as in KiCad's DRC
        # (it took none once: POWER tracks passed no-net pads at 0.3-0.56 mm where
        # pic_programmer's Default asked 0.6)
        clear = rule_of(it.net or "").clearance
        if it.kind == "pad":
            ref, number = it.ref.rsplit("-", 1)
            pad, fp = pads.get((ref, number, it.anchors[0]), (None, None))
            hole = hole_of(pad, it.anchors[0], pad.orientation) if pad is not None else None
            local = local_clearance(pad, fp) if pad is not None else None
            if local is not None:
                clear = _nm(local)  # a pad's or footprint's own clearance wins over its class
            if pad is not None and pad.pad_type == "np_thru_hole":  # its hole: `npth_holes`
                if hole is None or it.shape.area > hole.area * 1.01:
                    obstacles.append(Obstacle(it.shape, li, 0, clear, None, "pad"))
                continue
            obstacles.append(Obstacle(it.shape, li, nid, clear, hole, "pad"))
            pieces[k] = Piece("pad", li, it.shape, it.anchors[0], 0, it.ref)
        elif it.kind == "segment":
            (a, b) = it.anchors
            obstacles.append(Obstacle(it.shape, li, nid, clear, None, "track",
                                      (a[0], a[1], b[0], b[1], it.reach)))
            pieces[k] = Piece("track", li, LineString([a, b]) if a != b else LineString([a, (a[0] + 1, a[1])]),
                              None, it.reach * 2, "track")
        elif it.kind == "arc":
            obstacles.append(Obstacle(it.shape, li, nid, clear, None, "track"))
        elif it.kind == "via":
            v = vias.get(it.uuid)
            at = it.anchors[0]
            hole = Point(at).buffer(v.drill / 2, 16) if v is not None and v.drill else None
            obstacles.append(Obstacle(it.shape, li, nid, clear, hole, "via", (at[0], at[1], at[0], at[1], it.reach)))
            pieces[k] = Piece("via", li, it.shape, at, it.reach * 2, "via")
        # zones: their fills are refilled after routing, so they are no obstacle
    obstacles += npth_holes(board, len(copper))
    obstacles += copper_art(board, layer_index)
    if outline is None:
        obstacles += [Obstacle(line.buffer(1_000), tuple(range(len(copper))), 0, 0, kind="hole")
                      for line in edge_lines(board)]
    clusters: dict[tuple[str, int], list[Piece]] = {}
    for k, it in enumerate(items):
        if it.net and k in pieces and (nets is None or it.net in nets):
            clusters.setdefault((it.net, conn.cluster[k]), []).append(pieces[k])
    by_net: dict[str, list[list[Piece]]] = {}
    for (net, _), group in sorted(clusters.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if not any(p.kind in ("pad", "via") for p in group):
            continue  # orphan tracks: KiCad's ratsnest ignores them too
        if area is not None and not all(_inside(p, area) for p in group if p.kind == "pad"):
            continue
        by_net.setdefault(net, []).append(group)
    pours = _pours(planes, routable, layer_index, rule_of)
    for name, plist in pours.items():  # pads and vias already in a plane join it
        groups = by_net.get(name)
        if groups is None:
            continue
        joined = [g for g in groups if any(_reaches(p, plist) for p in g)]
        rest = [g for g in groups if not any(_reaches(p, plist) for p in g)]
        plane_pieces = [Piece("plane", (pl.layer,), pl.polygon, None, 0, f"{copper[pl.layer]} pour")
                        for pl in plist]
        by_net[name] = [plane_pieces + [p for g in joined for p in g]] + rest
    route_nets = [Net(ids[name], name, rule_of(name), groups, pours.get(name, []))
                  for name, groups in sorted(by_net.items()) if len(groups) >= 2]
    if outline is not None:
        bounds = tuple(int(v) for v in outline.bounds)
    else:
        allb = shapely.union_all([o.shape for o in obstacles]).bounds if obstacles else (0, 0, MM, MM)
        bounds = tuple(int(v) for v in allb)
    problem = Problem(copper, routable, outline, obstacles, keepouts(board, layer_index), route_nets,
                      rules, bounds)
    numbers = {ids[n]: board.net_number(n) or 0 for n in names}
    return BoardProblem(problem, numbers, copper)


def npth_holes(board: Board, layers: int) -> list[Obstacle]:
    """Every NPTH pad's hole, through all ``layers`` copper layers, with the pad's or its
    footprint's own clearance (else none: the board's hole and edge clearances hold, as
    KiCad treats an NPTH hole as board edge). Read from the footprints themselves: an
    NPTH pad no bigger than its hole has no copper, so the connectivity model has no
    item for it (a mounting hole without a size, StickHub's H1, was routed through)."""
    out = []
    for fp in board.footprints:
        for pad in fp.pads:
            if pad.pad_type != "np_thru_hole":
                continue
            hole = hole_of(pad, pad.world_position, pad.orientation)
            if hole is not None:
                local = local_clearance(pad, fp)
                out.append(Obstacle(hole, tuple(range(layers)), 0, _nm(local) if local is not None else 0,
                                    hole, "hole"))
    return out


def _without_zones(board: Board) -> Board:
    """The board's copper without its zones (a copy; the board is not touched)."""
    if not any(not z.is_keepout for z in board.zones):
        return board
    clone = Board(board.to_bytes(), board.path)
    for z in list(clone.zones):
        if not z.is_keepout:
            clone.delete(z)
    return clone


def plane_zones(board: Board, copper: list[str], outline) -> list[Zone]:
    """Zones that make an inner layer a plane: on an inner copper layer, with a net,
    covering half the board or more."""
    if len(copper) < 4:
        return []
    inner = set(copper[1:-1])
    area = outline.area if outline is not None else None
    out = []
    for z in board.zones:
        if z.is_keepout or z.layer not in inner or len(z.outline) < 3 or not (z.net_name or z.net):
            continue
        poly = Polygon(z.outline).buffer(0)
        if area is None or poly.intersection(outline).area >= 0.5 * area:
            out.append(z)
    return out


def _pours(planes: list[Zone], routable, layer_index, rule_of) -> dict[str, list]:
    """Per net, where a via reaches its planes: the zone less its clearance and the
    via's radius."""
    out: dict[str, list] = {}
    for z in planes:
        li = layer_index[z.layer]
        if li in routable:
            continue
        name = z.net_name or ""
        clear = z.child("connect_pads")
        gap = 0
        if clear is not None:
            c = View(z.doc, clear).values("clearance")
            gap = _nm(float(c[0])) if c else 0
        r = rule_of(name)
        poly = Polygon(z.outline).buffer(-(r.via_diameter / 2 + max(gap, r.clearance)))
        if not poly.is_empty:
            out.setdefault(name, []).append(Plane(li, poly))
    return out


def _reaches(p: Piece, planes) -> bool:
    """A pad or via through a plane's layer, inside it: the fill will connect it."""
    return p.kind in ("pad", "via") and any(pl.layer in p.layers and pl.polygon.contains(Point(p.at))
                                            for pl in planes)


def _inside(p: Piece, area) -> bool:
    x, y = p.at
    return area[0] <= x <= area[2] and area[1] <= y <= area[3]


def route(board: Board, board_rules: BoardRules, options: engines.RouteOptions | None = None,
          progress=None, **kw) -> tuple[BoardProblem, Result]:
    """Route ``board`` under ``board_rules`` with the engine ``options`` names
    (`engines.run`: its result checked by the gate) and write nothing: the problem
    (`build_problem`; ``kw``: its ``nets``, ``layers``, ``area``) and the result.
    ``progress(fraction, message)`` may raise to cancel."""
    bp = build_problem(board, board_rules, **kw)
    return bp, engines.run(bp.problem, options, progress)


def apply_result(board: Board, bp: BoardProblem, result: Result, seed: int = 0) -> list[str]:
    """Add the result's tracks and vias to the board (KiCad's formatting, through the
    document's edit primitives); returns the new items' ids. The ids are derived from
    the seed and the items (UUID version 5), so the same routing gives the same file."""
    ids = []
    names = bp.layer_names

    def uid(*parts) -> str:
        return str(uuid.uuid5(_ID_SPACE, "|".join(map(str, (seed, len(ids)) + parts))))

    for t in result.tracks:
        net = bp.net_numbers[t.net]
        ids.append(board.add_track(t.start, t.end, t.width, names[t.layer], net,
                                   uid=uid("track", t.start, t.end, t.width, t.layer, net)).uuid)
    for v in result.vias:
        net = bp.net_numbers[v.net]
        ids.append(board.add_via(v.at, v.diameter, v.drill, (names[0], names[-1]), net,
                                 uid=uid("via", v.at, v.diameter, v.drill, net)).uuid)
    return ids


_ID_SPACE = uuid.UUID("6f1d3c2a-5b7e-4e51-9a53-2d0c8e1b7a41")  # boardwire's router


__all__ = ["BoardProblem", "build_problem", "route", "apply_result", "outline_of", "net_rule", "router_rules"]
