"""query.* for schematics: symbols, pins, labels, the sheet tree, connectivity, describe.

A schematic command takes the path of a sheet file (usually the project's root sheet).
Its hierarchy is read from there: child sheets are opened through the session (so they
are workspace-checked and an open, edited sheet is seen as edited). Each placed symbol
appears once per sheet instance, with the reference that instance gives it; nets are
computed by `boardwire.netlist.schematic` (KiCad 9's rules, measured against
kicad-cli's netlist).
"""

from __future__ import annotations

import fnmatch
from typing import Literal

from pydantic import Field

from ...errors import NotFound
from ...netlist.schematic import PinNode, PlacedSymbol
from ...registry import Context, command
from ...services.schematic import connectivity_of, sheet_rows
from ..common import DocArgs, Name, mm_pt
from .results import Connectivity, Labels, Pins, SheetTree, Symbols


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def symbol_dict(s: PlacedSymbol) -> dict:
    v = s.view
    out = {"reference": s.reference, "value": v.value, "footprint": v.footprint or None,
           "lib_id": v.lib_id, "unit": s.unit, "sheet": s.sheet.path,
           "at": mm_pt(v.position), "angle": v.orientation, "mirror": v.mirror,
           "dnp": v.dnp or None, "in_bom": v.in_bom, "on_board": v.on_board,
           "id": v.uuid}
    if s.lib is not None and s.lib.power:
        out["power"] = True
    return {k: val for k, val in out.items() if val is not None}


class SymbolsArgs(DocArgs):
    reference: str | None = Field(None, min_length=1, max_length=1000,
                                  description="Reference, or a pattern with * and ? (U*)")
    lib_id: str | None = Field(None, min_length=1, max_length=1000,
                               description="Library id, or a pattern (Device:R*)")
    sheet: str | None = Field(None, min_length=1, max_length=4096,
                              description="Sheet instance path, e.g. / or /Power/")
    power: bool | None = Field(None, description="Only power symbols (true) or none of them (false)")
    offset: int = Field(0, ge=0)
    limit: int = Field(100, ge=1, le=5000)


def _match(pattern: str | None, text: str) -> bool:
    if pattern is None:
        return True
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatchcase(text, pattern)
    return text == pattern


def _page(rows: list, offset: int, limit: int, what: str) -> tuple[list, str]:
    page = rows[offset:offset + limit]
    more = len(rows) > offset + len(page)
    return page, (f"{_plural(len(rows), what)} match; showing {len(page)}"
                  + (f" from {offset}" if offset else "") + ("; more with offset" if more else ""))


@command("query.symbols", kind="query", args=SymbolsArgs, result=Symbols, idempotent=True,
         units="mm, degrees", examples=({"path": "board.kicad_sch", "reference": "U*"},
                                        {"path": "board.kicad_sch", "sheet": "/Power/"}))
def symbols(ctx: Context, a: SymbolsArgs) -> dict:
    """Placed symbols of the whole hierarchy, once per sheet instance with that instance's reference and unit: value, footprint, library id, position, angle, mirror, dnp, in_bom, on_board; filtered by reference, library id, sheet; paged."""
    conn = connectivity_of(ctx, a.path)
    rows = [s for s in conn.symbols
            if _match(a.reference, s.reference) and _match(a.lib_id, s.view.lib_id)
            and (a.sheet is None or s.sheet.path == a.sheet)
            and (a.power is None or bool(s.lib is not None and s.lib.power) == a.power)]
    page, summary = _page(rows, a.offset, a.limit, "symbol")
    return {"summary": summary, "total": len(rows), "offset": a.offset,
            "symbols": [symbol_dict(s) for s in page]}


class PinsArgs(DocArgs):
    reference: Name = Field(description="Symbol reference, e.g. U1 (all its units)")
    sheet: str | None = Field(None, min_length=1, max_length=4096,
                              description="Sheet instance path when the reference is on several instances")


def pin_dict(p: PinNode) -> dict:
    out = {"number": p.number, "name": p.name, "type": p.type, "at": mm_pt(p.at),
           "net": p.net.name if p.net is not None else None, "unit": p.symbol.unit}
    if p.hidden:
        out["hidden"] = True
    return {k: v for k, v in out.items() if v is not None}


@command("query.pins", kind="query", args=PinsArgs, result=Pins, idempotent=True, units="mm",
         examples=({"path": "board.kicad_sch", "reference": "U1"},))
def pins(ctx: Context, a: PinsArgs) -> dict:
    """The pins of one symbol (every placed unit): number, name, electrical type, position on the sheet, and the net each is on."""
    conn = connectivity_of(ctx, a.path)
    placed = [s for s in conn.symbols if s.reference == a.reference
              and (a.sheet is None or s.sheet.path == a.sheet)]
    if not placed:
        raise NotFound(f"no symbol {a.reference!r}" + (f" on sheet {a.sheet}" if a.sheet else "")
                       + " in the hierarchy", hint="List the symbols with query.symbols.")
    ids = {id(s) for s in placed}
    rows = []
    for p in conn.pins:
        if id(p.symbol) in ids:
            d = pin_dict(p)
            if len({s.sheet.path for s in placed}) > 1:
                d["sheet"] = p.symbol.sheet.path
            rows.append(d)
    s = placed[0]
    units = sorted({p.unit for p in placed})
    return {"summary": f"{a.reference} {s.view.value} ({s.view.lib_id}): {_plural(len(rows), 'pin')}"
                       + (f" on units {units}" if len(units) > 1 else ""),
            "reference": a.reference, "value": s.view.value, "lib_id": s.view.lib_id,
            "sheets": sorted({p.sheet.path for p in placed}), "pins": rows}


LabelKind = Literal["label", "global_label", "hierarchical_label", "sheet_pin"]


class LabelsArgs(DocArgs):
    kind: list[LabelKind] | None = Field(None, max_length=4)
    text: str | None = Field(None, min_length=1, max_length=1000,
                             description="Label text, or a pattern with * and ?")
    sheet: str | None = Field(None, min_length=1, max_length=4096,
                              description="Sheet instance path, e.g. / or /Power/")
    offset: int = Field(0, ge=0)
    limit: int = Field(200, ge=1, le=5000)


@command("query.labels", kind="query", args=LabelsArgs, result=Labels, idempotent=True, units="mm",
         examples=({"path": "board.kicad_sch", "kind": ["global_label"]},))
def labels(ctx: Context, a: LabelsArgs) -> dict:
    """Net labels of the hierarchy per sheet instance (local, global, hierarchical, and sheet pins), with position and the net each names; bus labels are marked bus."""
    conn = connectivity_of(ctx, a.path)
    kinds = set(a.kind) if a.kind else None
    rows = [lab for lab in conn.labels
            if (kinds is None or lab.kind in kinds) and _match(a.text, lab.text)
            and (a.sheet is None or lab.sheet.path == a.sheet)]
    page, summary = _page(rows, a.offset, a.limit, "label")
    out = []
    for lab in page:
        d = {"kind": lab.kind, "text": lab.text, "sheet": lab.sheet.path, "at": mm_pt(lab.at),
             "net": lab.net.name if lab.net is not None else None, "id": lab.uuid,
             "bus": True if lab.bus else None}
        out.append({k: v for k, v in d.items() if v is not None})
    return {"summary": summary, "total": len(rows), "offset": a.offset, "labels": out}


@command("query.sheetTree", kind="query", args=DocArgs, result=SheetTree, idempotent=True,
         examples=({"path": "board.kicad_sch"},))
def sheet_tree(ctx: Context, a: DocArgs) -> dict:
    """The sheet hierarchy from a root sheet: each sheet instance's path, name, file, page number, parent and symbol count; a sheet file that cannot be found is marked missing."""
    conn = connectivity_of(ctx, a.path)
    rows = sheet_rows(conn)
    files = {s.file for s in conn.sheets}
    missing = sum(1 for s in conn.sheets if s.missing)
    return {"summary": f"{_plural(len(rows), 'sheet instance')} of {_plural(len(files), 'file')}"
                       + (f"; {missing} missing" if missing else ""),
            "sheets": rows}


class ConnectivityArgs(DocArgs):
    net: str | None = Field(None, min_length=1, max_length=1000,
                            description="Net name, or a pattern with * and ? (/SDA*)")
    reference: str | None = Field(None, min_length=1, max_length=1000,
                                  description="Only nets touching this symbol reference")
    include_single: bool = Field(True, description="Include nets with a single pin")
    offset: int = Field(0, ge=0)
    limit: int = Field(200, ge=1, le=5000)


@command("query.connectivity", kind="query", args=ConnectivityArgs, result=Connectivity,
         idempotent=True,
         examples=({"path": "board.kicad_sch"}, {"path": "board.kicad_sch", "net": "GND"}))
def connectivity(ctx: Context, a: ConnectivityArgs) -> dict:
    """Schematic nets of the whole hierarchy as KiCad names them (/sheet/LABEL, GLOBAL, Net-(R1-Pad1)), each with its pins as REF.PIN (the pins KiCad's netlist lists) and the sheets it spans; filtered by net name or reference; paged."""
    conn = connectivity_of(ctx, a.path)
    rows = []
    for n in conn.nets:
        nodes = n.nodes
        if not nodes or (not a.include_single and len(nodes) < 2):
            continue
        if not _match(a.net, n.name):
            continue
        if a.reference is not None and not any(p.reference == a.reference for p in n.netlist_pins):
            continue
        rows.append(n)
    page, summary = _page(rows, a.offset, a.limit, "net")
    out = []
    for n in page:
        d = {"net": n.name, "code": n.code, "pins": n.nodes,
             "sheets": sorted({p.symbol.sheet.path for p in n.pins})}
        if n.no_connect:
            d["no_connect"] = True
        out.append(d)
    return {"summary": summary, "total": len(rows), "offset": a.offset, "nets": out}


