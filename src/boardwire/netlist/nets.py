"""Net building: the nets of a whole schematic design (the rules are in
`boardwire.netlist.schematic`).

Every connection point of every sheet instance is a key of one union-find: geometry
joins points of one instance (`sheet_geometry`), names join what geometry does not
(``("L", instance, name)`` for names local to an instance, ``("H", instance, name)``
for hierarchical labels a sheet pin reaches, ``("G", name)`` for global labels and
power pins), and bus members are joined member by member (``("BM", bus group, key)``).
The pins of one set are a net; its name is that of its strongest driver
(`net_names`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..documents.schematic.lib_info import LibInfo, lib_info
from ..documents.schematic import Schematic
from .bus import bus_aliases, bus_members, escape_netname
from .hierarchy import OpenSheet, SheetInstance, load_hierarchy
from .net_names import GLOBAL, HIER_LABEL, LOCAL_LABEL, PIN, POWER_PIN, SHEET_PIN, Driver, name_nets
from .sheet_geometry import SheetGeometry, UnionFind, sheet_geometry
from .symbols import (PinNode, PlacedSymbol, jumpered, natural_key, place_pins,
                      resolve_reference)

Point = tuple[int, int]
_LABEL_PRIORITY = {"global_label": GLOBAL, "hierarchical_label": HIER_LABEL}


@dataclass
class LabelNode:
    """A label or a sheet pin on one sheet instance, with the net it is on (None for a
    bus label or a label that reaches no pin)."""

    sheet: SheetInstance = field(repr=False)
    kind: str  # label, global_label, hierarchical_label, sheet_pin
    text: str
    at: Point
    uuid: str | None
    bus: bool
    net: Net | None = field(default=None, repr=False)
    key: object = field(default=None, repr=False, compare=False)


@dataclass
class Net:
    """One net: its pins (one per pin of each placed symbol), its labels, and whether a
    no-connect flag is on it. ``code`` numbers nets from 1 in name order."""

    code: int
    name: str
    pins: list[PinNode] = field(default_factory=list)
    labels: list[LabelNode] = field(default_factory=list)
    no_connect: bool = False

    @property
    def netlist_pins(self) -> list[PinNode]:
        """The pins KiCad's netlist lists: of symbols on the board, not ``#`` ones,
        one per (reference, number)."""
        seen, out = set(), []
        for p in self.pins:
            if p.symbol.in_netlist and (p.reference, p.number) not in seen:
                seen.add((p.reference, p.number))
                out.append(p)
        return out

    @property
    def nodes(self) -> list[str]:
        return sorted({p.label for p in self.netlist_pins}, key=natural_key)


@dataclass
class SchematicConnectivity:
    sheets: list[SheetInstance]
    symbols: list[PlacedSymbol]
    pins: list[PinNode]
    labels: list[LabelNode]
    nets: list[Net]

    def net(self, name: str) -> Net | None:
        return next((n for n in self.nets if n.name == name), None)

    def netlist(self) -> dict[str, list[str]]:
        """Net name -> sorted ``REF.PIN`` entries, for the nets KiCad's netlist lists."""
        return {n.name: n.nodes for n in self.nets if n.netlist_pins}


class _Builder:
    """The union-find of a design, filled sheet instance by sheet instance."""

    def __init__(self, root: Schematic, sheets: list[SheetInstance]) -> None:
        self.sheets = sheets
        self.legacy = {row["path"]: row for row in root.symbol_instances}
        self.aliases = bus_aliases({id(s.doc): s.doc for s in sheets if s.doc is not None}.values())
        self.uf = UnionFind()
        self.symbols: list[PlacedSymbol] = []
        self.pins: list[PinNode] = []
        self.labels: list[LabelNode] = []
        self.drivers: list[Driver] = []
        self.nc_keys: list = []
        self.hier_buses: dict[tuple[int, str], list] = {}  # (instance, name) -> bus groups
        self.bus_links: list[tuple[object, int, str, list]] = []  # bus sheet pins to follow down
        self._geometry: dict[int, SheetGeometry] = {}
        self._tables: dict[int, dict] = {}  # per document: its lib_symbols by name
        self._libs: dict[tuple[int, str], LibInfo | None] = {}
        index_of = {id(s): i for i, s in enumerate(sheets)}
        self.child_of = {(index_of[id(s.parent)], s.sheet): i for i, s in enumerate(sheets)
                         if s.parent is not None and s.sheet is not None}

    def add_sheet(self, i: int, inst: SheetInstance) -> None:
        doc = inst.doc
        geo = self._geometry.get(id(doc))
        if geo is None:
            geo = self._geometry[id(doc)] = sheet_geometry(doc, self.aliases)
        buses: dict = {}  # bus group -> [(priority, name, members)]
        self._labels(i, inst, geo, buses)
        self.nc_keys.extend(("c", i, geo.group(p)) for p in geo.no_connects)
        self._sheet_pins(i, inst, geo, buses)
        self._bus_members(i, buses, inst)
        for sym in geo.symbols:
            self._symbol(i, inst, geo, sym)

    def _labels(self, i: int, inst: SheetInstance, geo: SheetGeometry, buses: dict) -> None:
        depth = inst.depth
        for kind, text, at, uid in geo.labels:
            members = bus_members(text, self.aliases)
            lab = LabelNode(inst, kind, text, at, uid, members is not None)
            self.labels.append(lab)
            prio = _LABEL_PRIORITY.get(kind, LOCAL_LABEL)
            if members is not None:
                gid = lab.key = ("cb", i, geo.bus_group(at))
                buses.setdefault(gid, []).append((prio, text, members))
                if kind == "hierarchical_label":
                    self.hier_buses.setdefault((i, text), []).append(gid)
                continue
            n = lab.key = ("c", i, geo.group(at))
            name = escape_netname(text)  # "A/B" and "A{slash}B" are one net
            self.uf.union(n, ("L", i, name))
            if kind == "global_label":
                self.uf.union(n, ("G", name))
                self.drivers.append((GLOBAL, n, name, depth, lab))
            else:
                if kind == "hierarchical_label":
                    self.uf.union(n, ("H", i, name))
                self.drivers.append((prio, n, inst.path + name, depth, lab))

    def _sheet_pins(self, i: int, inst: SheetInstance, geo: SheetGeometry, buses: dict) -> None:
        for sheet, spins in geo.sheets:
            child = self.child_of.get((i, sheet))
            for name, at, shape in spins:
                members = bus_members(name, self.aliases)
                lab = LabelNode(inst, "sheet_pin", name, at, None, members is not None)
                self.labels.append(lab)
                if members is not None:
                    gid = lab.key = ("cb", i, geo.bus_group(at))
                    buses.setdefault(gid, []).append((SHEET_PIN, name, members))
                    if child is not None:
                        self.bus_links.append((gid, child, name, members))
                    continue
                n = lab.key = ("c", i, geo.group(at))
                if child is not None:
                    self.uf.union(n, ("H", child, escape_netname(name)))
                self.drivers.append((SHEET_PIN, n, inst.path + escape_netname(name), inst.depth,
                                     (lab, shape)))

    def _bus_members(self, i: int, buses: dict, inst: SheetInstance) -> None:
        """A bus's members are the nets its driving label names on this sheet; each
        member also drives its net with that label's strength, named on this sheet
        (KiCad names a member net crossing sheets from the sheet nearest the root)."""
        for gid, items in buses.items():
            prio, _, members = min(items, key=lambda t: (-t[0], t[1]))
            for key, member in members:
                if key[0] == "m":
                    continue  # KiCad 9 links no inline group member with markup through a bus
                name = escape_netname(member)
                self.uf.union(("BM", gid, key), ("L", i, name))
                if prio == GLOBAL:
                    self.uf.union(("BM", gid, key), ("G", name))
                self.drivers.append((prio, ("BM", gid, key), name if prio == GLOBAL else inst.path + name,
                                     inst.depth, (inst, "bus")))

    def _lib(self, doc: Schematic, name: str) -> LibInfo | None:
        key = (id(doc), name)
        if key not in self._libs:
            table = self._tables.get(id(doc))
            if table is None:
                table = self._tables[id(doc)] = doc.lib_symbol_table()
            self._libs[key] = lib_info(table, name)
        return self._libs[key]

    def _symbol(self, i: int, inst: SheetInstance, geo: SheetGeometry, sym) -> None:
        ref, unit = resolve_reference(sym, inst, self.legacy)
        info = self._lib(inst.doc, sym.text_of("lib_name") or sym.lib_id)
        placed = PlacedSymbol(inst, sym, ref, unit, info, not ref.startswith("#") and sym.on_board)
        self.symbols.append(placed)
        if info is None:
            return
        mine = place_pins(placed)
        for pn in mine:
            if pn.type == "no_connect":
                continue  # a no-connect pin connects to nothing
            n = ("c", i, geo.group(pn.at))
            self.uf.union(("pin", id(pn)), n)
            if pn.is_power:
                name = pn.power_net()
                self.uf.union(n, ("G", name))
                self.uf.union(n, ("L", i, name))
                self.drivers.append((POWER_PIN, n, name, inst.depth, pn))
        self.pins.extend(mine)
        for group in jumpered(mine, info):
            for other in group[1:]:
                self.uf.union(("pin", id(group[0])), ("pin", id(other)))
        for pn in mine:
            if not pn.is_power and placed.in_netlist:
                self.drivers.append((PIN, ("pin", id(pn)), "", inst.depth, (pn, mine)))

    def link_buses(self) -> None:
        """Bus sheet pins join the members of the child's hierarchical bus labels of
        the same name, member by member."""
        for gid, child, name, members in self.bus_links:
            for child_gid in self.hier_buses.get((child, name), ()):
                for key, _ in members:
                    self.uf.union(("BM", gid, key), ("BM", child_gid, key))

    def nets(self) -> list[Net]:
        """The pins grouped into nets, named, labelled, numbered in name order."""
        find = self.uf.find
        groups: dict = {}
        for pn in self.pins:
            groups.setdefault(find(("pin", id(pn))), []).append(pn)
        nc_roots = {find(n) for n in self.nc_keys}
        names = name_nets(self.drivers, find, groups, nc_roots)
        nets: list[Net] = []
        for root_key, members in groups.items():
            net = Net(0, names.get(root_key, ""), members, no_connect=root_key in nc_roots)
            for pn in members:
                pn.net = net
            nets.append(net)
        by_root = {find(("pin", id(n.pins[0]))): n for n in nets}
        for lab in self.labels:
            if lab.key is not None:
                lab.net = by_root.get(find(lab.key))
                if lab.net is not None:
                    lab.net.labels.append(lab)
        nets.sort(key=lambda n: (n.name == "", natural_key(n.name)))
        for code, net in enumerate(nets, 1):
            net.code = code
        return nets


def schematic_connectivity(root: Schematic, root_file: str = "",
                           open_sheet: OpenSheet | None = None) -> SchematicConnectivity:
    """Nets of the design rooted at ``root``; ``open_sheet`` opens child sheets (see
    `load_hierarchy`; without it only the root sheet is read)."""
    if open_sheet is None:
        def open_sheet(parent: str, name: str):  # noqa: F811
            raise FileNotFoundError(name)
    sheets = load_hierarchy(root, root_file, open_sheet)
    build = _Builder(root, sheets)
    for i, inst in enumerate(sheets):
        if inst.doc is not None:
            build.add_sheet(i, inst)
    build.link_buses()
    nets = build.nets()
    return SchematicConnectivity(sheets, build.symbols, build.pins, build.labels, nets)
