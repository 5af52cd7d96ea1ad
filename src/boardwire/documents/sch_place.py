"""Placing and editing symbols on a schematic sheet the way KiCad 9's eeschema does.

Format reference: KiCad's "Schematic File Format" page
(dev-docs.kicad.org/en/file-formats/sexpr-schematic/): the ``lib_symbols`` section,
the ``symbol`` section (``lib_id``, ``at``, ``mirror``, ``unit``, ``exclude_from_sim``,
``in_bom``, ``on_board``, ``dnp``, ``uuid``, ``property``, ``pin``, ``instances``), and
the ``sheet`` section; the writer is ``SCH_IO_KICAD_SEXPR::saveSymbol``.

Measured on the KiCad 9 demos (/usr/share/kicad/demos):

* A ``lib_symbols`` entry is the library definition byte for byte, renamed
  ``"Lib:Name"`` (unit sub-symbols keep their short names ``Name_U_B``), in name order.
  A derived symbol (``extends``) is flattened: the parent's units and flags with the
  child's fields, sub-symbols renamed after the child.
* A placed symbol writes ``(at x y angle)`` with the angle always present, then
  ``(mirror x|y)`` when mirrored, ``(unit N)``, the library's ``exclude_from_sim``,
  ``in_bom``, ``on_board``, ``(dnp no)``, its uuid, its fields, one ``(pin "N" (uuid))``
  per library pin of its body style (every unit: the list is shared by the units), and
  ``(instances (project "NAME" (path "/root-uuid[/sheet-uuid...]" (reference ..)
  (unit N))))`` with one path per instance of the sheet file in the hierarchy.
* Field positions in the file are on the sheet: the library position (y up) through
  the symbol's transform (`sch_connectivity.symbol_transform`), plus ``at``; field text
  angles and justification stay the library's (KiCad applies the symbol's transform
  when drawing). Rotating or mirroring a placed symbol moves its fields with it
  (``SCH_FIELD::GetPosition`` is the field's unrotated offset through the transform).
* Of the eight rotation/mirror combinations KiCad writes only 0/90/180/270, ``mirror x``
  at 0, 90 and 270, and ``mirror y`` at 0 (``SCH_SYMBOL::GetOrientation`` returns the
  first match); `canonical_orientation` gives that form.

Coordinates are integer nanometres, angles degrees. No token newer than the file's
format version is written: library definitions lose ``embedded_fonts`` (KiCad 9,
schematic format 20240620) in older files, and the ``(hide yes)`` of pins, ``pin_names``
and ``pin_numbers`` becomes the bare ``hide`` of formats before 20241004 (KiCad 8; text
effects already wrote ``(hide yes)``, as KiCad 8 files in ../shared/corpus show).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .sch_symbols import lib_info, pin_world, symbol_transform
from ..errors import InvalidArgs
from ..sexpr import atoms
from ..sexpr.atoms import mm, quote
from ..sexpr.node import SList
from .ids import new_uuid
from .placement import _strip_ws
from .schematic import Schematic, SymbolInstance
from .sexpr_doc import make
from .views import Point

EMBEDDED_FONTS = 20240620  # sch_file_versions.h: "Embedded Files"
BOOLEAN_HIDE = 20241004  # sch_file_versions.h: "Use booleans for 'hide' in symbols"
_BARE_HIDE = ("pin", "pin_names", "pin_numbers")  # text effects had (hide yes) already in KiCad 8

Transform = tuple[int, int, int, int]

# (angle, mirror) in the order KiCad's GetOrientation tries them, restricted to the forms
# its files hold (0/90/180/270, mirror x at 0/90/270, mirror y at 0).
_CANONICAL = [(0, None), (90, None), (180, None), (270, None), (0, "x"), (90, "x"),
              (270, "x"), (0, "y")]


def canonical_orientation(angle: float, mirror: str | None) -> tuple[int, str | None]:
    """The (angle, mirror) KiCad writes for a symbol turned ``angle`` degrees (a
    multiple of 90) and mirrored about ``mirror`` ("x", "y" or None)."""
    t = symbol_transform(angle, mirror)
    for a, m in _CANONICAL:
        if symbol_transform(a, m) == t:
            return a, m
    raise AssertionError("unreachable: the eight orientations cover the group")


def orientation_of(t: Transform) -> tuple[int, str | None]:
    for a, m in _CANONICAL:
        if symbol_transform(a, m) == t:
            return a, m
    raise AssertionError(f"not a symbol transform: {t}")


def _apply(t: Transform, v: Point) -> Point:
    x1, y1, x2, y2 = t
    return (x1 * v[0] + y1 * v[1], x2 * v[0] + y2 * v[1])


def _inverse(t: Transform) -> Transform:
    x1, y1, x2, y2 = t  # orthogonal: the inverse is the transpose
    return (x1, x2, y1, y2)


# -- library definitions ---------------------------------------------------------------


def _short(name: str) -> str:
    return name.split(":", 1)[1] if ":" in name else name


def flatten(node: SList, parents: list[SList]) -> SList:
    """A library symbol with its ``extends`` chain resolved (``parents``: the parent,
    its parent...): KiCad's LIB_SYMBOL::Flatten. The result has no whitespace."""
    node = _strip_ws(node)
    if not parents:
        return node
    base = flatten(parents[0], parents[1:])
    name = atoms.text(node.atoms()[0])
    base_name = atoms.text(base.atoms()[0])
    own = {atoms.text(p.atoms()[0]): p for p in node.lists("property") if p.atoms()}
    kids: list = [b"symbol", quote(name)]
    used = set()
    for k in base.kids[2:]:
        if type(k) is not SList:
            kids.append(k)
            continue
        if k.head == "property":
            pname = atoms.text(k.atoms()[0])
            if pname in own:
                kids.append(own[pname])
                used.add(pname)
                continue
        elif k.head == "symbol":  # a unit: renamed after the derived symbol
            sub = atoms.text(k.atoms()[0])
            if sub.startswith(_short(base_name) + "_"):
                sub = _short(name) + sub[len(_short(base_name)):]
            k.kids[1] = quote(sub)
        elif k.head in ("extends",):
            continue
        elif node.find(k.head) is not None and k.head not in ("pin", "embedded_fonts"):
            k = node.find(k.head)  # the derived symbol's own flag wins
        kids.append(k)
    # fields only the derived symbol has go after the parent's
    last = max((i for i, k in enumerate(kids) if type(k) is SList and k.head == "property"), default=len(kids) - 1)
    extra = [p for n, p in own.items() if n not in used]
    kids[last + 1:last + 1] = extra
    out = SList(kids)
    for k in kids:
        if type(k) is SList:
            k.parent = out
    return out


def _downgrade(node: SList, version: int) -> SList:
    """Drop tokens newer than ``version`` from a definition or item about to be written."""
    if version >= BOOLEAN_HIDE and version >= EMBEDDED_FONTS:
        return node
    out: list = []
    for k in node.kids:
        if type(k) is SList:
            if k.head == "embedded_fonts" and version < EMBEDDED_FONTS:
                continue
            if k.head == "hide" and version < BOOLEAN_HIDE and node.head in _BARE_HIDE:
                vals = k.atoms()
                if not vals or vals[0] == b"yes":
                    out.append(b"hide")
                continue
            k = _downgrade(k, version)
            k.parent = None
        out.append(k)
    new = SList(out)
    for k in out:
        if type(k) is SList:
            k.parent = new
    return new


def library_entry(node: SList, parents: list[SList], lib_id: str, version: int) -> SList:
    """The ``lib_symbols`` entry for library symbol ``node`` placed as ``lib_id``."""
    flat = flatten(node, parents)
    flat.kids[1] = quote(lib_id)
    return _downgrade(flat, version)


def lib_symbols_table(doc: Schematic) -> SList:
    table = doc.root.find("lib_symbols")
    if table is None:
        anchor = None
        for i, k in enumerate(doc.root.kids):
            if type(k) is SList and k.head in ("version", "generator", "generator_version",
                                                "uuid", "paper", "title_block"):
                anchor = i + 1
        table = doc.insert(doc.root, make("lib_symbols"), anchor)
    return table


def ensure_library_symbol(doc: Schematic, lib_id: str, entry: SList) -> tuple[SList, bool]:
    """The ``lib_symbols`` entry named ``lib_id``, added (in name order, as KiCad keeps
    them) from ``entry`` when missing. Returns (entry, added)."""
    table = lib_symbols_table(doc)
    index = None
    for i, k in enumerate(table.kids):
        if type(k) is SList and k.head == "symbol" and k.atoms():
            name = atoms.text(k.atoms()[0])
            if name == lib_id:
                return k, False
            if index is None and name > lib_id:
                index = i
    return doc.insert(table, entry, index), True


def library_symbol(doc: Schematic, lib_id: str) -> SList | None:
    table = doc.root.find("lib_symbols")
    for k in (table.lists("symbol") if table is not None else ()):
        if k.atoms() and atoms.text(k.atoms()[0]) == lib_id:
            return k
    return None


# -- placed symbols ---------------------------------------------------------------------


def _flag_value(entry: SList, name: str, default: bytes) -> bytes:
    c = entry.find(name)
    if c is not None and c.atoms():
        return c.atoms()[0]
    return default


def _set_at(node: SList, at: Point, angle_atom: bytes | None) -> None:
    old = node.find("at")
    kids = [b"at", mm(at[0]), mm(at[1])] + ([angle_atom] if angle_atom is not None else [])
    new = SList(kids)
    new.parent = node
    node.kids[node.kids.index(old)] = new


@dataclass
class Placement:
    lib_id: str
    at: Point
    angle: int = 0
    mirror: str | None = None
    unit: int = 1
    reference: str = ""
    value: str | None = None
    footprint: str | None = None
    fields: dict[str, str] = field(default_factory=dict)
    project: str = ""
    paths: list[str] = field(default_factory=list)  # sheet-instance kiid paths


def placed_symbol(doc: Schematic, entry: SList, p: Placement, uid: str | None = None) -> SList:
    """The ``(symbol ...)`` list eeschema 9 writes for a symbol placed from ``entry``
    (a ``lib_symbols`` definition)."""
    version = doc.version or 0
    t = symbol_transform(p.angle, p.mirror)
    props = []
    names = []
    for prop in entry.lists("property"):
        vals = prop.atoms()
        name = atoms.text(vals[0]) if vals else ""
        if name.startswith("ki_"):
            continue  # keywords and footprint filters stay in the library definition
        node = _strip_ws(prop)
        value = {"Reference": p.reference, "Value": p.value,
                 "Footprint": p.footprint}.get(name)
        if name in p.fields:
            value = p.fields[name]
        if value is not None:
            node.kids[node.kids.index(node.atoms()[1])] = quote(value)
        at = node.find("at")
        if at is not None:
            xy = at.atoms()
            world = pin_world(p.at, t, (atoms.to_nm(xy[0]), atoms.to_nm(xy[1])))
            _set_at(node, world, xy[2] if len(xy) > 2 else b"0")
        props.append(node)
        names.append(name)
    for name, value in p.fields.items():
        if name not in names:  # a field the library does not have: hidden, at the anchor
            props.append(make("property", quote(name), quote(value),
                              make("at", mm(p.at[0]), mm(p.at[1]), b"0"),
                              make("effects", make("font", make("size", b"1.27", b"1.27")),
                                   make("hide", b"yes"))))
    info = lib_info({p.lib_id: entry}, p.lib_id)
    pins = []
    for lp in (info.pins if info is not None else []):
        if lp.body in (0, 1):
            pins.append(make("pin", quote(lp.number), make("uuid", quote(new_uuid()))))
    ref_paths = [make("path", quote(path), make("reference", quote(p.reference)),
                      make("unit", str(p.unit).encode())) for path in p.paths]
    instances = make("instances", make("project", quote(p.project), *ref_paths)) if ref_paths else None
    node = make("symbol",
                make("lib_id", quote(p.lib_id)),
                make("at", mm(p.at[0]), mm(p.at[1]), str(p.angle).encode()),
                make("mirror", p.mirror.encode()) if p.mirror else None,
                make("unit", str(p.unit).encode()),
                make("exclude_from_sim", _flag_value(entry, "exclude_from_sim", b"no")),
                make("in_bom", _flag_value(entry, "in_bom", b"yes")),
                make("on_board", _flag_value(entry, "on_board", b"yes")),
                make("dnp", b"no"),
                make("uuid", quote(uid or new_uuid())),
                *props, *pins, instances)
    return _downgrade(node, version)


def reorient(doc: Schematic, sym: SymbolInstance, angle: int, mirror: str | None) -> None:
    """Set a placed symbol's orientation (canonical form), moving its fields with it as
    KiCad does (their unrotated offsets stay; text angles stay)."""
    angle, mirror = canonical_orientation(angle, mirror)
    old_t = symbol_transform(sym.orientation, sym.mirror)
    new_t = symbol_transform(angle, mirror)
    at = sym.position
    node = sym.node
    at_node = node.find("at")
    doc.set_atoms(at_node, [mm(at[0]), mm(at[1]), str(angle).encode()])
    m = node.find("mirror")
    if mirror is None and m is not None:
        doc.remove(m)
    elif mirror is not None and m is not None:
        doc.set_atoms(m, [mirror.encode()])
    elif mirror is not None:
        doc.insert(node, make("mirror", mirror.encode()), node.index(node.find("at")) + 1)
    inv = _inverse(old_t)
    for prop in node.lists("property"):
        pa = prop.find("at")
        if pa is None:
            continue
        vals = pa.atoms()
        rel = (atoms.to_nm(vals[0]) - at[0], atoms.to_nm(vals[1]) - at[1])
        new = _apply(new_t, _apply(inv, rel))
        if new != rel:
            doc.set_atoms(pa, [mm(at[0] + new[0]), mm(at[1] + new[1])] + vals[2:])


def translate(doc: Schematic, node: SList, dx: int, dy: int) -> None:
    """Move an item (symbol with its fields, wire, label with its fields, junction, no
    connect, sheet with its pins and fields) by (dx, dy) nm."""
    def shift(n: SList) -> None:
        vals = n.atoms()
        doc.set_atoms(n, [mm(atoms.to_nm(vals[0]) + dx), mm(atoms.to_nm(vals[1]) + dy)] + vals[2:])

    at = node.find("at")
    if at is not None:
        shift(at)
    pts = node.find("pts")
    if pts is not None:
        for xy in pts.lists("xy"):
            shift(xy)
    for sub in node.lists():
        if sub.head in ("property", "pin") and sub.find("at") is not None:
            shift(sub.find("at"))


# -- connection points of one sheet file --------------------------------------------------


@dataclass
class SheetPoints:
    """Where things connect on one sheet file (nm): pins (every placed unit), wire
    segments, labels, sheet pins, no-connect flags, junctions."""

    pins: dict[Point, list[str]]
    wires: list[tuple[Point, Point, SList]]
    labels: dict[Point, list[str]]
    sheet_pins: dict[Point, list[str]]
    no_connects: set[Point]
    junctions: set[Point]

    def what_is_at(self, p: Point, ignore: SList | None = None) -> list[str]:
        """What a wire end at ``p`` would connect to (empty: it would dangle)."""
        out = []
        out += [f"pin {x}" for x in self.pins.get(p, [])]
        out += [f"label {x}" for x in self.labels.get(p, [])]
        out += [f"sheet pin {x}" for x in self.sheet_pins.get(p, [])]
        if p in self.no_connects:
            out.append("no-connect")
        if p in self.junctions:
            out.append("junction")
        for a, b, node in self.wires:
            if node is ignore:
                continue
            if p in (a, b):
                out.append("wire end")
            elif on_segment(p, a, b):
                out.append("wire")
        return out


def on_segment(p: Point, a: Point, b: Point) -> bool:
    if not (min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])):
        return False
    return (b[0] - a[0]) * (p[1] - a[1]) == (b[1] - a[1]) * (p[0] - a[0])


def symbol_pins(doc: Schematic, sym: SymbolInstance, table: dict[str, SList] | None = None) -> list[tuple[str, Point]]:
    """(pin number, sheet position) of the pins of a placed symbol's units (its own
    unit, and the units its instances give it)."""
    if table is None:
        lt = doc.root.find("lib_symbols")
        table = {atoms.text(s.atoms()[0]): s for s in (lt.lists("symbol") if lt is not None else ()) if s.atoms()}
    info = lib_info(table, sym.text_of("lib_name") or sym.lib_id)
    if info is None:
        return []
    units = {sym.unit}
    inst = sym.child("instances")
    for project in (inst.lists("project") if inst is not None else ()):
        for path in project.lists("path"):
            u = path.find("unit")
            if u is not None and u.atoms() and u.atoms()[0].isdigit():
                units.add(int(u.atoms()[0]))
    t = symbol_transform(sym.orientation, sym.mirror)
    out = []
    for unit in sorted(units):
        for lp in info.pins_of(unit, 1):
            if lp.type != "no_connect":
                out.append((lp.number, pin_world(sym.position, t, lp.at)))
    return out


def sheet_points(doc: Schematic) -> SheetPoints:
    lt = doc.root.find("lib_symbols")
    table = {atoms.text(s.atoms()[0]): s for s in (lt.lists("symbol") if lt is not None else ()) if s.atoms()}
    pins: dict[Point, list[str]] = {}
    for sym in doc.symbols:
        for number, p in symbol_pins(doc, sym, table):
            pins.setdefault(p, []).append(f"{sym.reference}.{number}")
    wires = []
    for w in doc.wires:
        pts = w.points
        for a, b in zip(pts, pts[1:]):
            wires.append((a, b, w.node))
    labels: dict[Point, list[str]] = {}
    for lab in doc.labels:
        labels.setdefault(lab.position, []).append(lab.text)
    sheet_pins: dict[Point, list[str]] = {}
    for sh in doc.sheets:
        for sp in sh.pins:
            sheet_pins.setdefault(sp.position, []).append(sp.name)
    return SheetPoints(pins, wires, labels, sheet_pins, {m.position for m in doc.no_connects},
                       {m.position for m in doc.junctions})


def junction_needed(pts: SheetPoints, p: Point) -> bool:
    """KiCad's SCH_SCREEN::IsExplicitJunctionNeeded for wires: three or more distinct
    directions leave ``p`` (wire ends and pins), or a wire passes through ``p`` and
    something else ends there."""
    if p in pts.junctions:
        return False
    exits: set = set()
    middle = False
    for a, b, _ in pts.wires:
        if p == a or p == b:
            o = b if p == a else a
            dx, dy = o[0] - p[0], o[1] - p[1]
            g = max(abs(dx), abs(dy)) or 1
            exits.add((round(dx / g, 6), round(dy / g, 6)))
        elif on_segment(p, a, b):
            middle = True
    unique = len(pts.pins.get(p, [])) + len(pts.sheet_pins.get(p, []))
    n = len(exits) + unique
    return n >= 3 or (middle and n >= 1)


def dangling_ends(doc: Schematic) -> dict[Point, list[SList]]:
    """Wire ends (nm) that connect to nothing, with the wires they belong to."""
    pts = sheet_points(doc)
    out: dict[Point, list[SList]] = {}
    for a, b, node in pts.wires:
        for p in (a, b):
            if not pts.what_is_at(p, ignore=node):
                out.setdefault(p, []).append(node)
    return out


def reference_prefix(reference: str) -> str:
    """``R12`` -> ``R``, ``#PWR?`` -> ``#PWR``, ``U3A`` stays ``U`` (unit letters are
    not stored)."""
    text = reference.rstrip("?")
    i = len(text)
    while i > 0 and text[i - 1].isdigit():
        i -= 1
    return text[:i]


def check_unit(info_units: int, unit: int, lib_id: str) -> None:
    if unit < 1 or unit > info_units:
        raise InvalidArgs(f"{lib_id} has {info_units} unit{'s' if info_units != 1 else ''}; unit {unit} does not exist",
                          errors=[{"loc": "unit", "msg": f"1..{info_units}", "type": "value"}])
