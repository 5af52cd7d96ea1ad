"""Schematics (``.kicad_sch``) with their edit primitives: wires, buses, labels,
junctions, no-connect flags, bus entries, symbols with their library definitions,
hierarchical sheets with the files they create.

Format reference: KiCad's "Schematic File Format" page
(dev-docs.kicad.org/en/file-formats/sexpr-schematic/); new items are written as
eeschema 9 writes them (``SCH_IO_KICAD_SEXPR``), in the order KiCad 9 keeps a sheet's
items by type. Items are added to KiCad 8 and newer schematics only (KiCad 6/7 wrote
them with other tokens). Coordinates are integer nanometres, angles degrees.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import UnsupportedFormat
from ...sexpr import atoms
from ...sexpr.atoms import mm, quote
from ...sexpr.node import SList
from ...sexpr.pretty import as_tree
from .. import fileio
from ..ids import new_uuid
from ..project.new import schematic_file
from ..sexpr_doc import make
from ..versions import SCHEMATIC_RELEASES
from ..views import Point, View
from .items import Label, Marker, Sheet, Wire
from .lib_entry import LibEntry, downgrade
from .placing import Placement, placed_symbol
from .points import on_segment
from .reading import SchematicReading
from .sheet_symbol import NewSheetPin, sheet_node, sheet_pins
from .symbol import SymbolInstance
from .upgrade import upgrade

# The order KiCad 9 writes a sheet's items in (by item type); a new item goes after the
# last one of its kind, or before the first of a later kind.
_SCH_ORDER = ["lib_symbols", "text", "text_box", "junction", "no_connect", "bus_entry",
              "wire", "bus", "polyline", "image", "label", "directive_label",
              "netclass_flag", "global_label", "hierarchical_label", "rule_area", "symbol",
              "sheet", "sheet_instances", "symbol_instances", "embedded_fonts"]
_LINE_KINDS = ("wire", "bus", "polyline")
# What boardwire adds to KiCad 6 and 7 schematics, written in their tokens
LEGACY_KINDS = ("wire", "bus", "bus_entry", "label", "global_label", "hierarchical_label",
                "junction", "no_connect")
_OWN_LINE = ("stroke", "effects", "uuid", "property")
_FONT = (b"1.27", b"1.27")
_HEADER = ("version", "generator", "generator_version", "uuid", "paper", "title_block")


class Schematic(SchematicReading):
    """A ``.kicad_sch`` file: one sheet of a design (hierarchy lives across files)."""

    def __init__(self, data: bytes, path: str | Path | None = None):
        super().__init__(data, path)
        # sheet uuid -> (its file, relative to this sheet's folder; the empty sheet to
        # write there on save): the files of sheets added with `add_sheet`
        self._new_files: dict[str, tuple[str, bytes]] = {}

    # -- KiCad 6 per-instance data ----------------------------------------------------

    def set_instance_field(self, symbol_uuid: str, field: str, value: str,
                           path: str | None = None) -> int:
        """Set ``field`` ("Reference", "Value" or "Footprint") in this sheet's
        ``symbol_instances`` (a KiCad 6 root sheet: KiCad 9 loads such a file taking
        each instance's reference, unit, value and footprint from there, not from the
        symbol's fields), for the instance ``path`` (``/<sheet uuid>.../<symbol uuid>``)
        or, without it, every instance of symbol ``symbol_uuid`` (its last element).
        Returns how many paths changed (0 in KiCad 7+ files, which have no such list)."""
        table = self.root.find("symbol_instances")
        if table is None or not symbol_uuid:
            return 0
        head = field.lower()
        changed = 0
        for row in table.lists("path"):
            vals = row.atoms()
            where = atoms.text(vals[0]) if vals else ""
            if (where == path) if path is not None else where.rstrip("/").rsplit("/", 1)[-1] == symbol_uuid:
                node = row.find(head)
                if node is not None:
                    self.set_atoms(node, [atoms.quote(value)])
                else:
                    self.insert(row, make(head, atoms.quote(value)))
                changed += 1
        return changed

    def set_paper(self, name: str) -> None:
        """Set the paper size (``(paper "A3")``), adding the node after the header's
        uuid when the file has none."""
        node = self.root.find("paper")
        if node is not None:
            self.set_atoms(node, [quote(name)])
            return
        after = [i for i, k in enumerate(self.root.kids) if type(k) is SList and k.head in ("version", "generator",
                                                                                             "generator_version", "uuid")]
        self.insert(self.root, make("paper", quote(name)), (after[-1] + 1) if after else None)

    # -- where new items go ------------------------------------------------------------

    @property
    def items_editable(self) -> bool:
        """True when every item boardwire adds can be written in this file's format:
        from KiCad 8 on. KiCad 6 and 7 files take wires, buses, bus entries, labels,
        junctions and no-connects (`LEGACY_KINDS`, in their own tokens); symbols and
        sheets (whose library entries and instances changed shape) are refused there."""
        return (self.version or 0) >= SCHEMATIC_RELEASES[8]

    def _layout(self, node: SList, depth: int) -> tuple[bytes, SList]:
        """KiCad 6/7 write a sheet's items in their own compact shape (eeschema 6/7's
        SCH_SEXPR_PLUGIN, as the files in ../shared/corpus show): the keyword, its atoms
        and leading lists on the first line up to the first ``stroke``, ``effects``,
        ``uuid`` or ``property``, each of those on a line of its own, ``)`` alone;
        a no-connect on one line."""
        if self.tabbed or depth != 1 or node.head not in LEGACY_KINDS:
            return super()._layout(node, depth)
        ind = self.indent

        def flat(n) -> bytes:
            return n if type(n) is bytes else b"(" + b" ".join(flat(k) for k in n.kids) + b")"

        first, rest = [], []
        for k in node.kids:
            if rest or (type(k) is SList and k.head in _OWN_LINE and node.head != "no_connect"):
                rest.append(k)
            else:
                first.append(k)
        text = b"(" + b" ".join(flat(k) for k in first)
        text += b"".join(b"\n" + ind * (depth + 1) + flat(k) for k in rest)
        text += (b"\n" + ind * depth if rest else b"") + b")"
        nl = self.tree.newline
        return (b"\n" + ind * depth).replace(b"\n", nl), as_tree(text.replace(b"\n", nl))

    def _stroke(self, kind: str = "default") -> SList:
        """A wire's stroke of line type ``kind`` (default: the sheet's); KiCad 6 files
        give it a colour of zeros too."""
        return make("stroke", make("width", b"0"), make("type", kind.encode()),
                    make("color", b"0", b"0", b"0", b"0")
                    if (self.version or 0) < SCHEMATIC_RELEASES[7] else None)

    def _uuid(self, uid: str | None) -> SList:
        text = uid or new_uuid()
        # KiCad 8+ quotes UUIDs; 6 and 7 wrote them bare.
        return make("uuid", quote(text) if (self.version or 0) >= 20231120 else text.encode())

    def _place(self, node: SList, kinds: tuple[str, ...]) -> SList:
        if not self.items_editable and node.head not in LEGACY_KINDS:
            raise UnsupportedFormat(
                f"adding a {node.head} needs a KiCad 8 or newer schematic; this one is "
                f"format {self.version} (KiCad 6 and 7 files take "
                f"{', '.join(LEGACY_KINDS)})",
                hint="Open and save the schematic in KiCad 9 to upgrade it, then try again.")
        node = downgrade(node, self.version or 0)
        kids = self.root.kids
        later = set(_SCH_ORDER[max(_SCH_ORDER.index(k) for k in kinds) + 1:])
        index = None
        for i, k in enumerate(kids):
            if type(k) is SList:
                if k.head in kinds:
                    index = i + 1
                elif index is None and k.head in later:
                    index = i
                    break
        return self.insert(self.root, node, index)

    # -- wires, labels, markers --------------------------------------------------------

    # The lists of new items (what the add_* methods insert, and what the KiCad 10
    # regeneration test rebuilds from each item's fields): unchanged from KiCad 8 to 10.

    def wire_list(self, points: list[Point], *, bus: bool = False, uid: str | None = None,
                  line_type: str = "default") -> SList:
        pts = make("pts", *(make("xy", mm(x), mm(y)) for x, y in points))
        return make("bus" if bus else "wire", pts, self._stroke(line_type), self._uuid(uid))

    def bus_entry_list(self, at: Point, size: Point, uid: str | None = None) -> SList:
        return make("bus_entry", make("at", mm(at[0]), mm(at[1])),
                    make("size", mm(size[0]), mm(size[1])), self._stroke(), self._uuid(uid))

    def label_list(self, text: str, at: Point, angle: float = 0.0, *, kind: str = "label",
                   shape: str = "input", uid: str | None = None,
                   autoplaced: bool | None = None) -> SList:
        """``autoplaced``: whether the label's fields were placed by KiCad (None: as
        for a new label, global and hierarchical labels yes)."""
        justify = {0: [b"left", b"bottom"], 90: [b"left", b"bottom"],
                   180: [b"right", b"bottom"], 270: [b"right", b"bottom"]}
        if kind != "label":
            justify = {0: [b"left"], 90: [b"left"], 180: [b"right"], 270: [b"right"]}
        effects = make("effects", make("font", make("size", *_FONT)),
                       make("justify", *justify.get(int(angle) % 360, [b"left"])))
        return make(kind, quote(text),
                    make("shape", shape.encode()) if kind != "label" else None,
                    make("at", mm(at[0]), mm(at[1]), atoms.num(angle)),
                    make("fields_autoplaced", b"yes")
                    if (kind != "label" if autoplaced is None else autoplaced) else None,
                    effects, self._uuid(uid))

    def junction_list(self, at: Point, uid: str | None = None, *, diameter: int = 0,
                      color: tuple = (0, 0, 0, 0)) -> SList:
        """``diameter`` nm (0: the schematic's default), ``color`` RGBA (0s: default)."""
        return make("junction", make("at", mm(at[0]), mm(at[1])), make("diameter", mm(diameter)),
                    make("color", *(atoms.num(c) for c in color)), self._uuid(uid))

    def no_connect_list(self, at: Point, uid: str | None = None) -> SList:
        return make("no_connect", make("at", mm(at[0]), mm(at[1])), self._uuid(uid))

    def add_wire(self, points: list[Point], *, bus: bool = False, uid: str | None = None) -> Wire:
        """Add a wire (or bus) through ``points`` (nm; KiCad draws one segment per
        wire, so pass two points for a KiCad-identical item)."""
        return Wire(self, self._place(self.wire_list(points, bus=bus, uid=uid), _LINE_KINDS))

    def add_label(self, text: str, at: Point, angle: float = 0.0, *, kind: str = "label",
                  shape: str = "input", uid: str | None = None) -> Label:
        """Add a net label: ``kind`` is label, global_label or hierarchical_label
        (``shape`` applies to the last two: input, output, bidirectional, tri_state,
        passive). Text is left-bottom justified at angle 0, as KiCad places it."""
        node = self.label_list(text, at, angle, kind=kind, shape=shape, uid=uid)
        return Label(self, self._place(node, (kind,)))

    def add_junction(self, at: Point, uid: str | None = None) -> Marker:
        return Marker(self, self._place(self.junction_list(at, uid), ("junction",)))

    def add_no_connect(self, at: Point, uid: str | None = None) -> Marker:
        return Marker(self, self._place(self.no_connect_list(at, uid), ("no_connect",)))

    def add_bus_entry(self, at: Point, size: Point, uid: str | None = None) -> Marker:
        """Add a wire-to-bus entry from ``at`` (on the bus) to ``at`` + ``size`` (nm)."""
        return Marker(self, self._place(self.bus_entry_list(at, size, uid), ("bus_entry",)))

    def break_wires_at(self, p: Point) -> int:
        """Split every two-point wire that passes through ``p`` there (KiCad's
        BreakSegments): the wire keeps its start, a new wire runs from ``p`` to its
        end. Returns how many wires were split."""
        n = 0
        for w in list(self.wires):
            pts = w.points
            if len(pts) != 2 or p in pts or not on_segment(p, pts[0], pts[1]):
                continue
            w.set_end(p)
            self.add_wire([p, pts[1]])
            n += 1
        return n

    def add_needed_junctions(self, points: list[Point]) -> list[Marker]:
        """Add the junctions KiCad adds at ``points`` (wire ends on a wire's middle, or
        three or more directions meeting), breaking the wires there."""
        out = []
        for p in dict.fromkeys(points):
            if self.connection_points().junction_needed(p):
                self.break_wires_at(p)
                out.append(self.add_junction(p))
        return out

    # -- symbols and their library definitions -----------------------------------------

    def library_entry(self, definition, lib_id: str) -> LibEntry:
        """The ``lib_symbols`` entry for a library symbol placed as ``lib_id`` on this
        sheet (``definition``: a `lib_lookup.SymbolDefinition`): flattened through
        ``extends``, renamed, written down to this file's format version."""
        return LibEntry.of(definition.symbol.node, [p.node for p in definition.parents], lib_id,
                           self.version or 0)

    def _lib_symbols_list(self) -> SList:
        table = self.root.find("lib_symbols")
        if table is None:
            anchor = None
            for i, k in enumerate(self.root.kids):
                if type(k) is SList and k.head in _HEADER:
                    anchor = i + 1
            table = self.insert(self.root, make("lib_symbols"), anchor)
        return table

    def ensure_library_symbol(self, entry: LibEntry) -> bool:
        """Add ``entry`` to ``lib_symbols`` (in name order, as KiCad keeps them) unless
        an entry of its name is there. Returns True if it was added."""
        table = self._lib_symbols_list()
        index = None
        for i, k in enumerate(table.kids):
            if type(k) is SList and k.head == "symbol" and k.atoms():
                name = atoms.text(k.atoms()[0])
                if name == entry.lib_id:
                    return False
                if index is None and name > entry.lib_id:
                    index = i
        self.insert(table, entry.node, index)
        return True

    def drop_unused_library_symbols(self, names: set[str]) -> list[str]:
        """Remove the ``lib_symbols`` entries of ``names`` that no placed symbol uses
        any more (as KiCad drops them); returns the names removed, sorted."""
        in_use = {s.lib_key for s in self.symbols}
        dropped = []
        for name in sorted(names - in_use):
            entry = self.library_symbol(name)
            if entry is not None:
                self.remove(entry.node)
                dropped.append(name)
        return dropped

    def add_symbol(self, entry: LibEntry, placement: Placement, uid: str | None = None) -> SymbolInstance:
        """Place a symbol from ``entry`` (see `ensure_library_symbol`) as eeschema 9
        does (`placing.placed_symbol`)."""
        node = placed_symbol(entry, placement, self.version or 0, uid)
        return SymbolInstance(self, self._place(node, ("symbol",)))

    def delete(self, item: View) -> None:
        """Remove an item of this sheet (a symbol from every instance of the file)."""
        self.remove(item.node)

    # -- hierarchical sheets -----------------------------------------------------------

    def add_sheet(self, name: str, file: str, at: Point, size: Point, pins: list[NewSheetPin],
                  project: str, instances: list[tuple[str, str]], *, create_file: bool = False,
                  uid: str | None = None) -> Sheet:
        """Add a hierarchical sheet symbol for ``file`` (relative to this sheet's
        folder) at ``at`` (top-left corner) of ``size`` (nm), with ``pins``, one
        instance per (parent instance path, page) of ``instances`` under ``project``.
        With ``create_file``, the child file (an empty sub-sheet, KiCad 10 under a KiCad
        10 parent, else KiCad 9) is written
        when this schematic is saved, as long as the sheet is still on it then (undo
        drops it), and only if no file is there by then; until then `new_files` offers
        it (the session opens it from there)."""
        uid = uid or new_uuid()
        pin_nodes = sheet_pins(pins, at, size, lambda: self._uuid(None))
        node = sheet_node(name, file, at, size, pin_nodes, uid, project, instances)
        version = self.version or 0
        sheet = Sheet(self, self._place(downgrade(upgrade(node, version, placed=True, fields_only=True), version),
                                        ("sheet",)))
        if create_file:
            kicad = 10 if version > SCHEMATIC_RELEASES[9] else 9  # the parent's KiCad
            self._new_files[uid] = (file, schematic_file(root=False, kicad=kicad))
        return sheet

    def new_files(self) -> dict[Path, bytes]:
        """Files this schematic creates when saved: the empty files of the sheets added
        with ``create_file`` that are still on it and not yet on disk."""
        if self.path is None or not self._new_files:
            return {}
        on_sheet = {s.uuid for s in self.sheets}
        out = {}
        for uid, (file, data) in self._new_files.items():
            target = (self.path.parent / file).resolve()
            if uid in on_sheet and not target.exists():
                out[target] = data
        return out

    def save(self, path: str | Path | None = None, *, force: bool = False,
             backup: bool = True) -> Path:
        """Save as `Document.save`, then write the files of new sheets (`new_files`)."""
        pending = self.new_files() if path is None else {}
        target = super().save(path, force=force, backup=backup)
        for file, data in pending.items():
            if not file.exists():
                file.parent.mkdir(parents=True, exist_ok=True)
                fileio.atomic_write(file, data)
        # a sheet undone before this save may come back with redo: keep what is unwritten
        self._new_files = {uid: (file, data) for uid, (file, data) in self._new_files.items()
                           if not (self.path.parent / file).exists()}
        return target
