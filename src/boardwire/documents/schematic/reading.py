"""Reading one sheet file: its items by kind, its ``lib_symbols`` table, its instance
tables, and what connects where.

Format reference: KiCad's "Schematic File Format" page
(dev-docs.kicad.org/en/file-formats/sexpr-schematic/). Coordinates are integer
nanometres.
"""

from __future__ import annotations

from typing import Iterator

from ...sexpr import atoms
from ...sexpr.node import SList
from ..sexpr_doc import SexprDocument
from ..versions import SCHEMATIC_RELEASES, kicad_major
from ..views import Point, View, iter_views
from .items import Label, Marker, SchItem, Sheet, Wire
from .library import LibSymbol
from .points import SheetPoints, sheet_points, symbol_pins
from .symbol import SymbolInstance

SCH_KINDS: dict[str, type] = {
    "symbol": SymbolInstance,
    "wire": Wire, "bus": Wire, "polyline": Wire,
    "label": Label, "global_label": Label, "hierarchical_label": Label,
    "netclass_flag": Label, "directive_label": Label,
    "junction": Marker, "no_connect": Marker, "bus_entry": Marker,
    "sheet": Sheet,
}


class SchematicReading(SexprDocument):
    """A ``.kicad_sch`` file, read: what `Schematic` builds its edits on."""

    kind = "schematic"
    roots = ("kicad_sch",)
    latest = SCHEMATIC_RELEASES[10]

    def items(self, kinds: str | tuple[str, ...] | None = None) -> Iterator[View]:
        if isinstance(kinds, str):
            kinds = (kinds,)
        table = SCH_KINDS if kinds is None else {k: SCH_KINDS[k] for k in kinds}
        return iter_views(self, self.root, table)

    def item(self, uid: str) -> View | None:
        """The top-level item (symbol, wire, label, junction, sheet...) with id ``uid``;
        None if this sheet has none (library definitions are not items)."""
        for k in self.root.kids:
            if type(k) is SList and k.head != "lib_symbols":
                u = k.find("uuid")
                if u is not None and u.atoms() and atoms.text(u.atoms()[0]) == uid:
                    return SCH_KINDS.get(k.head, SchItem)(self, k)
        return None

    @property
    def uuid(self) -> str | None:
        return View(self, self.root).uuid

    @property
    def symbols(self) -> list[SymbolInstance]:
        return list(self.items("symbol"))

    @property
    def lib_symbols(self) -> list[LibSymbol]:
        table = self.root.find("lib_symbols")
        return [LibSymbol(self, s) for s in table.lists("symbol")] if table is not None else []

    def lib_symbol_table(self) -> dict[str, SList]:
        """The ``lib_symbols`` entries by name (``Lib:Name``, or a symbol's
        ``lib_name``), in file order; what `lib_info` resolves names in."""
        return {s.name: s.node for s in self.lib_symbols if s.node.atoms()}

    def library_symbol(self, name: str) -> LibSymbol | None:
        """The ``lib_symbols`` entry ``name``, if the sheet has it."""
        return next((s for s in self.lib_symbols if s.node.atoms() and s.name == name), None)

    @property
    def wires(self) -> list[Wire]:
        return list(self.items("wire"))

    @property
    def buses(self) -> list[Wire]:
        return list(self.items("bus"))

    @property
    def labels(self) -> list[Label]:
        return list(self.items(("label", "global_label", "hierarchical_label")))

    @property
    def junctions(self) -> list[Marker]:
        return list(self.items("junction"))

    @property
    def no_connects(self) -> list[Marker]:
        return list(self.items("no_connect"))

    @property
    def sheets(self) -> list[Sheet]:
        return list(self.items("sheet"))

    @property
    def bus_aliases(self) -> dict[str, list[str]]:
        """``(bus_alias "NAME" (members "A" "B" ...))``: alias name -> member names."""
        out: dict[str, list[str]] = {}
        for a in self.root.lists("bus_alias"):
            vals = a.atoms()
            members = a.find("members")
            if vals and members is not None:
                out[atoms.text(vals[0])] = [atoms.text(m) for m in members.atoms()]
        return out

    @property
    def sheet_instances(self) -> list[tuple[str, str]]:
        """(instance path, page number) from the root sheet's ``sheet_instances``."""
        table = self.root.find("sheet_instances")
        out = []
        for path in (table.lists("path") if table is not None else ()):
            page = path.find("page")
            out.append((atoms.text(path.atoms()[0]),
                        atoms.text(page.atoms()[0]) if page is not None else ""))
        return out

    @property
    def symbol_instances(self) -> list[dict]:
        """KiCad 6's root-level ``symbol_instances`` table: path, reference, unit,
        value, footprint (KiCad 7+ keeps instances inside each symbol instead; see
        `SymbolInstance.instances`)."""
        table = self.root.find("symbol_instances")
        out = []
        for path in (table.lists("path") if table is not None else ()):
            row = {"path": atoms.text(path.atoms()[0])}
            for field in path.lists():
                if field.atoms():
                    row[field.head] = atoms.text(field.atoms()[0])
            out.append(row)
        return out

    @property
    def title(self) -> str | None:
        """The title block's title, if any."""
        tb = self.root.find("title_block")
        t = tb.find("title") if tb is not None else None
        return (atoms.text(t.atoms()[0]) or None) if t is not None and t.atoms() else None

    @property
    def paper(self) -> str | None:
        """The paper size name (``(paper "A4")``), if any."""
        node = self.root.find("paper")
        return atoms.text(node.atoms()[0]) if node is not None and node.atoms() else None

    # -- where things connect ----------------------------------------------------------

    def connection_points(self) -> SheetPoints:
        """Pins, wires, labels, sheet pins, flags and junctions by position."""
        return sheet_points(self)

    def pin_positions(self, sym: SymbolInstance) -> list[tuple[str, Point]]:
        """(number, sheet position) of the pins of the units of placed symbol ``sym``."""
        return symbol_pins(sym, self.lib_symbol_table())

    def summary(self) -> dict:
        heads: dict[str, int] = {}
        for kid in self.root.kids:
            if type(kid) is SList:
                heads[kid.head] = heads.get(kid.head, 0) + 1
        return {
            "kind": self.kind,
            "version": self.version,
            "kicad": kicad_major(self.version, SCHEMATIC_RELEASES),
            "generator": self.generator,
            "sheets": heads.get("sheet", 0),
            "symbols": heads.get("symbol", 0),
            "lib_symbols": len(self.lib_symbols),
            "wires": heads.get("wire", 0),
            "buses": heads.get("bus", 0),
            "labels": heads.get("label", 0),
            "global_labels": heads.get("global_label", 0),
            "hierarchical_labels": heads.get("hierarchical_label", 0),
            "junctions": heads.get("junction", 0),
            "no_connects": heads.get("no_connect", 0),
        }
