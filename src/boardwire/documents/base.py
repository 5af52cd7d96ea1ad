"""What every document has: where it came from, its revision, and a safe save."""

from __future__ import annotations

import os
from pathlib import Path
from typing import ClassVar

from ..errors import FileChangedOnDisk, ReadOnlyFile
from . import fileio


class Document:
    """A KiCad file held in memory.

    ``edits`` counts the edit primitives applied since it was read (0 when untouched;
    the session keeps its own per-command revision on top); ``generation`` grows with
    every change, undone ones included, so caches of derived data can tell when the
    tree moved, even inside one revision (a batch); ``content_hash`` is the
    SHA-256 of what `save` would write. `save` refuses to overwrite a file that changed
    on disk since it was read, unless ``force``.
    """

    kind: ClassVar[str] = "file"

    def __init__(self, data: bytes, path: str | Path | None = None):
        self.path = Path(path) if path is not None else None
        self.original = data
        self.edits = 0
        self.generation = 0
        self._saved_edits = 0
        self._disk = fileio.DiskState.of(self.path, data) if self.path else None

    @classmethod
    def load(cls, path: str | Path):
        path = Path(path)
        return cls(path.read_bytes(), path)

    # -- content ---------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        raise NotImplementedError

    @property
    def modified(self) -> bool:
        return self.edits != self._saved_edits

    @property
    def content_hash(self) -> str:
        return fileio.sha256(self.to_bytes())

    def new_files(self) -> dict[Path, bytes]:
        """Files (resolved path -> content) this document writes beside itself when
        saved, not on disk yet; none for most documents (see `Schematic.add_sheet`)."""
        return {}

    def touch(self) -> None:
        """Record one change (views call this after every edit)."""
        self.edits += 1
        self.generation += 1

    # -- saving ----------------------------------------------------------------------

    def changed_on_disk(self) -> bool:
        """True if someone else changed the file since we read or wrote it."""
        return self.path is not None and fileio.changed_since(self.path, self._disk)

    def save(self, path: str | Path | None = None, *, force: bool = False,
             backup: bool = True) -> Path:
        """Write the document atomically and return where it went.

        Saving to the file it was read from refuses (``FileChangedOnDisk``, code
        ``file-changed``) if that file changed on disk since, unless ``force``. The
        previous content is kept under ``.boardwire/backups/``; permissions are kept.
        An unedited document saved over its own unchanged file writes nothing.
        """
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("this document has no path: pass one to save()")
        data = self.to_bytes()
        same_file = self.path is not None and target.resolve() == self.path.resolve()
        if target.is_dir():
            raise ReadOnlyFile(f"{target} is a folder")
        if same_file and self._disk is None and not target.parent.exists():
            target.parent.mkdir(parents=True)  # a new document (a new sheet's file) in a new folder
        # A file with no write bit at all is marked read-only by its owner; honour that
        # even for root, who may write anything (the atomic rename would bypass it).
        if not os.access(target.parent, os.W_OK) or (target.exists() and (
                not os.access(target, os.W_OK) or not target.stat().st_mode & 0o222)):
            raise ReadOnlyFile(f"{target} is read-only (or its folder is); nothing was written")
        with fileio.locked(target):
            fileio.sweep_stale(target)  # what a save killed half-way left behind
            if same_file and not force and self.changed_on_disk():
                gone = not target.exists()
                raise FileChangedOnDisk(
                    f"{target} was {'deleted' if gone else 'changed on disk'} since it was "
                    "opened; saving would " + ("re-create it" if gone else "overwrite that change"))
            if same_file and not self.changed_on_disk() and data == self.original and target.exists():
                self._saved_edits = self.edits
                return target
            if backup and target.exists():
                fileio.backup(target)
            fileio.atomic_write(target, data)
            if same_file or self.path is None:
                self.path = target
                self.original = data
                self._disk = fileio.DiskState.of(target, data)
        self._saved_edits = self.edits
        return target
