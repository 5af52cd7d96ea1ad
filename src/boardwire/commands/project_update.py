"""project.updatePcb: KiCad's "Update PCB from Schematic" for the common cases.

Symbols are matched to footprints by reference. A symbol on the board (not a power or
``#`` symbol, with a Footprint field) whose reference has no footprint gets its library
footprint, placed in a row below the board, with its value, its ``path`` /
``sheetname`` / ``sheetfile`` as KiCad writes them and the nets of its pins. A
footprint that is there gets the value of its symbol and the nets of its pins.
Footprints whose reference the schematic no longer has are reported, never deleted;
footprints are never swapped.

Net names: the schematic's nets (`boardwire.checks.sch_connectivity`) are named as
KiCad names them on most nets, not all. So a net whose pads already agree with the
schematic keeps the board's name; only a net that the schematic joins or splits moves
pads, to the schematic's name when the board has it among the joined ones, else to
the board name most of its pads carry. Nets only new footprints use take the
schematic's name. The whole update is one change (one undo step).
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter

from pydantic import Field

from ..documents import FootprintFile
from ..documents.board import Board, Footprint
from ..documents.libraries import footprint_path
from ..documents.schematic import Sheet
from ..documents.sexpr_doc import make
from ..errors import BoardwireError
from ..registry import Context, command
from ..sexpr import atoms
from ..sexpr.atoms import quote
from ..sexpr.node import SList
from .board_query import board_of
from .common import Args, Result
from .describe import outline_bbox
from .sch_query import connectivity_of

GAP = 2_000_000  # nm between new footprints, and below the board
_FP_POINTS = ("start", "end", "center", "mid", "at")


class UpdateArgs(Args):
    schematic: str = Field(min_length=1, max_length=4096, description="Root .kicad_sch")
    board: str = Field(min_length=1, max_length=4096, description=".kicad_pcb to update")
    dry_run: bool = Field(False, description="Report the changes without making them")
    revision: int | None = Field(None, description="Fail with stale-revision unless the board is at this revision")


def _extent(lib: FootprintFile) -> tuple[int, int, int, int]:
    """Footprint-local box (nm) of the courtyard, else of pads and drawings."""
    def box(layers: tuple[str, ...] | None):
        xs, ys = [], []
        for k in lib.root.kids:
            if type(k) is not SList or not k.head.startswith("fp_"):
                continue
            lay = k.find("layer")
            if layers is not None and (lay is None or atoms.text(lay.atoms()[0]) not in layers):
                continue
            for head in _FP_POINTS:
                c = k.find(head)
                if c is not None and len(c.atoms()) >= 2:
                    xs.append(atoms.to_nm(c.atoms()[0]))
                    ys.append(atoms.to_nm(c.atoms()[1]))
        return xs, ys

    xs, ys = box(("F.CrtYd",))
    if not xs:
        xs, ys = box(None)
        for pad in lib.pads:
            (x, y), size = pad.position, pad.size or (0, 0)
            r = max(size) // 2
            xs += [x - r, x + r]
            ys += [y - r, y + r]
    if not xs:
        return -500_000, -500_000, 500_000, 500_000
    return min(xs), min(ys), max(xs), max(ys)


def _board_bottom_left(board: Board) -> tuple[int, int]:
    box = outline_bbox(board)
    if box is not None:
        return round(box[0] * 1e6), round(box[3] * 1e6)
    pts = [fp.position for fp in board.footprints]
    if not pts:
        return 0, 0
    return min(p[0] for p in pts), max(p[1] for p in pts)


def _sheetfile(inst) -> str:
    if inst.parent is None or inst.sheet_node is None:
        return posixpath.basename(inst.file)
    return Sheet(inst.parent.doc, inst.sheet_node).file


def _add_sheet_info(board: Board, fp: Footprint, path: str, sheetname: str, sheetfile: str) -> None:
    """``(path ...)``, ``(sheetname ...)``, ``(sheetfile ...)`` after the properties, as KiCad writes them."""
    last = max((i for i, k in enumerate(fp.node.kids)
                if type(k) is SList and k.head == "property"), default=None)
    index = None if last is None else last + 1
    for i, node in enumerate((make("path", quote(path)), make("sheetname", quote(sheetname)),
                              make("sheetfile", quote(sheetfile)))):
        board.insert(fp.node, node, None if index is None else index + i)


@command("project.updatePcb", kind="edit", args=UpdateArgs, result=Result, edits="board",
         examples=({"schematic": "t.kicad_sch", "board": "t.kicad_pcb"},
                   {"schematic": "t.kicad_sch", "board": "t.kicad_pcb", "dry_run": True}))
def update_pcb(ctx: Context, a: UpdateArgs) -> dict:
    """Update PCB from Schematic (by reference): add missing footprints below the board, set pad nets and values; footprints not in the schematic are reported, not deleted."""
    conn = connectivity_of(ctx, a.schematic)
    board = board_of(ctx, a.board)

    # the symbols that want a footprint, one per reference (the lowest unit's instance)
    wanted: dict[str, object] = {}
    unannotated = set()
    for s in sorted(conn.symbols, key=lambda s: s.unit):
        if not s.in_netlist or (s.lib is not None and s.lib.power):
            continue
        if s.reference.endswith("?"):
            unannotated.add(s.reference)
            continue
        wanted.setdefault(s.reference, s)
    pin_net: dict[tuple[str, str], object] = {}
    for p in conn.pins:
        if p.net is not None and p.symbol.reference in wanted:
            pin_net.setdefault((p.reference, p.number), p.net)

    on_board: dict[str, Footprint] = {}
    extra: list[str] = []
    for fp in board.footprints:
        ref = fp.reference
        attr = fp.child("attr")
        if attr is not None and b"board_only" in attr.atoms():
            continue
        if ref in wanted:
            on_board.setdefault(ref, fp)
        elif ref:
            extra.append(ref)

    # nets: sch net -> board net name
    pads_of = {ref: fp.pads for ref, fp in on_board.items()}
    seen: dict[int, Counter] = {}
    nets = {}
    for (ref, num), net in pin_net.items():
        nets[id(net)] = net
        c = seen.setdefault(id(net), Counter())
        for pad in pads_of.get(ref, ()):
            if pad.number == num and pad.net_name:
                c[pad.net_name] += 1
    target: dict[int, str] = {}
    claimed: set[str] = set()
    for key in sorted(nets, key=lambda k: (-max(seen[k].values(), default=0), nets[k].name)):
        net, c = nets[key], seen[key]
        ranked = sorted(c, key=lambda n: (n != net.name, -c[n], n))
        choice = next((n for n in ranked if n not in claimed), net.name)
        target[key] = choice
        claimed.add(choice)

    # changes to footprints on the board
    nets_changed, values_changed = [], []
    for ref, fp in on_board.items():
        sym = wanted[ref]
        for pad in fp.pads:
            net = pin_net.get((ref, pad.number))
            if net is None or not pad.number:
                continue
            to, was = target[id(net)], pad.net_name or ""
            if to != was:
                nets_changed.append({"ref": ref, "pad": pad.number, "from": was, "to": to, "_pad": pad})
        value = sym.view.value
        if value != fp.value:
            values_changed.append({"ref": ref, "from": fp.value, "to": value})

    # footprints to add
    missing = [r for r in wanted if r not in on_board]
    added, problems = [], []
    x0, y_bottom = _board_bottom_left(board)
    cursor = x0
    plans = []
    for ref in sorted(missing, key=_natural):
        sym = wanted[ref]
        lib_id = sym.view.footprint
        if not lib_id:
            problems.append({"ref": ref, "message": "no Footprint field"})
            continue
        try:
            lib = FootprintFile.load(footprint_path(lib_id, board.path.parent if board.path else None))
        except (BoardwireError, OSError) as e:
            problems.append({"ref": ref, "message": f"{lib_id}: {getattr(e, 'message', None) or e}"})
            continue
        pad_numbers = {p.number for p in lib.pads if p.number}
        pins = {num for (r, num) in pin_net if r == ref}
        if pins - pad_numbers:
            problems.append({"ref": ref, "message": f"{lib_id} has no pad {', '.join(sorted(pins - pad_numbers, key=_natural))}"})
        pad_nets = {num: target[id(pin_net[(ref, num)])] for num in pad_numbers if (ref, num) in pin_net}
        x1, y1, x2, _ = _extent(lib)
        at = (cursor - x1, y_bottom + 2 * GAP - y1)
        cursor += (x2 - x1) + GAP
        plans.append((ref, sym, lib, lib_id, at, pad_nets))
        added.append(ref)

    if not a.dry_run:
        for ch in nets_changed:
            ch["_pad"].set_net(board.ensure_net(ch["to"]) if ch["to"] else 0, ch["to"])
        for ch in values_changed:
            on_board[ch["ref"]].set_field("Value", ch["to"])
        for ref, sym, lib, lib_id, at, pad_nets in plans:
            for name in pad_nets.values():
                board.ensure_net(name)
            fp = board.add_footprint(lib, lib_id, at, 0.0, ref, sym.view.value, pad_nets)
            inst = sym.sheet
            _add_sheet_info(board, fp, f"{inst.uuid_path}{sym.view.uuid}", inst.path, _sheetfile(inst))
            ctx.created(fp.uuid)
    for ch in nets_changed:
        del ch["_pad"]

    n = len(added) + len(nets_changed) + len(values_changed)
    verb = "would make" if a.dry_run else "made"
    parts = [f"{len(added)} added", f"{len(nets_changed)} pad nets", f"{len(values_changed)} values"]
    summary = (f"{verb} {n} change{'s' if n != 1 else ''} ({', '.join(parts)})" if n else "board matches the schematic")
    if extra:
        summary += f"; {len(extra)} footprint{'s' if len(extra) != 1 else ''} not in the schematic"
    out = {"summary": summary, "dry_run": a.dry_run, "added": added, "nets_changed": nets_changed,
           "values_changed": values_changed, "extra_footprints": sorted(extra, key=_natural)}
    if problems or unannotated:
        out["problems"] = problems + [{"ref": r, "message": "not annotated (sch.annotate)"}
                                      for r in sorted(unannotated)]
    return out


def _natural(s: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]
