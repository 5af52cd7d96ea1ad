"""parts.*: a parts catalogue (imported JLCPCB/LCSC rows, indexed locally) and the
KiCad libraries behind it: search, a part's pin table, import.

Results are compact line tables by default (parts/lines.py: a line naming the columns,
one line a row, ``>`` on the row a build would choose, a line saying how many were cut);
``format: "json"`` gives the same rows as objects.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..errors import InvalidArgs, NotFound
from ..parts.catalogue import Catalogue, import_file, tier
from ..parts.kicad_source import library_candidates, pin_table, symbol_for
from ..parts.lines import encode, json_value
from ..parts.packages import KINDS
from ..registry import Context, command
from .common import Args, InputPath
from .results import PartsImported, PartsPins, PartsSearch

COLUMNS = ["lcsc", "mpn", "package", "tier", "stock", "usd", "footprint", "description"]
INTS, FLOATS = ("stock",), ("usd",)
PIN_COLUMNS = ["number", "name", "type", "unit", "pad"]
Kind = Literal[tuple(k for k, _ in KINDS) + ("ic",)]
Format = Literal["lines", "json"]


class SearchArgs(Args):
    query: str = Field(min_length=1, max_length=300, description="Part number, value, package, words, e.g. '10k resistor 0402'")
    kind: Kind | None = None
    package: str | None = Field(None, max_length=40, description="e.g. 0603, SOT-223")
    basic: bool = Field(False, description="Only JLCPCB basic or preferred parts")
    in_stock: bool = False
    limit: int = Field(10, ge=1, le=100)
    offset: int = Field(0, ge=0)
    format: Format = "lines"


def _table(columns: list[str], rows: list[dict], fmt: str, chosen: int | None, cut: int) -> dict:
    if fmt == "json":
        return {"rows": [{c: json_value(r.get(c)) for c in columns} for r in rows], "chosen": chosen, "cut": cut}
    return {"table": encode(columns, rows, chosen, cut)}


def search_row(row: dict) -> dict:
    """A catalogue row as the search table shows it."""
    return {"lcsc": row["lcsc"], "mpn": row["mpn"], "package": row["package"], "tier": tier(row),
            "stock": row["stock"], "usd": row["price"], "footprint": row["footprint"],
            "description": (row["description"] or row["subcategory"] or "")[:70]}


@command("parts.search", kind="query", args=SearchArgs, result=PartsSearch, idempotent=True,
         examples=({"query": "AMS1117-3.3"}, {"query": "100nF 0603 capacitor", "basic": True},
                   {"query": "10k", "kind": "resistor", "package": "0402", "format": "json"}))
def search(ctx: Context, a: SearchArgs) -> dict:
    """Find a part to buy (resistor, capacitor, regulator, IC) in the parts catalogue (parts.import; else a bundled 180-part JLCPCB sample), with its LCSC code and MPN: every word must match (values in any spelling: 10k, 4k7, 100nF, 0.1uF); ranked basic, preferred, in stock, cheapest; > marks the row a build picks. Columns: lcsc, mpn, package, tier, stock, usd, footprint, description. No row with every word: says missing, lists KiCad library candidates."""
    cat = Catalogue.of(ctx.session.workspace.root)
    found = cat.search(a.query, kind=a.kind, package=a.package, basic_only=a.basic, in_stock=a.in_stock)
    out: dict = {"total": found.total if found.match == "all" else 0, "match": found.match,
                 "catalogue": cat.describe()}
    if found.match == "all":
        page = [search_row(r) for r in found.rows[a.offset:a.offset + a.limit]]
        cut = found.total - a.offset - len(page)
        out.update(_table(COLUMNS, page, a.format, 0 if a.offset == 0 and page else None, cut))
        first = page[0] if page else None
        out["summary"] = (f"{found.total} part{'s' if found.total != 1 else ''} of the {cat.describe()} catalogue for {a.query!r}"
                          + (f"; chosen {first['lcsc']} {first['mpn']} ({first['tier']})" if first and a.offset == 0 else ""))
        return out
    where = ("no catalogue imported (parts.import)" if not cat.exists() else
             f"not in the {cat.describe()} catalogue" + (" (import a fuller one with parts.import)" if cat.sample else ""))
    out["missing"] = True
    out["library_candidates"] = library_candidates(a.query, ctx.session.workspace.root)
    out["summary"] = (f"{a.query!r}: {where}; {len(out['library_candidates'])} KiCad library candidates "
                      "(symbol or footprint ids for a design's components)")
    return out


class PinsArgs(Args):
    part: str | None = Field(None, max_length=40, description="LCSC code, e.g. C6186")
    symbol: str | None = Field(None, max_length=300, description="Library:Name, instead of part")
    footprint: str | None = Field(None, max_length=300, description="Library:Name; default the part's")
    format: Format = "lines"


@command("parts.pins", kind="query", args=PinsArgs, result=PartsPins, idempotent=True,
         examples=({"part": "C6186"}, {"symbol": "Device:R", "footprint": "Resistor_SMD:R_0603_1608Metric"}))
def pins(ctx: Context, a: PinsArgs) -> dict:
    """A part's pins mapped to its KiCad symbol and footprint pads (by number): number, name, type, unit, pad; pads without a pin and pins without a pad. Give an LCSC code (the catalogue, as parts.search reads it, picks symbol and footprint) or a symbol. Errors: not-found for an unknown part, symbol or footprint."""
    root = ctx.session.workspace.root
    symbol, footprint, part = a.symbol, a.footprint, None
    if a.part:
        cat = Catalogue.of(root)
        part = cat.get(a.part)
        if part is None:
            raise NotFound(f"no part {a.part!r} in the {cat.describe()} catalogue",
                           hint="Find codes with parts.search; import a catalogue with parts.import.")
        symbol = symbol or symbol_for(part, root)
        footprint = footprint or part["footprint"]
        if symbol is None:
            raise NotFound(f"{part['lcsc']} ({part['mpn']}): no KiCad symbol named after it",
                           hint="Give symbol (find one with lib.search) with the part.")
    if symbol is None:
        raise InvalidArgs("give part or symbol", errors=[{"loc": "part", "msg": "part or symbol required", "type": "missing"}])
    t = pin_table(symbol, footprint, root)
    out = {"summary": f"{symbol}" + (f" on {footprint}" if footprint else "") + f": {len(t['pins'])} pins"
                      + (f", {len(t['pins_without_pad'])} without a pad" if t["pins_without_pad"] else "")
                      + (f", {len(t['pads_without_pin'])} pads without a pin" if t["pads_without_pin"] else ""),
           "symbol": symbol, "footprint": footprint,
           "pads_without_pin": t["pads_without_pin"], "pins_without_pad": t["pins_without_pad"],
           **_table(PIN_COLUMNS, t["pins"], a.format, None, 0)}
    if part is not None:
        out["fields"] = {"LCSC": part["lcsc"], "MPN": part["mpn"], "Manufacturer": part["manufacturer"]}
        out["catalogue"] = cat.describe()
    return out


class ImportArgs(Args):
    file: InputPath = Field(min_length=1, max_length=4096,
                      description="A jlcpcb-parts-database CSV or a jlcparts cache.sqlite3, in the working directory")


@command("parts.import", kind="session", args=ImportArgs, result=PartsImported,
         examples=({"file": "jlcpcb-components-basic-preferred.csv"},))
def import_(ctx: Context, a: ImportArgs) -> dict:
    """Index a catalogue file (jlcpcb-parts-database CSV or jlcparts SQLite) into the project's local catalogue (.boardwire/parts.sqlite); rows with the same LCSC code are replaced. Errors: invalid-args for a file in neither format."""
    path = ctx.session.workspace.resolve(a.file)
    if not path.is_file():
        raise NotFound(f"no file {a.file}")
    n = import_file(ctx.session.workspace.root, path)
    return {"summary": f"{n['rows']} rows from {path.name}: {n['added']} new, {n['replaced']} replaced; {n['total']} in the catalogue", **n}
