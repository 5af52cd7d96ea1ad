"""pcb.fillZones: KiCad fills, boardwire keeps only the fills.

The snapshot is filled by pcbnew and saved; from KiCad's file, each filled zone's
``fill`` settings and ``filled_polygon`` lists replace ours (matched by zone id), so the
rest of the board keeps its bytes and the change is one undo step.
"""

from __future__ import annotations

from ..errors import NotFound
from ..kicad.pcbnew import fill_zones
from ..kicad.snapshot import snapshot
from ..registry import Context


def fill(ctx: Context, path: str, ids: list[str]) -> dict:
    od = ctx.session.get(path, "board", ctx.actor)
    board = od.doc
    ours = board.zones_by_id()
    missing = [i for i in ids if i not in ours]
    if missing:
        raise NotFound(f"no zone with id {', '.join(missing)}")
    ctx.progress(0.05, "writing a snapshot for KiCad")
    with snapshot(ctx.session, od) as src:
        out = src.parent / ("filled_" + src.name)
        ctx.progress(0.1, "KiCad is filling zones")
        fill_zones(src, out, ids, cancel=ctx.cancel)
        filled = out.read_bytes()
    changed = board.replace_fills(filled, ids)
    ctx.progress(1.0, "done")
    return {"summary": f"filled {changed} zone{'s' if changed != 1 else ''}", "zones": changed}
