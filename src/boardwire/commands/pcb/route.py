"""pcb.autoroute, pcb.exportDsn, pcb.importSes: routing a board, ours or another
router's (Specctra DSN out, SES in).

pcb.autoroute routes through the router seam (`layout.route.engines`): the engine its
``engine`` argument names, with the options every router caller shares
(`RouteOptions`), the board's rules as the DRC resolves them
(`services.rules.session_rules`), and the seam's check of the result."""

from __future__ import annotations

import math

from pydantic import Field
from shapely.geometry import Point

from ...errors import InvalidArgs, ServiceUnavailable
from ...geometry import geometry_of
from ...kicad.pcbnew import pcbnew_python
from ...kicad.snapshot import snapshot
from ...kicad.specctra import export_dsn, import_ses, ses_nets
from ...layout.route import engines
from ...layout.route.engines import RouteOptions
from ...layout.route_board import apply_result, build_problem
from ...registry import Context, command
from ...registry.roles import InputPath, OutputPath
from ...services.rules import session_rules
from ..common import Coord, DocArgs, EditArgs, Name, mm, nm, not_empty
from .args import no_copper
from .results import Autorouted, DsnWritten, SesImported


class AutorouteArgs(RouteOptions, EditArgs):
    nets: list[Name] | None = Field(None, max_length=100_000)
    netclasses: list[Name] | None = Field(None, max_length=10_000)
    area: list[Coord] | None = Field(None, min_length=4, max_length=4, description="[x1,y1,x2,y2]: pads inside")
    layers: list[Name] | None = None
    refill_zones: bool = True


@command("pcb.autoroute", kind="edit", args=AutorouteArgs, result=Autorouted, long=True, units="mm, seconds",
         examples=({"path": "board.kicad_pcb", "seed": 1},
                   {"path": "board.kicad_pcb", "nets": ["SDA", "SCL"], "layers": ["F.Cu", "B.Cu"], "seed": 1}))
def autoroute(ctx: Context, a: AutorouteArgs) -> dict:
    """Route unrouted connections with net-class widths, clearances and vias, 0/45/90 degrees, each item checked; zones refilled; same seed, same result."""
    od = ctx.session.get(a.path, "board", ctx.actor)
    board = od.doc
    rules = session_rules(ctx, od)
    copper = board.copper_layers
    no_copper(copper)
    for loc, values in (("nets", a.nets), ("netclasses", a.netclasses), ("layers", a.layers)):
        not_empty(values, loc, "to route " + {"layers": "on every copper layer"}.get(loc, "every net"))
    bad = [name for name in (a.layers or []) if name not in copper]
    if bad:
        raise InvalidArgs(f"{', '.join(bad)} {'is not a copper layer' if len(bad) == 1 else 'are not copper layers'} "
                          f"of this board; it has {', '.join(copper)}",
                          errors=[{"loc": "layers", "msg": "no such copper layer", "type": "value"}])
    if a.area is not None and (a.area[0] >= a.area[2] or a.area[1] >= a.area[3]):
        raise InvalidArgs("area is [x1, y1, x2, y2] with x1 < x2 and y1 < y2",
                          errors=[{"loc": "area", "msg": "empty area", "type": "value"}])
    nets = set(a.nets) if a.nets else None
    if nets is not None:
        unknown = sorted(n for n in nets if board.net_number(n) is None)
        if unknown:
            raise InvalidArgs(f"no net {', '.join(map(repr, unknown[:5]))} on the board",
                              errors=[{"loc": "nets", "msg": "unknown net", "type": "value"}])
    if a.netclasses:
        class_of = {n.name: rules.netclass(n.name).name for n in board.nets if n.name}
        known = set(class_of.values()) | {"Default"}
        wanted = {c.lower() for c in a.netclasses}  # net class names match regardless of case
        missing = sorted(c for c in a.netclasses if c.lower() in wanted - {k.lower() for k in known})
        if missing:
            raise InvalidArgs(f"no net class {', '.join(map(repr, missing[:5]))} on the board's nets; "
                              f"they are in {', '.join(sorted(known))}",
                              errors=[{"loc": "netclasses", "msg": "unknown net class", "type": "value"}])
        chosen = {name for name, cls in class_of.items() if cls.lower() in wanted}
        if nets is not None and not nets & chosen:
            raise InvalidArgs("none of the nets named is in the net classes named: nothing to route",
                              errors=[{"loc": "nets", "msg": "no net in the net classes", "type": "value"}],
                              hint="Give nets or netclasses alone, or nets that belong to the classes.")
        nets = chosen if nets is None else nets & chosen
    has_zones = any(not z.is_keepout for z in board.zones)
    if has_zones and a.refill_zones and pcbnew_python() is None:
        raise ServiceUnavailable("the board has zones, and refilling them after routing needs KiCad's pcbnew",
                                 hint="Install KiCad 9, or pass refill_zones: false (the old fills then "
                                      "overlap the new tracks until you refill them).")
    if has_zones and a.refill_zones:
        from ...services.zones import refuse_stroked

        refuse_stroked(board, hint="Pass refill_zones: false to route without refilling, "
                                   "or save the board in KiCad 9 first.")
    area = tuple(nm(v) for v in a.area) if a.area is not None else None
    ctx.progress(0.0, "reading the board")
    layers = list(dict.fromkeys(a.layers)) if a.layers else None  # a layer named twice is the layer
    bp = build_problem(board, rules, nets=nets, layers=layers, area=area)
    ctx.progress(0.02, f"routing {len(bp.problem.nets)} nets")
    span = 0.9 if has_zones and a.refill_zones else 0.97
    options = RouteOptions(**{k: getattr(a, k) for k in RouteOptions.model_fields})
    with ctx.session.lend():  # the router works on bp.problem: other clients read meanwhile
        result = engines.run(bp.problem, options, lambda f, msg: ctx.progress(0.02 + span * f, msg))
    ids = apply_result(board, bp, result, a.seed)
    ctx.created(*ids)
    if has_zones and a.refill_zones and ids:
        from ...services.zones import fill

        ctx.progress(0.93, "refilling zones around the new tracks")
        fill(ctx, a.path, [])
    ctx.progress(1.0, "done")
    pct = 100.0 * result.routed / result.total if result.total else 100.0
    unrouted = [{"net": u.net, "between": list(u.between), "reason": u.reason} for u in result.unrouted]
    empty = " (no unrouted connection has all its pads inside the area)" if area is not None and not result.total else ""
    flagged = f"; {len(result.violations)} items failed the router's check" if result.violations else ""
    return {"summary": f"routed {result.routed}/{result.total} connections ({pct:.1f}%){empty}, "
                       f"{len(result.tracks)} segments, {len(result.vias)} vias, "
                       f"{mm(result.length):.1f} mm in {result.seconds:.1f} s{flagged}",
            "routed": result.routed, "total": result.total, "completion": round(pct, 2),
            "unrouted": unrouted[:200], "segments": len(result.tracks), "vias": len(result.vias),
            "length": round(mm(result.length), 3), "seconds": round(result.seconds, 2),
            "pitch": mm(result.pitch), "engine": result.engine,
            "violations": [_violation(result, v) for v in result.violations[:200]]}


def _violation(result, v) -> dict:
    """A violation the seam's check found, with the item's place (mm)."""
    if v.kind == "track":
        t = result.tracks[v.index]
        where = {"start": [mm(c) for c in t.start], "end": [mm(c) for c in t.end]}
    else:
        where = {"at": [mm(c) for c in result.vias[v.index].at]}
    return {"kind": v.kind, "net": v.net, "reason": v.reason, **where}


class DsnArgs(DocArgs):
    output: OutputPath = Field(min_length=1, max_length=4096, description=".dsn path")


@command("pcb.exportDsn", kind="export", args=DsnArgs, result=DsnWritten, long=True,
         examples=({"path": "board.kicad_pcb", "output": "board.dsn"},))
def export_specctra(ctx: Context, a: DsnArgs) -> dict:
    """Write the board as a Specctra DSN (KiCad's exporter) for an external router."""
    od = ctx.session.get(a.path, "board", ctx.actor)
    out = ctx.session.workspace.resolve(a.output)
    if out.suffix.lower() != ".dsn":
        raise InvalidArgs("the output must end in .dsn", errors=[{"loc": "output", "msg": "not .dsn", "type": "value"}])
    no_copper(od.doc.copper_layers)
    ctx.progress(0.1, "KiCad is writing the DSN")
    with snapshot(ctx.session, od) as src:
        tmp = src.parent / out.name
        export_dsn(src, tmp, cancel=ctx.cancel)
        out.parent.mkdir(parents=True, exist_ok=True)
        # KiCad names the file it wrote in the header: ours was in a folder now gone
        out.write_bytes(tmp.read_bytes().replace(str(tmp).encode(), a.output.encode(), 1))
    ctx.progress(1.0, "done")
    return {"summary": f"wrote {a.output}", "output": a.output, "bytes": out.stat().st_size}


class SesArgs(EditArgs):
    session: InputPath = Field(min_length=1, max_length=4096, description=".ses path")


def _track_key(t, names: dict[int, str]) -> tuple:
    net = t.net_name or names.get(t.net or 0, "")
    a, b = sorted([t.start, t.end])
    return ("segment", a, b, t.width, t.layer, net)


def _via_key(v, names: dict[int, str]) -> tuple:
    net = v.net_name or names.get(v.net or 0, "")
    return ("via", v.position, v.size, v.drill, tuple(v.layers), net)


COORD_LIMIT = 2_147_000_000  # nm: KiCad's coordinates are 32-bit nanometres; its importer clamps there


def _ends(t) -> list:
    return [t.position] if t.kind == "via" else [t.start, t.end]


def _near(outline, p) -> bool:
    """Whether point ``p`` (nm) is on the board: inside its outline or within 1 mm."""
    return outline.distance(Point(p)) <= 1_000_000


@command("pcb.importSes", kind="edit", args=SesArgs, result=SesImported, long=True, destructive=True,
         examples=({"path": "board.kicad_pcb", "session": "board.ses"},))
def import_specctra(ctx: Context, a: SesArgs) -> dict:
    """Replace the board's tracks and vias with a Specctra session's (.ses; KiCad's importer); only routing changes."""
    from ...documents import Board

    od = ctx.session.get(a.path, "board", ctx.actor)
    board = od.doc
    ses = ctx.session.workspace.resolve(a.session)
    if not ses.is_file():
        from ...errors import NoDocument

        raise NoDocument(f"no session file {a.session}")
    ctx.progress(0.1, "KiCad is reading the session")
    with snapshot(ctx.session, od) as src:
        out = src.parent / ("routed_" + src.name)
        import_ses(src, ses, out, cancel=ctx.cancel)
        theirs = Board(out.read_bytes(), out)
    unknown = sorted(n for n in ses_nets(ses) if board.net_number(n) is None)
    ctx.progress(0.8, "taking the routing")
    ours_names = {n.number: n.name for n in board.nets}
    their_names = {n.number: n.name for n in theirs.nets}
    mine = {}
    for t in board.items(("segment", "arc", "via")):
        key = _via_key(t, ours_names) if t.kind == "via" else _track_key(t, ours_names)
        mine.setdefault(key, []).append(t)
    kept = removed = outside = 0
    added = []
    wanted = []
    for t in theirs.items(("segment", "arc", "via")):
        wanted.append((_via_key(t, their_names) if t.kind == "via" else _track_key(t, their_names), t))
    far = [t for _, t in wanted if any(abs(c) >= COORD_LIMIT for p in _ends(t) for c in p)]
    if far:
        raise InvalidArgs(f"{len(far)} wire(s) or via(s) of the session lie at KiCad's coordinate limit "
                          f"(±2147 mm): its coordinates or its resolution do not fit this board; nothing was changed",
                          errors=[{"loc": "session", "msg": "coordinates out of range", "type": "value"}],
                          hint="Import the session the router wrote for this board's pcb.exportDsn.")
    outline = geometry_of(board).outline()
    for key, t in wanted:
        if mine.get(key):
            mine[key].pop()
            kept += 1
            continue
        net = board.net_number(key[-1]) or 0
        if outline is not None and not all(_near(outline, p) for p in _ends(t)):
            outside += 1
        if t.kind == "via":
            added.append(board.add_via(t.position, t.size, t.drill, tuple(t.layers[:2]) or ("F.Cu", "B.Cu"), net).uuid)
        else:  # KiCad's importer writes straight segments
            added.append(board.add_track(t.start, t.end, t.width, t.layer, net).uuid)
    for rest in mine.values():
        for t in rest:
            board.delete(t)
            removed += 1
    moved = [fp.reference for fp in theirs.footprints
             if (f := board.footprint(fp.reference)) is not None
             and (math.dist(f.position, fp.position) > 1 or abs(f.orientation - fp.orientation) > 1e-6)]
    ctx.created(*added)
    ctx.progress(1.0, "done")
    warn = (f"; nets not on the board, their wires taken as KiCad's importer joined them: "
            f"{', '.join(unknown[:5])}" if unknown else "")
    if outside:
        warn += f"; {outside} of the tracks and vias added reach outside the board outline"
    if added and board.zones:
        warn += "; zones not refilled (pcb.fillZones refills them)"
    return {"summary": f"session imported: {len(added)} tracks and vias added, {removed} removed, {kept} kept{warn}",
            "added": len(added), "removed": removed, "kept": kept, "outside_outline": outside,
            "unknown_nets": unknown[:100],
            "moved_footprints_ignored": moved[:100]}

