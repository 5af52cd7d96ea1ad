"""Reference designators (and other visible silkscreen fields) of placed footprints,
moved to a free spot beside their part.

A placer moves each footprint's fields with it, so a reference can land on another
part's pads or silkscreen: KiCad's ``silk_over_copper`` (silkscreen over a solder
mask opening) and ``silk_overlap`` (silkscreen over other silkscreen), both from
pcbnew's drc_test_provider_silk_clearance.cpp and drc_test_provider_silk_to_mask.cpp,
with the board's ``min_silk_clearance``. For each field, in order: where it is
now, if that spot is clear; else the nearest clear spot around the part's courtyard
(above, below, left, right; level or upright text; sliding along the side, then
further out), first off other parts' courtyards, then over them. A field with no
clear spot stays where it is and is reported. Texts of a footprint may touch its
own silkscreen (KiCad does not compare a footprint's silkscreen with itself), never
its own pads. Lengths nm, angles degrees.
"""

from __future__ import annotations

from dataclasses import dataclass

import shapely
from shapely import affinity

from ...documents.board import Board, Footprint
from ...documents.footprint_text import FootprintText, footprint_texts, place_text
from ...documents.views import View
from ...geometry import geometry_of
from ..route_board.shapes import drawn, text_box

SILK_SIDES = {"F.SilkS": "front", "B.SilkS": "back"}  # as files name them (KiCad 9 shows F.Silkscreen)
SAFETY = 50_000  # nm added to every clearance: our text box is an estimate of KiCad's strokes
STEP = 250_000  # nm between spots along a side, and between rings
RINGS = 6  # rings of spots around the courtyard (the first touching it)


@dataclass
class _Obstacles:
    """Per side, shapes a text must not touch, with the footprint each belongs to
    (None: the board's) and whether it is silkscreen (else a pad or hole)."""

    shapes: list
    owners: list
    silk: list

    def add(self, shape, owner, silk: bool) -> None:
        self.shapes.append(shape)
        self.owners.append(owner)
        self.silk.append(silk)


def place_legends(board: Board, rules, references: list[str]) -> dict:
    """Move the visible silkscreen fields of the footprints ``references`` to clear
    spots (module docstring). Returns ``{"moved": [references whose texts moved],
    "unplaced": [references with a text left where it was, on something]}``."""
    wanted = set(references)
    if not wanted:
        return {"moved": [], "unplaced": []}
    model = geometry_of(board)
    outline = model.outline()
    clear = rules.value("min_silk_clearance") + SAFETY
    opening = board.mask_expansion + clear
    fronts, backs = model.layers.mask(["F.Cu"]), model.layers.mask(["B.Cu"])
    obstacles = {side: _Obstacles([], [], []) for side in ("front", "back")}
    for layer, side in SILK_SIDES.items():
        for shape, fp in drawn(board, layer):
            obstacles[side].add(shape.buffer(clear), fp.node if fp is not None else None, True)
        for t in board.texts:
            if t.text_of("layer") == layer and not t.flag("hide"):
                obstacles[side].add(text_box(t, None).buffer(clear), None, True)
    for item in model.items:
        if item is None or item.kind != "pad":
            continue
        owner = model.footprints[item.fp].owner.node if item.fp is not None else None
        shape = shapely.buffer(item.core, item.r + opening) if item.r or opening else item.core
        if item.hole is not None:
            shape = shape.union(shapely.buffer(item.hole, item.hole_r + opening))
        for side, bit in (("front", fronts), ("back", backs)):
            if item.mask & bit:
                obstacles[side].add(shape, owner, False)
    courtyards = {"front": [], "back": []}
    for rec in model.footprints:
        if rec is None:
            continue
        for side, poly in rec.courtyard.items():
            if poly is not None:
                courtyards[side].append((poly, rec.owner.node))
    todo: list[tuple[Footprint, FootprintText]] = []
    for fp in board.footprints:
        for t in footprint_texts(fp):
            if not (t.visible and t.layer in SILK_SIDES and t.name != "user"):
                continue
            if fp.reference in wanted:
                todo.append((fp, t))
            else:  # another part's visible text: an obstacle where it is
                box = text_box(View(board, t.node), fp, tight=t.name == "Reference")
                obstacles[SILK_SIDES[t.layer]].add(box.buffer(clear), fp.node, True)
    todo.sort(key=lambda ft: (ft[1].name != "Reference", ft[0].reference))
    trees = {side: shapely.STRtree(o.shapes) for side, o in obstacles.items()}
    placed = {"front": [], "back": []}  # (box grown by the clearance, owner) placed so far
    moved, unplaced = [], []
    for fp, t in todo:
        side = SILK_SIDES[t.layer]
        view = View(board, t.node)
        tight = t.name == "Reference"

        def clear_of(box, strict: bool, fp=fp, side=side) -> bool:
            if outline is not None and not outline.contains(box):
                return False
            o = obstacles[side]
            for k in trees[side].query(box, predicate="intersects"):
                if o.owners[k] is not fp.node or not o.silk[k]:
                    return False
            if any(owner is not fp.node and box.intersects(g) for g, owner in placed[side]):
                return False
            return not strict or not any(node is not fp.node and box.intersects(c)
                                         for c, node in courtyards[side])

        here = text_box(view, fp, tight=tight)
        spot = None
        if clear_of(here, False):
            spot = (t.at, t.angle, here)
        else:
            rec_box = _part_box(model, fp)
            for strict in (True, False):
                spot = next(((at, angle, box) for at, angle, box in _spots(view, rec_box, t, clear, tight)
                             if clear_of(box, strict)), None)
                if spot is not None:
                    break
        if spot is None:
            unplaced.append(fp.reference)
            placed[side].append((here.buffer(clear), fp.node))
            continue
        at, angle, box = spot
        if (at, angle) != (t.at, t.angle):
            place_text(fp, t, at, angle)
            if fp.reference not in moved:
                moved.append(fp.reference)
        placed[side].append((box.buffer(clear), fp.node))
    return {"moved": moved, "unplaced": sorted(set(unplaced))}


def _part_box(model, fp: Footprint) -> tuple[float, float, float, float]:
    """The footprint's courtyard box on its side (its pads' box when it has none)."""
    for rec in model.footprints:
        if rec is not None and rec.owner.node is fp.node:
            poly = rec.courtyard.get(rec.side) or next((c for c in rec.courtyard.values() if c is not None), None)
            if poly is not None:
                return poly.bounds
            pads = [model.items[i] for i in rec.pads if model.items[i] is not None]
            if pads:
                return shapely.union_all([shapely.buffer(p.core, p.r) for p in pads]).bounds
    x, y = fp.position
    return (x, y, x, y)


def _spots(view: View, part: tuple, t: FootprintText, clear: float, tight: bool):
    """Candidate (anchor, angle, box) of text ``t`` around the box ``part``, nearest
    first: per ring outwards, the four sides, the text level (0) or upright (90; the
    text's own angle first), sliding from the side's middle outwards."""
    x1, y1, x2, y2 = part
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    angles = [0.0, 90.0] if t.angle % 180 == 0 else [90.0, 0.0]
    shapes = {}
    for angle in angles:
        origin = text_box(view, None, at=(0, 0), angle=angle, tight=tight)
        bx1, by1, bx2, by2 = origin.bounds
        shapes[angle] = (origin, (bx1 + bx2) / 2, (by1 + by2) / 2, bx2 - bx1, by2 - by1)
    out = []
    for ring in range(RINGS):
        gap = clear + STEP * ring
        for rank, angle in enumerate(angles):
            origin, ox, oy, w, h = shapes[angle]
            sides = (
                ("above", (cx, y1 - gap - h / 2), (1, 0), (x2 - x1 + w) / 2),
                ("below", (cx, y2 + gap + h / 2), (1, 0), (x2 - x1 + w) / 2),
                ("left", (x1 - gap - w / 2, cy), (0, 1), (y2 - y1 + h) / 2),
                ("right", (x2 + gap + w / 2, cy), (0, 1), (y2 - y1 + h) / 2),
            )
            for order, (_, (mx, my), (dx, dy), reach) in enumerate(sides):
                steps = int(reach // STEP)
                for k in range(steps + 1):
                    for sign in ((1,) if k == 0 else (-1, 1)):
                        c = (mx + sign * k * STEP * dx, my + sign * k * STEP * dy)
                        cost = (ring, k + 0.5 * rank, order)
                        out.append((cost, c, angle))
    out.sort(key=lambda row: row[0])
    for _, (px, py), angle in out:
        origin, ox, oy, _, _ = shapes[angle]
        at = (int(round(px - ox)), int(round(py - oy)))
        yield at, angle, affinity.translate(origin, at[0], at[1])

