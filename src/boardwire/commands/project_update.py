"""project.updatePcb and project.backAnnotate: KiCad's "Update PCB from Schematic" and
"Update Schematic from PCB" for the common cases.

updatePcb links footprints to symbols as KiCad does: by the footprint's ``(path
"/<sheet uuids>/<symbol uuid>")``, else by reference (then the path is set:
``relinked``); a ``board_only`` footprint is linked only by path (KiCad's parity check
pairs those too). A symbol on the board (not a power or ``#`` symbol) gets: its reference
(a linked footprint is renamed, never replaced), its Footprint field (a footprint of
another library id is swapped in place, as pcb.swapFootprint does), its value and the
nets of its pins. A symbol without a footprint gets its library footprint with the
``path`` / ``sheetname`` / ``sheetfile`` KiCad writes, in one row per sheet instance
below the board. Footprints without a symbol are reported, or deleted with
``delete_extra`` (never ``board_only`` ones, never locked ones).

Net names: the schematic's nets (`boardwire.netlist.schematic`) are named as
KiCad names them on most nets, not all. So a net whose pads already agree with the
schematic keeps the board's name; only a net that the schematic joins or splits moves
pads, to the schematic's name when the board has it among the joined ones, else to
the board name most of its pads carry. Nets only new footprints use take the
schematic's name. The whole update is one change (one undo step).

backAnnotate writes the reference of each footprint into the symbol instance (sheet
instance path) its ``path`` names, all units of a multi-unit symbol together; a result
that gives two symbols one reference is refused.
"""

from __future__ import annotations

import posixpath
from collections import Counter

from pydantic import Field

from ..documents import FootprintFile
from ..documents.board import Board, Footprint
from ..documents.libraries import footprint_path
from ..documents.schematic import Sheet
from ..netlist.schematic import natural_key
from ..documents.sexpr_doc import make
from ..errors import BoardwireError, InvalidArgs
from ..registry import Context, command
from ..sexpr import atoms
from ..sexpr.atoms import quote
from ..sexpr.node import SList
from .board_edit import pad_nets, replace_footprint
from .board_query import board_of
from .common import Args, Result
from .describe import outline_bbox
from .sch_edit import set_reference
from .sch_query import connectivity_of

GAP = 2_000_000  # nm between new footprints, and below the board
_FP_POINTS = ("start", "end", "center", "mid", "at")


class PairArgs(Args):
    schematic: str = Field(min_length=1, max_length=4096, description="Root .kicad_sch")
    board: str = Field(min_length=1, max_length=4096, description=".kicad_pcb")
    dry_run: bool = Field(False, description="Report only")
    revision: int | None = Field(None, description="Expected revision of the edited file")


class UpdateArgs(PairArgs):
    swap: bool = Field(True, description="Replace footprints of another lib id (KiCad's default; false lists them)")
    delete_extra: bool = Field(False, description="Delete footprints without symbol (not board_only/locked)")


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


def _link(fp: Footprint) -> str | None:
    """The footprint's ``(path ...)``: ``/<sheet uuids>/<symbol uuid>`` of its symbol."""
    node = fp.child("path")
    return atoms.text(node.atoms()[0]) if node is not None and node.atoms() else None


def _sym_path(s) -> str:
    return f"{s.sheet.uuid_path}{s.view.uuid}"


def _board_only(fp: Footprint) -> bool:
    return b"board_only" in fp.values("attr")


def _set_sheet_info(board: Board, fp: Footprint, path: str, sheetname: str, sheetfile: str) -> None:
    """``(path ...)``, ``(sheetname ...)``, ``(sheetfile ...)`` after the properties, as KiCad writes them."""
    index = max((i for i, k in enumerate(fp.node.kids)
                 if type(k) is SList and k.head == "property"), default=None)
    for head, value in (("path", path), ("sheetname", sheetname), ("sheetfile", sheetfile)):
        node = fp.node.find(head)
        if node is not None:
            if node.atoms() != [quote(value)]:
                board.set_atoms(node, [quote(value)])
            index = fp.node.index(node)
        else:
            node = board.insert(fp.node, make(head, quote(value)), None if index is None else index + 1)
            index = fp.node.index(node)


@command("project.updatePcb", kind="edit", args=UpdateArgs, result=Result, edits="board",
         examples=({"schematic": "t.kicad_sch", "board": "t.kicad_pcb"},
                   {"schematic": "t.kicad_sch", "board": "t.kicad_pcb", "dry_run": True, "delete_extra": True}))
def update_pcb(ctx: Context, a: UpdateArgs) -> dict:
    """KiCad's Update PCB from Schematic: footprints linked by symbol path (else reference) get its reference, footprint, value and pad nets; missing ones are added below the board."""
    conn = connectivity_of(ctx, a.schematic)
    board = board_of(ctx, a.board)
    base = board.path.parent if board.path else None

    # the symbols that want a footprint, one per reference (the lowest unit's instance)
    wanted: dict[str, object] = {}
    unannotated, doubled, units = 0, set(), {}
    for s in sorted(conn.symbols, key=lambda s: s.unit):
        if not s.in_netlist or (s.lib is not None and s.lib.power):
            continue
        if s.reference.endswith("?"):
            unannotated += 1
            continue
        seen = units.setdefault(s.reference, {})  # unit -> symbol; one part per reference
        if s.unit in seen or (seen and (s.lib is None or s.lib.unit_count <= 1)):
            doubled.add(s.reference)
        seen[s.unit] = s
        wanted.setdefault(s.reference, s)
    # KiCad refuses to update the board from such a schematic: a footprint would be
    # deleted, or joined to the wrong symbol
    if unannotated or doubled:
        what = ([f"{unannotated} symbol{'s are' if unannotated != 1 else ' is'} not annotated"] if unannotated else []) + \
               ([f"references used by several symbols: {', '.join(sorted(doubled, key=natural_key))}"] if doubled else [])
        raise InvalidArgs(f"the schematic is not ready for the board: {'; '.join(what)}",
                          errors=[{"loc": "schematic", "msg": m, "type": "value"} for m in what],
                          hint="Run sch.annotate (all: true renumbers duplicates), then update again.")
    links = {_sym_path(s): s.reference for s in conn.symbols if s.reference in wanted}  # every unit
    pin_net: dict[tuple[str, str], object] = {}
    for p in conn.pins:
        if p.net is not None and p.symbol.reference in wanted:
            pin_net.setdefault((p.reference, p.number), p.net)

    # footprints to symbols: by path (KiCad's link), then by reference
    on_board: dict[str, Footprint] = {}
    rest: list[Footprint] = []
    for fp in board.footprints:
        ref = links.get(_link(fp) or "")
        if ref is not None and ref not in on_board:
            on_board[ref] = fp  # board_only footprints too: KiCad's parity check pairs them by path
        elif not _board_only(fp):
            rest.append(fp)
    extra: list[Footprint] = []
    relinked = []
    for fp in rest:
        if fp.reference in wanted and fp.reference not in on_board:
            on_board[fp.reference] = fp
            relinked.append(fp.reference)
        elif fp.reference:
            extra.append(fp)

    renamed = [{"from": fp.reference, "to": ref} for ref, fp in on_board.items() if fp.reference != ref]
    problems = []
    staying = {fp.reference for fp in extra} if not a.delete_extra else {fp.reference for fp in extra if fp.locked}
    for ch in renamed:
        if ch["to"] in staying:
            problems.append({"ref": ch["to"], "message": "also the reference of a footprint not in the schematic"})

    # swaps: the library footprint of each symbol whose Footprint field names another
    swaps: dict[str, tuple] = {}
    nets_after: dict[str, list[tuple[str, str]]] = {}  # ref -> [(pad number, net)] once swapped
    differ = []  # swap=false: what a swap would have replaced
    for ref, fp in on_board.items():
        lib_id = wanted[ref].view.footprint
        if not a.swap and lib_id and lib_id != fp.lib_id:
            differ.append({"ref": ref, "board": fp.lib_id, "symbol": lib_id})
        if a.swap and lib_id and lib_id != fp.lib_id:
            try:
                lib = FootprintFile.load(footprint_path(lib_id, base))
            except (BoardwireError, OSError) as e:
                problems.append({"ref": ref, "message": f"{lib_id}: {getattr(e, 'message', None) or e}"})
            else:
                old = pad_nets(board, fp)
                numbers = {p.number for p in lib.pads}
                swaps[ref] = (lib, lib_id, {"ref": ref, "from": fp.lib_id, "to": lib_id},
                              sorted(set(old) - numbers, key=natural_key))
                if swaps[ref][3]:  # KiCad's net_conflict: a connected pad has no match
                    problems.append({"ref": ref, "message": f"{lib_id} has no pad {', '.join(swaps[ref][3])}: "
                                                            "its net is dropped"})
                nets_after[ref] = [(p.number, old.get(p.number, "")) for p in lib.pads]
                continue
        nets_after[ref] = [(p.number, p.net_name or board.net_name(p.net) or "") for p in fp.pads]

    # nets: sch net -> board net name
    seen: dict[int, Counter] = {}
    nets = {}
    for (ref, num), net in pin_net.items():
        nets[id(net)] = net
        c = seen.setdefault(id(net), Counter())
        for number, name in nets_after.get(ref, ()):
            if number == num and name:
                c[name] += 1
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
        for i, (number, was) in enumerate(nets_after[ref]):
            net = pin_net.get((ref, number))
            if net is None or not number:
                continue
            to = target[id(net)]
            if to != was:
                nets_changed.append({"ref": ref, "pad": number, "from": was, "to": to, "_i": i})
        value = sym.view.value
        if value != fp.value:
            values_changed.append({"ref": ref, "from": fp.value, "to": value})

    # footprints to add: one row per sheet instance, below the board
    missing = [r for r in wanted if r not in on_board]
    added = []
    x0, y_bottom = _board_bottom_left(board)
    rows: dict[int, list] = {id(inst): [] for inst in conn.sheets}
    for ref in sorted(missing, key=natural_key):
        sym = wanted[ref]
        lib_id = sym.view.footprint
        if not lib_id:
            problems.append({"ref": ref, "message": "no Footprint field"})
            continue
        try:
            lib = FootprintFile.load(footprint_path(lib_id, base))
        except (BoardwireError, OSError) as e:
            problems.append({"ref": ref, "message": f"{lib_id}: {getattr(e, 'message', None) or e}"})
            continue
        pad_numbers = {p.number for p in lib.pads if p.number}
        pins = {num for (r, num) in pin_net if r == ref}
        if pins - pad_numbers:
            problems.append({"ref": ref, "message": f"{lib_id} has no pad {', '.join(sorted(pins - pad_numbers, key=natural_key))}"})
        nets_of = {num: target[id(pin_net[(ref, num)])] for num in pad_numbers if (ref, num) in pin_net}
        rows.setdefault(id(sym.sheet), []).append((ref, sym, lib, lib_id, nets_of, _extent(lib)))
        added.append(ref)
    plans = []
    top = y_bottom + 2 * GAP
    for row in rows.values():
        cursor = x0
        for ref, sym, lib, lib_id, nets_of, (x1, y1, x2, _) in row:
            plans.append((ref, sym, lib, lib_id, (cursor - x1, top - y1), nets_of))
            cursor += (x2 - x1) + GAP
        if row:
            top += max(e[3] - e[1] for *_, e in row) + GAP

    deleted = []
    if a.delete_extra:
        for fp in extra:
            if fp.locked:
                problems.append({"ref": fp.reference, "message": "locked: not deleted"})
            else:
                deleted.append(fp)

    if not a.dry_run:
        for ref in relinked:
            inst = wanted[ref].sheet
            _set_sheet_info(board, on_board[ref], _sym_path(wanted[ref]), inst.path, _sheetfile(inst))
        for ch in renamed:
            on_board[ch["to"]].set_field("Reference", ch["to"])
        for ref, (lib, lib_id, *_) in swaps.items():
            on_board[ref], _ = replace_footprint(board, on_board[ref], lib, lib_id)
        for ch in nets_changed:
            fp, number = on_board[ch["ref"]], ch["pad"]
            pads = [p for p in fp.pads if p.number == number] if ch["ref"] in swaps else [fp.pads[ch["_i"]]]
            code = board.ensure_net(ch["to"]) if ch["to"] else 0
            for pad in pads:
                pad.set_net(code, ch["to"])
        for ch in values_changed:
            on_board[ch["ref"]].set_field("Value", ch["to"])
        for fp in deleted:
            board.delete(fp)
        for ref, sym, lib, lib_id, at, nets_of in plans:
            for name in nets_of.values():
                board.ensure_net(name)
            fp = board.add_footprint(lib, lib_id, at, 0.0, ref, sym.view.value, nets_of)
            inst = sym.sheet
            _set_sheet_info(board, fp, _sym_path(sym), inst.path, _sheetfile(inst))
            ctx.created(fp.uuid)
    for ch in nets_changed:
        del ch["_i"]
    swapped = []
    for ref, (*_, row, dropped) in swaps.items():
        swapped.append(dict(row, dropped_pads=dropped) if dropped else row)

    kept = [fp.reference for fp in extra if fp not in deleted]
    counts = {"added": added, "renamed": renamed, "swapped": swapped, "pad nets": nets_changed,
              "values": values_changed, "deleted": deleted, "relinked": relinked}
    n = sum(len(v) for v in counts.values())
    verb = "would make" if a.dry_run else "made"
    parts = [f"{len(v)} {k}" for k, v in counts.items() if v]
    summary = (f"{verb} {n} change{'s' if n != 1 else ''} ({', '.join(parts)})" if n else "board matches the schematic")
    if kept:
        summary += f"; {len(kept)} footprint{'s' if len(kept) != 1 else ''} not in the schematic"
    out = {"summary": summary, "dry_run": a.dry_run, "added": added, "references_changed": renamed,
           "footprints_swapped": swapped, "nets_changed": nets_changed, "values_changed": values_changed,
           "deleted": sorted((fp.reference for fp in deleted), key=natural_key),
           "extra_footprints": sorted(kept, key=natural_key)}
    if relinked:
        out["relinked"] = sorted(relinked, key=natural_key)
    if differ:
        out["footprints_differ"] = differ
        summary += f"; {len(differ)} footprint{'s' if len(differ) != 1 else ''} of another library id kept (swap false)"
        out["summary"] = summary
    if problems:
        out["problems"] = problems
    return out


@command("project.backAnnotate", kind="edit", args=PairArgs, result=Result, edits="schematic",
         examples=({"schematic": "t.kicad_sch", "board": "t.kicad_pcb", "dry_run": True},))
def back_annotate(ctx: Context, a: PairArgs) -> dict:
    """KiCad's Update Schematic from PCB: each symbol instance gets the reference of the footprint linked to it by path."""
    conn = connectivity_of(ctx, a.schematic)
    board = board_of(ctx, a.board)
    by_path = {_sym_path(s): s for s in conn.symbols}
    units: dict[str, list] = {}
    for s in conn.symbols:
        units.setdefault(s.reference, []).append(s)

    def key(s) -> tuple:
        return id(s.view.node), s.sheet.kiid_path

    def part(s) -> tuple:  # the units of a multi-unit symbol are one part by reference
        return ("ref", s.reference) if s.lib is not None and s.lib.unit_count > 1 else key(s)

    claimed: dict[tuple, tuple] = {}  # symbol instance -> (symbol, footprint reference)
    unlinked, unannotated = [], []
    for fp in board.footprints:
        ref = fp.reference
        s = by_path.get(_link(fp) or "")
        if not ref or (s is None and _board_only(fp)):
            continue
        if ref.endswith("?"):  # nothing to give the symbol
            unannotated.append(ref)
            continue
        if s is None:
            unlinked.append(ref)
            continue
        group = [u for u in units[s.reference] if part(u) == part(s)]
        for u in group:
            if claimed.setdefault(key(u), (u, ref))[1] != ref:
                raise InvalidArgs(f"{s.reference} is linked from footprints {claimed[key(u)][1]} and {ref}",
                                  errors=[{"loc": "board", "msg": "two footprints link one symbol", "type": "value"}])
    todo = {k: (u, ref) for k, (u, ref) in claimed.items() if u.reference != ref}
    final: dict[str, set] = {}
    for s in conn.symbols:
        ref = todo.get(key(s), (s, s.reference))[1]
        if not ref.endswith("?"):
            final.setdefault(ref, set()).add(part(s))
    clash = sorted({ref for s, ref in todo.values() if len(final[ref]) > 1}, key=natural_key)
    if clash:
        raise InvalidArgs(f"back-annotation would give {', '.join(clash)} to two symbols",
                          errors=[{"loc": "board", "msg": f"duplicate reference {r}", "type": "value"} for r in clash])
    changed = []
    for s, ref in todo.values():
        row = {"from": s.reference, "to": ref, "sheet": s.sheet.path}
        if row not in changed:
            changed.append(row)
        if not a.dry_run:
            set_reference(ctx, s, ref)
    n = len(changed)
    summary = (f"{'would change' if a.dry_run else 'changed'} {n} reference{'s' if n != 1 else ''}"
               if n else "schematic matches the board")
    if unlinked:
        summary += f"; {len(unlinked)} footprint{'s' if len(unlinked) != 1 else ''} without a symbol"
    if unannotated:
        summary += f"; {len(unannotated)} footprint{'s' if len(unannotated) != 1 else ''} not annotated, skipped"
    return {"summary": summary, "dry_run": a.dry_run, "changed": changed,
            "unlinked": sorted(unlinked, key=natural_key), "unannotated": sorted(unannotated, key=natural_key)}
