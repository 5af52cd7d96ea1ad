"""The installed KiCad libraries as a parts source: symbols and footprints for a
catalogue row, candidates for a part the catalogue lacks, and a part's pin table.

Libraries are those the project's tables name, then the global ones (documents/
library.index.table_libraries), searched with documents/library/search.rank.
"""

from __future__ import annotations

from pathlib import Path

from ..documents.board import FootprintFile
from ..documents.library.index import INDEX, table_libraries
from ..documents.library.lookup import find_library, split_id, symbol_definition
from ..documents.library.search import compact, rank
from .packages import symbol_for_kind


def library_hits(query: str, where: Path, kinds=("symbol", "footprint")):
    """lib_search hits of ``query`` over the libraries seen from ``where``."""
    wanted = []
    for kind in kinds:
        rows, _missing = table_libraries(kind, where)
        wanted += [(kind, nick, path) for nick, path in rows]
    libs = INDEX.libraries([(k, p) for k, _, p in wanted])
    return rank(query, [(nick, lib) for (_, nick, _), lib in zip(wanted, libs) if lib is not None])


def library_candidates(query: str, where: Path, limit: int = 5) -> list[dict]:
    """Up to ``limit`` symbols and footprints for ``query``: rows {kind, id, description}."""
    out = []
    for hit in library_hits(query, where)[:limit]:
        out.append({"kind": hit.kind, "id": hit.id, "description": " ".join(hit.item.description.split())[:100]})
    return out


def symbol_for(row: dict, where: Path) -> str | None:
    """The KiCad symbol of a catalogue row: the generic Device symbol of a passive, else
    a library symbol named exactly as the part number (separators ignored, e.g.
    Regulator_Linear:AMS1117-3.3), else None."""
    generic = symbol_for_kind(row.get("kind", ""), row.get("subcategory", ""))
    if generic:
        return generic
    mpn = row.get("mpn") or ""
    if not mpn:
        return None
    key = compact(mpn)
    for hit in library_hits(mpn, where, kinds=("symbol",))[:20]:
        if compact(hit.item.name) == key:
            return hit.id
    return None


def footprint_pads(footprint: str, where: Path) -> list[str]:
    """Distinct numbered pads of a library footprint, in file order."""
    lib, name = split_id(footprint)
    doc = FootprintFile.load(find_library("footprint", lib, where) / f"{name}.kicad_mod")
    seen: dict[str, None] = {}
    for pad in doc.footprint.pads:
        if pad.number and pad.pad_type != "np_thru_hole":
            seen.setdefault(pad.number, None)
    return list(seen)


def footprint_box(footprint: str, where: Path) -> tuple[float, float, float, float]:
    """(x1, y1, x2, y2) mm around a library footprint's anchor, unrotated: its front
    courtyard, else its drawings and pads (`FootprintFile.layout_box`)."""
    lib, name = split_id(footprint)
    doc = FootprintFile.load(find_library("footprint", lib, where) / f"{name}.kicad_mod")
    x1, y1, x2, y2 = doc.layout_box()
    return x1 / 1e6, y1 / 1e6, x2 / 1e6, y2 / 1e6


def symbol_pins(symbol: str, where: Path) -> list[dict]:
    """Pins of a library symbol (body style 1): {number, name, type, unit, hidden (when so)}."""
    definition = symbol_definition(symbol, where)
    pins = []
    for sub in definition.base.unit_views:
        if sub.body_style > 1:
            continue
        for pin in sub.pins:
            row = {"number": pin.number, "name": pin.name, "type": pin.electrical_type, "unit": sub.unit}
            if pin.hidden:
                row["hidden"] = True
            pins.append(row)
    return pins


def pin_table(symbol: str, footprint: str | None, where: Path) -> dict:
    """A symbol's pins mapped to a footprint's pads by number (KiCad's rule): {pins:
    [{number, name, type, unit, pad}], pads_without_pin: [...], pins_without_pad: [...]}.
    Errors: NotFound for an unknown library, symbol or footprint."""
    pins = symbol_pins(symbol, where)
    pads = footprint_pads(footprint, where) if footprint else []
    have = set(pads)
    for p in pins:
        p["pad"] = p["number"] if p["number"] in have else None
    numbers = {p["number"] for p in pins}
    return {"pins": pins, "pads_without_pin": [n for n in pads if n not in numbers],
            "pins_without_pad": sorted({p["number"] for p in pins if p["pad"] is None}) if footprint else []}
