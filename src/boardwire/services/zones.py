"""KiCad's zone filler on a board of the session: KiCad fills, boardwire keeps only the
fills.

The snapshot is filled by pcbnew and saved; from KiCad's file, each filled zone's
``fill`` settings and ``filled_polygon`` lists replace ours (matched by zone id), so the
rest of the board keeps its bytes and the change is one undo step.
"""

from __future__ import annotations

from ..errors import NotFound, UnsupportedFormat
from ..kicad.pcbnew import fill_zones
from ..kicad.snapshot import snapshot


def fill(ctx, path: str, ids: list[str]) -> dict:
    od = ctx.session.get(path, "board", ctx.actor)
    board = od.doc
    ours = board.zones_by_id()
    missing = [i for i in ids if i not in ours]
    if missing:
        raise NotFound(f"no zone with id {', '.join(missing)}")
    refuse_stroked(board, ids)
    ctx.progress(0.05, "writing a snapshot for KiCad")
    with snapshot(ctx.session, od) as src:
        out = src.parent / ("filled_" + src.name)
        ctx.progress(0.1, "KiCad is filling zones")
        fill_zones(src, out, ids, cancel=ctx.cancel)
        filled = out.read_bytes()
    changed = board.replace_fills(filled, ids)
    ctx.progress(1.0, "done")
    return {"summary": f"filled {changed} zone{'s' if changed != 1 else ''}", "zones": changed}


def refuse_stroked(board, ids: list[str] | None = None,
                   hint: str = "Save the board in KiCad 9 (that upgrades its format), then fill again.") -> None:
    """UnsupportedFormat when a zone to fill (those of ``ids``, default all but
    keep-outs) is of a format whose fills KiCad strokes with the zone's minimum width
    (`Zone.stroked_fill`, a KiCad 5 board): KiCad 9's fill is computed unstroked, so
    written into such a file its copper would grow by half that width (a fresh-user
    trial: 170 new clearance errors on a 5.99 board), and the token that says
    otherwise is newer than the file."""
    stroked = [z for z in board.zones if not z.is_keepout and (not ids or z.uuid in ids) and z.stroked_fill]
    if stroked:
        z = stroked[0]
        raise UnsupportedFormat(
            f"{len(stroked)} zone(s) ({z.net_name or 'no net'} on {', '.join(z.layers)} first) are of KiCad 5's "
            f"format (board version {board.version}), whose fills are stroked with the zone's minimum width; "
            f"KiCad 9's fill cannot be written into it unchanged; nothing was changed",
            hint=hint)
