"""Saving files so that nothing is lost: atomic replace, a backup, same permissions.

The new content goes to a temporary file in the target's own folder (so the final
rename never crosses file systems), is flushed and fsynced, takes the permission bits
(and, when allowed, the owner) of the file it replaces, and is renamed over it with
``os.replace``; the folder is fsynced so the rename itself survives a crash. Before the
rename, the previous content is copied to ``.boardwire/backups/`` beside the file,
keeping the newest `KEEP_BACKUPS` per file. A save killed half-way (``kill -9``) can
leave its temporary behind; the next save of the same file removes such stale
temporaries of our own naming (`sweep_stale`), beside the file and among its backups.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

KEEP_BACKUPS = 5
BACKUP_DIR = ".boardwire/backups"

# boardwire's own state beside the documents (locks, backups, the audit log, keys): no
# command writes into it on an agent's behalf (registry/policy.py)
STATE_FOLDER = ".boardwire"


@dataclass(frozen=True)
class DiskState:
    """What a file on disk looked like when we last read or wrote it: its stat
    signature, and the bytes themselves to compare when the signature moved."""

    size: int
    mtime_ns: int
    data: bytes

    @classmethod
    def of(cls, path: Path, data: bytes) -> DiskState | None:
        try:
            st = path.stat()
        except FileNotFoundError:
            return None
        return cls(st.st_size, st.st_mtime_ns, data)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def changed_since(path: Path, seen: DiskState | None) -> bool:
    """True when the file on disk is no longer what we read (content, not just mtime:
    a touch or a rewrite with the same bytes is not a change)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return seen is not None
    if seen is None:
        return True
    if st.st_size == seen.size and st.st_mtime_ns == seen.mtime_ns:
        return False
    return path.read_bytes() != seen.data


def backup(path: Path) -> Path | None:
    """Copy the current content of ``path`` to its backup folder; return the copy."""
    if not path.exists():
        return None
    folder = path.parent / BACKUP_DIR
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = folder / f"{path.name}.{stamp}-{time.time_ns() % 1_000_000_000:09d}.bak"
    atomic_write(target, path.read_bytes(), keep_from=path)
    olds = sorted(folder.glob(f"{glob_escape(path.name)}.*.bak"))
    for old in olds[:-KEEP_BACKUPS]:
        old.unlink(missing_ok=True)
    return target


# tempfile.mkstemp's random part: 8 characters of this alphabet
_RANDOM = r"[a-z0-9_]{8}"


def sweep_stale(path: Path) -> list[Path]:
    """Remove the temporaries an interrupted save of ``path`` left behind; return them.

    Only names we make are touched: ``.NAME.XXXXXXXX.tmp`` beside the file and
    ``.NAME.<stamp>.bak.XXXXXXXX.tmp`` in its backup folder (``XXXXXXXX`` is
    `tempfile.mkstemp`'s random part). Call it holding `locked` (path): then no other
    save of this file can be writing one of them.
    """
    name = re.escape(path.name)
    where = ((path.parent, re.compile(rf"\.{name}\.{_RANDOM}\.tmp")),
             (path.parent / BACKUP_DIR,
              re.compile(rf"\.{name}\.\d{{8}}-\d{{6}}-\d{{9}}\.bak\.{_RANDOM}\.tmp")))
    removed = []
    for folder, pattern in where:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
    return removed


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in name)


def atomic_write(path: Path, data: bytes, keep_from: Path | None = None) -> None:
    """Write ``data`` to ``path`` atomically.

    ``keep_from``: the file whose permission bits (and owner, when we may) the result
    takes; by default ``path`` itself if it exists. A new file gets the process umask.
    """
    path = Path(path)
    source = path if keep_from is None and path.exists() else keep_from
    mode = owner = None
    if source is not None and source.exists():
        st = source.stat()
        mode, owner = stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        if owner is not None and hasattr(os, "chown"):
            try:
                os.chown(tmp, *owner)
            except PermissionError:
                pass
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def locked(path: Path):
    """Hold an exclusive lock for saving ``path`` (``.boardwire/locks/NAME.lock`` beside
    it), so two processes never both check-then-replace the same file."""
    folder = path.parent / STATE_FOLDER / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{path.name}.lock", "a+") as f:
        try:
            import fcntl
        except ImportError:  # not POSIX: no advisory locks
            yield
            return
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)
