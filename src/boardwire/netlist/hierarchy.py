"""The sheet tree of a schematic design: every sheet instance, depth first.

A design is a root sheet and the sheets its sheet symbols name, recursively; a file
used by several sheet symbols is one instance per use. Each instance has KiCad's three
paths: the human path (``/``, ``/Power/``, the sheet names unescaped), the netlist's
uuid path (``/``, ``/<sheet uuid>/``) and the path KiCad 7+ symbol instances are keyed
by (``/<root uuid>[/<sheet uuid>...]``). Pages come from the sheet symbol's
``instances`` (KiCad 7+), else the root's ``sheet_instances`` (KiCad 6). A sheet file
is named relative to the folder of the sheet that names it (as kicad-cli 9 resolves
it; tests/netlist).

This module never reads files: the caller hands it the root `Schematic` and a
function that opens a child sheet.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Callable

from ..documents.schematic import Schematic, Sheet

OpenSheet = Callable[[str, str], tuple[str, Schematic]]

# Errors of open_sheet that make a sheet missing instead of failing the design (the
# codes of boardwire's NoDocument, UnsupportedFormat, ParseError, PathOutsideWorkspace,
# WrongKind).
MISSING_CODES = ("no-document", "unsupported-format", "parse-error", "path-outside-workspace",
                 "wrong-kind")


@dataclass
class SheetInstance:
    """One sheet of the hierarchy as placed: the root, or a sheet symbol's instance.

    ``path`` is KiCad's human path (``/``, ``/Power/``), ``uuid_path`` the netlist's
    (``/``, ``/<sheet uuid>/``), ``kiid_path`` the path KiCad 7+ symbol instances use
    (``/<root uuid>[/<sheet uuid>...]``); ``file`` the workspace key of its sheet file;
    ``sheet`` the sheet symbol (in the parent's file) that places it, None for the
    root; ``missing`` when its file could not be opened."""

    path: str
    uuid_path: str
    kiid_path: str
    file: str
    name: str
    page: str
    doc: Schematic | None = field(repr=False, default=None)
    parent: SheetInstance | None = field(repr=False, default=None)
    sheet_uuid: str | None = None
    sheet: Sheet | None = field(repr=False, default=None)
    missing: bool = False

    @property
    def sheet_node(self):
        """The sheet symbol's list (for callers that build a `Sheet` view themselves)."""
        return self.sheet.node if self.sheet is not None else None

    @property
    def depth(self) -> int:
        """0 for the root, 1 for its sheets..."""
        d, up = 0, self.parent
        while up is not None:
            d, up = d + 1, up.parent
        return d

def _sheet_page(sheet: Sheet, parent_kiid: str, legacy: dict[str, str], uuid_path: str) -> str:
    """The page of ``sheet`` placed under the instance ``parent_kiid``: its own
    ``instances`` entry for that parent (else its first), else the root's
    ``sheet_instances`` (KiCad 6), else empty."""
    pages = sheet.instance_pages()
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
    and document; it raises ``FileNotFoundError`` (or a BoardwireError with one of
    `MISSING_CODES`) for a missing file, which makes the instance ``missing``; other
    errors propagate. A sheet that contains itself is cut where it recurs; at most
    ``max_sheets`` instances are listed."""
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
                fname, name, _sheet_page(sheet, inst.kiid_path, legacy, uuid_path),
                None, inst, uid, sheet)
            try:
                key, doc = open_sheet(inst.file, fname)
            except FileNotFoundError:
                key, doc = fname, None
            except Exception as e:  # a BoardwireError: keep the code visible upstream
                if getattr(e, "code", None) not in MISSING_CODES:
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
    (KiCad resolves child sheets from the folder of the sheet that names it)."""
    name = sheet_file.replace("\\", "/")
    if posixpath.isabs(name):
        return posixpath.normpath(name)
    return posixpath.normpath(posixpath.join(posixpath.dirname(parent_file), name))
