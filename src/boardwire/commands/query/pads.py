"""query.pads: the pads of a footprint or of the whole board, in board coordinates, with
their absolute angle and their bounding box in board axes (from the copper geometry)."""

from __future__ import annotations

import shapely
from pydantic import Field

from ...geometry import geometry_of
from ...registry import Context, command
from ...services.board import board_of, footprint_of
from ..common import Coord, DocArgs, mm, mm_pt
from .results import Pads


class PadsArgs(DocArgs):
    reference: str | None = Field(None, max_length=1000, description="Footprint reference, e.g. U1; omit for every pad of the board")
    net: str | None = Field(None, max_length=1000, description="Only pads of this net (wildcards * ? allowed)")
    layer: str | None = Field(None, max_length=100, description="Only pads with copper on this layer, e.g. F.Cu")
    area: list[Coord] | None = Field(None, min_length=4, max_length=4,
                                     description="[x1, y1, x2, y2] mm: only pads whose box meets this rectangle")
    offset: int = Field(0, ge=0)
    limit: int = Field(200, ge=1, le=5000)


def _net_match(pattern: str | None):
    if pattern is None:
        return lambda name: True
    if any(c in pattern for c in "*?["):
        import fnmatch

        return lambda name: fnmatch.fnmatchcase(name, pattern)
    return lambda name: name == pattern


@command("query.pads", kind="query", args=PadsArgs, result=Pads, idempotent=True, tables=("pads",), units="mm, degrees",
         examples=({"path": "b.kicad_pcb", "reference": "U1"},
                   {"path": "b.kicad_pcb", "net": "GND", "layer": "F.Cu"},
                   {"path": "b.kicad_pcb", "area": [100, 50, 120, 60], "limit": 50}))
def pads(ctx: Context, a: PadsArgs) -> dict:
    """Pad positions: the pads of one footprint, or of the board (paged; filter by net, reference, layer, area): number, footprint, type, shape, board position, absolute angle, size, layers, net, and bounding box [x1, y1, x2, y2] in board axes."""
    board = board_of(ctx, a.path)
    if a.reference is not None:
        footprint_of(board, a.reference)  # not-found error for an unknown reference
    model = geometry_of(board)
    net_ok = _net_match(a.net)
    bit = model.layers.bit.get(a.layer) if a.layer else None
    box = shapely.box(*[v * 1e6 for v in a.area]) if a.area else None
    rows = []
    for it in model.items:
        if it is None or it.kind != "pad":
            continue
        fp = model.footprints[it.fp] if it.fp is not None else None
        ref = fp.reference if fp is not None else ""
        if a.reference is not None and ref != a.reference:
            continue
        if not net_ok(it.net):
            continue
        if bit is not None and not model.flash(it) & bit:
            continue
        x0, y0, x1, y1 = shapely.bounds(it.core)
        bbox = (x0 - it.r, y0 - it.r, x1 + it.r, y1 + it.r)
        if box is not None and not shapely.intersects(box, shapely.box(*bbox)):
            continue
        rows.append((it, ref, bbox))
    total = len(rows)
    page = rows[a.offset:a.offset + a.limit]
    out = []
    for it, ref, bbox in page:
        pad = it.data
        row = {"number": pad.number, "reference": ref, "id": pad.uuid, "type": pad.pad_type,
               "shape": pad.shape, "at": mm_pt(pad.at), "angle": pad.angle % 360,
               "size": mm_pt(pad.size), "layers": list(pad.layers), "net": it.net or None,
               "bbox": [mm(round(v)) for v in bbox]}
        if pad.drill:
            row["drill"] = mm_pt(pad.drill)
        out.append({k: v for k, v in row.items() if v is not None})
    more = total - a.offset - len(out)
    where = a.reference or "the board"
    return {"summary": f"{where}: {total} pad{'s' if total != 1 else ''}" + (f", showing {len(out)} from {a.offset}" if more > 0 or a.offset else ""),
            "total": total, "offset": a.offset, "pads": out}
