"""pcb.fillZones: KiCad fills, boardwire keeps only the fills.

The snapshot is filled by pcbnew and saved; from KiCad's file, each filled zone's
``fill`` settings and ``filled_polygon`` lists replace ours (matched by zone id), so the
rest of the board keeps its bytes and the change is one undo step.
"""

from __future__ import annotations

from ..errors import CheckFailed
from ..kicad.pcbnew import fill_zones
from ..kicad.snapshot import snapshot
from ..registry import Context
from ..sexpr import atoms
from ..sexpr.file import SexprFile
from ..sexpr.node import SList
from ..sexpr.pretty import as_tree


def _zones_by_id(root: SList) -> dict[str, SList]:
    out = {}
    for k in root.kids:
        if type(k) is SList and k.head == "zone":
            u = k.find("uuid") or k.find("tstamp")
            if u is not None:
                out[atoms.text(u.atoms()[0])] = k
    return out


def fill(ctx: Context, path: str, ids: list[str]) -> dict:
    od = ctx.session.get(path, "board", ctx.actor)
    board = od.doc
    ours = _zones_by_id(board.root)
    missing = [i for i in ids if i not in ours]
    if missing:
        from ..errors import NotFound

        raise NotFound(f"no zone with id {', '.join(missing)}")
    ctx.progress(0.05, "writing a snapshot for KiCad")
    with snapshot(ctx.session, od) as src:
        out = src.parent / ("filled_" + src.name)
        ctx.progress(0.1, "KiCad is filling zones")
        fill_zones(src, out, ids, cancel=ctx.cancel)
        filled = SexprFile(out.read_bytes())
    theirs = _zones_by_id(filled.root)
    changed = 0
    for uid, zone in ours.items():
        if ids and uid not in ids:
            continue
        kicad = theirs.get(uid)
        if kicad is None:
            raise CheckFailed(f"KiCad's filled board lost zone {uid}")
        for old in [k for k in zone.kids if type(k) is SList and k.head == "filled_polygon"]:
            board.remove(old)
        fill_kicad = kicad.find("fill")
        fill_ours = zone.find("fill")
        if fill_kicad is not None and fill_ours is not None:
            board.replace(fill_ours, as_tree(fill_kicad.to_bytes()))
        for poly in kicad.lists("filled_polygon"):
            board.insert(zone, as_tree(poly.to_bytes()))
        changed += 1
    ctx.progress(1.0, "done")
    return {"summary": f"filled {changed} zone{'s' if changed != 1 else ''}", "zones": changed}
