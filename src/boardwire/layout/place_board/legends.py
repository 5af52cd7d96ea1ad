"""Reference designators (and other visible silkscreen fields) of placed footprints,
moved to a free spot beside their part.

A placer moves each footprint's fields with it, so a reference can land on another
part's pads or silkscreen: KiCad's ``silk_over_copper`` (silkscreen over a solder
mask opening: a pad's, or one drawn on F.Mask/B.Mask) and ``silk_overlap``
(silkscreen over other silkscreen), from pcbnew's drc_test_provider_silk_clearance.cpp
and its silk-to-mask test, with the board's ``min_silk_clearance``. For each field,
in order: where it is now, if that spot is clear; else the nearest clear spot around
the part's courtyard (above, below, left, right; level or upright text; sliding
along the side, then further out), first off other parts' courtyards, then over
them. A field with no clear spot stays where it is and is reported. KiCad compares a
text with its own footprint's silkscreen too (only two drawings of one footprint are
exempt), so a new spot keeps off its own outline and pads as off anyone's; the spot
a text has now is judged without its own footprint (it met that before the
footprint moved) and without our margin. Lengths nm, angles degrees.
"""

from __future__ import annotations

import shapely
from shapely import affinity

from ...documents.board import Board, Footprint
from ...documents.board.footprint_text import FootprintText, footprint_texts, place_text
from ...documents.views import View
from ...geometry import geometry_of
from ..route_board.shapes import drawn, text_box

SILK_SIDES = {"F.SilkS": "front", "B.SilkS": "back"}  # as files name them (KiCad 9 shows F.Silkscreen)
MASK_SIDES = {"F.Mask": "front", "B.Mask": "back"}  # openings drawn on the mask: silk there is clipped
SAFETY = 50_000  # nm added to every clearance: our text box is an estimate of KiCad's strokes
STEP = 250_000  # nm between spots along a side, and between rings
RINGS = 6  # rings of spots around the courtyard (the first touching it)


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
    obstacles: dict[str, list] = {"front": [], "back": []}  # shapes a text must not touch
    owners: dict[str, list] = {"front": [], "back": []}  # the footprint node of each (None: the board)
    for layer, side in (*SILK_SIDES.items(), *MASK_SIDES.items()):
        for shape, fp in drawn(board, layer):
            obstacles[side].append(shape.buffer(clear))
            owners[side].append(fp.node if fp is not None else None)
        for t in board.texts:
            if t.text_of("layer") == layer and not t.flag("hide"):
                obstacles[side].append(text_box(t, None).buffer(clear))
                owners[side].append(None)
    for item in model.items:
        if item is None or item.kind != "pad":
            continue
        shape = shapely.buffer(item.core, item.r + opening) if item.r or opening else item.core
        if item.hole is not None:
            shape = shape.union(shapely.buffer(item.hole, item.hole_r + opening))
        owner = model.footprints[item.fp].owner.node if item.fp is not None else None
        for side, bit in (("front", fronts), ("back", backs)):
            if item.mask & bit:
                obstacles[side].append(shape)
                owners[side].append(owner)
    courtyards = {"front": [], "back": []}
    records = {}  # footprint node -> its geometry record
    for rec in model.footprints:
        if rec is None:
            continue
        records[rec.owner.node] = rec
        for side, poly in rec.courtyard.items():
            if poly is not None:
                courtyards[side].append((poly, rec.owner.node))
    todo: list[tuple[Footprint, FootprintText]] = []
    for fp in board.footprints:
        for t in footprint_texts(fp):
            if t.layer in MASK_SIDES:  # an opening, hidden or not (KiCad checks both)
                side = MASK_SIDES[t.layer]
            elif t.visible and t.layer in SILK_SIDES:
                side = SILK_SIDES[t.layer]
                if fp.reference in wanted and t.name != "user":
                    todo.append((fp, t))
                    continue
            else:
                continue
            # a text that stays (another part's, or a free text that moves with its
            # footprint): an obstacle where it is
            box = text_box(View(board, t.node), fp, tight=t.name == "Reference")
            obstacles[side].append(box.buffer(clear))
            owners[side].append(fp.node)
    todo.sort(key=lambda ft: (ft[1].name != "Reference", ft[0].reference))
    trees = {side: shapely.STRtree(shapes) for side, shapes in obstacles.items()}
    placed = {"front": [], "back": []}  # the boxes placed so far, grown by the clearance
    moved, unplaced = [], []
    for fp, t in todo:
        side = SILK_SIDES[t.layer]
        view = View(board, t.node)
        tight = t.name == "Reference"

        def clear_of(box, strict: bool, own_ok: bool = False, fp=fp, side=side) -> bool:
            if outline is not None and not outline.contains(box):
                return False
            if any(not (own_ok and owners[side][k] is fp.node) for k in trees[side].query(box, predicate="intersects")):
                return False
            if any(box.intersects(g) for g in placed[side]):
                return False
            return not strict or not any(node is not fp.node and box.intersects(c)
                                         for c, node in courtyards[side])

        here = text_box(view, fp, tight=tight)
        spot = None
        # where it is: without our margin for the estimate (a text KiCad passes by a
        # hair stays; the file changes only where it must), and whatever it meets of
        # its own footprint met it there before the footprint moved
        if clear_of(here.buffer(-SAFETY, join_style="mitre"), False, True):
            spot = (t.at, t.angle, here)
        else:
            rec_box = _part_box(model, records.get(fp.node), fp)
            for strict in (True, False):
                spot = next(((at, angle, box) for at, angle, box in _spots(view, rec_box, t, clear, tight)
                             if clear_of(box, strict)), None)
                if spot is not None:
                    break
        if spot is None:
            unplaced.append(fp.reference)
            placed[side].append(here.buffer(clear))
            continue
        at, angle, box = spot
        if (at, angle) != (t.at, t.angle):
            place_text(fp, t, at, angle)
            if fp.reference not in moved:
                moved.append(fp.reference)
        placed[side].append(box.buffer(clear))
    return {"moved": moved, "unplaced": sorted(set(unplaced))}


def _part_box(model, rec, fp: Footprint) -> tuple[float, float, float, float]:
    """The footprint's courtyard box on its side (its pads' box when it has none) from
    its geometry record ``rec`` (None: its anchor)."""
    if rec is not None:
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

