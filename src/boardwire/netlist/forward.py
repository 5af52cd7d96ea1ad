"""KiCad's "Update PCB from Schematic" (forward annotation, `BoardUpdate`) and "Update
Schematic from PCB" (`back_annotation`) for the common cases, as project.updatePcb and
project.backAnnotate run them.

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

Net names: every pad gets the name of its schematic net (`boardwire.netlist.schematic`,
named as KiCad names them: docs/netlist.md), as KiCad's Update PCB does: a net renamed
in the schematic is renamed on the board, a net the schematic joins or splits moves its
pads. The whole update is one change (one undo step).

backAnnotate writes the reference of each footprint into the symbol instance (sheet
instance path) its ``path`` names, all units of a multi-unit symbol together; a result
that gives two symbols one reference is refused.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import dataclass, field

from ..documents import FootprintFile
from ..documents.board import Board, Footprint
from ..documents.library.tables import footprint_path
from ..documents.schematic import Sheet
from ..errors import BoardwireError, InvalidArgs
from .schematic import PlacedSymbol, SchematicConnectivity, natural_key


@dataclass(frozen=True)
class UpdateOptions:
    """project.updatePcb's choices: ``swap`` footprints of another library id (KiCad's
    default; else list them), ``delete_extra`` footprints without a symbol (never
    ``board_only`` or locked ones), ``dry_run`` (plan and report only)."""

    swap: bool = True
    delete_extra: bool = False
    dry_run: bool = False


GAP = 2_000_000  # nm between new footprints, and below the board


def _sheetfile(inst) -> str:
    if inst.parent is None or inst.sheet_node is None:
        return posixpath.basename(inst.file)
    return Sheet(inst.parent.doc, inst.sheet_node).file


def _sym_path(s) -> str:
    return f"{s.sheet.uuid_path}{s.view.uuid}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _load(lib_id: str, base, problems: list, ref: str) -> FootprintFile | None:
    """The library footprint ``lib_id``, or None with the reason in ``problems``."""
    try:
        return FootprintFile.load(footprint_path(lib_id, base))
    except (BoardwireError, OSError) as e:
        problems.append({"ref": ref, "message": f"{lib_id}: {getattr(e, 'message', None) or e}"})
        return None


def wanted_symbols(conn: SchematicConnectivity) -> dict[str, PlacedSymbol]:
    """The symbols that want a footprint, one per reference (the lowest unit's
    instance); InvalidArgs, as KiCad refuses, if some are unannotated or a reference is
    used by several symbols (a footprint would be deleted, or joined to the wrong one)."""
    wanted: dict[str, PlacedSymbol] = {}
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
    if unannotated or doubled:
        what = ([f"{unannotated} symbol{'s are' if unannotated != 1 else ' is'} not annotated"] if unannotated else []) + \
               ([f"references used by several symbols: {', '.join(sorted(doubled, key=natural_key))}"] if doubled else [])
        raise InvalidArgs(f"the schematic is not ready for the board: {'; '.join(what)}",
                          errors=[{"loc": "schematic", "msg": m, "type": "value"} for m in what],
                          hint="Run sch.annotate (all: true renumbers duplicates), then update again.")
    return wanted


@dataclass
class BoardUpdate:
    """KiCad's Update PCB from Schematic, step by step: each step reads what the steps
    before it found, `apply` makes the changes, `result` reports them."""

    conn: SchematicConnectivity
    board: Board
    args: UpdateOptions
    wanted: dict[str, PlacedSymbol] = field(default_factory=dict)
    pin_net: dict[tuple[str, str], object] = field(default_factory=dict)
    on_board: dict[str, Footprint] = field(default_factory=dict)
    relinked: list[str] = field(default_factory=list)
    extra: list[Footprint] = field(default_factory=list)
    renamed: list[dict] = field(default_factory=list)
    swaps: dict[str, tuple] = field(default_factory=dict)
    nets_after: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # ref -> [(pad, net)] once swapped
    differ: list[dict] = field(default_factory=list)  # swap false: what a swap would have replaced
    target: dict[int, str] = field(default_factory=dict)  # id(schematic net) -> board net name
    nets_changed: list[dict] = field(default_factory=list)
    nets_renamed: dict[str, str] = field(default_factory=dict)  # board net renamed whole: old -> new
    values_changed: list[dict] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    plans: list[tuple] = field(default_factory=list)
    deleted: list[Footprint] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)

    @property
    def base(self):
        return self.board.path.parent if self.board.path else None

    def plan(self) -> BoardUpdate:
        self.wanted = wanted_symbols(self.conn)
        for p in self.conn.pins:
            if p.net is not None and p.symbol.reference in self.wanted:
                self.pin_net.setdefault((p.reference, p.number), p.net)
        self.match_footprints()
        self.find_renames()
        self.find_swaps()
        self.name_nets()
        self.find_footprint_changes()
        self.find_net_renames()
        self.plan_additions()
        self.find_deletions()
        return self

    def match_footprints(self) -> None:
        """Footprints to symbols: by path (KiCad's link, board_only footprints too:
        KiCad's parity check pairs them by path), then by reference (``relinked``)."""
        links = {_sym_path(s): s.reference for s in self.conn.symbols if s.reference in self.wanted}  # every unit
        rest: list[Footprint] = []
        for fp in self.board.footprints:
            ref = links.get(fp.link or "")
            if ref is not None and ref not in self.on_board:
                self.on_board[ref] = fp
            elif not fp.board_only:
                rest.append(fp)
        for fp in rest:
            if fp.reference in self.wanted and fp.reference not in self.on_board:
                self.on_board[fp.reference] = fp
                self.relinked.append(fp.reference)
            elif fp.reference:
                self.extra.append(fp)

    def find_renames(self) -> None:
        self.renamed = [{"from": fp.reference, "to": ref} for ref, fp in self.on_board.items() if fp.reference != ref]
        extra = self.extra if not self.args.delete_extra else [fp for fp in self.extra if fp.locked]
        staying = {fp.reference for fp in extra}
        for ch in self.renamed:
            if ch["to"] in staying:
                self.problems.append({"ref": ch["to"], "message": "also the reference of a footprint not in the schematic"})

    def find_swaps(self) -> None:
        """The library footprint of each symbol whose Footprint field names another;
        the pad nets each footprint has once swapped."""
        for ref, fp in self.on_board.items():
            lib_id = self.wanted[ref].view.footprint
            if lib_id and lib_id != fp.lib_id:
                if not self.args.swap:
                    self.differ.append({"ref": ref, "board": fp.lib_id, "symbol": lib_id})
                elif (lib := _load(lib_id, self.base, self.problems, ref)) is not None:
                    old = fp.pad_nets
                    dropped = sorted(set(old) - {p.number for p in lib.pads}, key=natural_key)
                    self.swaps[ref] = (lib, lib_id, {"ref": ref, "from": fp.lib_id, "to": lib_id}, dropped)
                    if dropped:  # KiCad's net_conflict: a connected pad has no match
                        self.problems.append({"ref": ref, "message": f"{lib_id} has no pad {', '.join(dropped)}: "
                                                                     "its net is dropped"})
                    self.nets_after[ref] = [(p.number, old.get(p.number, "")) for p in lib.pads]
                    continue
            self.nets_after[ref] = [(p.number, p.net_name or self.board.net_name(p.net) or "") for p in fp.pads]

    def name_nets(self) -> None:
        """Schematic net -> board net name: the schematic's, as KiCad's Update PCB names
        it (pads of a renamed or rejoined net move to it)."""
        for net in self.pin_net.values():
            self.target[id(net)] = net.name

    def find_footprint_changes(self) -> None:
        """Pad nets and values of the footprints on the board."""
        for ref, fp in self.on_board.items():
            for i, (number, was) in enumerate(self.nets_after[ref]):
                net = self.pin_net.get((ref, number))
                if net is None or not number:
                    continue
                to = self.target[id(net)]
                if to != was:
                    self.nets_changed.append({"ref": ref, "pad": number, "from": was, "to": to, "_i": i})
            value = self.wanted[ref].view.value
            if value != fp.value:
                self.values_changed.append({"ref": ref, "from": fp.value, "to": value})

    def find_net_renames(self) -> None:
        """Nets the schematic renamed: a board net all of whose pads (on every footprint
        of the board) move to one name the board lacks is renamed whole, so its tracks,
        vias and zones follow, as KiCad's Update PCB renames a net."""
        board = self.board
        on_board = Counter(p.net_name or board.net_name(p.net) for fp in board.footprints for p in fp.pads)
        moving = Counter(ch["from"] for ch in self.nets_changed)
        goes: dict[str, set[str]] = {}
        for ch in self.nets_changed:
            goes.setdefault(ch["from"], set()).add(ch["to"])
        single = {old: next(iter(to)) for old, to in goes.items() if len(to) == 1}
        takers = Counter(single.values())
        for old, to in single.items():
            if old and to and board.net_number(to) is None and takers[to] == 1 and moving[old] == on_board[old]:
                self.nets_renamed[old] = to

    def pad_moves(self) -> list[dict]:
        """The pad net changes not made by renaming a whole net."""
        return [ch for ch in self.nets_changed if self.nets_renamed.get(ch["from"]) != ch["to"]]

    def plan_additions(self) -> None:
        """Footprints to add: one row per sheet instance, below the board."""
        rows: dict[int, list] = {id(inst): [] for inst in self.conn.sheets}
        for ref in sorted((r for r in self.wanted if r not in self.on_board), key=natural_key):
            sym = self.wanted[ref]
            lib_id = sym.view.footprint
            if not lib_id:
                self.problems.append({"ref": ref, "message": "no Footprint field"})
                continue
            lib = _load(lib_id, self.base, self.problems, ref)
            if lib is None:
                continue
            pad_numbers = {p.number for p in lib.pads if p.number}
            pins = {num for (r, num) in self.pin_net if r == ref}
            if pins - pad_numbers:
                self.problems.append({"ref": ref, "message": f"{lib_id} has no pad {', '.join(sorted(pins - pad_numbers, key=natural_key))}"})
            nets_of = {num: self.target[id(self.pin_net[(ref, num)])]  # pad order, not a set's: same file every run
                       for num in sorted(pad_numbers, key=natural_key) if (ref, num) in self.pin_net}
            rows.setdefault(id(sym.sheet), []).append((ref, sym, lib, lib_id, nets_of, lib.layout_box()))
            self.added.append(ref)
        x0, top = self._below_board()
        for row in rows.values():
            cursor = x0
            for ref, sym, lib, lib_id, nets_of, (x1, y1, x2, _) in row:
                self.plans.append((ref, sym, lib, lib_id, (cursor - x1, top - y1), nets_of))
                cursor += (x2 - x1) + GAP
            if row:
                top += max(e[3] - e[1] for *_, e in row) + GAP

    def _below_board(self) -> tuple[int, int]:
        """Where the first row of new footprints starts: the outline's left edge (else
        the leftmost footprint's), two gaps below its bottom."""
        box = self.board.outline_bbox()
        if box is not None:
            return box[0], box[3] + 2 * GAP
        pts = [fp.position for fp in self.board.footprints]
        if not pts:
            return 0, 2 * GAP
        return min(p[0] for p in pts), max(p[1] for p in pts) + 2 * GAP

    def find_deletions(self) -> None:
        if self.args.delete_extra:
            for fp in self.extra:
                if fp.locked:
                    self.problems.append({"ref": fp.reference, "message": "locked: not deleted"})
                else:
                    self.deleted.append(fp)

    def apply(self) -> list[str]:
        """Make the planned changes; returns the ids of the footprints added."""
        new = []
        board, on_board = self.board, self.on_board
        for ref in self.relinked:
            inst = self.wanted[ref].sheet
            on_board[ref].set_link(_sym_path(self.wanted[ref]), inst.path, _sheetfile(inst))
        for ch in self.renamed:
            on_board[ch["to"]].set_field("Reference", ch["to"])
        for ref, (lib, lib_id, *_) in self.swaps.items():
            on_board[ref], _ = board.swap_footprint(on_board[ref], lib, lib_id)
        for old, new in self.nets_renamed.items():
            board.rename_net(old, new)
        for ch in self.pad_moves():
            fp, number = on_board[ch["ref"]], ch["pad"]
            pads = [p for p in fp.pads if p.number == number] if ch["ref"] in self.swaps else [fp.pads[ch["_i"]]]
            code = board.ensure_net(ch["to"]) if ch["to"] else 0
            for pad in pads:
                pad.set_net(code, ch["to"])
        for ch in self.values_changed:
            on_board[ch["ref"]].set_field("Value", ch["to"])
        for fp in self.deleted:
            board.delete(fp)
        for ref, sym, lib, lib_id, at, nets_of in self.plans:
            for name in nets_of.values():
                board.ensure_net(name)
            fp = board.add_footprint(lib, lib_id, at, 0.0, ref, sym.view.value, nets_of)
            fp.set_link(_sym_path(sym), sym.sheet.path, _sheetfile(sym.sheet))
            new.append(fp.uuid)
        return new

    def result(self) -> dict:
        for ch in self.nets_changed:
            ch.pop("_i", None)
        swapped = [dict(row, dropped_pads=dropped) if dropped else row for *_, row, dropped in self.swaps.values()]
        kept = [fp.reference for fp in self.extra if fp not in self.deleted]
        renamed_nets = [{"from": old, "to": new} for old, new in self.nets_renamed.items()]
        counts = {"added": self.added, "renamed": self.renamed, "swapped": swapped, "nets renamed": renamed_nets,
                  "pad nets": self.pad_moves(),
                  "values": self.values_changed, "deleted": self.deleted, "relinked": self.relinked}
        n = sum(len(v) for v in counts.values())
        verb = "would make" if self.args.dry_run else "made"
        parts = [f"{len(v)} {k}" for k, v in counts.items() if v]
        summary = (f"{verb} {_plural(n, 'change')} ({', '.join(parts)})" if n else "board matches the schematic")
        if kept:
            summary += f"; {_plural(len(kept), 'footprint')} not in the schematic"
        out = {"summary": summary, "dry_run": self.args.dry_run, "added": self.added,
               "references_changed": self.renamed, "footprints_swapped": swapped,
               "nets_changed": self.nets_changed, "nets_renamed": renamed_nets, "values_changed": self.values_changed,
               "deleted": sorted((fp.reference for fp in self.deleted), key=natural_key),
               "extra_footprints": sorted(kept, key=natural_key)}
        if self.relinked:
            out["relinked"] = sorted(self.relinked, key=natural_key)
        if self.differ:
            out["footprints_differ"] = self.differ
            out["summary"] = summary + f"; {_plural(len(self.differ), 'footprint')} of another library id kept (swap false)"
        if self.problems:
            out["problems"] = self.problems
        return out

def back_annotation(conn: SchematicConnectivity, board: Board) -> tuple[dict, list[str], list[str]]:
    """KiCad's Update Schematic from PCB, planned: (symbol instances whose reference
    changes, as ``{instance key: (placed symbol, new reference)}``; footprints linked to
    no symbol; footprints not annotated). All units of a multi-unit symbol change
    together. InvalidArgs when two footprints link one symbol or the result would give
    two symbols one reference."""
    by_path = {_sym_path(s): s for s in conn.symbols}
    units: dict[str, list] = {}
    for s in conn.symbols:
        units.setdefault(s.reference, []).append(s)

    def key(s) -> tuple:
        return s.view, s.sheet.kiid_path

    def part(s) -> tuple:  # the units of a multi-unit symbol are one part by reference
        return ("ref", s.reference) if s.lib is not None and s.lib.unit_count > 1 else key(s)

    claimed: dict[tuple, tuple] = {}  # symbol instance -> (symbol, footprint reference)
    unlinked, unannotated = [], []
    for fp in board.footprints:
        ref = fp.reference
        s = by_path.get(fp.link or "")
        if not ref or (s is None and fp.board_only):
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
    return todo, unlinked, unannotated
