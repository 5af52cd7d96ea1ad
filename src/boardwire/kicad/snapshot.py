"""The in-memory state of a design written where kicad-cli can read it.

kicad-cli reads files, so every check, export and render writes the documents' current
bytes into a private temporary folder: a board alone (`snapshot`), or a schematic
hierarchy with every sheet where the workspace has it, subfolders included, and
optionally its board beside the root (`hierarchy_snapshot`, for ERC, BOM, netlists,
schematic renders and DRC with schematic parity). The project files KiCad reads beside
a board or a root sheet come along: ``NAME.kicad_pro`` (rules, net classes),
``NAME.kicad_dru``, ``NAME.kicad_prl``, the library tables (their project-relative
``${KIPRJMOD}`` rows rewritten to name the project's folder, so libraries resolve
exactly as in place) and, for schematics, the
symbol libraries of the folder. A document open in the session is written as it is in
memory (unsaved edits included), any other file as it is on disk. The user's files are
never written; the session lock is held only while copying.

``session`` is a `boardwire.session.Session` and ``od`` one of its OpenDocuments.
"""

from __future__ import annotations

import posixpath
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..documents.library.tables import anchor_table
from ..documents.project.files import board_schematic
from ..errors import NotFound
from .cli import require_readable

_PROJECT_FILES = (".kicad_pro", ".kicad_dru", ".kicad_prl")
_TABLES = ("fp-lib-table", "sym-lib-table")
_LOADED = (".kicad_pcb", ".kicad_sch")  # what KiCad is asked to load (not libraries beside)


def _put(target: Path, data: bytes) -> None:
    """Write a document's bytes for KiCad, refusing a board or sheet in a format the
    installed KiCad cannot load (`require_readable`: one clear error, not KiCad's)."""
    if target.suffix in _LOADED:
        require_readable(target.name, data[:1000])
    target.write_bytes(data)


def _write(session, source: Path, target: Path) -> None:
    """``source`` as the session has it (open: in memory), else as on disk."""
    od = session.documents.get(session.workspace.relative(source))
    if od is not None:
        _put(target, od.doc.to_bytes())
    else:
        if target.suffix in _LOADED:
            with open(source, "rb") as f:
                require_readable(target.name, f.read(1000))
        shutil.copyfile(source, target)


def _project_files(session, od, folder: Path, symbol_libraries: bool) -> None:
    """The files KiCad reads beside ``od`` (see the module), into ``folder``."""
    src = od.full.parent
    names = [od.full.stem + suffix for suffix in _PROJECT_FILES] + list(_TABLES)
    if symbol_libraries:
        names += sorted(p.name for p in src.glob("*.kicad_sym"))
    for name in names:
        p = src / name
        if (p.is_file() or session.workspace.relative(p) in session.documents) and not (folder / name).exists():
            _write(session, p, folder / name)
            if name in _TABLES:  # its ${KIPRJMOD} rows must find the libraries in place
                (folder / name).write_bytes(anchor_table((folder / name).read_bytes(), src))


@contextmanager
def snapshot(session, od) -> Iterator[Path]:
    """Yield the path of a temporary copy of ``od`` (a board) as it is in memory, with
    its project files."""
    with tempfile.TemporaryDirectory(prefix="boardwire-") as tmp:
        folder = Path(tmp)
        with session.lock:
            _project_files(session, od, folder, symbol_libraries=False)
            target = folder / od.full.name
            _put(target, od.doc.to_bytes())
        yield target


@contextmanager
def hierarchy_snapshot(session, root, sheets: Callable[[], Iterable[str]], board=None) -> Iterator[Path]:
    """Yield the path of the root sheet in a temporary copy of the hierarchy whose
    root is ``root`` (an OpenDocument). ``sheets()``, called under the session lock,
    gives the workspace keys of the hierarchy's sheet files; they are laid out as in
    the workspace (relative to the folder that holds them all). ``board`` (an
    OpenDocument) is written beside the root as ``ROOT.kicad_pcb``, where kicad-cli's
    ``--schematic-parity`` looks for the schematic of a board."""
    with tempfile.TemporaryDirectory(prefix="boardwire-sch-") as tmp:
        folder = Path(tmp)
        with session.lock:
            keys = set(sheets()) | {root.path}
            base = posixpath.normpath(posixpath.commonpath(["./" + posixpath.dirname(k) for k in keys]))
            for key in keys:
                target = folder / posixpath.relpath("./" + key, base)
                target.parent.mkdir(parents=True, exist_ok=True)
                _write(session, session.workspace.resolve(key), target)
            top = folder / posixpath.relpath("./" + root.path, base)
            _project_files(session, root, top.parent, symbol_libraries=True)
            if board is not None:
                _put(top.with_suffix(".kicad_pcb"), board.doc.to_bytes())
        yield top


@contextmanager
def board_snapshot(session, od, schematic=None, sheets: Callable[[], Iterable[str]] = tuple) -> Iterator[Path]:
    """Yield the path of a temporary copy of board ``od``: alone (`snapshot`), or
    with ``schematic`` (the OpenDocument of its root sheet; ``sheets`` as for
    `hierarchy_snapshot`) beside it, for ``--schematic-parity``."""
    if schematic is None:
        with snapshot(session, od) as board:
            yield board
        return
    with hierarchy_snapshot(session, schematic, sheets, board=od) as root:
        yield root.with_suffix(".kicad_pcb")


def schematic_beside(session, od, actor: str = "local", required: bool = True):
    """The root schematic ``NAME.kicad_sch`` beside board ``od`` (the one KiCad pairs
    with a board, as schematic parity reads it), opened in the session; None when there
    is none, or NotFound when ``required``."""
    full = board_schematic(od.full)
    key = session.workspace.relative(full)
    if key not in session.documents and not full.is_file():
        if not required:
            return None
        raise NotFound(f"no schematic {key} beside the board for the parity check",
                       hint="KiCad pairs a board with the schematic of the same name in its folder.")
    return session.get(key, "schematic", actor)
