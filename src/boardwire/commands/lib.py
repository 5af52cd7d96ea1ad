"""lib.*: search the symbol and footprint libraries a project sees; read one symbol's
pins or one footprint's pads.

The libraries are those of the project's ``sym-lib-table``/``fp-lib-table`` (in the
working directory, or the folder given as ``project``) and then the user's global
tables (or KiCad's defaults: every installed library), as KiCad resolves them.
Searching uses an index built once per process and kept on disk (see
documents/library/index.py); reading one symbol parses only its definition.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..documents.board import FootprintFile
from ..documents.library.index import INDEX, LibItem, table_libraries
from ..documents.library.lookup import (
    find_library,
    similar_names,
    split_id,
    symbol_definition,
)
from ..documents.library.search import rank
from ..errors import NotFound
from ..registry import Context, command
from .common import Args, InputPath, mm, project_dir
from .results import LibFootprint, LibSearch, LibSymbol

LIB_ID = r"^[^:]+:[^:]+$"
ProjectPath = Field(None, min_length=1, max_length=4096,
                    description="Folder (or a file in it) whose sym-lib-table/fp-lib-table "
                                "apply; default: the working directory")


class SearchArgs(Args):
    query: str = Field(min_length=1, max_length=300,
                       description="Words to find in names, keywords, descriptions, footprint "
                                   "filters, e.g. '0603 resistor', 'LM358', 'USB-C receptacle'")
    kind: Literal["symbol", "footprint", "both"] = "both"
    project: InputPath | None = ProjectPath
    offset: int = Field(0, ge=0)
    limit: int = Field(20, ge=1, le=200)


class IdArgs(Args):
    id: str = Field(min_length=3, max_length=1000, pattern=LIB_ID,
                    description="Library:Name as in lib.search rows, e.g. Device:R")
    project: InputPath | None = ProjectPath


def _clip(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def search_row(hit) -> dict:
    item: LibItem = hit.item
    row = {"kind": hit.kind, "id": hit.id, "description": _clip(item.description, 100)}
    if item.keywords:
        row["keywords"] = _clip(item.keywords, 60)
    row["pins" if hit.kind == "symbol" else "pads"] = item.count
    if item.units > 1:
        row["units"] = item.units
    return row


@command("lib.search", kind="query", args=SearchArgs, result=LibSearch, idempotent=True, tables=("items",),
         examples=({"query": "0603 resistor"}, {"query": "LM358", "kind": "symbol"},
                   {"query": "USB-C receptacle", "kind": "footprint", "limit": 5}))
def search(ctx: Context, a: SearchArgs) -> dict:
    """Find parts: search the symbol and footprint libraries (project tables, then global ones) by name, keywords, description and footprint filters (e.g. 0603 resistor, LM358); best first (exact name, all words in the name, all anywhere, some). With kind both, the best symbol and the best footprint both lead. Rows: kind, id (Library:Name for lib.symbol / lib.footprint / placing), description, keywords, pins or pads (distinct numbers), units. The first search indexes the libraries (10-25 s, 2 s cached)."""
    where = project_dir(ctx, a.project)
    kinds = ["symbol", "footprint"] if a.kind == "both" else [a.kind]
    wanted, skipped = [], []
    for kind in kinds:
        rows, missing = table_libraries(kind, where)
        wanted += [(kind, nick, path) for nick, path in rows]
        skipped += missing
    libs = INDEX.libraries([(k, p) for k, _, p in wanted], progress=ctx.progress)
    hits = rank(a.query, [(nick, lib) for (_, nick, _), lib in zip(wanted, libs) if lib is not None])
    page = [search_row(h) for h in hits[a.offset:a.offset + a.limit]]
    total = len(hits)
    more = total > a.offset + len(page)
    out = {"summary": f"{total} match{'es' if total != 1 else ''} for {a.query!r}; showing {len(page)}"
                      + (f" from {a.offset}" if a.offset else "") + ("; more with offset" if more else ""),
           "total": total, "offset": a.offset, "items": page}
    if skipped:
        out["skipped_libraries"] = sorted(set(skipped))
    return out


# -- one symbol / one footprint ------------------------------------------------------

@command("lib.symbol", kind="query", args=IdArgs, result=LibSymbol, idempotent=True,
         units="mm, degrees", examples=({"id": "Device:R"}, {"id": "Amplifier_Operational:LM358"}))
def symbol(ctx: Context, a: IdArgs) -> dict:
    """One library symbol: units, pins (number, name, electrical type, unit — 0 means common to all units — position and length in mm relative to the symbol's origin as placed unrotated in a schematic, x right, y down; orientation is the direction from the pin's connection point into the body: 0 right, 90 up, 180 left, 270 down), description, keywords, footprint filters and fields. A derived symbol (extends) shows its parent's pins. Pins of the alternate (De Morgan) body style are not listed; body_styles says whether there is one. Errors: invalid-args for an id that is not Library:Name; not-found for an unknown library (with similar names) or symbol."""
    definition = symbol_definition(a.id, project_dir(ctx, a.project))
    sym, base = definition.symbol, definition.base
    fields = {**base.fields, **sym.fields} if base is not sym else sym.fields
    pins, units, styles, unit_names = [], 1, 1, {}
    for sub in base.unit_views:
        unit, style = sub.unit, sub.body_style
        units, styles = max(units, unit), max(styles, style)
        if sub.unit_name is not None:
            unit_names[str(unit)] = sub.unit_name
        if style > 1:
            continue
        for pin in sub.pins:
            x, y = pin.position
            row = {"number": pin.number, "name": pin.name, "type": pin.electrical_type,
                   "unit": unit, "at": [mm(x), mm(-y)], "orientation": pin.orientation,
                   "length": mm(pin.length)}
            if pin.hidden:
                row["hidden"] = True
            pins.append(row)
    filters = fields.get("ki_fp_filters", "").split()
    out = {"summary": f"{a.id}: {units} unit{'s' if units != 1 else ''}, {len(pins)} pins"
                      + (f" — {_clip(fields.get('Description', ''), 80)}" if fields.get("Description") else ""),
           "id": a.id, "description": fields.get("Description", fields.get("ki_description", "")),
           "keywords": fields.get("ki_keywords", ""), "footprint_filters": filters,
           "units": units, "body_styles": styles, "power": sym.is_power or base.is_power,
           "fields": {k: v for k, v in fields.items() if not k.startswith("ki_")},
           "pins": pins}
    if definition.parents:
        out["extends"] = definition.parents[0].name
    if unit_names:
        out["unit_names"] = unit_names
    return out


# -- footprints -------------------------------------------------------------------------

def _pad_row(pad) -> dict:
    row = {"number": pad.number, "type": pad.pad_type, "shape": pad.shape,
           "at": [mm(pad.position[0]), mm(pad.position[1])]}
    if pad.orientation:
        row["angle"] = pad.orientation
    if pad.size is not None:
        row["size"] = [mm(pad.size[0]), mm(pad.size[1])]
    drill = pad.drill
    if isinstance(drill, tuple):
        row["drill"] = [mm(drill[0]), mm(drill[1])]
    elif drill is not None:
        row["drill"] = mm(drill)
    row["layers"] = pad.layers
    return row


@command("lib.footprint", kind="query", args=IdArgs, result=LibFootprint, idempotent=True,
         units="mm, degrees", examples=({"id": "Resistor_SMD:R_0603_1608Metric"},))
def footprint(ctx: Context, a: IdArgs) -> dict:
    """One library footprint: pads (number, type, shape, position relative to the footprint origin, angle, size, drill, layers; mm), courtyard bounding box per side (F.CrtYd, B.CrtYd: min, max, size in mm), description, tags, attributes (smd, through_hole, exclude_from_bom...), fields and 3D models. Errors: invalid-args for an id that is not Library:Name; not-found for an unknown library (with similar names) or footprint."""
    lib, name = split_id(a.id)
    folder = find_library("footprint", lib, project_dir(ctx, a.project))
    path = folder / f"{name}.kicad_mod"
    if not path.is_file():
        names = [p.name[: -len(".kicad_mod")] for p in folder.glob("*.kicad_mod")]
        close = similar_names(name, names)
        raise NotFound(f"no footprint {name!r} in {lib}" + (f"; similar: {', '.join(close)}" if close else ""),
                       hint=f"Search with lib.search, e.g. {{\"query\": \"{name}\", \"kind\": \"footprint\"}}.")
    doc = FootprintFile.load(path)
    fp = doc.footprint
    pads = [_pad_row(p) for p in fp.pads]
    numbered = {p["number"] for p in pads if p["number"] and p["type"] != "np_thru_hole"}
    crt = {side: {"min": [mm(round(x1)), mm(round(y1))], "max": [mm(round(x2)), mm(round(y2))],
                  "size": [mm(round(x2 - x1)), mm(round(y2 - y1))]}
           for side, (x1, y1, x2, y2) in doc.courtyards().items()}
    size = next(iter(crt.values()))["size"] if crt else None
    return {"summary": f"{a.id}: {len(pads)} pads ({len(numbered)} numbered)"
                       + (f", courtyard {size[0]} x {size[1]} mm" if size else ", no courtyard"),
            "id": a.id, "description": fp.text_of("descr") or "", "tags": fp.text_of("tags") or "",
            "attributes": fp.attributes, "fields": fp.fields,
            "courtyard": crt, "pads": pads, "models": fp.models}
