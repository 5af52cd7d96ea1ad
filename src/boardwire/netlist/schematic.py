"""Schematic connectivity: the nets a hierarchy of sheets makes, as KiCad 9 makes them.

Measured against ``kicad-cli sch export netlist`` (KiCad 9.0.8; tests/checks), the rules:

* Items on one sheet instance connect where their connection points coincide exactly:
  wire ends, symbol pins, labels, sheet pins, junctions. A junction on the middle of a
  wire connects to it, and so does a label (of any kind). A pin or a wire end on the
  middle of another wire does *not* connect, nor do two wires crossing without a
  junction. A pin of type no_connect connects to nothing.
* Pins are placed by KiCad's symbol transform: the library pin ``(x, y)`` read with y
  flipped, through the orientation matrix, then the mirror composed on the right, then
  offset by the symbol's ``at`` (`symbol_transform`, `pin_world`). A placed unit has the
  pins of its unit and of unit 0, of its body style and of body style 0. The reference
  and unit of each sheet instance come from the symbol's ``instances`` (KiCad 7+), the
  root's ``symbol_instances`` (KiCad 6), else the Reference field.
* Names join what geometry does not: on one sheet instance, local, hierarchical and
  global labels and power pins with the same (escaped) text are one net; global labels
  and power pins with the same text are one net everywhere. A power pin is a
  ``power_in`` pin that is hidden or belongs to a power symbol; a power symbol's net is
  its Value (its pin name in files older than format 20230221, which KiCad rewrites on
  load), a hidden power pin's net is its pin name.
* A sheet pin joins the hierarchical labels of its name inside its sheet instance; it
  does not join same-named labels of its own sheet.
* Buses: a bus (wires of kind ``bus`` with their labels, sheet pins and hierarchical
  labels) names its members after its strongest label (``D[0..7]`` -> D0..D7,
  ``USB{DP DM}`` -> USB.DP, USB.DM, bus aliases expanded); members are the nets of those
  names on that sheet. A bus sheet pin joins the members of the child's hierarchical
  bus label, member by member in order (KiCad joins IO[8..15] on a bus to a pin
  IO[0..7] as IO10 with IO2). Group members with markup (``~{RESET}``) are not joined
  through buses (KiCad 9 keeps them apart).
* Net names follow KiCad's driver priorities: a global label, then a power pin, then a
  local label, a hierarchical label, a sheet pin, a pin; among equals the shallowest
  sheet, then the smallest name. Local names carry the sheet path (``/sub/NAME``),
  global names do not; a net named by a pin is ``Net-(R1-Pad1)`` or ``Net-(U1-SDA)``,
  and ``unconnected-(...)`` when it has a single pin or a no-connect flag. (Names agree
  with KiCad's on about 90% of the nets of the test corpus; the grouping agrees on all
  but one orphaned sub-sheet.)

Coordinates are integer nanometres. This module never reads files: the caller hands it
the root `Schematic` and a function that opens a child sheet.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Callable

from ..documents.sch_symbols import (LibInfo, _text, lib_info,  # noqa: F401 - re-exported
                                      pin_world, symbol_transform)
from ..documents.schematic import Schematic, SymbolInstance
from ..sexpr import atoms
from ..sexpr.node import SList

Point = tuple[int, int]

# Driver priorities (CONNECTION_SUBGRAPH::PRIORITY)
PIN, SHEET_PIN, HIER_LABEL, LOCAL_LABEL, POWER_PIN, GLOBAL = 1, 2, 3, 4, 5, 6
LEGACY_POWER_FIX = 20230221

# "~{A}", "^{A}", "_{A}" are overbar, superscript and subscript markup, not groups
# "~{A}", "^{A}", "_{A}" are overbar, superscript and subscript markup, not groups; and
# "{slash}" and its kind are KiCad's escapes in names
_ESCAPE_WORDS = {"slash", "backslash", "lt", "gt", "colon", "dblquote", "quote", "tab",
                 "return", "space", "comma", "brl", "brr", "dollar", "tilde", "caret",
                 "pipe", "nbsp", "ast", "amp"}
_VECTOR = re.compile(r"^(.*?)\[(\d+)\.\.(\d+)\](.*)$")


def escape_netname(text: str) -> str:
    """KiCad's EscapeString(CTX_NETNAME): a slash would read as a sheet separator."""
    return text.replace("/", "{slash}").replace("\n", "{return}").replace("\r", "")


def _group_brace(text: str) -> tuple[int, int] | None:
    """The outer ``{...}`` of a bus group (start, end index), skipping markup braces."""
    depth, start = 0, -1
    for i, c in enumerate(text):
        if c == "{":
            if depth == 0:
                if i > 0 and text[i - 1] in "~^_":
                    depth = -1  # markup: skip to its closing brace
                    continue
                start = i
            depth = depth + 1 if depth >= 0 else depth
        elif c == "}":
            if depth == -1:
                depth = 0
            elif depth > 0:
                depth -= 1
                if depth == 0 and start >= 0:
                    if text[start + 1:i].strip() in _ESCAPE_WORDS:
                        start = -1
                        continue
                    return start, i
    return None


def bus_members(text: str, aliases: dict[str, list[str]] | None = None) -> list[tuple[object, str]] | None:
    """The members of a bus name as (match key, member net name), or None when
    ``text`` names a net, not a bus. Vector ``D[0..7]`` gives D0..D7 keyed by position;
    group ``USB{DP DM}`` gives USB.DP, USB.DM keyed by member name; a bus alias (and
    an alias or a vector inside a group) expands to its members."""
    aliases = aliases or {}
    m = _VECTOR.match(text)
    if m and "{" not in text:
        # matched by position: KiCad joins IO[8..15] on a bus to a sheet pin IO[0..7]
        # member by member (IO10 with IO2)
        return [(("v", k), name) for k, (_, name) in enumerate(_vector(m))]
    if text in aliases:
        return [(("n", name), name) for name in _expand(text, aliases, 0)]
    brace = _group_brace(text)
    if brace is None:
        return None
    prefix = text[:brace[0]]
    out: list[tuple[object, str]] = []
    for member in _split_members(text[brace[0] + 1:brace[1]]):
        for short in _expand(member, aliases, 0):
            out.append((("n", short), f"{prefix}.{short}" if prefix else short))
    return out


def _vector(m: re.Match) -> list[tuple[int, str]]:
    prefix, a, b, suffix = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
    step = 1 if b >= a else -1
    return [(n, f"{prefix}{n}{suffix}") for n in range(a, b + step, step)]


def _expand(member: str, aliases: dict[str, list[str]], depth: int) -> list[str]:
    """A group member as net names: a vector's members, an alias's members (again
    expanded), or the member itself."""
    if depth < 8 and member in aliases:
        return [n for sub in aliases[member] for n in _expand(sub, aliases, depth + 1)]
    vec = _VECTOR.match(member)
    if vec and "{" not in member:
        return [name for _, name in _vector(vec)]
    return [member]


def _split_members(body: str) -> list[str]:
    out, cur, depth = [], "", 0
    for c in body:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if depth == 0 and (c.isspace() or c == ","):
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += c
    if cur:
        out.append(cur)
    return out


def is_bus_name(text: str, aliases: dict[str, list[str]] | None = None) -> bool:
    """Vector (``D[0..7]``), group (``{A B}``, ``NAME{A B}``) and alias bus names."""
    return bus_members(text, aliases) is not None


def sub_reference(unit: int) -> str:
    """KiCad's unit suffix: 1 -> A, 26 -> Z, 27 -> AA."""
    out = ""
    while unit > 0:
        unit -= 1
        out = chr(ord("A") + unit % 26) + out
        unit //= 26
    return out


# -- the hierarchy ----------------------------------------------------------------------


@dataclass
class SheetInstance:
    """One sheet of the hierarchy as placed: the root, or a sheet symbol's instance.

    ``path`` is KiCad's human path (``/``, ``/Power/``), ``uuid_path`` the netlist's
    (``/``, ``/<sheet uuid>/``), ``kiid_path`` the path KiCad 7+ symbol instances use
    (``/<root uuid>[/<sheet uuid>...]``)."""

    path: str
    uuid_path: str
    kiid_path: str
    file: str
    name: str
    page: str
    doc: Schematic | None = field(repr=False, default=None)
    parent: SheetInstance | None = field(repr=False, default=None)
    sheet_uuid: str | None = None
    sheet_node: SList | None = field(repr=False, default=None)
    missing: bool = False

    @property
    def depth(self) -> int:
        """0 for the root, 1 for its sheets..."""
        d, up = 0, self.parent
        while up is not None:
            d, up = d + 1, up.parent
        return d

    @property
    def sheet_uuids(self) -> list[str]:
        return [u for u in self.uuid_path.split("/") if u]


OpenSheet = Callable[[str, str], tuple[str, Schematic]]


def _sheet_page(sheet: SList, parent_kiid: str, legacy: dict[str, str], uuid_path: str) -> str:
    inst = sheet.find("instances")
    if inst is not None:
        pages = []
        for project in inst.lists("project"):
            for p in project.lists("path"):
                vals = p.atoms()
                page = _text(p, "page")
                if vals and page is not None:
                    pages.append((atoms.text(vals[0]), page))
        for path, page in pages:
            if path == parent_kiid:
                return page
        if pages:
            return pages[0][1]
    return legacy.get(uuid_path, "")


def load_hierarchy(root: Schematic, root_file: str, open_sheet: OpenSheet,
                   max_sheets: int = 5000) -> list[SheetInstance]:
    """Every sheet instance of the design whose root is ``root`` (depth first, as KiCad
    lists them). ``open_sheet(parent_file, sheet_file)`` returns the child's file key
    and document; it raises ``FileNotFoundError`` (or a BoardwireError with code
    ``no-document``) for a missing file, which makes the instance ``missing``. A sheet
    that contains itself is cut where it recurs."""
    root_uuid = root.uuid or ""
    legacy = dict(root.sheet_instances)
    top = SheetInstance("/", "/", f"/{root_uuid}" if root_uuid else "", root_file, "",
                        legacy.get("/", "1"), root)
    out = [top]

    def walk(inst: SheetInstance, chain: tuple[str, ...]) -> None:
        for sheet in inst.doc.sheets:
            if len(out) >= max_sheets:
                return
            uid = sheet.uuid or ""
            name = sheet.name
            fname = sheet.file
            uuid_path = f"{inst.uuid_path}{uid}/"
            child = SheetInstance(
                f"{inst.path}{name}/", uuid_path, f"{inst.kiid_path}/{uid}",  # name unescaped, as KiCad
                fname, name, _sheet_page(sheet.node, inst.kiid_path, legacy, uuid_path),
                None, inst, uid, sheet.node)
            try:
                key, doc = open_sheet(inst.file, fname)
            except FileNotFoundError:
                key, doc = fname, None
            except Exception as e:  # a BoardwireError: keep the code visible upstream
                if getattr(e, "code", None) not in ("no-document", "unsupported-format",
                                                    "parse-error", "path-outside-workspace",
                                                    "wrong-kind"):
                    raise
                key, doc = fname, None
            child.file = key
            child.doc = doc
            child.missing = doc is None
            out.append(child)
            if doc is not None and key not in chain:
                walk(child, chain + (key,))

    walk(top, (root_file,))
    return out


def sheet_file_key(parent_file: str, sheet_file: str) -> str:
    """Where a sheet file named in ``parent_file`` is: relative to the parent's folder
    (KiCad resolves child sheets from the folder of the sheet that names them)."""
    name = sheet_file.replace("\\", "/")
    if posixpath.isabs(name):
        return posixpath.normpath(name)
    return posixpath.normpath(posixpath.join(posixpath.dirname(parent_file), name))


# -- symbols ---------------------------------------------------------------------------


@dataclass
class PlacedSymbol:
    """A symbol as placed on one sheet instance."""

    sheet: SheetInstance = field(repr=False)
    view: SymbolInstance = field(repr=False)
    reference: str
    unit: int
    lib: LibInfo | None = field(repr=False)

    in_netlist: bool = True  # in KiCad's netlist: on the board and not a "#" symbol

    @property
    def ref_with_unit(self) -> str:
        if self.lib is not None and self.lib.unit_count > 1:
            return self.reference + sub_reference(self.unit)
        return self.reference


@dataclass
class PinNode:
    """One pin of one placed symbol on one sheet instance, with the net it is on."""

    symbol: PlacedSymbol = field(repr=False)
    number: str
    name: str
    type: str
    at: Point
    hidden: bool
    net: Net | None = field(default=None, repr=False)

    @property
    def reference(self) -> str:
        return self.symbol.reference

    @property
    def label(self) -> str:
        return f"{self.symbol.reference}.{self.number}"

    @property
    def is_power(self) -> bool:
        """KiCad's IsGlobalPower: a power input that is hidden or on a power symbol."""
        lib = self.symbol.lib
        return self.type == "power_in" and (self.hidden or (lib is not None and lib.power))

    def power_net(self) -> str:
        """The global net a power pin names: a power symbol's Value, else the pin name.
        KiCad rewrites the Value of power symbols in files older than format 20230221
        to their pin name on load (FixLegacyPowerSymbolMismatches), so there the pin
        name wins."""
        lib = self.symbol.lib
        doc = self.symbol.view.doc
        if lib is not None and lib.power and (doc.version or 0) >= LEGACY_POWER_FIX:
            return escape_netname(self.symbol.view.value)
        return escape_netname(self.name)


@dataclass
class LabelNode:
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


def natural_key(s: str):
    """Sort key that orders R2 before R10 (KiCad's reference order)."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def _resolve_reference(sym: SymbolInstance, inst: SheetInstance,
                       legacy: dict[str, dict]) -> tuple[str, int]:
    """Reference and unit of a symbol on a sheet instance: KiCad 7+ ``instances``, else
    the root's KiCad 6 ``symbol_instances`` table, else the Reference field."""
    unit = sym.unit
    inst_node = sym.child("instances")
    if inst_node is not None:
        for project in inst_node.lists("project"):
            for p in project.lists("path"):
                vals = p.atoms()
                if vals and atoms.text(vals[0]) == inst.kiid_path:
                    ref = _text(p, "reference")
                    u = _text(p, "unit")
                    return (ref if ref is not None else sym.reference,
                            int(u) if u and u.lstrip("-").isdigit() else unit)
    if legacy:
        row = legacy.get(f"{inst.uuid_path}{sym.uuid}")
        if row is not None:
            u = row.get("unit")
            return row.get("reference", sym.reference), int(u) if u and u.isdigit() else unit
    return sym.reference, unit


# -- geometry of one sheet file --------------------------------------------------------


class _UF:
    __slots__ = ("parent",)

    def __init__(self) -> None:
        self.parent: dict = {}

    def find(self, x):
        parent = self.parent
        root = x
        while True:
            p = parent.get(root)
            if p is None:
                parent[root] = root
                break
            if p == root:
                break
            root = p
        while x != root:
            nxt = parent[x]
            parent[x] = root
            x = nxt
        return root

    def union(self, a, b) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


def _points(node: SList) -> list[Point]:
    pts = node.find("pts")
    if pts is None:
        return []
    return [(atoms.to_nm(v[0]), atoms.to_nm(v[1])) for v in (xy.atoms() for xy in pts.lists("xy"))]


def _at(node: SList) -> Point:
    c = node.find("at")
    vals = c.atoms() if c is not None else []
    return (atoms.to_nm(vals[0]), atoms.to_nm(vals[1])) if len(vals) >= 2 else (0, 0)


@dataclass
class SheetGeometry:
    """The wires (and, apart, the buses) of one sheet file joined into groups; the same
    for every instance of the file.

    ``group(p)`` is the wire group of a connection point, ``bus_group(p)`` its bus
    group; a point on no wire (bus) is a group of its own."""

    uf: _UF
    labels: list[tuple[str, str, Point, str | None]]  # kind, text, at, uuid
    no_connects: list[Point]
    sheets: list[tuple[SList, list[tuple[str, Point, str]]]]  # node, [(name, at, shape)]
    symbols: list[SymbolInstance]

    def group(self, p: Point):
        return self.uf.find(("p", p))

    def bus_group(self, p: Point):
        return self.uf.find(("bp", p))


def _join_segments(uf: _UF, segs: list[tuple[Point, Point]], seg_tag: str, pt_tag: str,
                   inner: list[Point]) -> None:
    """Join segments that share an end, and the points of ``inner`` (junctions, labels)
    with every segment they lie on, end or middle."""
    horiz: dict[int, list[tuple[int, int, int]]] = {}
    vert: dict[int, list[tuple[int, int, int]]] = {}
    other: list[int] = []
    for i, (a, b) in enumerate(segs):
        uf.union((pt_tag, a), (seg_tag, i))
        uf.union((pt_tag, b), (seg_tag, i))
        if a[1] == b[1]:
            horiz.setdefault(a[1], []).append((min(a[0], b[0]), max(a[0], b[0]), i))
        elif a[0] == b[0]:
            vert.setdefault(a[0], []).append((min(a[1], b[1]), max(a[1], b[1]), i))
        else:
            other.append(i)
    for p in set(inner):
        x, y = p
        for lo, hi, i in horiz.get(y, ()):
            if lo < x < hi:
                uf.union((pt_tag, p), (seg_tag, i))
        for lo, hi, i in vert.get(x, ()):
            if lo < y < hi:
                uf.union((pt_tag, p), (seg_tag, i))
        for i in other:
            a, b = segs[i]
            if (min(a[0], b[0]) <= x <= max(a[0], b[0]) and min(a[1], b[1]) <= y <= max(a[1], b[1])
                    and (b[0] - a[0]) * (y - a[1]) == (b[1] - a[1]) * (x - a[0])):
                uf.union((pt_tag, p), (seg_tag, i))


def sheet_geometry(doc: Schematic, aliases: dict[str, list[str]] | None = None) -> SheetGeometry:
    """Read one sheet file's wires, buses, labels, junctions, sheets and symbols."""
    uf = _UF()
    wires: list[tuple[Point, Point]] = []
    buses: list[tuple[Point, Point]] = []
    labels, ncs, sheets, symbols, junctions = [], [], [], [], []
    for kid in doc.root.kids:
        if type(kid) is not SList:
            continue
        head = kid.head
        if head in ("wire", "bus"):
            pts = _points(kid)
            (wires if head == "wire" else buses).extend(zip(pts, pts[1:]))
        elif head in ("label", "global_label", "hierarchical_label"):
            vals = kid.atoms()
            labels.append((head, atoms.text(vals[0]) if vals else "", _at(kid),
                           _text(kid, "uuid") or _text(kid, "tstamp")))
        elif head == "junction":
            junctions.append(_at(kid))
        elif head == "no_connect":
            ncs.append(_at(kid))
        elif head == "sheet":
            pins = []
            for p in kid.lists("pin"):
                vals = p.atoms()
                pins.append((atoms.text(vals[0]) if vals else "", _at(p),
                             atoms.text(vals[1]) if len(vals) > 1 else ""))
            sheets.append((kid, pins))
        elif head == "symbol":
            symbols.append(SymbolInstance(doc, kid))
    net_labels = [lab[2] for lab in labels if not is_bus_name(lab[1], aliases)]
    bus_labels = [lab[2] for lab in labels if is_bus_name(lab[1], aliases)]
    # a junction or a label on the middle of a wire (bus) connects to it
    _join_segments(uf, wires, "w", "p", junctions + net_labels)
    _join_segments(uf, buses, "b", "bp", junctions + bus_labels)
    return SheetGeometry(uf, labels, ncs, sheets, symbols)


def bus_aliases(docs) -> dict[str, list[str]]:
    """``(bus_alias "NAME" (members ...))`` of every sheet (KiCad pools them)."""
    out: dict[str, list[str]] = {}
    for doc in docs:
        for a in doc.root.lists("bus_alias"):
            vals = a.atoms()
            members = a.find("members")
            if vals and members is not None:
                out[atoms.text(vals[0])] = [atoms.text(m) for m in members.atoms()]
    return out


# -- the whole design ------------------------------------------------------------------


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


def _pin_net_name(pin: PinNode, force_nc: bool, pins_of_symbol: list[PinNode]) -> str:
    """KiCad's SCH_PIN::GetDefaultNetName."""
    sym = pin.symbol
    unconnected = force_nc or pin.type == "no_connect"
    prefix = "unconnected-(" if unconnected else "Net-("
    shown_name = "" if pin.name == "~" else pin.name
    if sym.reference.endswith("?"):
        return f"{prefix}{sym.view.uuid}-Pad{pin.number})"
    if shown_name and shown_name != pin.number:
        multiple = pin.type != "no_connect" and any(
            (("" if o.name == "~" else o.name) == shown_name and o.number != pin.number)
            for o in pins_of_symbol)
        name = f"{prefix}{sym.ref_with_unit}-{escape_netname(shown_name)}"
        if unconnected or multiple:
            name += f"-Pad{escape_netname(pin.number)}"
        return name + ")"
    return f"{prefix}{sym.reference}-Pad{escape_netname(pin.number)})"


def schematic_connectivity(root: Schematic, root_file: str = "",
                           open_sheet: OpenSheet | None = None) -> SchematicConnectivity:
    """Nets of the design rooted at ``root``; ``open_sheet`` opens child sheets (see
    `load_hierarchy`; without it only the root sheet is read)."""
    if open_sheet is None:
        def open_sheet(parent: str, name: str):  # noqa: F811
            raise FileNotFoundError(name)
    sheets = load_hierarchy(root, root_file, open_sheet)
    legacy = {row["path"]: row for row in root.symbol_instances}
    aliases = bus_aliases({id(s.doc): s.doc for s in sheets if s.doc is not None}.values())
    geo_cache: dict[int, SheetGeometry] = {}
    lib_cache: dict[tuple[int, str], LibInfo | None] = {}
    table_cache: dict[int, dict[str, SList]] = {}

    uf = _UF()
    symbols: list[PlacedSymbol] = []
    pins: list[PinNode] = []
    labels: list[LabelNode] = []
    # (priority, node key, name, depth, item) driver candidates
    drivers: list[tuple[int, object, str, int, object]] = []
    nc_groups: list = []
    hier_buses: dict[tuple[int, str], list] = {}  # (instance, name) -> bus groups
    bus_links: list[tuple[object, int, str, list]] = []  # bus sheet pins to follow down
    child_of: dict[tuple[int, int], int] = {}
    index_of = {id(s): i for i, s in enumerate(sheets)}
    for i, s in enumerate(sheets):
        if s.parent is not None and s.sheet_node is not None:
            child_of[(index_of[id(s.parent)], id(s.sheet_node))] = i

    for i, inst in enumerate(sheets):
        doc = inst.doc
        if doc is None:
            continue
        geo = geo_cache.get(id(doc))
        if geo is None:
            geo = geo_cache[id(doc)] = sheet_geometry(doc, aliases)
        table = table_cache.get(id(doc))
        if table is None:
            table = {}
            lt = doc.root.find("lib_symbols")
            for s in (lt.lists("symbol") if lt is not None else ()):
                if s.atoms():
                    table[atoms.text(s.atoms()[0])] = s
            table_cache[id(doc)] = table

        def node(p: Point, _i=i, _geo=geo):
            return ("c", _i, _geo.group(p))

        depth = inst.depth
        buses: dict = {}  # bus group -> [(priority, name, members)]
        for kind, text, at, uid in geo.labels:
            members = bus_members(text, aliases)
            lab = LabelNode(inst, kind, text, at, uid, members is not None)
            labels.append(lab)
            prio = {"global_label": GLOBAL, "hierarchical_label": HIER_LABEL}.get(kind, LOCAL_LABEL)
            if members is not None:
                gid = lab.key = ("cb", i, geo.bus_group(at))
                buses.setdefault(gid, []).append((prio, text, members))
                if kind == "hierarchical_label":
                    hier_buses.setdefault((i, text), []).append(gid)
                continue
            n = lab.key = node(at)
            name = escape_netname(text)  # "A/B" and "A{slash}B" are one net
            uf.union(n, ("L", i, name))
            if kind == "global_label":
                uf.union(n, ("G", name))
                drivers.append((GLOBAL, n, name, depth, lab))
            elif kind == "hierarchical_label":
                uf.union(n, ("H", i, name))
                drivers.append((HIER_LABEL, n, inst.path + name, depth, lab))
            else:
                drivers.append((LOCAL_LABEL, n, inst.path + name, depth, lab))
        for p in geo.no_connects:
            nc_groups.append(node(p))
        for sheet_node, spins in geo.sheets:
            child = child_of.get((i, id(sheet_node)))
            for name, at, shape in spins:
                members = bus_members(name, aliases)
                lab = LabelNode(inst, "sheet_pin", name, at, None, members is not None)
                labels.append(lab)
                if members is not None:
                    gid = lab.key = ("cb", i, geo.bus_group(at))
                    buses.setdefault(gid, []).append((SHEET_PIN, name, members))
                    if child is not None:
                        bus_links.append((gid, child, name, members))
                    continue
                n = lab.key = node(at)
                if child is not None:
                    uf.union(n, ("H", child, escape_netname(name)))
                drivers.append((SHEET_PIN, n, inst.path + escape_netname(name), depth,
                                (lab, shape)))
        # a bus's members are the nets its driving label names on this sheet
        for gid, items in buses.items():
            prio, _, members = min(items, key=lambda t: (-t[0], t[1]))
            for key, member in members:
                if "{" in member:
                    continue  # KiCad 9 links no member with markup (~{RESET}) through a bus
                name = escape_netname(member)
                uf.union(("BM", gid, key), ("L", i, name))
                if prio == GLOBAL:
                    uf.union(("BM", gid, key), ("G", name))
        for sym in geo.symbols:
            ref, unit = _resolve_reference(sym, inst, legacy)
            lib_key = sym.text_of("lib_name") or sym.lib_id
            info = lib_cache.get((id(doc), lib_key), False)
            if info is False:
                info = lib_cache[(id(doc), lib_key)] = lib_info(table, lib_key)
            placed = PlacedSymbol(inst, sym, ref, unit, info,
                                  not ref.startswith("#") and sym.on_board)
            symbols.append(placed)
            if info is None:
                continue
            body = 1
            for head in ("convert", "body_style"):
                v = sym.values(head)
                if v and v[0].isdigit():
                    body = int(v[0])
            t = symbol_transform(sym.orientation, sym.mirror)
            at = sym.position
            mine = []
            for lp in info.pins_of(unit, body):
                world = pin_world(at, t, lp.at)
                pn = PinNode(placed, lp.number, lp.name, lp.type, world, lp.hidden)
                mine.append(pn)
                if pn.type == "no_connect":
                    continue  # a no-connect pin connects to nothing
                n = node(world)
                uf.union(("pin", id(pn)), n)
                if pn.is_power:
                    name = pn.power_net()
                    uf.union(n, ("G", name))
                    uf.union(n, ("L", i, name))
                    drivers.append((POWER_PIN, n, name, depth, pn))
            pins.extend(mine)
            by_number: dict[str, list[PinNode]] = {}
            for pn in mine:
                by_number.setdefault(pn.number, []).append(pn)
            if info.duplicate_jumpers:
                for group in by_number.values():
                    for other in group[1:]:
                        uf.union(("pin", id(group[0])), ("pin", id(other)))
            for group in info.jumper_groups:
                members = [pn for num in group for pn in by_number.get(num, ())]
                for other in members[1:]:
                    uf.union(("pin", id(members[0])), ("pin", id(other)))
            placed_pins = mine
            for pn in placed_pins:
                if not pn.is_power and placed.in_netlist:
                    drivers.append((PIN, ("pin", id(pn)), "", depth, (pn, placed_pins)))

    # bus sheet pins join the members of the sheet's hierarchical bus labels
    for gid, child, name, members in bus_links:
        for child_gid in hier_buses.get((child, name), ()):
            for key, _ in members:
                uf.union(("BM", gid, key), ("BM", child_gid, key))

    # group pins into nets
    groups: dict = {}
    for pn in pins:
        groups.setdefault(uf.find(("pin", id(pn))), []).append(pn)
    nc_roots = {uf.find(n) for n in nc_groups}
    listed = {k: sum(1 for p in v if p.symbol.in_netlist) for k, v in groups.items()}
    best: dict = {}
    for prio, key, name, depth, item in drivers:
        root_key = uf.find(key)
        if root_key not in groups:
            continue
        if prio == PIN:
            pn, siblings = item
            single = listed[root_key] == 1
            name = _pin_net_name(pn, root_key in nc_roots or single, siblings)
            low = "-Pad" in name
            rank = (0, 0, prio, -depth, 1 if low else 0)
        else:
            strong = prio >= HIER_LABEL
            rank = (1 if prio >= POWER_PIN else 0, 1 if strong else 0, prio, -depth, 0)
            if prio == SHEET_PIN and item[1] == "output":
                rank = rank[:4] + (-1,)
        cur = best.get(root_key)
        cand = (rank, name)
        if cur is None or _better(cand, cur):
            best[root_key] = cand
    nets: list[Net] = []
    for root_key, members in groups.items():
        name = best.get(root_key, ((), ""))[1]
        net = Net(0, name, members, no_connect=root_key in nc_roots)
        for pn in members:
            pn.net = net
        nets.append(net)
    by_root = {uf.find(("pin", id(n.pins[0]))): n for n in nets}
    for lab in labels:
        if lab.key is not None:
            lab.net = by_root.get(uf.find(lab.key))
            if lab.net is not None:
                lab.net.labels.append(lab)
    nets.sort(key=lambda n: (n.name == "", natural_key(n.name)))
    for code, net in enumerate(nets, 1):
        net.code = code
    return SchematicConnectivity(sheets, symbols, pins, labels, nets)


def _better(a, b) -> bool:
    """Is driver ``a`` = (rank, name) better than ``b``? Higher rank, then smaller name."""
    if a[0] != b[0]:
        # within a rank tuple, the last element is a tie-break where lower is better
        if a[0][:4] != b[0][:4]:
            return a[0][:4] > b[0][:4]
        return a[0][4] < b[0][4]
    return a[1] < b[1]
