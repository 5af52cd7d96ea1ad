"""The design a schematic command's sheet belongs to, shared by the sch.* edits.

A command's ``path`` is a sheet file. Symbols are named by reference across the design
that sheet belongs to: its root is the schematic named after the ``.kicad_pro`` in the
same folder (`documents.design.project_name`; else the sheet itself), and its child
sheets are opened through the session. In a design where one sheet file is placed
more than once, a symbol has one reference per sheet instance; ``sheet`` (an instance
path such as ``/amp_left/``) picks one where a reference is ambiguous.

Schematics older than the KiCad 8 format are refused (unsupported-format): KiCad 6/7
wrote these items with other tokens.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from pydantic import Field

from ..documents.design import project_name
from ..errors import InvalidArgs, NotFound, UnsupportedFormat
from ..netlist.schematic import PlacedSymbol, SchematicConnectivity
from ..registry import Context
from .common import EditArgs, Name
from .sch_query import connectivity_of


class SymbolRef(EditArgs):
    reference: Name = Field(description="Symbol reference (as shown on the sheet instance)")
    sheet: str | None = Field(None, min_length=1, max_length=4096,
                              description="Sheet instance path (e.g. /amp_left/) where the reference is on several")


def editable(ctx: Context, path: str):
    """The open sheet at ``path``, checked to be a schematic boardwire edits."""
    od = ctx.session.get(path, "schematic", ctx.actor)
    od.doc.check_editable(adding=False)  # what the edit adds is checked as it is added
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


def root_of(ctx: Context, key: str) -> tuple[str, str]:
    """(root sheet key, project name) of the design sheet ``key`` belongs to."""
    folder = posixpath.dirname(key)
    name = project_name(ctx.session.workspace.resolve(folder or "."))
    if name is None:
        return key, posixpath.splitext(posixpath.basename(key))[0]
    return posixpath.join(folder, name + ".kicad_sch"), name


def design_of(ctx: Context, key: str) -> Design:
    root, project = root_of(ctx, key)
    return Design(root, project, connectivity_of(ctx, root))


def find_symbol(ctx: Context, key: str, reference: str, sheet: str | None) -> tuple[PlacedSymbol, object]:
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


def set_reference(ctx: Context, s: PlacedSymbol, ref: str) -> None:
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
