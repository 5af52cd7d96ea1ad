"""The design's placement constraints as pcb.autoplace's arguments (`autoplace_args`),
and the fallback placement of design.build (used only when pcb.autoplace is not in the
registry): footprints packed in shelves inside the outline, largest first, connectors
named at the edge against the left edge, pinned footprints and keep-outs left alone.
It places; it does not optimise wire length (that is pcb.autoplace's job).

Boxes are courtyards (mm, relative to each footprint's anchor, from lib.footprint);
positions are board mm.
"""

from __future__ import annotations

import math

GAP = 1.0     # mm between courtyards
EDGE = 0.5    # mm from the outline to a courtyard


def default_size(sizes: dict[str, tuple[float, float, float, float]]) -> tuple[float, float]:
    """(width, height) mm of the board when the design gives no size: three times the
    courtyards' area (each 1 mm larger), 4:3, whole millimetres, at least 20 x 15."""
    area = sum((c[2] - c[0] + 1) * (c[3] - c[1] + 1) for c in sizes.values())
    w = max(20.0, math.ceil(math.sqrt(area * 3 * 4 / 3)))
    return w, max(15.0, math.ceil(area * 3 / w))


def autoplace_args(constraints, origin: tuple[float, float]) -> dict:
    """pcb.autoplace's ``pinned``, ``edges``, ``keepouts`` and ``decouple`` for a design's
    ``constraints`` (`document.Constraints`), the one place their names meet: design
    positions (mm from the outline's top-left corner) moved to the board by ``origin``
    (where that corner lies, mm); pinned parts on the front at their angle; a list of
    edge connectors spread over the edges (`Constraints.edges`). Empty constraints are left out."""
    ox, oy = origin
    out: dict = {}
    if constraints.pinned:
        out["pinned"] = {ref: {"at": [round(ox + p.at[0], 6), round(oy + p.at[1], 6)], "angle": p.angle, "side": "front"}
                         for ref, p in constraints.pinned.items()}
    if constraints.edge:
        out["edges"] = constraints.edges()
    if constraints.decouple:
        out["decouple"] = dict(constraints.decouple)
    if constraints.keepouts:
        out["keepouts"] = [[round(ox + k[0], 6), round(oy + k[1], 6), round(ox + k[2], 6), round(oy + k[3], 6)]
                           for k in constraints.keepouts]
    return out


def _hits(box, boxes) -> bool:
    return any(box[0] < b[2] + GAP and b[0] < box[2] + GAP and box[1] < b[3] + GAP and b[1] < box[3] + GAP
               for b in boxes)


def connected_order(refs: list[str], sizes: dict, nets: dict[str, set[str]]) -> list[str]:
    """The largest footprint first, then always the one sharing most signal nets with
    those already ordered (ties: larger, then by name), so the shelves keep connected
    parts near each other."""
    left = set(refs)
    area = {r: (sizes[r][2] - sizes[r][0]) * (sizes[r][3] - sizes[r][1]) for r in refs}
    order: list[str] = []
    seen: set[str] = set()
    while left:
        best = max(left, key=lambda r: (len(nets.get(r, set()) & seen), area[r], r))
        order.append(best)
        left.discard(best)
        seen |= nets.get(best, set())
    return order


def shelf_place(outline: tuple[float, float, float, float], sizes: dict[str, tuple[float, float, float, float]],
                edge: list[str], taken: list[tuple[float, float, float, float]],
                nets: dict[str, set[str]] | None = None) -> dict[str, tuple[float, float]]:
    """Anchors (mm) for footprints ``sizes`` (ref -> courtyard x1, y1, x2, y2 relative to
    the anchor) inside ``outline`` (x1, y1, x2, y2), avoiding ``taken`` boxes (pinned
    footprints, keep-outs); ``nets`` (ref -> signal nets) orders them by connection
    (`connected_order`). A footprint that fits nowhere is left out of the result."""
    x1, y1, x2, y2 = outline
    boxes = list(taken)
    out: dict[str, tuple[float, float]] = {}
    y = y1 + EDGE
    for ref in edge:  # down the left edge
        if ref not in sizes:
            continue
        cx1, cy1, cx2, cy2 = sizes[ref]
        while y + (cy2 - cy1) <= y2 - EDGE:
            box = (x1 + EDGE, y, x1 + EDGE + cx2 - cx1, y + cy2 - cy1)
            if not _hits(box, boxes):
                boxes.append(box)
                out[ref] = (round(box[0] - cx1, 3), round(box[1] - cy1, 3))
                y = box[3] + GAP
                break
            y += 0.5
    rest = connected_order(sorted(r for r in sizes if r not in out and r not in edge), sizes, nets or {})
    for ref in rest:
        cx1, cy1, cx2, cy2 = sizes[ref]
        w, h = cx2 - cx1, cy2 - cy1
        placed = False
        yy = y1 + EDGE
        while not placed and yy + h <= y2 - EDGE:
            xx = x1 + EDGE
            while xx + w <= x2 - EDGE:
                box = (xx, yy, xx + w, yy + h)
                if not _hits(box, boxes):
                    boxes.append(box)
                    out[ref] = (round(xx - cx1, 3), round(yy - cy1, 3))
                    placed = True
                    break
                xx += 0.5
            yy += 0.5
    return out
