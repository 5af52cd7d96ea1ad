"""The working directory a session may read and write, and nothing outside it."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InvalidArgs, PathOutsideWorkspace


class Workspace:
    """Resolves client paths against a root directory.

    Paths are relative to ``root``. One that resolves outside it — through ``..``, an
    absolute path elsewhere, or a symbolic link pointing out — is refused with
    ``path-outside-workspace``. An absolute path inside the root is accepted.
    """

    def __init__(self, root: str | Path):
        self.root = Path(root).resolve()

    def resolve(self, path: str | Path) -> Path:
        if not isinstance(path, (str, Path)) or str(path) == "":
            raise InvalidArgs("a path is required", errors=[{"loc": "path", "msg": "empty", "type": "value"}])
        if "\x00" in str(path):
            raise InvalidArgs(f"{path!r} is not a valid path (a NUL character)",
                              errors=[{"loc": "path", "msg": "NUL character", "type": "value"}])
        p = Path(path)
        full = (p if p.is_absolute() else self.root / p).resolve()
        if full != self.root and self.root not in full.parents:
            raise PathOutsideWorkspace(
                f"{path} resolves to {full}, outside the working directory {self.root}")
        return full

    def relative(self, full: Path) -> str:
        """The workspace-relative spelling of a resolved path (POSIX separators)."""
        return full.relative_to(self.root).as_posix()

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r})"


def same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a == b
