"""Registering libraries in a project's library table (``sym-lib-table`` or
``fp-lib-table`` in the project folder), as KiCad's library manager does: one row per
library, ``${KIPRJMOD}``-relative, the table created when the project has none."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from ..fileio import atomic_write
from ..project.new import lib_table
from .lib_table import LibTable
from .tables import table_rows

KINDS = {"symbol": "sym", "footprint": "fp", "sym": "sym", "fp": "fp"}


def project_uri(path: Path, project_dir: Path) -> str:
    """``path`` as a project library table writes it: ``${KIPRJMOD}/<relative path>``
    (POSIX separators; ``..`` when the library is beside the project folder)."""
    rel = os.path.relpath(Path(path).resolve(), Path(project_dir).resolve()).replace(os.sep, "/")
    return "${KIPRJMOD}" if rel == "." else "${KIPRJMOD}/" + posixpath.normpath(rel)


def registered(kind: str, nickname: str, project_dir: Path) -> Path | None:
    """Where the library ``nickname`` of ``kind`` ("symbol"/"sym", "footprint"/"fp")
    the project sees lives (its table, else the global one), or None."""
    for nick, uri in table_rows(KINDS[kind], project_dir):
        if nick == nickname:
            path = Path(uri)
            return path if path.is_absolute() else project_dir / path
    return None


def taken(kind: str, nicknames: list[str], project_dir: Path) -> list[str]:
    """Those of ``nicknames`` a table the project sees already has."""
    have = {nick for nick, _ in table_rows(KINDS[kind], project_dir)}
    return [n for n in nicknames if n in have]


def register(kind: str, libraries: list[tuple[str, Path]], project_dir: Path) -> tuple[Path, list[str]]:
    """Append a row for each (nickname, library path) to the project's table of
    ``kind`` (created if absent), written atomically; returns (the table's path, the
    URIs written). ValueError for a nickname the table already has."""
    k = KINDS[kind]
    path = project_dir / f"{k}-lib-table"
    table = LibTable(path.read_bytes() if path.is_file() else lib_table(k), str(path))
    uris = []
    for nick, lib in libraries:
        uri = project_uri(lib, project_dir)
        table.add_library(nick, uri)
        uris.append(uri)
    atomic_write(path, table.to_bytes())
    return path, uris
