"""A board as a placement problem, poses back into the board, and a placement's score.

The one adapter between the placer (`boardwire.layout.place`, which knows no
documents) and a KiCad board. It reads footprints, pads, courtyards, the outline and
keep-outs from the board's geometry model (`boardwire.geometry`), the rules through
the caller (`geometry.rules.Rules`), and writes poses with the footprints' own
primitives (`Footprint.flip`, `rotate_to`, `move_to`), which pcbnew's placement
matches. Courtyard overlaps are judged by the built-in DRC's own test
(`checks.courtyards`).

Parts: every footprint with pads or a courtyard (logos and drawings are not placed:
their copper and solder-mask art, like the board's own, is an obstacle on its side).
A footprint without a courtyard gets its pads' box grown by 0.25 mm (KiCad's
courtyard margin, IPC-7351).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import shapely

from ...checks.courtyards import courtyards_overlap
from ...documents.board import Board, Footprint
from ...documents.board.footprint_text import footprint_texts
from ...documents.views import View
from ...geometry import geometry_of
from ...geometry.constraints import constraints_for
from ..place import Options, Part, Problem, Result, place
from ..place.decoupling import find_decoupling
from ..place.poses import angle_of, outline_at, pad_boxes_of
from ..place.score import score
from ..route_board.shapes import copper_art, drawn, text_box
from .legends import SILK_SIDES, place_legends
from .trials import place_in_turns

COURTYARD_MARGIN = 250_000  # nm, IPC-7351's nominal courtyard excess
_CONNECTOR = re.compile(r"^(?:J|P|CN|CON|X|USB)\d", re.I)


class NoRegion(ValueError):
    """No region to place in: the board has no closed outline and no area was given, or
    the area misses the outline."""


@dataclass
class Pin:
    """A caller's placement of one footprint (nm, degrees, front/back)."""

    at: tuple[int, int]
    angle: float
    side: str


@dataclass
class BoardPlacement:
    problem: Problem
    footprints: list[Footprint]  # per part index


def _turn(points: np.ndarray, degrees: float, mirror: bool = False) -> np.ndarray:
    """KiCad's rotate(p, degrees) (y down), after mirroring y when ``mirror``."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    if mirror:
        p = p * np.array([1.0, -1.0])
    r = math.radians(degrees)
    c, s = math.cos(r), math.sin(r)
    return np.column_stack((p[:, 0] * c + p[:, 1] * s, -p[:, 0] * s + p[:, 1] * c))


def _art(board: Board, model, skip: frozenset) -> dict[str, list]:
    """Per side, the copper and solder-mask art of the board and of footprints not in
    ``skip`` (`route_board.shapes.copper_art`; shapely, board nm)."""
    names = model.layers.names
    outer = {name: k for k, name in enumerate(dict.fromkeys(names[:1] + names[-1:]))}
    art = {"front": [], "back": []}
    for a in copper_art(board, outer, skip):
        art["front" if a.layers == (0,) else "back"].append(a.shape)
    return art


def _silk_art(board: Board, moving: frozenset, area: float) -> dict[str, list]:
    """Per side, silkscreen that stays where it is and that a placed part's silkscreen
    or pads would meet (KiCad's silk_overlap, silk_over_copper): the drawings and
    visible texts of footprints not in ``moving`` (fixed parts, logos), and the
    board's own texts and drawings, each drawing covering less than a twentieth of
    ``area`` (nm²; a frame drawn round the board does not bar its inside). Shapes in
    board nm (`Problem.silk`: legalising keeps courtyard boxes off their boxes while
    it can). Only for a project
    whose DRC does not ignore both checks (StickHub's does, and its back is a third
    covered by such art)."""
    out = {"front": [], "back": []}
    for layer, side in SILK_SIDES.items():
        for shape, fp in drawn(board, layer):
            if fp is None and shapely.box(*shape.bounds).area >= area / 20:
                continue
            if fp is None or fp.node not in moving:
                out[side].append(shape)
        for t in board.texts:
            if t.text_of("layer") == layer and not t.flag("hide"):
                out[side].append(text_box(t, None))
    for fp in board.footprints:
        if fp.node in moving:
            continue
        for t in footprint_texts(fp):
            if t.visible and t.layer in SILK_SIDES:
                out[SILK_SIDES[t.layer]].append(text_box(View(board, t.node), fp))
    return out


def _local_boxes(boxes: list, frame, margin: float) -> np.ndarray:
    """Board-frame pad boxes (x1, y1, x2, y2) as boxes in the stored frame, grown by
    ``margin`` (nm)."""
    if not boxes:
        return np.zeros((0, 4))
    b = np.array(boxes, dtype=float)
    corners = np.stack([frame(b[:, [i, j]]) for i, j in ((0, 1), (2, 1), (0, 3), (2, 3))])
    return np.column_stack((corners.min(axis=0) - margin, corners.max(axis=0) + margin))


def _sheet(fp: Footprint) -> str:
    link = fp.link or ""
    return link.rsplit("/", 1)[0] if "/" in link else ""


def build_problem(board: Board, rules, *, references: set[str] | None = None,
                  pinned: dict[str, Pin] | None = None, area=None, allow_back: bool = False,
                  edges: dict[str, str] | None = None, keepouts=(), gap: int = 0,
                  decouple: dict[str, str] | None = None) -> BoardPlacement:
    """The placement problem of ``board``: footprints to place are the unlocked ones
    (only those in ``references`` when given), minus ``pinned`` ones (fixed at the caller's
    pose); ``area`` (x1, y1, x2, y2 nm) narrows the board outline; parts may go on
    the back when ``allow_back`` (SMD parts only); ``edges``: reference -> board edge
    for connectors; ``keepouts``: boxes (x1, y1, x2, y2 nm) no courtyard may enter on
    either side, as the board's own rule areas that forbid footprints; ``decouple``:
    capacitor -> REF.PIN it serves (`place.decoupling.assign`, which raises InvalidArgs
    for a wrong entry). Raises `NoRegion` for a board without a closed outline or area, or
    an area that misses the outline."""
    model = geometry_of(board)
    pinned = pinned or {}
    edges = edges or {}
    outline = region = model.outline()
    if area is not None:
        box = shapely.box(*area)
        region = box if outline is None else outline.intersection(box)
    if region is None or region.is_empty:
        raise NoRegion("the area does not overlap the board outline" if area is not None and outline is not None
                         else "the board has no closed outline (Edge.Cuts) and no area was given")
    region = region.buffer(-rules.value("min_copper_edge_clearance"), join_style="mitre")
    fps = {fp.node: fp for fp in board.footprints}
    margin = rules.netclass("").clearance or 200_000  # pads to copper and mask art
    parts: list[Part] = []
    views: list[Footprint] = []
    net_ids: dict[str, int] = {}
    for rec in model.footprints:
        if rec is None:
            continue
        fp = fps.get(rec.owner.node)
        if fp is None:
            continue
        pads = [model.items[i] for i in rec.pads]
        seen, pad_pos, pad_nets, through, boxes, numbers = set(), [], [], False, [], []
        for it in pads:
            key = (it.number, it.pos)
            if key in seen:
                continue
            seen.add(key)
            pad_pos.append(it.pos)
            numbers.append(str(it.number))
            pad_nets.append(net_ids.setdefault(it.net, len(net_ids)) if it.net else -1)
            through |= it.has_hole
            boxes.append(shapely.buffer(it.core, it.r).bounds if it.r else it.core.bounds)
        court = rec.courtyard.get(rec.side) or next(iter(rec.courtyard.values()), None)
        if court is None:
            if not boxes:
                continue  # a logo or drawing: not placed, no obstacle
            b = np.array(boxes)
            court = shapely.box(b[:, 0].min() - COURTYARD_MARGIN, b[:, 1].min() - COURTYARD_MARGIN,
                                b[:, 2].max() + COURTYARD_MARGIN, b[:, 3].max() + COURTYARD_MARGIN)
        ref = fp.reference
        x0, y0 = fp.position
        theta = fp.orientation
        movable = not fp.locked and (references is None or ref in references)
        movable = movable and ref not in pinned
        mirror = False
        if movable:
            # the stored frame: world shapes turned back by the footprint's angle
            frame = lambda p: _turn(p - np.array([x0, y0]), -theta)  # noqa: E731
            pose = (float(x0), float(y0), int(round(theta / 90.0)) % 4, 0)
            side = fp.side
        else:
            # fixed: shapes kept as they lie (or as the caller pins them), anchor-relative
            if ref in pinned:
                pin = pinned[ref]
                mirror = pin.side != fp.side
                frame = lambda p, pin=pin, mirror=mirror: _turn(  # noqa: E731
                    _turn(p - np.array([x0, y0]), -theta), pin.angle, mirror)
                pose, side = (float(pin.at[0]), float(pin.at[1]), 0, 0), pin.side
            else:
                frame = lambda p: p - np.array([x0, y0])  # noqa: E731
                pose, side = (float(x0), float(y0), 0, 0), fp.side
        outline = shapely.transform(court, frame)
        local = frame(np.array(pad_pos, dtype=float)) if pad_pos else np.zeros((0, 2))
        bx = outline.bounds
        facing = None
        if _CONNECTOR.match(ref) and len(local):
            centre = np.array([(bx[0] + bx[2]) / 2, (bx[1] + bx[3]) / 2])
            v = centre - local.mean(axis=0)
            if np.hypot(*v) > 0.15 * max(bx[2] - bx[0], bx[3] - bx[1]):
                facing = (float(v[0]), float(v[1]))
        parts.append(Part(ref, bx, outline, local, pad_nets, side, pose, through, movable,
                          movable and allow_back and not through, _sheet(fp),
                          edges.get(ref) if movable else None, facing, _local_boxes(boxes, frame, margin),
                          court.bounds, numbers, fp.value))
        views.append(fp)
    obstacles = {"front": [], "back": []}
    # copper and solder-mask art that stays where it is (the board's own, logos): a pad
    # on it would short to the copper or be bared beside others (solder_mask_bridge)
    moving = frozenset(fp.node for fp, part in zip(views, parts) if part.movable)
    art = _art(board, model, moving)
    silk = {"front": [], "back": []}
    if any(rules.severity(rule) != "ignore" for rule in ("silk_overlap", "silk_over_copper")):
        silk = _silk_art(board, moving, region.area)
    front, back = model.layers.mask(["F.Cu"]), model.layers.mask(["B.Cu"])
    for ko in model.keepouts:
        if ko is None or ko.polygon is None or (ko.flags or {}).get("footprints") is not True:
            continue
        if ko.mask & front:
            obstacles["front"].append(ko.polygon)
        if ko.mask & back:
            obstacles["back"].append(ko.polygon)
    for box in keepouts:
        for side in ("front", "back"):
            obstacles[side].append(shapely.box(*box))
    nets = [""] * len(net_ids)
    for name, k in net_ids.items():
        nets[k] = name
    default = rules.netclass("")
    pitch = (default.track_width or 200_000) + (default.clearance or 200_000)
    problem = Problem(parts, nets, region, float(gap), obstacles, [], len(model.layers.names), float(pitch), art,
                      silk)
    problem.pad_margin = float(margin)
    problem.decoupling = find_decoupling(parts, nets, decouple)
    return BoardPlacement(problem, views)


def apply_poses(bp: BoardPlacement, result: Result, pinned: dict[str, Pin]) -> list[str]:
    """Write the poses (and the caller's pinned ones) with the footprints' primitives;
    footprints already where they belong are not touched. Returns the references moved."""
    moved = []
    unplaced = set(result.unplaced)
    for i, fp in enumerate(bp.footprints):
        part = bp.problem.parts[i]
        if i in unplaced:
            continue  # no legal spot found: left where it was
        if i in result.poses:
            x, y, q, f = result.poses[i]
            side = part.side if not f else ("back" if part.side == "front" else "front")
            target = ((int(round(x)), int(round(y))), angle_of(part, q), side)
        elif part.ref in pinned:
            pin = pinned[part.ref]
            target = (pin.at, pin.angle, pin.side)
        else:
            continue
        at, angle, side = target
        if fp.position == at and fp.side == side and (fp.orientation - angle) % 360 == 0:
            continue
        if fp.side != side:
            fp.flip()
        if (fp.orientation - angle) % 360:
            fp.rotate_to(angle)
        if fp.position != at:
            fp.move_to(at)
        moved.append(part.ref)
    return moved


def judge(board: Board, rules, area=None, decouple: dict[str, str] | None = None) -> dict:
    """The placement on ``board`` now: courtyard overlaps (the built-in DRC's test,
    counted even where the project's DRC ignores them, as StickHub's does:
    ``overlaps_ignored_by_project`` says so),
    parts whose courtyard leaves the board outline, parts with a pad (grown by the
    clearance) on copper or solder-mask art that is not a part's own (``on_art``: a
    short, or KiCad's solder_mask_bridge), ratsnest length, routability and
    decoupling distances to each capacitor's pin (`layout.place.score`; ``decouple``:
    the caller's capacitor -> REF.PIN map)."""
    bp = build_problem(board, rules, references=set(), area=area, decouple=decouple)
    model = geometry_of(board)
    art = _art(board, model, frozenset(fp.node for fp in bp.footprints))
    on_art = []
    for part in bp.problem.parts:
        x, y = part.pose[:2]
        pads = [shapely.box(*b) for b in pad_boxes_of(part, 0, 0) + (x, y, x, y)]
        if any(pad.intersection(a).area > 0 for side in (("front", "back") if part.through else (part.side,))
               for a in art[side] for pad in pads):
            on_art.append(part.ref)
    overlaps = courtyards_overlap(model, constraints_for(model, rules), always=True)
    outline = model.outline()
    off = []
    if outline is not None:
        edge = outline.buffer(1000)  # 1 µm: a courtyard on the edge is on the board
        shapely.prepare(edge)
        for part in bp.problem.parts:
            if not edge.contains(outline_at(part, part.pose)):
                off.append(part.ref)
    out = score(bp.problem, {})
    pairs = sorted({tuple(sorted(f.reference for f in v.items)) for v in overlaps})
    return {"overlaps": len(pairs), "overlapping": [list(p) for p in pairs[:50]],
            "overlaps_ignored_by_project": rules.severity("courtyards_overlap") == "ignore",
            "off_board": len(off), "off_board_parts": off[:50], "on_art": len(on_art), "on_art_parts": on_art[:50],
            **out}


def run(board: Board, rules, options: Options, trials: int = 0, trial=None,
        **kw) -> tuple[BoardPlacement, Result, list[str], dict, tuple | None]:
    """Build, place and write (in turns with ``trials`` trial routes by ``trial``
    when given: `trials.place_in_turns`), then move the moved footprints' reference
    designators clear of other silkscreen and pads (`legends.place_legends`):
    returns the problem, the engine's result, the references moved, the legends'
    report and, when trials ran, their counts (`trials.Trial`) and the kept one's
    index (else None)."""
    bp = build_problem(board, rules, **kw)
    result = place(bp.problem, options)
    pinned = kw.get("pinned") or {}
    was = [_pose_now(fp) for fp in bp.footprints]
    apply_poses(bp, result, pinned)
    report = None
    if trials and trial is not None and result.state is not None:
        result, seen, kept = place_in_turns(bp, result, trials, trial, lambda r: apply_poses(bp, r, pinned),
                                            options.grid, options.time_limit)
        report = (seen, kept)
    moved = [fp.reference for fp, before in zip(bp.footprints, was) if _pose_now(fp) != before]
    return bp, result, moved, place_legends(board, rules, moved), report


def _pose_now(fp: Footprint) -> tuple:
    return fp.position, fp.orientation % 360, fp.side
