"""Catalogue sources a user supplies, read into `Part` rows.

Two published formats:

* the CSV of the jlcpcb-parts-database project (CDFER/jlcpcb-parts-database; columns
  ``lcsc, category_id, category, subcategory, mfr, package, joints, manufacturer, basic,
  preferred, description, datasheet, stock, last_on_stock, price, extra, ...``; ``lcsc``
  is the number without its ``C``; ``price`` a JSON list of ``{qFrom, qTo, price}``
  tiers in USD);
* the SQLite cache of jlcparts (yaqwsx/jlcparts, ``cache.sqlite3``): tables
  ``components`` (``lcsc, category_id, mfr, package, joints, manufacturer_id, basic,
  description, datasheet, stock, price`` and, in newer files, ``preferred``),
  ``manufacturers (id, name)`` and ``categories (id, category, subcategory)``.

A file is recognised by its first bytes (SQLite's header) or its CSV header row.
Errors: `InvalidArgs` for a file in neither format or with missing columns.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..errors import InvalidArgs

CSV_COLUMNS = ("lcsc", "category", "subcategory", "mfr", "package", "manufacturer", "basic",
               "description", "stock", "price")


@dataclass(slots=True)
class Part:
    """One catalogue row. ``lcsc`` with its ``C`` (``C6186``); ``price`` in USD for the
    smallest order tier (None when unknown); ``stock`` in pieces."""

    lcsc: str
    mpn: str
    manufacturer: str
    category: str
    subcategory: str
    package: str
    description: str
    basic: bool
    preferred: bool
    stock: int
    price: float | None
    datasheet: str = ""
    joints: int = 0


def first_price(text) -> float | None:
    """The unit price of the smallest quantity tier of a ``[{qFrom, qTo, price}]`` list
    (JSON text or a list), or None."""
    try:
        tiers = json.loads(text) if isinstance(text, str) else text
        tiers = [t for t in tiers or [] if isinstance(t, dict) and t.get("price") is not None]
        if not tiers:
            return None
        low = min(tiers, key=lambda t: t.get("qFrom") or 0)
        return round(float(low["price"]), 6)
    except (ValueError, TypeError, KeyError):
        return None


def _int(text) -> int:
    try:
        return int(float(text or 0))
    except ValueError:
        return 0


def _code(lcsc) -> str:
    text = str(lcsc).strip()
    return text if text.upper().startswith("C") else f"C{text}"


def read_csv(path: Path) -> Iterator[Part]:
    """Rows of a jlcpcb-parts-database CSV file."""
    csv.field_size_limit(1 << 26)
    try:
        yield from _csv_rows(path)
    except (UnicodeDecodeError, csv.Error) as e:
        raise InvalidArgs(f"{path.name}: not a jlcpcb-parts-database CSV file ({str(e)[:200]})",
                          hint="Give the CSV of CDFER/jlcpcb-parts-database or a jlcparts cache.sqlite3.") from None


def _csv_rows(path: Path) -> Iterator[Part]:
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        missing = [c for c in CSV_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise InvalidArgs(f"{path.name}: not a jlcpcb-parts-database CSV file (no column "
                              f"{', '.join(missing)})",
                              hint="Give the CSV of CDFER/jlcpcb-parts-database or a jlcparts cache.sqlite3.")
        for row in reader:
            if not row.get("lcsc"):
                continue
            yield Part(lcsc=_code(row["lcsc"]), mpn=row["mfr"] or "", manufacturer=row["manufacturer"] or "",
                       category=row["category"] or "", subcategory=row["subcategory"] or "",
                       package=row["package"] or "", description=row["description"] or "",
                       basic=row["basic"] in ("1", "True", "true"),
                       preferred=row.get("preferred") in ("1", "True", "true"),
                       stock=_int(row["stock"]), price=first_price(row["price"]),
                       datasheet=row.get("datasheet") or "", joints=_int(row.get("joints")))


def read_jlcparts(path: Path) -> Iterator[Part]:
    """Rows of a jlcparts SQLite cache."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        cols = {r[1] for r in con.execute("PRAGMA table_info(components)")}
        if not {"lcsc", "mfr", "package", "basic", "description", "stock", "price"} <= cols:
            raise InvalidArgs(f"{path.name}: an SQLite file without jlcparts' components table",
                              hint="Give the CSV of CDFER/jlcpcb-parts-database or a jlcparts cache.sqlite3.")
        preferred = "c.preferred" if "preferred" in cols else "0"
        sql = (f"SELECT c.lcsc, c.mfr, coalesce(m.name, ''), coalesce(k.category, ''), "
               f"coalesce(k.subcategory, ''), c.package, c.description, c.basic, {preferred}, c.stock, "
               f"c.price, coalesce(c.datasheet, ''), coalesce(c.joints, 0) FROM components c "
               f"LEFT JOIN manufacturers m ON m.id = c.manufacturer_id "
               f"LEFT JOIN categories k ON k.id = c.category_id")
        for (lcsc, mpn, maker, cat, sub, pkg, desc, basic, pref, stock, price, sheet, joints) in con.execute(sql):
            yield Part(lcsc=_code(lcsc), mpn=mpn or "", manufacturer=maker, category=cat, subcategory=sub,
                       package=pkg or "", description=desc or "", basic=bool(basic), preferred=bool(pref),
                       stock=_int(stock), price=first_price(price), datasheet=sheet, joints=_int(joints))
    except sqlite3.DatabaseError as e:
        raise InvalidArgs(f"{path.name}: not a readable SQLite file ({e})") from None
    finally:
        con.close()


def read_source(path: Path) -> Iterator[Part]:
    """The rows of a catalogue file in either format (see the module)."""
    with open(path, "rb") as f:
        head = f.read(16)
    if head.startswith(b"SQLite format 3"):
        return read_jlcparts(path)
    return read_csv(path)


