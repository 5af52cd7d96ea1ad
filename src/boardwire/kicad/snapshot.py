"""The in-memory state of a document written where KiCad can read it.

kicad-cli reads files, so checks and renders write the document's current bytes into
a private temporary folder, with the project files KiCad reads beside a board or
schematic (``.kicad_pro`` for rules and net classes, ``.kicad_dru``, library tables,
and, for schematics, every sheet of the hierarchy from the session or from disk).
The user's files are never written.
"""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

_SIBLINGS = (".kicad_pro", ".kicad_dru", ".kicad_prl")
_TABLES = ("fp-lib-table", "sym-lib-table")


@contextmanager
def snapshot(session, od, extra_docs: bool = True) -> Iterator[Path]:
    """Yield the path of a temporary copy of ``od`` (an OpenDocument) as it is in memory.

    Takes the session lock only while copying."""
    with tempfile.TemporaryDirectory(prefix="boardwire-") as tmp:
        folder = Path(tmp)
        with session.lock:
            src_dir = od.full.parent
            stem = od.full.stem
            for suffix in _SIBLINGS:
                p = src_dir / (stem + suffix)
                if p.is_file():
                    shutil.copy(p, folder / p.name)
            for name in _TABLES:
                p = src_dir / name
                if p.is_file():
                    shutil.copy(p, folder / name)
            if extra_docs and od.kind == "schematic":
                for sheet in src_dir.glob("*.kicad_sch"):
                    shutil.copy(sheet, folder / sheet.name)
            # documents open in the session override the files on disk
            for other in session.documents.values():
                if other.full.parent == src_dir and (other is od or extra_docs):
                    (folder / other.full.name).write_bytes(other.doc.to_bytes())
            target = folder / od.full.name
            if not target.exists():
                target.write_bytes(od.doc.to_bytes())
        yield target
