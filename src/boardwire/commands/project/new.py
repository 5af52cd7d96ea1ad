"""project.new: a new KiCad 9 (or 10) project (C3 project family), as KiCad writes one.

The files and their sources are in `boardwire.documents.project.new`. The project is
built in a private temporary folder and moved into place only when complete, so a
half-built project is never visible: a new folder is renamed into place in one step;
in an existing folder each file is hard-linked into place (which never replaces a
file) with the ``.kicad_pro`` last. An existing project is never overwritten: if any
target file exists the call fails with ``invalid-args`` and changes nothing.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator

from ...documents.library.tables import merge_tables, missing_global_tables, rebase_table
from ...documents.project.new import STARTER, lib_table, project_files
from ...errors import BoardwireError, InvalidArgs, NotFound
from ...registry import Context, command
from ..common import WRITE, Args, InputPath, Role
from .results import ProjectCreated

NAME_PATTERN = r"^[^./\\:*?\"<>|\x00-\x1f][^/\\:*?\"<>|\x00-\x1f]{0,99}$"


class NewArgs(Args):
    name: str = Field(max_length=100)

    @field_validator("name")
    @classmethod
    def _file_name(cls, v: str) -> str:
        # the name becomes NAME.kicad_pro etc.: say what is wrong in words, not a regex
        if not re.match(NAME_PATTERN, v):
            raise ValueError("a project name is a file name: 1-100 characters, not starting with '.', "
                             "without / \\ : * ? \" < > | or control characters")
        if v != v.strip():
            raise ValueError("a project name does not start or end with a space")
        if v.lower().endswith((".kicad_pro", ".kicad_pcb", ".kicad_sch")):
            raise ValueError(f"give the name without the extension ({v.rsplit('.', 1)[0]!r})")
        return v
    template: Literal["blank", "2layer-starter"] = Field(
        "blank", description="2layer-starter: 50x40 mm outline, 0.2 mm clearance/track, 0.6/0.3 mm vias")
    folder: Annotated[str, Role(WRITE, default="name")] | None = Field(
        None, min_length=1, max_length=4096, description="Default: a new folder NAME")
    # Default 9: the KiCad here (kicad-cli 9 checks, exports and fills what boardwire
    # makes and cannot load KiCad 10 files), and KiCad 10 opens KiCad 9 projects as
    # they are; 10 writes KiCad 10's formats for a user whose KiCad is 10.
    kicad_version: Literal[9, 10] = 9
    library_tables_from: InputPath | None = Field(
        None, max_length=4096, description="Folder whose library tables come first")


def _exists(err: str, what: list[str]) -> InvalidArgs:
    return InvalidArgs(err, errors=[{"loc": "name", "msg": f"already there: {', '.join(what)}", "type": "exists"}],
                       hint="Choose another name or folder; boardwire never overwrites a project.")


def _write(folder: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        with open(folder / name, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())


def _place_folder(build: Path, target: Path) -> None:
    """Rename the finished folder into place (one step; fails if ``target`` is there
    and not empty)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(build, 0o777 & ~umask)
    try:
        os.rename(build, target)
    except OSError as e:
        raise _exists(f"{target.name} appeared while the project was being built", [target.name]) from e


def _place_files(build: Path, target: Path, names: list[str]) -> None:
    """Link each file into ``target`` (never replacing one); undo on any failure."""
    placed: list[Path] = []
    try:
        for name in names:
            dst = target / name
            try:
                os.link(build / name, dst)
            except FileExistsError:
                raise _exists(f"{name} appeared while the project was being built", [name]) from None
            except OSError:  # no hard links here: check, then rename (a small window)
                if dst.exists():
                    raise _exists(f"{name} appeared while the project was being built", [name]) from None
                os.rename(build / name, dst)
            placed.append(dst)
    except BaseException:
        for dst in placed:
            dst.unlink(missing_ok=True)
        raise


def _taken_tables(ws, source: str, target: Path, tables: dict[str, bytes]) -> dict[str, bytes]:
    """Kind ("sym", "fp") -> the library table of folder ``source`` (a file names its
    folder) rebased for a project in ``target`` (`rebase_table`), followed by the rows of
    the table the project would have had (``tables``: KiCad's default libraries on a
    machine without global tables). Errors: not-found for a missing folder; parse-error
    or unsupported-format for a table that does not read, naming it."""
    folder = ws.resolve(source)
    if folder.is_file():
        folder = folder.parent
    if not folder.is_dir():
        raise NotFound(f"no folder {source}", hint="library_tables_from names the folder holding sym-lib-table/fp-lib-table.")
    out = {}
    for kind in ("sym", "fp"):
        table = folder / f"{kind}-lib-table"
        if table.is_file():
            try:
                out[kind] = merge_tables(rebase_table(table.read_bytes(), folder, target),
                                         tables.get(kind) or lib_table(kind))
            except BoardwireError as e:  # the reader's error, naming the table
                e.message = f"{ws.relative(table)}: {e.message}"
                e.args = (e.message,)
                raise
    return out


@command("project.new", kind="session", args=NewArgs, result=ProjectCreated,
         examples=({"name": "blinky", "template": "2layer-starter"},
                   {"name": "sensor", "folder": "."}))
def new(ctx: Context, a: NewArgs) -> dict:
    """A new KiCad 9 (default: kicad-cli here checks it) or 10 project: NAME.kicad_pro, .kicad_sch, .kicad_pcb, library tables. Never overwrites (invalid-args)."""
    ws = ctx.session.workspace
    target = ws.resolve(a.folder if a.folder is not None else a.name)
    rel = "" if target == ws.root else ws.relative(target)
    missing = missing_global_tables()
    tables = {k: p.read_bytes() for k, p in missing.items() if p is not None}
    taken = _taken_tables(ws, a.library_tables_from, target, tables) if a.library_tables_from is not None else {}
    files = project_files(a.name, a.template, {**tables, **taken}, kicad=a.kicad_version)
    blocker = next((p for p in (target, *target.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise InvalidArgs(f"{ws.relative(blocker)} is a file, not a folder",
                          errors=[{"loc": "folder", "msg": "not a folder", "type": "value"}])
    existing = sorted(n for n in files if (target / n).exists() or (target / n).is_symlink())
    if existing:
        raise _exists(f"{rel or '.'} already holds {', '.join(existing)}; "
                      "nothing was written", existing)
    new_folder = not target.exists()
    parent = target.parent if new_folder else target
    parent.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(prefix=".boardwire-new-", dir=parent))
    try:
        _write(build, files)
        if new_folder:
            _place_folder(build, target)
        else:
            _place_files(build, target, list(files))
    finally:
        if build.exists():
            shutil.rmtree(build, ignore_errors=True)
    prefix = f"{rel}/" if rel else ""
    written = [{"path": prefix + n, "bytes": len(d)} for n, d in files.items()]
    out = {"summary": f"new {a.template} KiCad {a.kicad_version} project {a.name} in {rel or '.'} ({len(files)} files)",
           "project": f"{prefix}{a.name}.kicad_pro", "board": f"{prefix}{a.name}.kicad_pcb",
           "schematic": f"{prefix}{a.name}.kicad_sch", "template": a.template,
           "kicad_version": a.kicad_version, "files": written}
    notes = {f"{k}-lib-table": (f"no global {k}-lib-table here: the project's lists KiCad's default libraries"
                                if p is not None else f"no global {k}-lib-table and no KiCad template to copy: "
                                f"add the libraries you use to {prefix}{k}-lib-table")
             for k, p in missing.items()}
    for k in taken:
        name = f"{k}-lib-table"
        notes[name] = (f"the project libraries of {a.library_tables_from}/{name}, paths rewritten for {rel or '.'}"
                       + ("; then KiCad's default libraries (no global table here)" if missing.get(k) else ""))
    if notes:
        out["library_tables"] = notes
        out["summary"] += "; " + "; ".join(notes.values())
    if a.template == "2layer-starter":
        out["rules"] = {**STARTER.rules(), "via_drill": STARTER.via_drill}
        out["outline"] = list(STARTER.outline)
    return out
