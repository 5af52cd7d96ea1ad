"""A bill of materials from a board's footprints, for boards without a schematic.

Laid out as ``kicad-cli sch export bom`` writes it with boardwire's fields (KiCad 9,
``FIELDS_EDITOR_GRID_DATA_MODEL::Export``): a header of labels, one row per group of
footprints with the same Value and Footprint (library id), sorted by reference in
natural order; references shortened as KiCad does (three or more consecutive numbers
become a range: ``R1-R4``); every field in double quotes (quotes doubled, tabs and
line breaks removed), ``,`` between fields, ``\\n`` after each row.

Left out, as KiCad leaves them out: footprints with the "exclude from BOM" attribute,
references starting with ``#`` (virtual parts), and with ``exclude_dnp`` footprints
marked Do Not Populate.
"""

from __future__ import annotations

import re

from ...sexpr import atoms

LABELS = ("Reference", "Value", "Footprint", "Qty")
_REF = re.compile(r"^(.*?)(\d+)$")


def natural_key(text: str) -> list:
    """Sort key comparing digit runs as numbers (R2 < R10), like KiCad's StrNumCmp."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p.lower())
            for p in re.split(r"(\d+)", text) if p]


def _ref_key(ref: str) -> tuple:
    m = _REF.match(ref)
    return (m.group(1), int(m.group(2))) if m else (ref, -1)


def shorthand(refs: list[str]) -> str:
    """``["R1", "R2", "R3", "R5"]`` -> ``"R1-R3,R5"`` (KiCad's reference shorthand)."""
    keys = sorted({_ref_key(r): r for r in refs}.items())
    out, i = [], 0
    while i < len(keys):
        (prefix, num), ref = keys[i]
        j = i
        while (j + 1 < len(keys) and num >= 0 and keys[j + 1][0][0] == prefix
               and keys[j + 1][0][1] == keys[j][0][1] + 1):
            j += 1
        if j - i >= 2:
            out.append(f"{ref}-{keys[j][1]}")
        else:
            out.extend(k[1] for k in keys[i:j + 1])
        i = j + 1
    return ",".join(out)


def _attrs(fp) -> set[bytes]:
    attr = fp.node.find("attr")
    return set(attr.atoms()) if attr is not None else set()


def field_names(board) -> set[str]:
    """The names of every footprint field (``property``) on the board."""
    return {atoms.text(p.atoms()[0]) for fp in board.footprints
            for p in fp.node.lists("property") if p.atoms()}


def rows(board, exclude_dnp: bool = True, extra_fields: tuple[str, ...] = (),
         ranges: bool = True) -> list[dict]:
    """Groups of footprints: references, value, footprint (library id), quantity and
    ``extra_fields`` (also grouped by); references as ranges (R1-R3) or one by one."""
    groups: dict[tuple, list[str]] = {}
    for fp in board.footprints:
        ref = fp.reference
        flags = _attrs(fp)
        if not ref or ref.startswith("#") or b"exclude_from_bom" in flags:
            continue
        if exclude_dnp and b"dnp" in flags:
            continue
        extra = tuple(fp.field(f) or "" for f in extra_fields)
        groups.setdefault((fp.value, fp.lib_id, extra), []).append(ref)
    out = [{"references": shorthand(refs) if ranges else ",".join(sorted(set(refs), key=natural_key)),
            "value": value, "footprint": lib_id, "qty": len(refs),
            "fields": dict(zip(extra_fields, extra)), "_first": min(refs, key=natural_key)}
           for (value, lib_id, extra), refs in groups.items()]
    out.sort(key=lambda r: natural_key(r["_first"]))
    for r in out:
        del r["_first"]
    return out


def _field(text: str) -> str:
    text = text.replace("\r", "").replace("\n", "").replace("\t", "")
    return '"' + text.replace('"', '""') + '"'


def to_csv(table: list[dict], extra_fields: tuple[str, ...] = ()) -> bytes:
    lines = [",".join(_field(x) for x in LABELS + tuple(extra_fields))]
    for r in table:
        extra = [r.get("fields", {}).get(f, "") for f in extra_fields]
        lines.append(",".join(_field(str(x)) for x in (r["references"], r["value"],
                                                       r["footprint"], r["qty"], *extra)))
    return ("\n".join(lines) + "\n").encode("utf-8")
