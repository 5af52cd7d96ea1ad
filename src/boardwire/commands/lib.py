"""lib.*: search the symbol and footprint libraries a project sees; read one symbol's
pins or one footprint's pads.

The libraries are those of the project's ``sym-lib-table``/``fp-lib-table`` (in the
working directory, or the folder given as ``project``) and then the user's global
tables (or KiCad's defaults: every installed library), as KiCad resolves them.
Searching uses an index built once per process and kept on disk (see
documents/lib_index.py); reading one symbol parses only its definition.
"""

from __future__ import annotations

import difflib
import math
from pathlib import Path
from typing import Literal

from pydantic import Field

from ..documents.lib_index import INDEX, LibItem, table_libraries
from ..documents.lib_search import rank
from ..errors import InvalidArgs, NotFound
from ..registry import Context, command
from ..sexpr import atoms
from .common import Args, Result, mm

LIB_ID = r"^[^:]+:[^:]+$"
ProjectPath = Field(None, min_length=1, max_length=4096,
                    description="Folder (or a file in it) whose sym-lib-table/fp-lib-table "
                                "apply; default: the working directory")


class SearchArgs(Args):
    query: str = Field(min_length=1, max_length=300,
                       description="Words to find in names, keywords, descriptions, footprint "
                                   "filters, e.g. '0603 resistor', 'LM358', 'USB-C receptacle'")
    kind: Literal["symbol", "footprint", "both"] = "both"
    project: str | None = ProjectPath
    offset: int = Field(0, ge=0)
    limit: int = Field(20, ge=1, le=200)


class IdArgs(Args):
    id: str = Field(min_length=3, max_length=1000, pattern=LIB_ID,
                    description="Library:Name as in lib.search rows, e.g. Device:R")
    project: str | None = ProjectPath


def project_dir(ctx: Context, project: str | None) -> Path:
    """The folder whose library tables apply (inside the working directory)."""
    ws = ctx.session.workspace
    if project is None:
        return ws.root
    full = ws.resolve(project)
    return full if full.is_dir() else full.parent


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


@command("lib.search", kind="query", args=SearchArgs, result=Result, idempotent=True,
         examples=({"query": "0603 resistor"}, {"query": "LM358", "kind": "symbol"},
                   {"query": "USB-C receptacle", "kind": "footprint", "limit": 5}))
def search(ctx: Context, a: SearchArgs) -> dict:
    """Search the symbol and footprint libraries (project tables, then global ones) by name, keywords, description and footprint filters; best first: exact name, then every word in the name, then every word anywhere, then some words. With kind both, the best symbol and the best footprint both lead. Rows: kind, id (Library:Name for lib.symbol / lib.footprint / placing), description, keywords, pins or pads (distinct numbers), units. The first search in a process indexes the libraries: 10-25 s for KiCad's 38,000 installed symbols and footprints on first use, about 2 s from the disk cache after that; later searches take tens of milliseconds."""
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

def _split_id(lib_id: str) -> tuple[str, str]:
    lib, sep, name = lib_id.partition(":")
    if not sep or not lib or not name or ":" in name:
        raise InvalidArgs(f"{lib_id!r} is not a library id",
                          hint="Use Library:Name, e.g. Device:R or Resistor_SMD:R_0603_1608Metric.")
    return lib, name


def _close(word: str, names: list[str], n: int = 5) -> list[str]:
    low = word.lower()
    near = difflib.get_close_matches(word, names, n=n, cutoff=0.6)
    near += [x for x in names if low in x.lower() and x not in near]
    return near[:n]


def find_library(kind: str, lib: str, where: Path) -> Path:
    """The path of library nickname ``lib``; NotFound lists similar nicknames."""
    rows, skipped = table_libraries(kind, where)
    for nick, path in rows:
        if nick == lib:
            return path
    table = "sym-lib-table" if kind == "symbol" else "fp-lib-table"
    if lib in skipped:
        raise NotFound(f"{kind} library {lib!r} is in the library tables but its files are missing "
                       "or not a KiCad 6+ library",
                       hint=f"Fix the library's path in {table}, or install it.")
    close = _close(lib, [nick for nick, _ in rows])
    raise NotFound(f"no {kind} library {lib!r} in the library tables",
                   hint=(f"Similar libraries: {', '.join(close)}. " if close else "")
                   + f"Use lib.search to find the library, or add it to {table}.",
                   similar=close)


def _item(kind: str, lib_id: str, where: Path) -> tuple[Path, LibItem, dict[str, LibItem]]:
    lib, name = _split_id(lib_id)
    path = find_library(kind, lib, where)
    index = INDEX.library(kind, path)
    items = {i.name: i for i in index.items} if index is not None else {}
    item = items.get(name)
    if item is None:
        close = _close(name, list(items))
        raise NotFound(f"no {kind} {name!r} in {lib}" + (f"; similar: {', '.join(close)}" if close else ""),
                       hint=f"Search with lib.search, e.g. {{\"query\": \"{name}\", \"kind\": \"{kind}\"}}.")
    return path, item, items


def _symbol_node(path: Path, item: LibItem):
    if item.span is not None:
        from ..sexpr.parse import parse_list_span

        return parse_list_span(path.read_bytes(), item.span[0], item.span[1], str(path))
    from ..documents.schematic import SymbolLibrary

    return SymbolLibrary.load(path).symbol(item.name).node


def _unit_style(sub_name: str) -> tuple[int, int]:
    parts = sub_name.rsplit("_", 2)
    try:
        return int(parts[-2]), int(parts[-1])
    except (ValueError, IndexError):
        return 0, 0


@command("lib.symbol", kind="query", args=IdArgs, result=Result, idempotent=True,
         units="mm, degrees", examples=({"id": "Device:R"}, {"id": "Amplifier_Operational:LM358"}))
def symbol(ctx: Context, a: IdArgs) -> dict:
    """One library symbol: units, pins (number, name, electrical type, unit — 0 means common to all units — position and length in mm relative to the symbol's origin as placed unrotated in a schematic, x right, y down; orientation is the direction from the pin's connection point into the body: 0 right, 90 up, 180 left, 270 down), description, keywords, footprint filters and fields. A derived symbol (extends) shows its parent's pins. Pins of the alternate (De Morgan) body style are not listed; body_styles says whether there is one. Errors: invalid-args for an id that is not Library:Name; not-found for an unknown library (with similar names) or symbol."""
    from ..documents.schematic import LibPin, LibSymbol

    where = project_dir(ctx, a.project)
    path, item, items = _item("symbol", a.id, where)
    sym = LibSymbol(None, _symbol_node(path, item))
    base, chain = sym, [item.name]
    while base.extends:
        parent = items.get(base.extends)
        if parent is None or parent.name in chain:
            raise NotFound(f"{a.id} extends {base.extends!r}, which is not in its library")
        chain.append(parent.name)
        base = LibSymbol(None, _symbol_node(path, parent))
    fields = {**base.fields, **sym.fields} if base is not sym else sym.fields
    pins, units, styles, unit_names = [], 1, 1, {}
    for sub in base.units():
        vals = sub.atoms()
        unit, style = _unit_style(atoms.text(vals[0]) if vals else "")
        units, styles = max(units, unit), max(styles, style)
        un = sub.find("unit_name")
        if un is not None and un.atoms():
            unit_names[str(unit)] = atoms.text(un.atoms()[0])
        if style > 1:
            continue
        for p in sub.lists("pin"):
            pin = LibPin(None, p)
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
    if len(chain) > 1:
        out["extends"] = chain[1]
    if unit_names:
        out["unit_names"] = unit_names
    return out


# -- footprints -------------------------------------------------------------------------

def _arc_points(s, m, e) -> list[tuple[float, float]]:
    """Start, end and the axis extremes an arc through s, m, e passes."""
    (ax, ay), (bx, by), (cx, cy) = s, m, e
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if d == 0:
        return [s, m, e]
    ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) + (cx * cx + cy * cy) * (ay - by)) / d
    uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) + (cx * cx + cy * cy) * (bx - ax)) / d
    r = math.hypot(ax - ux, ay - uy)

    def ang(p):
        return math.atan2(p[1] - uy, p[0] - ux) % (2 * math.pi)

    a0, am, a1 = ang(s), ang(m), ang(e)
    ccw = (am - a0) % (2 * math.pi) < (a1 - a0) % (2 * math.pi)
    lo, span = (a0, (a1 - a0) % (2 * math.pi)) if ccw else (a1, (a0 - a1) % (2 * math.pi))
    out = [s, m, e]
    for k in range(4):
        t = k * math.pi / 2
        if (t - lo) % (2 * math.pi) <= span:
            out.append((ux + r * math.cos(t), uy + r * math.sin(t)))
    return out


def _shape_points(node) -> list[tuple[float, float]]:
    def pt(head):
        c = node.find(head)
        vals = c.atoms() if c is not None else []
        return (atoms.to_nm(vals[0]), atoms.to_nm(vals[1])) if len(vals) >= 2 else None

    head = node.head
    if head in ("fp_line", "fp_rect"):
        return [p for p in (pt("start"), pt("end")) if p]
    if head == "fp_circle":
        c, e = pt("center"), pt("end")
        if not c or not e:
            return []
        r = math.dist(c, e)
        return [(c[0] - r, c[1] - r), (c[0] + r, c[1] + r)]
    if head == "fp_arc":
        s, m, e = pt("start"), pt("mid"), pt("end")
        return _arc_points(s, m, e) if s and m and e else []
    if head == "fp_poly":
        pts = node.find("pts")
        out = []
        for xy in (pts.lists("xy") if pts is not None else ()):
            vals = xy.atoms()
            out.append((atoms.to_nm(vals[0]), atoms.to_nm(vals[1])))
        return out
    return []


def courtyards(root) -> dict[str, dict]:
    """Bounding box of the courtyard outline per side (F.CrtYd, B.CrtYd): min, max and
    size in mm, footprint-local, line width not included."""
    boxes: dict[str, list[float]] = {}
    for node in root.lists():
        if not node.head.startswith("fp_"):
            continue
        layer = node.find("layer")
        name = atoms.text(layer.atoms()[0]) if layer is not None and layer.atoms() else ""
        if name not in ("F.CrtYd", "B.CrtYd"):
            continue
        for x, y in _shape_points(node):
            b = boxes.setdefault(name, [x, y, x, y])
            b[0], b[1], b[2], b[3] = min(b[0], x), min(b[1], y), max(b[2], x), max(b[3], y)
    return {k: {"min": [mm(round(b[0])), mm(round(b[1]))], "max": [mm(round(b[2])), mm(round(b[3]))],
                "size": [mm(round(b[2] - b[0])), mm(round(b[3] - b[1]))]} for k, b in boxes.items()}


def _pad_row(pad) -> dict:
    row = {"number": pad.number, "type": pad.pad_type, "shape": pad.shape,
           "at": [mm(pad.position[0]), mm(pad.position[1])]}
    if pad.orientation:
        row["angle"] = pad.orientation
    if pad.size is not None:
        row["size"] = [mm(pad.size[0]), mm(pad.size[1])]
    drill = pad.values("drill")
    if drill:
        if drill[0] == b"oval" and len(drill) >= 3:
            row["drill"] = [mm(atoms.to_nm(drill[1])), mm(atoms.to_nm(drill[2]))]
        elif drill[0] != b"oval":
            row["drill"] = mm(atoms.to_nm(drill[0]))
    row["layers"] = pad.layers
    return row


@command("lib.footprint", kind="query", args=IdArgs, result=Result, idempotent=True,
         units="mm, degrees", examples=({"id": "Resistor_SMD:R_0603_1608Metric"},))
def footprint(ctx: Context, a: IdArgs) -> dict:
    """One library footprint: pads (number, type, shape, position relative to the footprint origin, angle, size, drill, layers; mm), courtyard bounding box per side (F.CrtYd, B.CrtYd: min, max, size in mm), description, tags, attributes (smd, through_hole, exclude_from_bom...), fields and 3D models. Errors: invalid-args for an id that is not Library:Name; not-found for an unknown library (with similar names) or footprint."""
    from ..documents.board import FootprintFile

    lib, name = _split_id(a.id)
    folder = find_library("footprint", lib, project_dir(ctx, a.project))
    path = folder / f"{name}.kicad_mod"
    if not path.is_file():
        names = [p.name[: -len(".kicad_mod")] for p in folder.glob("*.kicad_mod")]
        close = _close(name, names)
        raise NotFound(f"no footprint {name!r} in {lib}" + (f"; similar: {', '.join(close)}" if close else ""),
                       hint=f"Search with lib.search, e.g. {{\"query\": \"{name}\", \"kind\": \"footprint\"}}.")
    doc = FootprintFile.load(path)
    fp = doc.footprint
    pads = [_pad_row(p) for p in fp.pads]
    fields = {}
    for p in fp.node.lists("property"):
        vals = p.atoms()
        if len(vals) >= 2:
            fields[atoms.text(vals[0])] = atoms.text(vals[1])
    numbered = {p["number"] for p in pads if p["number"] and p["type"] != "np_thru_hole"}
    crt = courtyards(fp.node)
    size = next(iter(crt.values()))["size"] if crt else None
    return {"summary": f"{a.id}: {len(pads)} pads ({len(numbered)} numbered)"
                       + (f", courtyard {size[0]} x {size[1]} mm" if size else ", no courtyard"),
            "id": a.id, "description": fp.text_of("descr") or "", "tags": fp.text_of("tags") or "",
            "attributes": [atoms.text(v) for v in fp.values("attr")], "fields": fields,
            "courtyard": crt, "pads": pads,
            "models": [atoms.text(m.atoms()[0]) for m in fp.node.lists("model") if m.atoms()]}
