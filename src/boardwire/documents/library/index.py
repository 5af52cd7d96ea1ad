"""A fast index of symbol and footprint libraries, for searching them.

Reading all 224 installed symbol libraries (210 MB) with the lossless reader takes about
80 s; this module never does. A symbol library is cut into its top-level symbols by the
vectorised scan (`sexpr.index.scan`) and each symbol's head is read with a few regular
expressions (properties, ``extends``, unit names, pin numbers); a footprint file is read
for its ``descr``, ``tags``, ``attr`` and pad numbers. Each item keeps the byte span of
its definition, so reading one symbol later parses only that span.

Libraries are indexed one by one, lazily, and kept in memory per process. The index
of each library is also kept on disk (in ``lib-index-v1/`` under ``$BOARDWIRE_CACHE_DIR``,
else ``$XDG_CACHE_HOME/boardwire``, else ``~/.cache/boardwire``), keyed by the library's
path and signature: a ``.kicad_sym`` file's mtime and size; a ``.pretty`` folder's
mtime, file count, newest file mtime and total size. Within a process a library is
re-read when its file, or its folder, changes (adding, removing or renaming a
footprint file changes the folder; KiCad and boardwire save by renaming a temporary
file). A cache that cannot be read or written is ignored.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ...sexpr import atoms

log = logging.getLogger("boardwire")

CACHE_VERSION = 1
_STR = rb'"(?:[^"\\\n]|\\.)*"|[^\s()"]+'
_PROP = re.compile(rb"\(property\s+(" + _STR + rb")\s+(" + _STR + rb")")
_EXTENDS = re.compile(rb"\(extends\s+(" + _STR + rb")\s*\)")
_POWER = re.compile(rb"\(power[\s)]")
_SUBSYM = re.compile(rb"\(symbol\s+(" + _STR + rb")")
_NUMBER = re.compile(rb"\(number\s+(" + _STR + rb")")
_UNIT_NAME = re.compile(r"_(\d+)_(\d+)$")
_DESCR = re.compile(rb"\(descr\s+(" + _STR + rb")")
_TAGS = re.compile(rb"\(tags\s+(" + _STR + rb")")
_ATTR = re.compile(rb"\(attr((?:\s+[^\s()]+)*)\s*\)")
_PAD = re.compile(rb"\(pad\s+(" + _STR + rb")\s+([^\s()]+)")


@dataclass(slots=True)
class LibItem:
    """One symbol or footprint of a library, as the index knows it.

    ``count``: distinct pin numbers of a symbol (units and body style 1; hidden pins
    included) or distinct numbered pads of a footprint (NPTH holes excluded);
    ``units``: a symbol's unit count; ``filters``: a symbol's ``ki_fp_filters``;
    ``footprint``: a symbol's default footprint; ``attrs``: a footprint's ``attr``
    words; ``span``: byte offsets of a symbol's definition in its file (None when
    the file needed the exact reader)."""

    name: str
    description: str = ""
    keywords: str = ""
    filters: str = ""
    footprint: str = ""
    count: int = 0
    units: int = 1
    extends: str = ""
    power: bool = False
    attrs: str = ""
    span: tuple[int, int] | None = None

    def to_row(self) -> list:
        return [self.name, self.description, self.keywords, self.filters, self.footprint,
                self.count, self.units, self.extends, self.power, self.attrs,
                list(self.span) if self.span else None]

    @classmethod
    def from_row(cls, row: list) -> LibItem:
        span = tuple(row[10]) if row[10] else None
        return cls(*row[:10], span=span)


def _text(atom: bytes) -> str:
    return atoms.text(atom)


# -- scanning ---------------------------------------------------------------------------

def _symbol_item(buf: bytes, start: int, end: int) -> LibItem | None:
    """Index the top-level ``(symbol ...)`` at ``buf[start:end]``."""
    subs = list(_SUBSYM.finditer(buf, start, end))
    if not subs or subs[0].start() != start:
        return None
    item = LibItem(_text(subs[0].group(1)), span=(start, end))
    head_end = subs[1].start() if len(subs) > 1 else end
    props: dict[str, str] = {}
    for m in _PROP.finditer(buf, start, head_end):
        props.setdefault(_text(m.group(1)), _text(m.group(2)))
    item.description = props.get("Description") or props.get("ki_description") or ""
    item.keywords = props.get("ki_keywords", "")
    item.filters = props.get("ki_fp_filters", "")
    item.footprint = props.get("Footprint", "")
    m = _EXTENDS.search(buf, start, head_end)
    item.extends = _text(m.group(1)) if m else ""
    item.power = _POWER.search(buf, start, head_end) is not None
    numbers: set[str] = set()
    units = 1
    bounds = [s.start() for s in subs[1:]] + [end]
    for sub, stop in zip(subs[1:], bounds[1:]):
        um = _UNIT_NAME.search(_text(sub.group(1)))
        unit, style = (int(um.group(1)), int(um.group(2))) if um else (0, 0)
        units = max(units, unit)
        if style <= 1:
            numbers.update(_text(n.group(1)) for n in _NUMBER.finditer(buf, sub.start(), stop))
    numbers.update(_text(n.group(1)) for n in _NUMBER.finditer(buf, start, bounds[0]))
    item.count = len(numbers)
    item.units = units
    return item


def _resolve_extends(items: list[LibItem]) -> None:
    """A derived symbol shows its parent's pins and units (and, where it has none of
    its own, description, keywords and footprint filters), as KiCad does."""
    by_name = {i.name: i for i in items}
    for item in items:
        parent, seen = item, set()
        while parent.extends and parent.extends in by_name and parent.name not in seen:
            seen.add(parent.name)
            parent = by_name[parent.extends]
        if parent is item:
            continue
        item.count, item.units = parent.count, parent.units
        item.description = item.description or parent.description
        item.keywords = item.keywords or parent.keywords
        item.filters = item.filters or parent.filters


def scan_symbol_library(path: Path) -> list[LibItem]:
    """The symbols of a ``.kicad_sym`` file. Raises OSError or ParseError."""
    from ...sexpr.index import scan

    buf = path.read_bytes()
    top = scan(buf)
    items: list[LibItem] = []
    if top is not None:
        for s, e in zip(top.starts.tolist(), top.ends.tolist()):
            if buf.startswith(b"(symbol", s):
                item = _symbol_item(buf, s, e)
                if item is not None:
                    items.append(item)
    else:  # comments or other rarities: the exact reader, slow but right
        from ..schematic import SymbolLibrary

        lib = SymbolLibrary(buf, str(path))
        for sym in lib.symbols:
            text = sym.node.to_bytes()
            item = _symbol_item(text, 0, len(text))
            if item is not None:
                item.span = None
                items.append(item)
    _resolve_extends(items)
    return items


def scan_footprint_file(path: Path) -> LibItem:
    buf = path.read_bytes()
    item = LibItem(path.name[: -len(".kicad_mod")])
    m = _DESCR.search(buf)
    item.description = _text(m.group(1)) if m else ""
    m = _TAGS.search(buf)
    item.keywords = _text(m.group(1)) if m else ""
    m = _ATTR.search(buf)
    item.attrs = " ".join(m.group(1).decode("utf-8", "replace").split()) if m else ""
    pads = {_text(num) for num, kind in _PAD.findall(buf) if kind != b"np_thru_hole"}
    pads.discard("")
    item.count = len(pads)
    return item


def scan_footprint_library(folder: Path) -> list[LibItem]:
    """The footprints of a ``.pretty`` folder, by name. Raises OSError."""
    with os.scandir(folder) as it:
        files = sorted(e.path for e in it if e.name.endswith(".kicad_mod") and e.is_file())
    return [scan_footprint_file(Path(f)) for f in files]


# -- signatures and the cache --------------------------------------------------------

def quick_signature(path: Path) -> list[int] | None:
    """What changes when a library file is rewritten, or a footprint folder's entries
    change (one stat); None if the library is missing."""
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size if path.is_file() else 0]


def full_signature(path: Path) -> list[int] | None:
    """`quick_signature` plus, for a folder, file count, newest mtime and total size."""
    quick = quick_signature(path)
    if quick is None or not path.is_dir():
        return quick
    count = newest = total = 0
    with os.scandir(path) as it:
        for e in it:
            if e.name.endswith(".kicad_mod"):
                st = e.stat()
                count += 1
                newest = max(newest, st.st_mtime_ns)
                total += st.st_size
    return quick + [count, newest, total]


def cache_dir() -> Path:
    if os.environ.get("BOARDWIRE_CACHE_DIR"):
        return Path(os.environ["BOARDWIRE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "boardwire"


@dataclass
class Library:
    """One indexed library: its kind ("symbol"/"footprint"), path, signatures, items."""

    kind: str
    path: Path
    quick: list[int]
    full: list[int]
    items: list[LibItem]
    search_data: object = None  # filled by lib_search, per process


class LibraryIndex:
    """Libraries indexed on demand, kept per process and on disk (thread-safe).

    On disk each library has its own small JSON file, named by a hash of its path, so
    an edited project library rewrites only its own entry and processes never contend
    for one file. Libraries read in under `CACHE_MIN_S` (a project's few symbols) are
    not written: reading them again costs less than the cache would save."""

    CACHE_MIN_S = 0.005

    def __init__(self, cache_root: Path | None = None):
        self._cache_root = cache_root
        self._libs: dict[str, Library] = {}
        self._lock = threading.RLock()
        self.scanned = 0  # libraries read from their files (not the cache) so far

    def cache_file(self, path: Path) -> Path:
        digest = hashlib.sha1(str(path).encode("utf-8", "surrogateescape")).hexdigest()[:20]
        root = self._cache_root or cache_dir() / f"lib-index-v{CACHE_VERSION}"
        return root / f"{path.name[:40]}-{digest}.json"

    def _read_cache(self, kind: str, path: Path, sig: list[int]) -> list[LibItem] | None:
        try:
            data = json.loads(self.cache_file(path).read_text(encoding="utf-8"))
            if (data.get("version") == CACHE_VERSION and data.get("path") == str(path)
                    and data.get("kind") == kind and data.get("sig") == sig):
                return [LibItem.from_row(r) for r in data["items"]]
        except (OSError, ValueError, AttributeError, KeyError, TypeError, IndexError):
            pass
        return None

    def _write_cache(self, kind: str, path: Path, sig: list[int], items: list[LibItem]) -> None:
        target = self.cache_file(path)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump({"version": CACHE_VERSION, "path": str(path), "kind": kind, "sig": sig,
                               "items": [i.to_row() for i in items]}, f, separators=(",", ":"))
                os.replace(tmp, target)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        except OSError as e:
            log.info("library index cache not written (%s): %s", target, e)

    def library(self, kind: str, path: Path) -> Library | None:
        """The index of one library (None if it does not exist or cannot be read)."""
        key = str(path)
        with self._lock:
            quick = quick_signature(path)
            if quick is None:
                return None
            lib = self._libs.get(key)
            if lib is not None and lib.quick == quick and lib.kind == kind:
                return lib
            full = full_signature(path) or quick
            items = self._read_cache(kind, path, full)
            if items is None:
                t0 = time.perf_counter()
                try:
                    items = (scan_symbol_library(path) if kind == "symbol"
                             else scan_footprint_library(path))
                except Exception as e:  # noqa: BLE001 - a broken library is skipped, not fatal
                    log.warning("cannot index %s: %s", path, e)
                    return None
                self.scanned += 1
                if time.perf_counter() - t0 >= self.CACHE_MIN_S:
                    self._write_cache(kind, path, full, items)
            lib = Library(kind, path, quick, full, items)
            self._libs[key] = lib
            return lib

    def libraries(self, wanted: list[tuple[str, Path]],
                  progress: Callable[[float, str], None] | None = None) -> list[Library | None]:
        """Index each (kind, path); ``progress(fraction, message)`` is called before
        each library not yet in memory."""
        out = []
        for n, (kind, path) in enumerate(wanted):
            if progress is not None and str(path) not in self._libs:
                progress(n / max(1, len(wanted)), f"indexing {path.name}")
            out.append(self.library(kind, path))
        return out


INDEX = LibraryIndex()


# -- which libraries a project sees -------------------------------------------------

KINDS = {"symbol": "sym", "footprint": "fp"}


_TABLES: dict[tuple, tuple[list[tuple[str, Path]], list[str]]] = {}


def _tables_key(kind: str, project_dir: Path | None) -> tuple:
    """What the library list depends on: the tables that may apply, as (path, mtime),
    and KiCad's environment variables."""
    from .tables import config_dir, share_dir

    name = f"{KINDS[kind]}-lib-table"
    template = share_dir("template")
    paths = [project_dir / name if project_dir is not None else None, config_dir() / name,
             template / name if template is not None else None, config_dir() / "kicad_common.json"]
    key: list = [kind, str(project_dir),
                 tuple(sorted((k, v) for k, v in os.environ.items()
                              if k.startswith("KICAD") or k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "HOME")))]
    for p in paths:
        try:
            key.append((str(p), p.stat().st_mtime_ns) if p is not None else None)
        except OSError:
            key.append((str(p), None))
    return tuple(key)


def table_libraries(kind: str, project_dir: Path | None) -> tuple[list[tuple[str, Path]], list[str]]:
    """The libraries of ``kind`` ("symbol"/"footprint") a project sees, as KiCad does:
    project table rows first, then the global (or default) table; with no table at all,
    every installed library. Returns ((nickname, path) rows, nicknames skipped because
    their library is missing or not a KiCad 6+ library). Cached until a table changes;
    a library that disappears later is skipped by `LibraryIndex.library`."""
    key = _tables_key(kind, project_dir)
    if key not in _TABLES:
        if len(_TABLES) > 64:
            _TABLES.clear()
        _TABLES[key] = _table_libraries(kind, project_dir)
    rows, skipped = _TABLES[key]
    return list(rows), list(skipped)


def _table_libraries(kind: str, project_dir: Path | None) -> tuple[list[tuple[str, Path]], list[str]]:
    from .tables import share_dir, table_rows

    rows = table_rows(KINDS[kind], project_dir)
    if not rows:
        share = share_dir("symbols" if kind == "symbol" else "footprints")
        if share is not None:
            pattern = "*.kicad_sym" if kind == "symbol" else "*.pretty"
            rows = [(p.name.rsplit(".", 1)[0], str(p)) for p in sorted(share.glob(pattern))]
    found, skipped = [], []
    for nick, uri in rows:
        path = Path(uri)
        if not path.is_absolute() and project_dir is not None:
            path = project_dir / path
        ok = (path.suffix == ".kicad_sym" and path.is_file()) if kind == "symbol" else path.is_dir()
        if ok:
            found.append((nick, path))
        else:
            skipped.append(nick)
    return found, skipped
