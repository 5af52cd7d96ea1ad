"""The local parts index: imported catalogue rows in an SQLite file with an FTS5 table.

The file is ``.boardwire/parts.sqlite`` in the working directory (one catalogue per
project; `Catalogue.at`). A working directory without one reads the bundled sample
(`SAMPLE`: 180 real rows of JLCPCB's basic and preferred parts, its source in
SOURCE.txt beside it), indexed once into the cache folder (`Catalogue.of`); importing a
catalogue replaces it for that directory. Rows come from `sources.read_source`; each is
stored with its kind, its KiCad footprint (packages.footprint_for) and its search words
(values.terms: words, singulars, values in one spelling), which FTS5 indexes.

Search: the query's words (values.query_terms) must all match; when no row matches them
all, rows matching most of them are given (``match: "some"``). Rows are ranked by the
number of words matched, then an exact part number, then basic before preferred before
extended parts, in stock, cheapest (JLCPCB charges a loading fee for extended parts),
then LCSC number. The first row is the one a build would choose.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..documents.library.index import cache_dir
from .packages import footprint_for, kind_of
from .sources import Part, read_source
from .values import query_terms, terms

SCHEMA = """
CREATE TABLE IF NOT EXISTS parts (
  lcsc TEXT PRIMARY KEY, mpn TEXT, manufacturer TEXT, category TEXT, subcategory TEXT,
  package TEXT, description TEXT, basic INTEGER, preferred INTEGER, stock INTEGER,
  price REAL, datasheet TEXT, kind TEXT, footprint TEXT, source TEXT, mpn_key TEXT);
CREATE VIRTUAL TABLE IF NOT EXISTS parts_fts USING fts5(lcsc UNINDEXED, words,
  tokenize = "unicode61 tokenchars '.'");
CREATE INDEX IF NOT EXISTS parts_mpn ON parts (mpn_key);
"""
SAMPLE = Path(__file__).resolve().parent / "sample" / "jlc-basic-preferred-sample.csv"
COLUMNS = ("lcsc", "mpn", "manufacturer", "category", "subcategory", "package", "description", "basic",
           "preferred", "stock", "price", "datasheet", "kind", "footprint", "source")


def mpn_key(text: str) -> str:
    """A part number with case and separators ignored (``AMS1117-3.3`` -> ``ams111733``)."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


@dataclass
class SearchResult:
    rows: list[dict]
    total: int
    match: str  # "all" (every word), "some", or "none"
    words: list[str] = field(default_factory=list)


class Catalogue:
    """One local catalogue file. Thread-safe (one connection per call)."""

    _lock = threading.Lock()

    def __init__(self, path: Path, sample: bool = False):
        self.path = Path(path)
        self.sample = sample  # the bundled sample, not a catalogue the user imported

    @classmethod
    def at(cls, root: Path) -> "Catalogue":
        """The catalogue imported into the working directory ``root`` (it may not exist
        yet: `import_parts` makes it)."""
        return cls(Path(root) / ".boardwire" / "parts.sqlite")

    @classmethod
    def of(cls, root: Path) -> "Catalogue":
        """The catalogue the working directory ``root`` reads: its imported one, else the
        bundled sample (`sample_catalogue`; when that cannot be built, the empty
        imported one)."""
        own = cls.at(root)
        if own.exists():
            return own
        return sample_catalogue() or own

    def describe(self) -> str:
        """Which catalogue this is, for results: ``"bundled sample (180 parts)"``,
        ``"imported (N parts)"`` or ``"none imported"``."""
        if not self.exists():
            return "none imported"
        return f"{'bundled sample' if self.sample else 'imported'} ({self.count()} parts)"

    def exists(self) -> bool:
        return self.path.is_file()

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(self.path)
        con.executescript(SCHEMA)
        return con

    def import_parts(self, parts: Iterable[Part], source: str) -> dict:
        """Add or replace rows (by LCSC code). Returns {"rows", "added", "replaced"}."""
        with self._lock, self._connect() as con:
            before = con.execute("SELECT count(*) FROM parts").fetchone()[0]
            n = 0
            for p in parts:
                kind = kind_of(p.category, p.subcategory)
                con.execute("DELETE FROM parts_fts WHERE lcsc = ?", (p.lcsc,))
                con.execute(f"INSERT OR REPLACE INTO parts ({', '.join(COLUMNS)}, mpn_key) VALUES "
                            f"({', '.join('?' * (len(COLUMNS) + 1))})",
                            (p.lcsc, p.mpn, p.manufacturer, p.category, p.subcategory, p.package, p.description,
                             int(p.basic), int(p.preferred), p.stock, p.price, p.datasheet, kind,
                             footprint_for(p.package, kind), source, mpn_key(p.mpn)))
                words = terms(p.mpn, p.manufacturer, p.category, p.subcategory, p.package, p.description,
                              kind, p.lcsc)
                con.execute("INSERT INTO parts_fts (lcsc, words) VALUES (?, ?)", (p.lcsc, words))
                n += 1
            after = con.execute("SELECT count(*) FROM parts").fetchone()[0]
        return {"rows": n, "added": after - before, "replaced": n - (after - before), "total": after}

    def count(self) -> int:
        if not self.exists():
            return 0
        with self._connect() as con:
            return con.execute("SELECT count(*) FROM parts").fetchone()[0]

    def get(self, lcsc: str) -> dict | None:
        """One row by LCSC code (``C6186``; the ``C`` may be left out)."""
        if not self.exists():
            return None
        code = lcsc.strip().upper()
        code = code if code.startswith("C") else f"C{code}"
        with self._connect() as con:
            con.row_factory = sqlite3.Row
            row = con.execute("SELECT * FROM parts WHERE lcsc = ?", (code,)).fetchone()
        return _row(row) if row else None

    def search(self, query: str, *, kind: str | None = None, package: str | None = None,
               basic_only: bool = False, in_stock: bool = False) -> SearchResult:
        """Rows matching ``query`` (see the module for the ranking); filters: kind
        (packages.KINDS names or ``ic``), package (as the catalogue writes it, case and
        spaces ignored), basic/preferred only, in stock only."""
        words = query_terms(query)
        if not self.exists() or not words:
            return SearchResult([], 0, "none", words)
        where, params = [], []
        if kind:
            where.append("p.kind = ?")
            params.append(kind)
        if package:
            where.append("replace(upper(p.package), ' ', '') = ?")
            params.append(package.upper().replace(" ", ""))
        if basic_only:
            where.append("(p.basic = 1 OR p.preferred = 1)")
        if in_stock:
            where.append("p.stock > 0")
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        sql = ("SELECT p.*, f.words AS words FROM parts_fts f JOIN parts p ON p.lcsc = f.lcsc "
               "WHERE parts_fts MATCH ?" + "".join(f" AND {w}" for w in where))
        with self._connect() as con:
            con.row_factory = sqlite3.Row
            found = con.execute(sql, [match, *params]).fetchall()
        key = mpn_key(query)
        scored = []
        for r in found:
            have = set(r["words"].split())
            hits = sum(1 for w in words if w in have)
            scored.append((-hits, r["mpn_key"] != key, -r["basic"], -r["preferred"], r["stock"] <= 0,
                           r["price"] if r["price"] is not None else float("inf"), int(r["lcsc"][1:] or 0), r))
        scored.sort(key=lambda t: t[:-1])
        best = -scored[0][0] if scored else 0
        if best == len(words):
            scored = [s for s in scored if -s[0] == best]
        how = "none" if not scored else ("all" if best == len(words) else "some")
        return SearchResult([_row(s[-1]) for s in scored], len(scored), how, words)


def _row(r: sqlite3.Row) -> dict:
    keys = r.keys()
    out = {k: r[k] for k in COLUMNS if k in keys}
    out["basic"], out["preferred"] = bool(out["basic"]), bool(out["preferred"])
    return out


def tier(row: dict) -> str:
    """JLCPCB's assembly tier of a row: basic, preferred or extended."""
    return "basic" if row["basic"] else "preferred" if row["preferred"] else "extended"


_sample_lock = threading.Lock()
_sample_digest: dict[tuple[int, int], str] = {}  # the sample's (mtime, size) -> its content hash


def sample_catalogue() -> Catalogue | None:
    """The bundled sample (`SAMPLE`) indexed as a catalogue, in the cache folder
    (``parts-sample-HASH.sqlite`` under `documents.library.index.cache_dir`, else the
    temporary folder), named by the sample's content so a changed sample is indexed
    again; built once, atomically. None when the sample is missing or no folder can
    hold the index."""
    if not SAMPLE.is_file():
        return None
    st = SAMPLE.stat()
    with _sample_lock:
        key = (st.st_mtime_ns, st.st_size)
        if key not in _sample_digest:
            _sample_digest[key] = hashlib.sha256(SAMPLE.read_bytes()).hexdigest()[:16]
        name = f"parts-sample-{_sample_digest[key]}.sqlite"
        for folder in (cache_dir(), Path(tempfile.gettempdir()) / "boardwire"):
            target = folder / name
            if target.is_file():
                return Catalogue(target, sample=True)
            try:
                folder.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(prefix=".parts-sample-", suffix=".sqlite", dir=folder)
                os.close(fd)
                try:
                    Catalogue(Path(tmp)).import_parts(read_source(SAMPLE), source=SAMPLE.name)
                    os.replace(tmp, target)
                finally:
                    if os.path.exists(tmp):
                        os.unlink(tmp)
                return Catalogue(target, sample=True)
            except (OSError, sqlite3.Error):
                continue
    return None


def import_file(root, file: Path) -> dict:
    """Import catalogue file ``file`` into the catalogue of working directory ``root``
    (`Catalogue.import_parts`: counts of rows, added, replaced, total)."""
    return Catalogue.at(root).import_parts(read_source(file), source=file.name)
