"""A schematic design as the session has it: its hierarchy and nets (cached per
revision of every sheet), its root sheet and project name, and the sheet a symbol is
on.

A command's ``path`` is a sheet file. Symbols are named by reference across the design
that sheet belongs to: its root is the schematic named after the ``.kicad_pro`` in the
same folder (`documents.project.files.project_name`; else the sheet itself), and its
child sheets are opened through the session (workspace-checked; an open, edited sheet
is seen as edited). In a design where one sheet file is placed more than once, a symbol
has one reference per sheet instance; ``sheet`` (an instance path such as
``/amp_left/``) picks one where a reference is ambiguous. Nets are computed by
`boardwire.netlist.schematic` (KiCad 9's rules, measured against kicad-cli's netlist).
"""

from __future__ import annotations

import posixpath
from collections import Counter, OrderedDict
from dataclasses import dataclass

from ..documents.project.files import project_name
from ..errors import InvalidArgs, NotFound
from ..netlist.schematic import (
    PlacedSymbol,
    SchematicConnectivity,
    schematic_connectivity,
    sheet_file_key,
)

# Recent results per (session, root): recomputed when any sheet of the hierarchy moved
# to another revision (or was reverted, closed, reopened).
_CACHE: OrderedDict = OrderedDict()


_CACHE_SIZE = 8


def _stamp(ctx, keys: list[str]) -> tuple | None:
    docs = ctx.session.documents
    out = []
    for key in keys:
        od = docs.get(key)
        if od is None:
            return None
        out.append((key, id(od.doc), od.revision, od.doc.generation))  # generation: edits inside a batch
    return tuple(out)


def connectivity_of(ctx, path: str) -> SchematicConnectivity:
    """The hierarchy and nets of the design whose root sheet is ``path``; child sheets
    open through the session (workspace-checked); a missing one is marked missing."""
    od = ctx.session.get(path, "schematic", ctx.actor)
    cache_key = (id(ctx.session), od.path)
    hit = _CACHE.get(cache_key)
    if hit is not None and _stamp(ctx, hit[0]) == hit[1]:
        _CACHE.move_to_end(cache_key)
        return hit[2]
    opened = [od.path]

    def open_sheet(parent: str, name: str):
        key = sheet_file_key(parent, name)
        child = ctx.session.get(key, "schematic", ctx.actor)
        opened.append(child.path)
        return child.path, child.doc

    conn = schematic_connectivity(od.doc, od.path, open_sheet)
    keys = sorted(set(opened))
    _CACHE[cache_key] = (keys, _stamp(ctx, keys), conn)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return conn


def sheet_files(ctx, path: str):
    """A function listing the sheet files (workspace keys) of the design whose root
    sheet is ``path``, missing ones left out: the ``sheets`` of
    `boardwire.kicad.snapshot.hierarchy_snapshot`."""
    return lambda: [s.file for s in connectivity_of(ctx, path).sheets if not s.missing]


def editable(ctx, path: str):
    """The open sheet at ``path``, checked to be a schematic boardwire edits."""
    od = ctx.session.get(path, "schematic", ctx.actor)
    od.doc.check_editable()
    return od


@dataclass
class Design:
    """The design of a sheet: its root sheet's key, project name and connectivity."""

    root: str
    project: str
    conn: SchematicConnectivity

    def instance_paths(self, key: str) -> list[str]:
        """KiCad 7+ instance paths (``/root-uuid[/sheet-uuid...]``) of sheet file ``key``."""
        return [s.kiid_path for s in self.conn.sheets if s.file == key and s.doc is not None]

    def human_paths(self, key: str) -> list[str]:
        """The instance paths by sheet name (``/amp_left/``) of sheet file ``key``."""
        return [s.path for s in self.conn.sheets if s.file == key and s.doc is not None]


def root_of(ctx, key: str) -> tuple[str, str]:
    """(root sheet key, project name) of the design sheet ``key`` belongs to."""
    folder = posixpath.dirname(key)
    name = project_name(ctx.session.workspace.resolve(folder or "."))
    if name is None:
        return key, posixpath.splitext(posixpath.basename(key))[0]
    return posixpath.join(folder, name + ".kicad_sch"), name


def design_of(ctx, key: str) -> Design:
    root, project = root_of(ctx, key)
    return Design(root, project, connectivity_of(ctx, root))


def find_symbol(ctx, key: str, reference: str, sheet: str | None) -> tuple[PlacedSymbol, object]:
    """The placed symbol with ``reference`` (on instance ``sheet``) in the design of
    sheet ``key``; returns it and the open document of its file."""
    conn = design_of(ctx, key).conn
    hits = [s for s in conn.symbols if s.reference == reference and (sheet is None or s.sheet.path == sheet)]
    if not hits:
        raise NotFound(f"no symbol {reference!r}" + (f" on sheet {sheet}" if sheet else "") + " in the design",
                       hint="List symbols with query.symbols (references are per sheet instance).")
    views = {s.view for s in hits}
    if len(views) > 1:
        raise InvalidArgs(f"{reference} names {len(views)} symbols (on {', '.join(sorted({s.sheet.path for s in hits}))}); "
                          "give sheet", errors=[{"loc": "sheet", "msg": "ambiguous reference", "type": "value"}])
    s = hits[0]
    return s, editable(ctx, s.sheet.file)


def set_reference(ctx, s: PlacedSymbol, ref: str) -> None:
    """Give placed symbol ``s`` reference ``ref`` on its sheet instance (sch.annotate,
    sch.setField, project.backAnnotate)."""
    od = editable(ctx, s.sheet.file)
    root_key = root_of(ctx, od.path)[0]
    root = od if root_key == od.path else ctx.session.get(root_key, "schematic", ctx.actor)
    uid = s.view.uuid or ""
    if s.view.child("instances") is None and root.doc.set_instance_field(
            uid, "Reference", ref, path=f"{s.sheet.uuid_path}{uid}"):
        s.view.set_field("Reference", ref)  # KiCad 6: the root's symbol_instances rule
        return
    s.view.set_reference(s.sheet.kiid_path, ref, lambda: root_of(ctx, od.path)[1], s.unit)


def sheet_rows(conn: SchematicConnectivity) -> list[dict]:
    per_sheet = Counter(id(s.sheet) for s in conn.symbols)
    rows = []
    for s in conn.sheets:
        d = {"path": s.path, "name": s.name or None, "file": s.file, "page": s.page or None,
             "uuid_path": s.uuid_path, "parent": s.parent.path if s.parent is not None else None,
             "symbols": per_sheet.get(id(s), 0), "missing": True if s.missing else None}
        rows.append({k: v for k, v in d.items() if v is not None})
    return rows
