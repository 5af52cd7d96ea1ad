"""lib.add: register a vendor's KiCad library (a folder, or a .zip of one) in a
project's library tables, so every command that resolves ``Nickname:Item`` (and
kicad-cli, and KiCad) finds its symbols and footprints.

The files are found and extracted by `boardwire.documents.library.vendor`; the rows
are KiCad's own (``${KIPRJMOD}``-relative URIs). A folder is registered where it is;
an archive is extracted into ``<project>/libs/<name>/``; loose ``.kicad_mod`` files
are gathered into ``<project>/libs/<name>/<name>.pretty``. Nothing is written until
every check passed: the source inside the working directory (its path role), every
nickname free in the tables the project sees, the archive safe.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path
from typing import Annotated

from pydantic import Field

from ..documents.library.index import INDEX
from ..documents.library.register import register, taken
from ..documents.library.vendor import (
    extract,
    find_files,
    gather_footprints,
    nickname,
    relink_models,
)
from ..errors import InvalidArgs, NotFound
from ..registry import Context, command
from .common import WRITE, Args, InputPath, Role, project_dir
from .results import LibAdded

NICKNAME = r"^[A-Za-z0-9_+\-][A-Za-z0-9_.+\-]{0,99}$"


class AddArgs(Args):
    source: InputPath = Field(min_length=1, max_length=4096,
                              description="Folder or .zip with .kicad_sym files and/or .pretty folders "
                                          "(.kicad_mod; .step/.wrl models), inside the working directory")
    name: str | None = Field(None, pattern=NICKNAME,
                             description="Nickname of loose footprints, also naming where an archive goes "
                                         "(libs/NAME); default: the source's name")
    project: Annotated[str, Role(WRITE)] | None = Field(
        None, min_length=1, max_length=4096,
        description="Project folder (or a file in it) whose sym-lib-table/fp-lib-table get the rows; "
                    "default: the working directory")


def _refuse(loc: str, message: str, hint: str, **data) -> InvalidArgs:
    return InvalidArgs(message, errors=[{"loc": loc, "msg": message, "type": "value"}], hint=hint, **data)


def _count(kind: str, path: Path) -> int:
    lib = INDEX.library(kind, path)
    return len(lib.items) if lib is not None else 0


def _plan(found, pretty_for_loose: Path | None, project: Path) -> list[tuple[str, str, Path]]:
    """(table kind "sym"/"fp", nickname, library path) for every library found."""
    rows = [("sym", nickname(p.stem), p) for p in found.symbols]
    rows += [("fp", nickname(p.stem), p) for p in found.footprint_dirs]
    if found.loose_footprints and pretty_for_loose is not None:
        rows.append(("fp", nickname(pretty_for_loose.stem), pretty_for_loose))
    return rows


def _check_names(rows: list[tuple[str, str, Path]], project: Path) -> None:
    """InvalidArgs for a nickname twice among the new libraries, or already in a table
    the project sees (its own, the global one: KiCad would take the first)."""
    for kind in ("sym", "fp"):
        mine = [nick for k, nick, _ in rows if k == kind]
        twice = sorted({n for n in mine if mine.count(n) > 1})
        if twice:
            raise _refuse("source", f"the source holds two {kind} libraries named {twice[0]!r}",
                          "Rename one of them, or add them one at a time.")
        clash = taken(kind, mine, project)
        if clash:
            table = f"{kind}-lib-table"
            raise _refuse("name", f"{table} already has a library named {', '.join(clash)}",
                          f"Use that library as it is, or remove its row from {table} first "
                          "(or rename the vendor's file).", nicknames=clash)


def _write_tables(rows: list[tuple[str, str, Path]], project: Path, ws) -> tuple[list[str], list[dict]]:
    written, out = [], []
    for kind, what in (("sym", "symbol"), ("fp", "footprint")):
        mine = [(nick, path) for k, nick, path in rows if k == kind]
        if not mine:
            continue
        table, uris = register(kind, mine, project)
        out += [{"nickname": nick, "kind": what, "uri": uri, "items": _count(what, lib)}
                for (nick, lib), uri in zip(mine, uris)]
        written.append(ws.relative(table))
    return written, out


@command("lib.add", kind="session", args=AddArgs, result=LibAdded,
         examples=({"source": "downloads/LM358DR.zip"}, {"source": "vendor/acme_kicad", "project": "board"}))
def add(ctx: Context, a: AddArgs) -> dict:
    """Add a vendor's KiCad library (folder or .zip of .kicad_sym files, .pretty footprint folders or loose .kicad_mod, .step/.wrl 3D models) to the project's sym-lib-table/fp-lib-table (created if absent) with ${KIPRJMOD}-relative paths, as KiCad's library manager does; its parts are then Nickname:Item for sch.placeSymbol, design.build, lib.search and kicad-cli. A folder is registered in place; a .zip is extracted into libs/NAME/; loose footprints go into libs/NAME/NAME.pretty; footprint 3D model paths that point nowhere are pointed at the library's model of that file name. Nicknames are the file names (symbol library X.kicad_sym: X). Errors: path-outside-workspace (source or project), not-found (no source, no library in it), invalid-args (a nickname already in the tables, libs/NAME exists, neither a folder nor a zip archive), unsafe-archive (an entry leaving its folder: absolute, .., a link; too big; nothing extracted)."""
    ws = ctx.session.workspace
    source = ws.resolve(a.source)
    project = project_dir(ctx, a.project)
    if not source.exists():
        raise NotFound(f"no file or folder {a.source}")
    is_zip = source.is_file() and source.suffix.lower() == ".zip"
    if not is_zip and not source.is_dir():
        raise _refuse("source", f"{a.source} is neither a folder nor a .zip archive",
                      "Pass the library's folder, or the .zip the vendor's download is.")
    name = a.name or nickname(source.stem if is_zip else source.name)
    home = project / "libs" / name
    left: list[str] = []
    if is_zip:
        if home.exists():
            raise _refuse("name", f"{ws.relative(home)} already exists",
                          "Pass another name, or register that folder (source: its path).")
        try:
            with zipfile.ZipFile(source) as z:
                names = [i.filename for i in z.infolist()]
        except zipfile.BadZipFile as e:
            raise InvalidArgs(f"{a.source} is not a zip archive ({e})",
                              errors=[{"loc": "source", "msg": "not a zip archive", "type": "value"}]) from e
        found_names = [n for n in names if n.lower().endswith((".kicad_sym", ".kicad_mod"))]
        if not found_names:
            raise NotFound(f"{a.source} holds no .kicad_sym or .kicad_mod file",
                           hint="A KiCad library is .kicad_sym files (symbols) and .pretty folders of .kicad_mod files.")
        left = extract(source, home)  # checks every entry first: unsafe-archive, nothing written
        try:
            found = find_files(home)
            loose = home / f"{name}.pretty" if found.loose_footprints else None
            rows = _plan(found, loose, project)
            _check_names(rows, project)
            if loose is not None:
                gather_footprints(found.loose_footprints, loose, move=True)
        except BaseException:
            shutil.rmtree(home, ignore_errors=True)
            raise
        folder = ws.relative(home)
    else:
        found = find_files(source)
        left = found.other
        if not (found.symbols or found.footprint_dirs or found.loose_footprints):
            raise NotFound(f"{a.source} holds no .kicad_sym file, .pretty folder or .kicad_mod file",
                           hint="A KiCad library is .kicad_sym files (symbols) and .pretty folders of .kicad_mod files.")
        loose = home / f"{name}.pretty" if found.loose_footprints else None
        if loose is not None and loose.exists():
            raise _refuse("name", f"{ws.relative(loose)} already exists", "Pass another name.")
        rows = _plan(found, loose, project)
        _check_names(rows, project)
        folder = None
        if loose is not None:
            gather_footprints(found.loose_footprints, loose, move=False)
            folder = ws.relative(home)
    relinked = sum(relink_models(path, found.models, project) for k, _, path in rows if k == "fp")
    tables, libraries = _write_tables(rows, project, ws)
    nicks = [row["nickname"] for row in libraries]
    kinds = [f"{r['kind']} library {r['nickname']}" for r in libraries]
    out = {"summary": f"added {', '.join(kinds)} to {' and '.join(tables)}"
                      + (f"; {len(found.models)} 3D models" if found.models else ""),
           "libraries": libraries, "nicknames": nicks, "tables": tables,
           "models": len(found.models), "models_relinked": relinked}
    if folder:
        out["folder"] = folder
    if left:
        out["left_out"] = left[:50]
    return out
