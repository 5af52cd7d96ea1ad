"""Schematics (``.kicad_sch``) and symbol libraries (``.kicad_sym``).

Format reference: KiCad's "Schematic File Format" and "Symbol Library File Format"
pages (dev-docs.kicad.org/en/file-formats/sexpr-schematic/, .../sexpr-symbol-lib/).
Coordinates are integer nanometres like boards (KiCad's schematic unit is 100 nm, so
every schematic coordinate is a whole number of them).
"""

from __future__ import annotations

from typing import Iterator

from ..sexpr import atoms
from ..sexpr.atoms import mm, quote
from ..sexpr.node import SList
from .ids import new_uuid
from .sexpr_doc import SexprDocument, make
from .versions import SCHEMATIC_RELEASES, SYMBOL_LIB_RELEASES, kicad_major
from .views import Point, View, iter_views


class Fielded(View):
    """Something with ``(property "Name" "value" ...)`` fields."""

    __slots__ = ()

    @property
    def fields(self) -> dict[str, str]:
        out = {}
        for p in self.node.lists("property"):
            vals = p.atoms()
            if len(vals) >= 2:
                out[atoms.text(vals[0])] = atoms.text(vals[1])
        return out

    def field(self, name: str) -> str | None:
        for p in self.node.lists("property"):
            vals = p.atoms()
            if vals and atoms.text(vals[0]) == name:
                return atoms.text(vals[1]) if len(vals) > 1 else ""
        return None


class SymbolInstance(Fielded):
    """A symbol placed on a sheet (``symbol`` at the schematic's top level)."""

    __slots__ = ()

    @property
    def lib_id(self) -> str:
        return self.text_of("lib_id") or ""

    @property
    def position(self) -> Point:
        return self.point("at") or (0, 0)

    @property
    def orientation(self) -> float:
        return self.angle("at")

    @property
    def mirror(self) -> str | None:
        """``"x"`` (mirrored about the X axis), ``"y"``, or None."""
        vals = self.values("mirror")
        return atoms.text(vals[0]) if vals else None

    @property
    def unit(self) -> int:
        vals = self.values("unit")
        return int(vals[0]) if vals else 1

    @property
    def reference(self) -> str:
        return self.field("Reference") or ""

    @property
    def value(self) -> str:
        return self.field("Value") or ""

    @property
    def footprint(self) -> str:
        return self.field("Footprint") or ""

    @property
    def dnp(self) -> bool:
        return self.flag("dnp")

    @property
    def in_bom(self) -> bool:
        return self.flag("in_bom") if self.child("in_bom") is not None else True

    @property
    def on_board(self) -> bool:
        return self.flag("on_board") if self.child("on_board") is not None else True

    @property
    def body_style(self) -> int:
        """The body style shown: ``(body_style N)`` (KiCad 9), ``(convert N)`` before;
        1 (the normal body) when absent. 2 is KiCad's De Morgan alternate."""
        style = 1
        for head in ("convert", "body_style"):
            v = self.values(head)
            if v and v[0].isdigit():
                style = int(v[0])
        return style

    def instances(self) -> dict[str, dict[str, str]]:
        """Per sheet-instance path (``/<root uuid>/<sheet uuid>...``), the fields
        (``reference``, ``unit``, ``value``, ``footprint``) of this symbol's
        ``(instances (project (path PATH ...)))`` entry (KiCad 7+; the first, should
        two projects list the same path)."""
        out: dict[str, dict[str, str]] = {}
        inst = self.child("instances")
        for project in (inst.lists("project") if inst is not None else ()):
            for p in project.lists("path"):
                vals = p.atoms()
                if vals:
                    out.setdefault(atoms.text(vals[0]),
                                   {f.head: atoms.text(f.atoms()[0]) for f in p.lists() if f.atoms()})
        return out


class Wire(View):
    """``wire``, ``bus`` or ``polyline``: a list of points."""

    __slots__ = ()

    @property
    def points(self) -> list[Point]:
        pts = self.child("pts")
        if pts is None:
            return []
        return [(atoms.to_nm(v[0]), atoms.to_nm(v[1])) for v in (xy.atoms() for xy in pts.lists("xy"))]


class Label(View):
    """``label``, ``global_label``, ``hierarchical_label`` (and ``netclass_flag``)."""

    __slots__ = ()

    @property
    def text(self) -> str:
        vals = self.node.atoms()
        return atoms.text(vals[0]) if vals else ""

    @property
    def position(self) -> Point:
        return self.point("at") or (0, 0)

    @property
    def shape(self) -> str | None:
        return self.text_of("shape")


class Marker(View):
    """``junction``, ``no_connect``, ``bus_entry``: a position."""

    __slots__ = ()

    @property
    def position(self) -> Point:
        return self.point("at") or (0, 0)


class SheetPin(View):
    __slots__ = ()

    @property
    def name(self) -> str:
        vals = self.node.atoms()
        return atoms.text(vals[0]) if vals else ""

    @property
    def electrical_type(self) -> str:
        vals = self.node.atoms()
        return atoms.text(vals[1]) if len(vals) > 1 else ""

    @property
    def position(self) -> Point:
        return self.point("at") or (0, 0)


class Sheet(Fielded):
    """A hierarchical sheet symbol: name, file, pins."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self.field("Sheetname") or self.field("Sheet name") or ""

    @property
    def file(self) -> str:
        return self.field("Sheetfile") or self.field("Sheet file") or ""

    @property
    def position(self) -> Point:
        return self.point("at") or (0, 0)

    @property
    def size(self) -> Point:
        return self.point("size") or (0, 0)

    @property
    def pins(self) -> list[SheetPin]:
        return [SheetPin(self.doc, p) for p in self.node.lists("pin")]

    def instance_pages(self) -> list[tuple[str, str]]:
        """(parent instance path, page number) of each ``(instances (project (path
        PATH (page N))))`` entry, in file order (KiCad 7+; KiCad 6 keeps pages in the
        root's ``sheet_instances``)."""
        inst = self.child("instances")
        out = []
        for project in (inst.lists("project") if inst is not None else ()):
            for p in project.lists("path"):
                vals = p.atoms()
                page = p.find("page")
                if vals and page is not None and page.atoms():
                    out.append((atoms.text(vals[0]), atoms.text(page.atoms()[0])))
        return out


class LibPin(View):
    """A pin of a library symbol: ``(pin type style (at x y angle) (length l) (name ..)
    (number ..))``."""

    __slots__ = ()

    @property
    def electrical_type(self) -> str:
        vals = self.node.atoms()
        return atoms.text(vals[0]) if vals else ""

    @property
    def position(self) -> Point:
        return self.point("at") or (0, 0)

    @property
    def orientation(self) -> float:
        return self.angle("at")

    @property
    def length(self) -> int:
        vals = self.values("length")
        return atoms.to_nm(vals[0]) if vals else 0

    @property
    def name(self) -> str:
        return self.text_of("name") or ""

    @property
    def number(self) -> str:
        return self.text_of("number") or ""

    @property
    def hidden(self) -> bool:
        return self.flag("hide")


class LibSymbol(Fielded):
    """A symbol definition (in a library file, or a schematic's ``lib_symbols``)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        vals = self.node.atoms()
        return atoms.text(vals[0]) if vals else ""

    @property
    def extends(self) -> str | None:
        return self.text_of("extends")

    @property
    def is_power(self) -> bool:
        return self.child("power") is not None or b"power" in self.node.kids[1:]

    def units(self) -> Iterator[SList]:
        """The unit sub-symbols ``(symbol "NAME_U_S" ...)``."""
        return self.node.lists("symbol")

    @property
    def pins(self) -> list[LibPin]:
        """Pins of every unit and body style."""
        out = [LibPin(self.doc, p) for p in self.node.lists("pin")]
        for unit in self.units():
            out.extend(LibPin(self.doc, p) for p in unit.lists("pin"))
        return out


_SCH_KINDS: dict[str, type] = {
    "symbol": SymbolInstance,
    "wire": Wire, "bus": Wire, "polyline": Wire,
    "label": Label, "global_label": Label, "hierarchical_label": Label,
    "netclass_flag": Label, "directive_label": Label,
    "junction": Marker, "no_connect": Marker, "bus_entry": Marker,
    "sheet": Sheet,
}


# The order KiCad 9 writes a sheet's items in (by item type); a new item goes after the
# last one of its kind, or before the first of a later kind.
_SCH_ORDER = ["lib_symbols", "text", "text_box", "junction", "no_connect", "bus_entry",
              "wire", "bus", "polyline", "image", "label", "directive_label",
              "netclass_flag", "global_label", "hierarchical_label", "rule_area", "symbol",
              "sheet", "sheet_instances", "symbol_instances", "embedded_fonts"]
_LINE_KINDS = ("wire", "bus", "polyline")
_FONT = (b"1.27", b"1.27")


class Schematic(SexprDocument):
    """A ``.kicad_sch`` file: one sheet of a design (hierarchy lives across files)."""

    kind = "schematic"
    roots = ("kicad_sch",)
    latest = SCHEMATIC_RELEASES[9]

    # -- edits -----------------------------------------------------------------------

    def _uuid(self, uid: str | None) -> SList:
        text = uid or new_uuid()
        # KiCad 8+ quotes UUIDs; 6 and 7 wrote them bare.
        return make("uuid", quote(text) if (self.version or 0) >= 20231120 else text.encode())

    def _place(self, node: SList, kinds: tuple[str, ...]) -> SList:
        from ..errors import UnsupportedFormat

        if (self.version or 0) < SCHEMATIC_RELEASES[8]:
            # KiCad 6/7 wrote these items with other tokens (bare flags, stroke colours)
            raise UnsupportedFormat(
                f"adding a {node.head} needs a KiCad 8 or newer schematic; this one is "
                f"format {self.version}",
                hint="Open and save the schematic in KiCad 9 to upgrade it, then try again.")
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

    def add_wire(self, points: list[Point], *, bus: bool = False, uid: str | None = None) -> Wire:
        """Add a wire (or bus) through ``points`` (nm; KiCad draws one segment per
        wire, so pass two points for a KiCad-identical item)."""
        pts = make("pts", *(make("xy", mm(x), mm(y)) for x, y in points))
        node = make("bus" if bus else "wire", pts,
                    make("stroke", make("width", b"0"), make("type", b"default")),
                    self._uuid(uid))
        return Wire(self, self._place(node, _LINE_KINDS))

    def add_label(self, text: str, at: Point, angle: float = 0.0, *, kind: str = "label",
                  shape: str = "input", uid: str | None = None) -> Label:
        """Add a net label: ``kind`` is label, global_label or hierarchical_label
        (``shape`` applies to the last two: input, output, bidirectional, tri_state,
        passive). Text is left-bottom justified at angle 0, as KiCad places it."""
        justify = {0: [b"left", b"bottom"], 90: [b"left", b"bottom"],
                   180: [b"right", b"bottom"], 270: [b"right", b"bottom"]}
        if kind != "label":
            justify = {0: [b"left"], 90: [b"left"], 180: [b"right"], 270: [b"right"]}
        effects = make("effects", make("font", make("size", *_FONT)),
                       make("justify", *justify.get(int(angle) % 360, [b"left"])))
        node = make(kind, quote(text),
                    make("shape", shape.encode()) if kind != "label" else None,
                    make("at", mm(at[0]), mm(at[1]), atoms.num(angle)),
                    make("fields_autoplaced", b"yes") if kind != "label" else None,
                    effects, self._uuid(uid))
        return Label(self, self._place(node, (kind,)))

    def add_junction(self, at: Point, uid: str | None = None) -> Marker:
        node = make("junction", make("at", mm(at[0]), mm(at[1])), make("diameter", b"0"),
                    make("color", b"0", b"0", b"0", b"0"), self._uuid(uid))
        return Marker(self, self._place(node, ("junction",)))

    def add_no_connect(self, at: Point, uid: str | None = None) -> Marker:
        node = make("no_connect", make("at", mm(at[0]), mm(at[1])), self._uuid(uid))
        return Marker(self, self._place(node, ("no_connect",)))

    def items(self, kinds: str | tuple[str, ...] | None = None) -> Iterator[View]:
        if isinstance(kinds, str):
            kinds = (kinds,)
        table = _SCH_KINDS if kinds is None else {k: _SCH_KINDS[k] for k in kinds}
        return iter_views(self, self.root, table)

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


class SymbolLibrary(SexprDocument):
    """A ``.kicad_sym`` file."""

    kind = "symbol_library"
    roots = ("kicad_symbol_lib",)

    @property
    def symbols(self) -> list[LibSymbol]:
        return [LibSymbol(self, s) for s in self.root.lists("symbol")]

    def symbol(self, name: str) -> LibSymbol | None:
        for s in self.root.lists("symbol"):
            vals = s.atoms()
            if vals and atoms.text(vals[0]) == name:
                return LibSymbol(self, s)
        return None

    def summary(self) -> dict:
        syms = self.symbols
        return {"kind": self.kind, "version": self.version,
                "kicad": kicad_major(self.version, SYMBOL_LIB_RELEASES),
                "symbols": len(syms), "pins": sum(len(s.pins) for s in syms)}
