"""pcb.autoplace and pcb.scorePlacement: placing footprints with boardwire's placer
(`layout.place`, through `layout.place_board`) and judging a placement. Trial routes
(``route_trials``) go through the router seam (`layout.route_board.route`), with
pcb.autoroute's options (`RouteOptions`) but ``route_engine`` and ``time_limit``."""

from __future__ import annotations

import time
from typing import Annotated, Literal

from pydantic import Field

from ...errors import InvalidArgs
from ...layout.place import Options, OutOfTime
from ...layout.place_board import NoRegion, Pin, judge, run
from ...layout.route import engines
from ...layout.route_board import route
from ...registry import Context, command
from ...services.rules import session_rules
from ..common import Args, Coord, DocArgs, EditArgs, Name, nm, not_empty, pt
from .args import no_copper
from .results import Autoplaced, ScoreResult

Edge = Literal["left", "right", "top", "bottom"]
Area = Annotated[list[Coord] | None, Field(None, min_length=4, max_length=4, description="[x1,y1,x2,y2]")]


class PinnedPose(Args):
    at: list[Coord] = Field(min_length=2, max_length=2)
    angle: float = Field(0.0, ge=-3600, le=3600)
    side: Literal["front", "back"] = "front"


class AutoplaceArgs(EditArgs):
    references: list[Name] | None = Field(None, max_length=10000, description="default: all unlocked")
    pinned: dict[Name, PinnedPose] | None = Field(None, max_length=10000)
    area: Area = None
    allow_back: bool = False
    edges: dict[Name, Edge] | None = Field(None, max_length=10000, description="connector: edge")
    keepouts: list[Annotated[list[Coord], Field(min_length=4, max_length=4)]] | None = Field(
        None, max_length=1000, description="[x1,y1,x2,y2]")
    clearance: float = Field(0.25, ge=0, le=10, description="courtyard gap")
    spacing: float = Field(0.5, ge=0, le=1, description="routing room 0-1")
    grid: float = Field(0.127, ge=0.01, le=10)
    effort: Annotated[int, Field(ge=1, le=3)] = 3
    restarts: int = Field(1, ge=1, le=20, description="anneals; least crossed kept")
    seed: int = Field(0, ge=0, le=2**31 - 1)
    time_limit: float = Field(60, gt=0, le=3600, description="s; per trial too")
    route_trials: int = Field(0, ge=0, le=5)
    route_engine: engines.EngineName = engines.DEFAULT
    decouple: dict[str, str] | None = Field(None, max_length=10000, description="cap: REF.PIN")


def _area(area) -> tuple[int, int, int, int] | None:
    if area is None:
        return None
    if area[0] >= area[2] or area[1] >= area[3]:
        raise InvalidArgs("area is [x1, y1, x2, y2] with x1 < x2 and y1 < y2",
                          errors=[{"loc": "area", "msg": "empty area", "type": "value"}])
    return tuple(nm(v) for v in area)


def _keepouts(boxes) -> list[tuple[int, int, int, int]]:
    """The caller's keep-out boxes in nm; raises InvalidArgs for an empty one."""
    for i, k in enumerate(boxes or []):
        if k[0] >= k[2] or k[1] >= k[3]:
            raise InvalidArgs(f"keepouts[{i}] is [x1, y1, x2, y2] with x1 < x2 and y1 < y2",
                              errors=[{"loc": f"keepouts.{i}", "msg": "empty box", "type": "value"}])
    return [tuple(nm(v) for v in k) for k in boxes or []]


def _no_region(e: NoRegion, area) -> InvalidArgs:
    hint = ("Pass an area inside the board outline (query.describe gives its size), or leave it out."
            if area is not None and "area" in str(e) else "Draw the board outline first (pcb.outline) or pass an area.")
    return InvalidArgs(str(e), hint=hint, errors=[{"loc": "area", "msg": str(e), "type": "value"}])


def _check_refs(board, refs, loc: str) -> None:
    unknown = sorted(r for r in refs if board.footprint(r) is None)
    if unknown:
        raise InvalidArgs(f"no footprint {', '.join(map(repr, unknown[:5]))} on the board",
                          errors=[{"loc": loc, "msg": "unknown reference", "type": "value"}])


@command("pcb.autoplace", kind="edit", args=AutoplaceArgs, result=Autoplaced, long=True, units="mm, degrees, seconds",
         examples=({"path": "board.kicad_pcb", "seed": 1}, {"path": "board.kicad_pcb", "edges": {"J1": "left"}, "decouple": {"C5": "U1.33"}},
                   {"path": "board.kicad_pcb", "pinned": {"U1": {"at": [50, 40], "angle": 90}}, "allow_back": True}))
def autoplace(ctx: Context, a: AutoplaceArgs) -> dict:
    """Place footprints at quarter turns in the outline: no courtyard overlaps, short ratsnest, sheets together, decoupling caps at their IC pin, edge connectors, pinned poses kept, keep-outs empty; trials move parts at failed connections; same seed, same result."""
    od = ctx.session.get(a.path, "board", ctx.actor)
    board = od.doc
    pinned = {ref: Pin(pt(p.at), p.angle, p.side) for ref, p in (a.pinned or {}).items()}
    edges = dict(a.edges or {})
    not_empty(a.references, "references", "to place every unlocked footprint")
    _check_refs(board, a.references or [], "references")
    locked = sorted(r for r in a.references or [] if board.footprint(r).locked)
    _check_refs(board, pinned, "pinned")
    _check_refs(board, edges, "edges")
    idle = sorted(set(edges) - set(a.references)) if a.references else []
    if idle:
        raise InvalidArgs(f"{', '.join(idle[:5])} bound to an edge but not among the references to place",
                          errors=[{"loc": "edges", "msg": "not placed", "type": "value"}],
                          hint="Add them to references, or leave references out to place every unlocked footprint.")
    both = sorted(set(pinned) & set(edges))
    if both:
        raise InvalidArgs(f"{', '.join(both)} cannot be both pinned and bound to an edge",
                          errors=[{"loc": "edges", "msg": "also pinned", "type": "value"}])
    no_copper(board.copper_layers)
    area = _area(a.area)
    keepouts = _keepouts(a.keepouts)
    started = time.monotonic()
    rules = session_rules(ctx, od)
    ctx.progress(0.0, "reading the board")
    share = 0.9 / (1 + 4 * a.route_trials)  # of the progress: placing's (a trial's is four times it)
    opts = Options(effort=a.effort, seed=a.seed, time_limit=a.time_limit, grid=nm(a.grid), spacing=a.spacing,
                   restarts=a.restarts,
                   progress=lambda f, msg: ctx.progress(0.02 + share * f, msg))

    def trial(k: int):
        # pcb.autoroute's defaults on every net and copper layer; nothing written
        lo = 0.02 + share * (1 + 4 * k)
        options = engines.RouteOptions(engine=a.route_engine, time_limit=a.time_limit)
        return route(board, rules, options,
                     lambda f, msg: ctx.progress(lo + 4 * share * f, f"trial route {k + 1}: {msg}"))[1]

    try:
        bp, result, moved, legends, trials = run(
            board, rules, opts, trials=a.route_trials, trial=trial,
            references=set(a.references) if a.references else None, pinned=pinned, area=area,
            allow_back=a.allow_back, edges=edges, keepouts=keepouts, gap=nm(a.clearance), decouple=a.decouple)
    except NoRegion as e:
        raise _no_region(e, a.area) from None
    except OutOfTime as e:
        raise InvalidArgs(f"time_limit {a.time_limit:g} s ran out while making the placement legal "
                          f"({e.placed} of {e.total} parts had a spot); nothing was changed",
                          errors=[{"loc": "time_limit", "msg": "too short for this board", "type": "value"}],
                          hint="Give a longer time_limit (pic_programmer's 63 parts take about 20 s), "
                               "or a smaller clearance if the parts cannot fit.") from None
    ctx.progress(0.95, "scoring the placement")
    verdict = judge(board, rules, area, a.decouple)
    ctx.progress(1.0, "done")
    unplaced = [bp.problem.parts[i].ref for i in result.unplaced]
    # parts off the board: those placed here, apart from fixed ones and ones that found
    # no spot, left as they were
    placed = {bp.problem.parts[i].ref for i in result.poses} - set(unplaced)
    off = verdict.pop("off_board_parts")
    verdict["off_board_parts"] = [r for r in off if r in placed]
    verdict["off_board"] = len(verdict["off_board_parts"])
    verdict["off_board_fixed"] = [r for r in off if r not in placed]
    fixed = f" (and {len(verdict['off_board_fixed'])} fixed part(s) left there)" if verdict["off_board_fixed"] else ""
    astray = [r for r in verdict["off_board_fixed"] if r in pinned]
    if astray:
        fixed += f"; pinned off the board where asked: {', '.join(astray[:5])}"
    notes = (f"; {len(unplaced)} found no free spot and stayed where they were" if unplaced else "") + \
        (f"; {len(locked)} named but locked, not moved" if locked else "") + \
        (f"; {len(legends['unplaced'])} silkscreen text(s) found no clear spot"
         if legends["unplaced"] else "") + \
        (f"; every footprint is locked{' (pinned ones moved where asked)' if moved else ''}"
         if a.references is None and board.footprints and all(fp.locked for fp in board.footprints) else "") + \
        ("; the board has no footprints yet (project.updatePcb brings them from the schematic)"
         if not board.footprints else "")
    # asked for but not run (nothing to place): empty, so a script can read them
    tried = {"route_trials": [], "trial_kept": None} if a.route_trials else {}
    if trials:
        seen, kept = trials
        notes += f"; trial routes {', '.join(f'{t.routed}/{t.total}' for t in seen)} (placement of trial {kept + 1} kept)"
        tried = {"route_trials": [{"routed": t.routed, "total": t.total} for t in seen], "trial_kept": kept + 1}
    seconds = time.monotonic() - started
    return {"summary": f"placed {len(result.poses) - len(unplaced)} footprints ({len(moved)} moved){notes}: "
                       f"{_overlaps(verdict)}, {verdict['off_board']} off the board{fixed}{_on_art(verdict)}, "
                       f"ratsnest {verdict['ratsnest_length']:.0f} mm, "
                       f"routability {verdict['routability']:.2f}, in {seconds:.1f} s",
            "moved": len(moved), "moved_references": moved[:500], "unplaced": unplaced, "locked": locked,
            "legends_moved": len(legends["moved"]), "legends_unplaced": legends["unplaced"][:500],
            "seconds": round(seconds, 2), **tried, **verdict}


class ScoreArgs(DocArgs):
    area: Area = None
    decouple: dict[Name, str] | None = Field(
        None, max_length=10000, description="capacitor -> REF.PIN it serves (default: each small one to a free supply "
                                            "pin, the IC with most supply pins first)")


@command("pcb.scorePlacement", kind="query", args=ScoreArgs, result=ScoreResult, idempotent=True, units="mm",
         examples=({"path": "board.kicad_pcb"},))
def score_placement(ctx: Context, a: ScoreArgs) -> dict:
    """Judge a placement: courtyard overlaps, parts off the board, ratsnest length, routability (0-1), each decoupling cap's distance to its IC pin (pad edge to edge) against its target."""
    od = ctx.session.get(a.path, "board", ctx.actor)
    try:
        verdict = judge(od.doc, session_rules(ctx, od), _area(a.area), a.decouple)
    except NoRegion as e:
        raise _no_region(e, a.area) from None
    return {"summary": f"{_overlaps(verdict)}, {verdict['off_board']} parts off the board"
                       f"{_on_art(verdict)}, ratsnest {verdict['ratsnest_length']:.0f} mm, "
                       f"routability {verdict['routability']:.2f}",
            **verdict}


def _overlaps(verdict: dict) -> str:
    ignored = " (the project's DRC ignores them)" if verdict["overlaps"] and verdict["overlaps_ignored_by_project"] else ""
    return f"{verdict['overlaps']} courtyard overlaps{ignored}"


def _on_art(verdict: dict) -> str:
    n = verdict["on_art"]
    return f", {n} with pads on copper or solder-mask art ({', '.join(verdict['on_art_parts'][:5])})" if n else ""
