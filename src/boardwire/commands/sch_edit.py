"""sch.*: edits of a schematic. Each is one undo step; coordinates mm, angles degrees.

A command's ``path`` is a sheet file. Symbols are named by reference across the design
that sheet belongs to: its root is the schematic named after the ``.kicad_pro`` in the
same folder (else the sheet itself), and its child sheets are opened through the
session. In a design where one sheet file is placed more than once, a symbol has one
reference per sheet instance; ``sheet`` (an instance path such as ``/amp_left/``)
picks one where a reference is ambiguous. Fields other than the reference are stored
once in the file, so a change to one is shared by every instance (``shared_by``).

The document layer writes the items as KiCad 9 does (`documents.schematic`,
`documents.sch_place`); file-format reference: dev-docs.kicad.org/en/file-formats/
sexpr-schematic/. Schematics older than the KiCad 8 format are refused
(unsupported-format): KiCad 6/7 wrote these items with other tokens.
"""

from __future__ import annotations

import posixpath
from typing import Literal

from pydantic import Field, field_validator, model_validator

from ..netlist.schematic import PlacedSymbol, lib_info, sheet_file_key
from ..documents import sch_place as sp
from ..documents.ids import new_uuid
from ..documents.new_project import schematic_file
from ..documents.schematic import Schematic, SymbolInstance
from ..documents.sexpr_doc import make
from ..documents.versions import SCHEMATIC_RELEASES
from ..errors import InvalidArgs, NotFound, UnsupportedFormat
from ..registry import Context, command
from ..sexpr import atoms
from ..sexpr.atoms import quote
from ..sexpr.node import SList
from .common import Args, Coord, EditArgs, Name, Point, Result, mm_pt, nm, pt
from .sch_query import connectivity_of

UNITS = "mm, degrees"
Quarter = Literal[0, 90, 180, 270]
Mirror = Literal["none", "x", "y"]


# -- the design a sheet belongs to ----------------------------------------------------------


def _open(ctx: Context, path: str):
    od = ctx.session.get(path, "schematic", ctx.actor)
    if (od.doc.version or 0) < SCHEMATIC_RELEASES[8]:
        raise UnsupportedFormat(
            f"{od.path} is schematic format {od.doc.version} (older than KiCad 8); boardwire "
            "edits KiCad 8 and 9 schematics",
            hint="Open and save the schematic in KiCad 9 to upgrade it, then try again.")
    od.doc.check_editable()
    return od


def _root_of(ctx: Context, key: str) -> tuple[str, str]:
    """(root sheet key, project name) of the design the sheet ``key`` belongs to."""
    ws = ctx.session.workspace
    folder = posixpath.dirname(key)
    full = ws.resolve(folder or ".")
    for pro in sorted(full.glob("*.kicad_pro")):
        root = posixpath.join(folder, pro.stem + ".kicad_sch") if folder else pro.stem + ".kicad_sch"
        if (full / (pro.stem + ".kicad_sch")).is_file():
            return root, pro.stem
    return key, posixpath.splitext(posixpath.basename(key))[0]


def _design(ctx: Context, key: str):
    root, project = _root_of(ctx, key)
    conn = connectivity_of(ctx, root)
    return root, project, conn


def _instance_paths(conn, key: str) -> list[str]:
    """KiCad 7+ instance paths (``/root-uuid[/sheet-uuid...]``) of sheet file ``key``."""
    return [s.kiid_path for s in conn.sheets if s.file == key and s.doc is not None]


def _human_paths(conn, key: str) -> list[str]:
    return [s.path for s in conn.sheets if s.file == key and s.doc is not None]


def _find_symbol(ctx: Context, key: str, reference: str, sheet: str | None) -> tuple[PlacedSymbol, object]:
    """The placed symbol with ``reference`` (on instance ``sheet``) in the design of
    sheet ``key``; returns it and the open document of its file."""
    _, _, conn = _design(ctx, key)
    hits = [s for s in conn.symbols if s.reference == reference and (sheet is None or s.sheet.path == sheet)]
    if not hits:
        raise NotFound(f"no symbol {reference!r}" + (f" on sheet {sheet}" if sheet else "") + " in the design",
                       hint="List symbols with query.symbols (references are per sheet instance).")
    views = {id(s.view.node) for s in hits}
    if len(views) > 1:
        raise InvalidArgs(f"{reference} names {len(views)} symbols (on {', '.join(sorted({s.sheet.path for s in hits}))}); "
                          "give sheet", errors=[{"loc": "sheet", "msg": "ambiguous reference", "type": "value"}])
    s = hits[0]
    od = _open(ctx, s.sheet.file)
    return s, od


def _library(ctx: Context, key: str, lib_id: str) -> tuple[SList, list[SList]]:
    """The library definition of ``lib_id`` (through the sheet folder's sym-lib-table,
    the global table and KiCad's library variables) and its ``extends`` chain."""
    from .lib import _item, _symbol_node

    where = ctx.session.workspace.resolve(posixpath.dirname(key) or ".")
    path, item, items = _item("symbol", lib_id, where)
    node = _symbol_node(path, item)
    parents, chain, cur = [], [item.name], node
    while True:
        ext = cur.find("extends")
        if ext is None or not ext.atoms():
            break
        parent = items.get(atoms.text(ext.atoms()[0]))
        if parent is None or parent.name in chain:
            raise NotFound(f"{lib_id} extends {atoms.text(ext.atoms()[0])!r}, which is not in its library")
        chain.append(parent.name)
        cur = _symbol_node(path, parent)
        parents.append(cur)
    return node, parents


def _orientation(angle: int, mirror: str) -> tuple[int, str | None]:
    return sp.canonical_orientation(angle, None if mirror == "none" else mirror)


# -- placing symbols ----------------------------------------------------------------


class PlaceArgs(EditArgs):
    symbol: str = Field(pattern=r"^[^:/\\]+:[^:/\\]+$", max_length=500,
                        description="Library id Lib:Name, e.g. Device:R")
    at: Point = Field(description="Symbol anchor [x, y] mm")
    angle: Quarter = Field(0, description="Degrees, counter-clockwise")
    mirror: Mirror = Field("none", description="x: mirrored top-bottom (about the X axis); y: left-right")
    unit: int = Field(1, ge=1, le=1000)
    reference: str | None = Field(None, min_length=1, max_length=1000,
                                  description="Default: the library prefix and ?, e.g. R? (see sch.annotate)")
    value: str | None = Field(None, max_length=10000, description="Default: the library's value")
    footprint: str | None = Field(None, max_length=1000, pattern=r"^[^:/\\]+:[^:/\\]+$",
                                  description="Lib:Name of a footprint")
    fields: dict[str, str] = Field(default_factory=dict, max_length=100,
                                   description="Other fields; a new one is added hidden")

    @field_validator("fields")
    @classmethod
    def _other_fields(cls, v: dict[str, str]) -> dict[str, str]:
        # these have their own arguments (and checks); given twice they could disagree
        taken = sorted(k for k in v if k.lower() in ("reference", "value", "footprint"))
        if taken:
            raise ValueError(f"give {', '.join(taken)} as its own argument, not in fields")
        return v


def _place(ctx: Context, a: PlaceArgs, power: bool) -> dict:
    od = _open(ctx, a.path)
    doc: Schematic = od.doc
    node, parents = _library(ctx, od.path, a.symbol)
    entry = sp.library_entry(node, parents, a.symbol, doc.version or 0)
    info = lib_info({a.symbol: entry}, a.symbol)
    if info is None:
        raise NotFound(f"{a.symbol} could not be read from its library")
    if power and not info.power:
        raise InvalidArgs(f"{a.symbol} is not a power symbol; use sch.placeSymbol",
                          errors=[{"loc": "symbol", "msg": "not a power symbol", "type": "value"}])
    sp.check_unit(info.unit_count, a.unit, a.symbol)
    lib_fields = {atoms.text(p.atoms()[0]): atoms.text(p.atoms()[1]) for p in entry.lists("property")
                  if len(p.atoms()) >= 2}
    prefix = lib_fields.get("Reference", "U")
    reference = a.reference or prefix + "?"
    root, project, conn = _design(ctx, od.path)
    if a.reference and not reference.endswith("?"):
        # another unit of the same part may share the reference; anything else is a duplicate
        clash = [x for x in conn.symbols if x.reference == reference
                 and (x.view.lib_id != a.symbol or x.unit == a.unit or x.view.value != (a.value or x.view.value))]
        if clash:
            raise InvalidArgs(f"{reference} is already used (on {clash[0].sheet.path})",
                              errors=[{"loc": "reference", "msg": "reference exists", "type": "value"}],
                              hint="Leave reference out (PREFIX?) and run sch.annotate, or pick a free one")
    paths = _instance_paths(conn, od.path) or ([f"/{doc.uuid}"] if doc.uuid else [])
    angle, mirror = _orientation(a.angle, a.mirror)
    placement = sp.Placement(a.symbol, pt(a.at), angle, mirror, a.unit, reference, a.value,
                             a.footprint, dict(a.fields), project, paths)
    _, added = sp.ensure_library_symbol(doc, a.symbol, entry)
    new = sp.placed_symbol(doc, entry, placement)
    placed = doc._place(new, ("symbol",))
    view = SymbolInstance(doc, placed)
    pins = [{"number": n, "at": mm_pt(p)} for n, p in sp.symbol_pins(doc, view)]
    ctx.created(view.uuid)
    out = {"summary": f"placed {reference} ({a.symbol}) at {a.at}"
                      + (f", {angle}°" if angle else "") + (f", mirror {mirror}" if mirror else "")
                      + ("" if added else f"; {a.symbol} was already in lib_symbols"),
           "id": view.uuid, "reference": reference, "value": view.value, "angle": angle,
           "mirror": mirror or "none", "pins": pins, "instances": _human_paths(conn, od.path) or ["/"]}
    return out


@command("sch.placeSymbol", kind="edit", args=PlaceArgs, result=Result, units=UNITS,
         examples=({"path": "board.kicad_sch", "symbol": "Device:R", "at": [101.6, 50.8], "angle": 90,
                    "value": "10k", "footprint": "Resistor_SMD:R_0603_1608Metric"},))
def place_symbol(ctx: Context, a: PlaceArgs) -> dict:
    """Place a library symbol (found through sym-lib-table and KiCad's library variables; its definition copied into lib_symbols, flattened if it extends another) as KiCad 9 places it: fields moved with the symbol, one pin entry per library pin, one instance path per placement of this sheet file (reference default PREFIX?, e.g. R?). angle is 0/90/180/270 counter-clockwise; mirror x flips top-bottom, y left-right. Returns the pins' positions (mm). Errors: not-found for an unknown library or symbol; invalid-args for a unit the symbol lacks or a reference in use; unsupported-format for a schematic older than KiCad 8."""
    return _place(ctx, a, power=False)


class PowerArgs(EditArgs):
    symbol: str = Field("power:GND", pattern=r"^[^:/\\]+:[^:/\\]+$", max_length=500,
                        description="A power symbol, e.g. power:GND, power:+3V3")
    at: Point
    angle: Quarter = 0
    mirror: Mirror = "none"
    reference: str | None = Field(None, min_length=1, max_length=1000, description="Default #PWR?")
    value: str | None = Field(None, max_length=1000, description="The net name; default the library's")


@command("sch.power", kind="edit", args=PowerArgs, result=Result, units=UNITS,
         examples=({"path": "board.kicad_sch", "symbol": "power:+3V3", "at": [101.6, 40.64]},))
def power(ctx: Context, a: PowerArgs) -> dict:
    """Place a power symbol (power:GND, power:+3V3...): its pin joins the global net named by its value. Errors as sch.placeSymbol; invalid-args for a symbol that is not a power symbol."""
    args = PlaceArgs(path=a.path, revision=a.revision, symbol=a.symbol, at=a.at, angle=a.angle,
                     mirror=a.mirror, reference=a.reference, value=a.value)
    return _place(ctx, args, power=True)


# -- wires, labels, junctions, no-connects ----------------------------------------------------


def _break_wires_at(doc: Schematic, p) -> int:
    """Split every two-point wire that passes through ``p`` there (KiCad's
    BreakSegments): the wire keeps its start, a new wire runs from ``p`` to its end."""
    n = 0
    for w in list(doc.wires):
        pts = w.points
        if len(pts) != 2 or p in pts or not sp.on_segment(p, pts[0], pts[1]):
            continue
        xys = list(w.node.find("pts").lists("xy"))
        doc.set_atoms(xys[1], [atoms.mm(p[0]), atoms.mm(p[1])])
        new = doc.add_wire([p, pts[1]])
        n += 1
        del new
    return n


def _junctions(ctx: Context, doc: Schematic, points) -> list[list[float]]:
    """Add the junctions KiCad adds at ``points`` (wire ends on a wire's middle, or
    three or more directions meeting), breaking the wires there."""
    out = []
    for p in dict.fromkeys(points):
        if sp.junction_needed(sp.sheet_points(doc), p):
            _break_wires_at(doc, p)
            j = doc.add_junction(p)
            ctx.created(j.uuid)
            out.append(mm_pt(p))
    return out


class WireArgs(EditArgs):
    points: list[Point] = Field(min_length=2, max_length=1000,
                                description="Polyline [x, y] mm; one wire per segment, as KiCad draws them")
    allow_dangling: bool = Field(False, description="Allow ends that connect to nothing (reported)")
    bus: bool = Field(False, description="Draw a bus instead of a wire (ends are not checked)")


@command("sch.wire", kind="edit", args=WireArgs, result=Result, units="mm",
         examples=({"path": "board.kicad_sch", "points": [[100, 50], [110, 50], [110, 60]]},))
def wire(ctx: Context, a: WireArgs) -> dict:
    """Draw wires through points, one per segment as KiCad does. Both ends of the polyline must land on a pin, a wire (end or middle), a label, a sheet pin, a junction or a no-connect flag, else invalid-args names the dangling end (unless allow_dangling, when the result lists it). A junction is added, and the wire split, where an end lands on the middle of another wire or three directions meet (as KiCad does); the result lists them."""
    od = _open(ctx, a.path)
    doc: Schematic = od.doc
    points = [pt(p) for p in a.points]
    for i, (p, q) in enumerate(zip(points, points[1:])):
        if p == q:
            raise InvalidArgs(f"points {i} and {i + 1} are the same: a wire needs length",
                              errors=[{"loc": f"points.{i + 1}", "msg": "zero-length segment", "type": "value"}])
    dangling = []
    if not a.bus:
        where = sp.sheet_points(doc)
        for i in (0, len(points) - 1):
            p = points[i]
            if not where.what_is_at(p) and p not in points[1:-1] and not (points[0] == points[-1]):
                dangling.append({"index": i, "at": mm_pt(p)})
        if dangling and not a.allow_dangling:
            d = dangling[0]
            raise InvalidArgs(f"the wire's end {d['index']} at {d['at']} lands on no pin, wire, label, sheet pin "
                              "or no-connect: it would dangle",
                              errors=[{"loc": f"points.{d['index']}", "msg": "dangling end", "type": "value"}
                                      for d in dangling],
                              hint="Read pin positions with query.pins, or pass allow_dangling: true.")
    ids = []
    for p, q in zip(points, points[1:]):
        w = doc.add_wire([p, q], bus=a.bus)
        ids.append(w.uuid)
    ctx.created(*ids)
    junctions = [] if a.bus else _junctions(ctx, doc, points)
    out = {"summary": f"{len(ids)} {'bus' if a.bus else 'wire'} segment{'s' if len(ids) != 1 else ''}"
                      + (f", {len(junctions)} junction{'s' if len(junctions) != 1 else ''} added" if junctions else "")
                      + (f"; {len(dangling)} dangling end{'s' if len(dangling) != 1 else ''}" if dangling else ""),
           "ids": ids}
    if junctions:
        out["junctions"] = junctions
    if dangling:
        out["dangling"] = dangling
    return out


class LabelArgs(EditArgs):
    text: Name = Field(description="Net name")
    at: Point = Field(description="Connection point [x, y] mm (on a wire or a pin)")
    angle: Quarter = Field(0, description="0: text to the right of the point, 180: to the left, 90 up, 270 down")


class ShapedLabelArgs(LabelArgs):
    shape: Literal["input", "output", "bidirectional", "tri_state", "passive"] = "bidirectional"


def _label(ctx: Context, a: LabelArgs, kind: str) -> dict:
    od = _open(ctx, a.path)
    doc: Schematic = od.doc
    p = pt(a.at)
    on = sp.sheet_points(doc).what_is_at(p)
    lab = doc.add_label(a.text, p, a.angle, kind=kind, shape=getattr(a, "shape", "input"))
    ctx.created(lab.uuid)
    word = {"label": "label", "global_label": "global label", "hierarchical_label": "hierarchical label"}[kind]
    out = {"summary": f"{word} {a.text} at {a.at}" + ("" if on else " (connected to nothing yet)"),
           "id": lab.uuid, "connects": on}
    if not on:
        out["dangling"] = True
    return out


@command("sch.label", kind="edit", args=LabelArgs, result=Result, units=UNITS,
         examples=({"path": "board.kicad_sch", "text": "SDA", "at": [110.49, 50.8]},))
def label(ctx: Context, a: LabelArgs) -> dict:
    """Add a local net label (joins same-named labels on this sheet instance). The result says what the point connects to; a label on nothing is reported as dangling."""
    return _label(ctx, a, "label")


@command("sch.globalLabel", kind="edit", args=ShapedLabelArgs, result=Result, units=UNITS,
         examples=({"path": "board.kicad_sch", "text": "VBUS", "at": [110.49, 50.8], "shape": "input"},))
def global_label(ctx: Context, a: ShapedLabelArgs) -> dict:
    """Add a global label (joins same-named global labels and power nets on every sheet), with a shape: input, output, bidirectional, tri_state, passive."""
    return _label(ctx, a, "global_label")


@command("sch.hierarchicalLabel", kind="edit", args=ShapedLabelArgs, result=Result, units=UNITS,
         examples=({"path": "child.kicad_sch", "text": "IN", "at": [50.8, 50.8], "shape": "input"},))
def hierarchical_label(ctx: Context, a: ShapedLabelArgs) -> dict:
    """Add a hierarchical label: joins the sheet pin of the same name on the sheet symbol that places this sheet."""
    return _label(ctx, a, "hierarchical_label")


class AtArgs(EditArgs):
    at: Point


@command("sch.junction", kind="edit", args=AtArgs, result=Result, units="mm",
         examples=({"path": "board.kicad_sch", "at": [110.49, 50.8]},))
def junction(ctx: Context, a: AtArgs) -> dict:
    """Add a junction dot (connects wires crossing or touching there); wires passing through the point are split there, as KiCad does."""
    od = _open(ctx, a.path)
    p = pt(a.at)
    if p in {m.position for m in od.doc.junctions}:
        raise InvalidArgs(f"there is already a junction at {a.at}",
                          errors=[{"loc": "at", "msg": "junction exists", "type": "value"}])
    split = _break_wires_at(od.doc, p)
    j = od.doc.add_junction(p)
    ctx.created(j.uuid)
    return {"summary": f"junction at {a.at}" + (f"; {split} wire{'s' if split != 1 else ''} split" if split else ""),
            "id": j.uuid}


@command("sch.noConnect", kind="edit", args=AtArgs, result=Result, units="mm",
         examples=({"path": "board.kicad_sch", "at": [120.65, 80.01]},))
def no_connect(ctx: Context, a: AtArgs) -> dict:
    """Add a no-connect flag (on a pin left open on purpose: ERC then accepts it)."""
    od = _open(ctx, a.path)
    p = pt(a.at)
    on = sp.sheet_points(od.doc).pins.get(p, [])
    nc = od.doc.add_no_connect(p)
    ctx.created(nc.uuid)
    return {"summary": f"no-connect at {a.at}" + (f" on {', '.join(on)}" if on else " (on no pin)"),
            "id": nc.uuid, "pins": on}


class BusEntryArgs(EditArgs):
    at: Point = Field(description="The end on the bus [x, y] mm")
    size: Point = Field([2.54, 2.54], description="[dx, dy] mm to the wire end")


@command("sch.busEntry", kind="edit", args=BusEntryArgs, result=Result, units="mm",
         examples=({"path": "board.kicad_sch", "at": [101.6, 50.8], "size": [2.54, 2.54]},))
def bus_entry(ctx: Context, a: BusEntryArgs) -> dict:
    """Add a wire-to-bus entry from at to at + size."""
    od = _open(ctx, a.path)
    doc: Schematic = od.doc
    p = pt(a.at)
    node = make("bus_entry", make("at", atoms.mm(p[0]), atoms.mm(p[1])),
                make("size", atoms.mm(nm(a.size[0])), atoms.mm(nm(a.size[1]))),
                make("stroke", make("width", b"0"), make("type", b"default")), doc._uuid(None))
    placed = doc._place(node, ("bus_entry",))
    uid = atoms.text(placed.find("uuid").atoms()[0])
    ctx.created(uid)
    return {"summary": f"bus entry at {a.at}", "id": uid}


# -- annotation -----------------------------------------------------------------------


class AnnotateArgs(EditArgs):
    scheme: Literal["incremental", "sheet"] = Field(
        "incremental", description="incremental: R1, R2... over the design (KiCad's default); "
                                   "sheet: 100 x sheet number + n (R101 on page 1, R201 on page 2)")
    all: bool = Field(False, description="Renumber every symbol, not only the unannotated (R?) ones")


@command("sch.annotate", kind="edit", args=AnnotateArgs, result=Result,
         examples=({"path": "board.kicad_sch"}, {"path": "board.kicad_sch", "scheme": "sheet", "all": True}))
def annotate(ctx: Context, a: AnnotateArgs) -> dict:
    """Give references to unannotated symbols (R?, #PWR?) of the whole design, per sheet instance in hierarchy order, sorted by X then Y position as KiCad's default does; each prefix numbered from the first free number (power symbols as #PWR01). Multi-unit symbols of the same part and value share a reference. Writes each instance path's reference."""
    root, _, conn = _design(ctx, _open(ctx, a.path).path)
    pages = {id(s): (int(s.page) if s.page.isdigit() else i + 1) for i, s in enumerate(conn.sheets)}
    order = {id(s): i for i, s in enumerate(conn.sheets)}
    todo = [s for s in conn.symbols if a.all or s.reference.endswith("?") or not s.reference]
    todo_ids = {id(s) for s in todo}
    used: dict[str, set[int]] = {}
    for s in conn.symbols:
        if id(s) in todo_ids:
            continue
        prefix = sp.reference_prefix(s.reference)
        digits = s.reference[len(prefix):]
        if digits.isdigit():
            used.setdefault(prefix, set()).add(int(digits))
    todo.sort(key=lambda s: (order[id(s.sheet)], s.view.position[0], s.view.position[1]))
    changes = []
    groups: dict[tuple, list] = {}  # (instance, lib_id, value) -> [(reference, units)]
    for s in todo:
        prefix = sp.reference_prefix(s.view.reference if s.reference.endswith("?") else s.reference) \
            or sp.reference_prefix(s.reference) or "U"
        ref = None
        multi = s.lib is not None and s.lib.unit_count > 1
        if multi:
            for r, units in groups.get((id(s.sheet), s.view.lib_id, s.view.value), []):
                if s.unit not in units:
                    ref = r
                    units.add(s.unit)
                    break
        if ref is None:
            n = pages[id(s.sheet)] * 100 + 1 if a.scheme == "sheet" else 1
            taken = used.setdefault(prefix, set())
            while n in taken:
                n += 1
            taken.add(n)
            power = s.lib is not None and s.lib.power
            ref = f"{prefix}0{n}" if power else f"{prefix}{n}"
            if multi:
                groups.setdefault((id(s.sheet), s.view.lib_id, s.view.value), []).append((ref, {s.unit}))
        if ref != s.reference:
            changes.append((s, ref))
    for s, ref in changes:
        set_reference(ctx, s, ref)
    rows = [{"sheet": s.sheet.path, "from": s.reference, "to": ref, "id": s.view.uuid} for s, ref in changes]
    return {"summary": f"annotated {len(changes)} symbol{'s' if len(changes) != 1 else ''}"
                       + (f" ({a.scheme} scheme)" if a.scheme != "incremental" else ""),
            "changes": rows}


def set_reference(ctx: Context, s: PlacedSymbol, ref: str) -> None:
    """Write ``ref`` into the symbol's instance path for ``s.sheet`` (adding the path if
    the symbol has none for it), and into its Reference field when that instance is the
    first one listed (the field shows the first instance's reference)."""
    od = _open(ctx, s.sheet.file)
    doc: Schematic = od.doc
    node = s.view.node
    kiid = s.sheet.kiid_path
    inst = node.find("instances")
    first = True
    target = None
    for project in (inst.lists("project") if inst is not None else ()):
        for i, path in enumerate(project.lists("path")):
            vals = path.atoms()
            if vals and atoms.text(vals[0]) == kiid:
                target = path
                first = i == 0
    if target is not None:
        r = target.find("reference")
        if r is not None:
            doc.set_atoms(r, [quote(ref)])
        else:
            doc.insert(target, make("reference", quote(ref)), 2)
    else:
        _, project, _ = _design(ctx, od.path)
        new_path = make("path", quote(kiid), make("reference", quote(ref)), make("unit", str(s.unit).encode()))
        if inst is None:
            doc.insert(node, make("instances", make("project", quote(project), new_path)))
        else:
            projects = list(inst.lists("project"))
            doc.insert(projects[0], new_path)
            first = False
    if first:
        prop = _property(node, "Reference")
        if prop is not None:
            doc.set_atoms(prop, [quote("Reference"), quote(ref)])


def _property(node: SList, name: str) -> SList | None:
    for p in node.lists("property"):
        vals = p.atoms()
        if vals and atoms.text(vals[0]) == name:
            return p
    return None


# -- symbol edits ---------------------------------------------------------------------------


class SymbolRef(EditArgs):
    reference: Name = Field(description="Symbol reference (as shown on the sheet instance)")
    sheet: str | None = Field(None, min_length=1, max_length=4096,
                              description="Sheet instance path (e.g. /amp_left/) where the reference is on several")


class SetFieldArgs(SymbolRef):
    field: Name = Field(description="Reference, Value, Footprint, Datasheet, Description or any field")
    value: str = Field(max_length=10000)
    hidden: bool | None = Field(None, description="Show or hide the field (new fields are hidden)")


@command("sch.setField", kind="edit", args=SetFieldArgs, result=Result,
         examples=({"path": "board.kicad_sch", "reference": "R1", "field": "Value", "value": "4k7"},
                   {"path": "board.kicad_sch", "reference": "R201", "sheet": "/amp_left/", "field": "Reference", "value": "R250"}))
def set_field(ctx: Context, a: SetFieldArgs) -> dict:
    """Set a field of a placed symbol. Reference is per sheet instance (only the named instance changes); every other field is stored once per sheet file, so where that file is placed several times the change is shared: shared_by lists the instance paths. A field the symbol lacks is added (hidden, at the anchor). Errors: not-found for an unknown reference; invalid-args for an ambiguous one (give sheet) or a duplicate reference."""
    s, od = _find_symbol(ctx, a.path, a.reference, a.sheet)
    doc: Schematic = od.doc
    if a.field == "Reference":
        _, _, conn = _design(ctx, od.path)
        clash = [x for x in conn.symbols if x.reference == a.value
                 and (x.view.node is not s.view.node or x.sheet.kiid_path != s.sheet.kiid_path)]
        if clash and not a.value.endswith("?"):
            raise InvalidArgs(f"{a.value} is already used (on {clash[0].sheet.path})",
                              errors=[{"loc": "value", "msg": "reference exists", "type": "value"}])
        set_reference(ctx, s, a.value)
        return {"summary": f"{a.reference} is now {a.value} on {s.sheet.path}", "sheet": s.sheet.path}
    node = s.view.node
    prop = _property(node, a.field)
    added = prop is None
    if prop is None:
        at = s.view.position
        last = max(i for i, k in enumerate(node.kids) if type(k) is SList and k.head == "property")
        hide = a.hidden if a.hidden is not None else True
        new = make("property", quote(a.field), quote(a.value),
                   make("at", atoms.mm(at[0]), atoms.mm(at[1]), b"0"),
                   make("effects", make("font", make("size", b"1.27", b"1.27")),
                        make("hide", b"yes") if hide else None))
        doc.insert(node, sp._downgrade(new, doc.version or 0), last + 1)
    else:
        doc.set_atoms(prop, [quote(a.field), quote(a.value)])
        if a.hidden is not None:
            _set_hidden(doc, prop, a.hidden)
    _, _, conn = _design(ctx, od.path)
    shared = _human_paths(conn, od.path)
    out = {"summary": f"{a.reference}: {a.field}={a.value}" + (" (added)" if added else "")
                      + (f"; shared by {len(shared)} sheet instances" if len(shared) > 1 else "")}
    if len(shared) > 1:
        out["shared_by"] = shared
    return out


def _set_hidden(doc: Schematic, prop: SList, hidden: bool) -> None:
    """``(hide yes|no)`` in a field's effects (KiCad 8 and 9 both write it so)."""
    eff = prop.find("effects")
    if eff is None:
        return
    h = eff.find("hide")
    if h is not None:
        doc.set_atoms(h, [b"yes" if hidden else b"no"])
    elif hidden:
        doc.insert(eff, make("hide", b"yes"))


class ItemTarget(EditArgs):
    reference: str | None = Field(None, min_length=1, max_length=1000, description="A symbol")
    sheet: str | None = Field(None, min_length=1, max_length=4096, description="Sheet instance path for an ambiguous reference")
    id: str | None = Field(None, min_length=1, max_length=100,
                           description="Or any item's uuid on this sheet (wire, label, junction, no-connect, sheet)")

    @model_validator(mode="after")
    def one_target(self):
        if (self.reference is None) == (self.id is None):
            raise ValueError("give exactly one of reference or id")
        return self


def _by_id(doc: Schematic, uid: str) -> SList:
    for k in doc.root.kids:
        if type(k) is SList and k.head != "lib_symbols":
            u = k.find("uuid")
            if u is not None and u.atoms() and atoms.text(u.atoms()[0]) == uid:
                return k
    raise NotFound(f"no item with id {uid} on this sheet", hint="Ids are in query.symbols, query.labels and the results of edits.")


def _target(ctx: Context, a: ItemTarget):
    if a.reference is not None:
        s, od = _find_symbol(ctx, a.path, a.reference, a.sheet)
        return od.doc, s.view.node, s
    od = _open(ctx, a.path)
    return od.doc, _by_id(od.doc, a.id), None


class MoveArgs(ItemTarget):
    at: Point | None = Field(None, description="New position (symbols: anchor; wires: first point)")
    by: Point | None = Field(None, description="Or an offset [dx, dy] mm")

    @model_validator(mode="after")
    def one_place(self):
        if (self.at is None) == (self.by is None):
            raise ValueError("give exactly one of at or by")
        return self


@command("sch.move", kind="edit", args=MoveArgs, result=Result, units="mm",
         examples=({"path": "board.kicad_sch", "reference": "R1", "at": [120.65, 80.01]},
                   {"path": "board.kicad_sch", "id": "…uuid…", "by": [2.54, 0]}))
def move(ctx: Context, a: MoveArgs) -> dict:
    """Move a symbol (with its fields) or any item by id to a position or by an offset. Wires attached to a moved symbol are not dragged (as KiCad's Move, not Drag): the result lists wire ends left dangling."""
    doc, node, _ = _target(ctx, a)
    before = set(sp.dangling_ends(doc))
    at = node.find("at")
    if at is not None:
        v = at.atoms()
        anchor = (atoms.to_nm(v[0]), atoms.to_nm(v[1]))
    else:  # a wire or bus: its first point
        anchor = tuple(atoms.to_nm(v) for v in node.find("pts").find("xy").atoms()[:2])
    dx, dy = (nm(a.by[0]), nm(a.by[1])) if a.by else (pt(a.at)[0] - anchor[0], pt(a.at)[1] - anchor[1])
    sp.translate(doc, node, dx, dy)
    return _with_dangling(doc, before, {"summary": f"moved {a.reference or node.head} to {mm_pt((anchor[0] + dx, anchor[1] + dy))}",
                                        "at": mm_pt((anchor[0] + dx, anchor[1] + dy))})


def _with_dangling(doc: Schematic, before: set, out: dict) -> dict:
    now = [p for p in sp.dangling_ends(doc) if p not in before]
    if now:
        out["dangling"] = [mm_pt(p) for p in now]
        out["summary"] += f"; {len(now)} wire end{'s' if len(now) != 1 else ''} left dangling"
    return out


class RotateArgs(SymbolRef):
    angle: Quarter = Field(description="Degrees counter-clockwise (0/90/180/270)")
    relative: bool = Field(False, description="Turn by angle instead of setting it")


@command("sch.rotate", kind="edit", args=RotateArgs, result=Result, units=UNITS,
         examples=({"path": "board.kicad_sch", "reference": "R1", "angle": 90},))
def rotate(ctx: Context, a: RotateArgs) -> dict:
    """Turn a symbol about its anchor (fields turn with it, as in KiCad); a mirrored symbol stays mirrored. Wire ends left dangling are listed."""
    s, od = _find_symbol(ctx, a.path, a.reference, a.sheet)
    view, doc = s.view, od.doc
    before = set(sp.dangling_ends(doc))
    if a.relative:
        t = sp.symbol_transform(view.orientation, view.mirror)
        turn = sp.symbol_transform(a.angle, None)
        new_t = (turn[0] * t[0] + turn[1] * t[2], turn[0] * t[1] + turn[1] * t[3],
                 turn[2] * t[0] + turn[3] * t[2], turn[2] * t[1] + turn[3] * t[3])
        angle, mirror = sp.orientation_of(new_t)
    else:
        angle, mirror = a.angle, view.mirror
    sp.reorient(doc, view, angle, mirror)
    return _with_dangling(doc, before, {"summary": f"{a.reference} now at {view.orientation:g}°"
                                                   + (f", mirror {view.mirror}" if view.mirror else ""),
                                        "angle": int(view.orientation), "mirror": view.mirror or "none"})


class MirrorArgs(SymbolRef):
    axis: Literal["x", "y"] = Field(description="x: flip top-bottom (about the horizontal axis); y: flip left-right")


@command("sch.mirror", kind="edit", args=MirrorArgs, result=Result,
         examples=({"path": "board.kicad_sch", "reference": "U1", "axis": "y"},))
def mirror(ctx: Context, a: MirrorArgs) -> dict:
    """Mirror a symbol about its anchor as KiCad's Mirror X / Mirror Y do; the file keeps KiCad's canonical angle + mirror form. Wire ends left dangling are listed."""
    s, od = _find_symbol(ctx, a.path, a.reference, a.sheet)
    view, doc = s.view, od.doc
    before = set(sp.dangling_ends(doc))
    t = sp.symbol_transform(view.orientation, view.mirror)
    f = (1, 0, 0, -1) if a.axis == "x" else (-1, 0, 0, 1)
    new_t = (f[0] * t[0] + f[1] * t[2], f[0] * t[1] + f[1] * t[3],
             f[2] * t[0] + f[3] * t[2], f[2] * t[1] + f[3] * t[3])
    angle, m = sp.orientation_of(new_t)
    sp.reorient(doc, view, angle, m)
    return _with_dangling(doc, before, {"summary": f"{a.reference} mirrored about {a.axis}: now {angle}°"
                                                   + (f", mirror {m}" if m else ""),
                                        "angle": angle, "mirror": m or "none"})


class DeleteArgs(EditArgs):
    reference: str | None = Field(None, min_length=1, max_length=1000)
    sheet: str | None = Field(None, min_length=1, max_length=4096)
    ids: list[Name] | None = Field(None, max_length=10000, description="Item uuids on this sheet")

    @model_validator(mode="after")
    def some_target(self):
        if self.reference is None and not self.ids:
            raise ValueError("give a reference or ids")
        return self


@command("sch.delete", kind="edit", args=DeleteArgs, result=Result, destructive=True,
         examples=({"path": "board.kicad_sch", "reference": "R1"},
                   {"path": "board.kicad_sch", "ids": ["…uuid…"]}))
def delete(ctx: Context, a: DeleteArgs) -> dict:
    """Delete a symbol (by reference: from its sheet file, so from every instance of that file) or items by id. A library definition no symbol uses any more leaves lib_symbols, as KiCad drops it. Wire ends that become dangling are listed."""
    targets: list[tuple[Schematic, SList]] = []
    if a.reference is not None:
        s, od = _find_symbol(ctx, a.path, a.reference, a.sheet)
        targets.append((od.doc, s.view.node))
    if a.ids:
        od = _open(ctx, a.path)
        for uid in dict.fromkeys(a.ids):
            targets.append((od.doc, _by_id(od.doc, uid)))
    befores = {id(d): (d, set(sp.dangling_ends(d))) for d, _ in targets}
    removed, libs = [], set()
    for doc, node in targets:
        if node.parent is None:
            continue
        u = node.find("uuid")
        removed.append(atoms.text(u.atoms()[0]) if u is not None and u.atoms() else None)
        if node.head == "symbol":
            libs.add((id(doc), SymbolInstance(doc, node).lib_id))
        doc.remove(node)
    dropped = []
    for doc, _ in befores.values():
        in_use = {s.text_of("lib_name") or s.lib_id for s in doc.symbols}
        for key, lib_id in list(libs):
            if key == id(doc) and lib_id not in in_use:
                entry = sp.library_symbol(doc, lib_id)
                if entry is not None:
                    doc.remove(entry)
                    dropped.append(lib_id)
    out = {"summary": f"deleted {len(removed)} item{'s' if len(removed) != 1 else ''}"
                      + (f"; {', '.join(dropped)} left lib_symbols" if dropped else ""),
           "deleted": removed}
    for doc, before in befores.values():
        _with_dangling(doc, before, out)
    return out


# -- sheets -----------------------------------------------------------------------------------


class SheetPin(Args):
    name: Name
    shape: Literal["input", "output", "bidirectional", "tri_state", "passive"] = "bidirectional"
    side: Literal["left", "right"] = Field("left", description="Edge of the sheet symbol")
    offset: Coord | None = Field(None, description="mm from the top edge (default: 2.54 mm steps)")


class AddSheetArgs(EditArgs):
    name: Name = Field(description="Sheet name (unique on the parent sheet)")
    file: str = Field(pattern=r"^[^/\\][^\\]*\.kicad_sch$", max_length=1000,
                      description="Sheet file, relative to the parent's folder; created (empty, KiCad 9) if missing")
    at: Point = Field(description="Top-left corner [x, y] mm")
    size: Point = Field([25.4, 20.32], description="[width, height] mm")
    pins: list[SheetPin] = Field(default_factory=list, max_length=500)


@command("sch.addSheet", kind="edit", args=AddSheetArgs, result=Result, units="mm",
         examples=({"path": "board.kicad_sch", "name": "power", "file": "power.kicad_sch", "at": [50.8, 50.8],
                    "size": [30, 20], "pins": [{"name": "VIN", "shape": "input"}]},))
def add_sheet(ctx: Context, a: AddSheetArgs) -> dict:
    """Place a hierarchical sheet symbol with sheet pins, and create its file (an empty KiCad 9 schematic) when missing. The same file may be placed several times (each placement is a sheet instance with its own references). Pins sit on the left or right edge at 2.54 mm steps from the top unless offset is given; each joins the child's hierarchical label of its name. Errors: invalid-args for a duplicate sheet name or pin name, or a file that would contain itself."""
    od = _open(ctx, a.path)
    doc: Schematic = od.doc
    if any(s.name == a.name for s in doc.sheets):
        raise InvalidArgs(f"a sheet named {a.name!r} is already on {od.path}",
                          errors=[{"loc": "name", "msg": "sheet name exists", "type": "value"}])
    names = [p.name for p in a.pins]
    if len(set(names)) != len(names):
        raise InvalidArgs("sheet pin names repeat", errors=[{"loc": "pins", "msg": "duplicate name", "type": "value"}])
    child_key = sheet_file_key(od.path, a.file)
    full = ctx.session.workspace.resolve(child_key)
    root, project, conn = _design(ctx, od.path)
    ancestors = {od.path, root}
    for inst in conn.sheets:  # every sheet above any instance of this one
        if inst.file == od.path:
            up = inst
            while up is not None:
                ancestors.add(up.file)
                up = up.parent
    if child_key in ancestors:  # KiCad refuses recursive hierarchies
        raise InvalidArgs(f"{child_key} contains {od.path} (or is it): a sheet cannot contain itself",
                          errors=[{"loc": "file", "msg": "recursive sheet", "type": "value"}])
    created = False
    if not full.exists():
        full.parent.mkdir(parents=True, exist_ok=True)
        data = schematic_file().decode()
        # a sub-sheet file as eeschema writes one: no sheet_instances, no embedded_fonts
        data = data.replace('\t(sheet_instances\n\t\t(path "/"\n\t\t\t(page "1")\n\t\t)\n\t)\n', "")
        data = data.replace("\t(embedded_fonts no)\n", "")
        full.write_bytes(data.encode())
        created = True
    x, y = pt(a.at)
    w, h = nm(a.size[0]), nm(a.size[1])
    parents = _instance_paths(conn, od.path) or [f"/{doc.uuid}"]
    page = max([int(s.page) for s in conn.sheets if s.page.isdigit()] + [len(conn.sheets)]) + 1
    font = make("font", make("size", b"1.27", b"1.27"))
    pins, counts = [], {"left": 0, "right": 0}
    for p in a.pins:
        counts[p.side] += 1
        off = nm(p.offset) if p.offset is not None else counts[p.side] * 2_540_000
        py = y + off
        px = x if p.side == "left" else x + w
        pins.append(make("pin", quote(p.name), p.shape.encode(),
                         make("at", atoms.mm(px), atoms.mm(py), b"180" if p.side == "left" else b"0"),
                         doc._uuid(None),
                         make("effects", font, make("justify", b"left" if p.side == "left" else b"right"))))
    uid = new_uuid()
    insts = [make("path", quote(pp), make("page", quote(str(page + i)))) for i, pp in enumerate(parents)]
    node = make("sheet", make("at", atoms.mm(x), atoms.mm(y)), make("size", atoms.mm(w), atoms.mm(h)),
                make("exclude_from_sim", b"no"), make("in_bom", b"yes"), make("on_board", b"yes"),
                make("dnp", b"no"), make("fields_autoplaced", b"yes"),
                make("stroke", make("width", b"0.1524"), make("type", b"solid")),
                make("fill", make("color", b"0", b"0", b"0", b"0.0000")),
                make("uuid", quote(uid)),
                make("property", quote("Sheetname"), quote(a.name),
                     make("at", atoms.mm(x), atoms.mm(y - 714_400), b"0"),
                     make("effects", make("font", make("size", b"1.27", b"1.27")), make("justify", b"left", b"bottom"))),
                make("property", quote("Sheetfile"), quote(a.file),
                     make("at", atoms.mm(x), atoms.mm(y + h + 584_200), b"0"),
                     make("effects", make("font", make("size", b"1.27", b"1.27")), make("justify", b"left", b"top"))),
                *pins,
                make("instances", make("project", quote(project), *insts)))
    doc._place(sp._downgrade(node, doc.version or 0), ("sheet",))
    ctx.created(uid)
    # open the child in the session, so the design sees it at once
    ctx.session.get(child_key, "schematic", ctx.actor)
    return {"summary": f"sheet {a.name} ({a.file}) at {a.at}" + (f"; created {child_key}" if created else "")
                       + (f"; {len(pins)} pin{'s' if len(pins) != 1 else ''}" if pins else ""),
            "id": uid, "file": child_key, "created_file": created,
            "pins": [{"name": p.name, "at": mm_pt(tuple(atoms.to_nm(v) for v in n.find("at").atoms()[:2]))}
                     for p, n in zip(a.pins, pins)]}
