"""Annotation: references for the symbols of a design, as KiCad's Annotate Schematic
does with its defaults.

KiCad (``SCH_REFERENCE_LIST::Annotate``, default options): symbols are taken per sheet
instance in hierarchy order, sorted by X then Y position; each reference prefix
counts from its first free number (``incremental``), or from 100 x the sheet's page
number + 1 (``sheet``); power symbols are numbered with a leading zero (#PWR01);
the units of a multi-unit part with the same library id and value on one sheet
instance share a reference. Coordinates are integer nanometres.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..views import Point


def reference_prefix(reference: str) -> str:
    """``R12`` -> ``R``, ``#PWR?`` -> ``#PWR``, ``U3A`` stays ``U`` (unit letters are
    not stored)."""
    text = reference.rstrip("?")
    i = len(text)
    while i > 0 and text[i - 1].isdigit():
        i -= 1
    return text[:i]


@dataclass
class Annotatable:
    """One placed unit on one sheet instance, as annotation sees it. ``key``: the
    caller's handle; ``sheet``: the instance's place in hierarchy order; ``page``: its
    page number; ``reference``: the instance's reference (``R?`` when unannotated);
    ``field``: the symbol's Reference field; ``units``: the part's unit count."""

    key: object
    sheet: int
    page: int
    at: Point
    reference: str
    field: str
    lib_id: str
    value: str
    unit: int
    units: int
    power: bool


def annotate(symbols: list[Annotatable], scheme: str = "incremental",
             everything: bool = False) -> list[tuple[Annotatable, str]]:
    """New references for the unannotated symbols (every symbol with ``everything``),
    ``scheme`` "incremental" or "sheet"; returns (symbol, reference) for those whose
    reference changes, in annotation order."""
    todo = [s for s in symbols if everything or s.reference.endswith("?") or not s.reference]
    todo_ids = {id(s) for s in todo}
    used: dict[str, set[int]] = {}
    for s in symbols:
        if id(s) in todo_ids:
            continue
        prefix = reference_prefix(s.reference)
        digits = s.reference[len(prefix):]
        if digits.isdigit():
            used.setdefault(prefix, set()).add(int(digits))
    todo.sort(key=lambda s: (s.sheet, s.at[0], s.at[1]))
    changes = []
    groups: dict[tuple, list] = {}  # (instance, lib_id, value) -> [(reference, units)]
    for s in todo:
        prefix = reference_prefix(s.field if s.reference.endswith("?") else s.reference) \
            or reference_prefix(s.reference) or "U"
        ref = None
        multi = s.units > 1
        if multi:
            for r, units in groups.get((s.sheet, s.lib_id, s.value), []):
                if s.unit not in units:
                    ref = r
                    units.add(s.unit)
                    break
        if ref is None:
            n = s.page * 100 + 1 if scheme == "sheet" else 1
            taken = used.setdefault(prefix, set())
            while n in taken:
                n += 1
            taken.add(n)
            ref = f"{prefix}0{n}" if s.power else f"{prefix}{n}"
            if multi:
                groups.setdefault((s.sheet, s.lib_id, s.value), []).append((ref, {s.unit}))
        if ref != s.reference:
            changes.append((s, ref))
    return changes
