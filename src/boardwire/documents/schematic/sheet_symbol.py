"""The ``(sheet ...)`` list eeschema 9 writes for a new hierarchical sheet symbol.

Measured on sheets drawn in eeschema 9 (the KiCad 9 demos): a sheet writes its
``at`` (top-left corner) and ``size``, the flags ``exclude_from_sim``, ``in_bom``,
``on_board``, ``dnp``, ``fields_autoplaced``, a 0.1524 mm solid stroke and an empty
fill, its uuid, the ``Sheetname`` field 0.7144 mm above the box (left-bottom
justified) and ``Sheetfile`` 0.5842 mm below it (left-top), its pins, and
``(instances (project "NAME" (path "/root-uuid[/sheet-uuid...]" (page "N"))))`` with
one path per instance of the parent sheet. A pin on the left edge points left (180)
with left-justified text, on the right edge 0 with right-justified text.
Coordinates are integer nanometres.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...sexpr.atoms import mm, quote
from ...sexpr.node import SList
from ..sexpr_doc import make
from ..views import Point

PIN_STEP = 2_540_000  # default distance between sheet pins, and from the top edge
_NAME_ABOVE = 714_400
_FILE_BELOW = 584_200


@dataclass
class NewSheetPin:
    """A sheet pin to add: name, electrical shape (input, output, bidirectional,
    tri_state, passive), edge ("left" or "right"), distance from the top edge (nm;
    None: the next 2.54 mm step on that edge)."""

    name: str
    shape: str = "bidirectional"
    side: str = "left"
    offset: int | None = None


def _font() -> SList:
    return make("font", make("size", b"1.27", b"1.27"))


def sheet_pins(pins: list[NewSheetPin], at: Point, size: Point, uid) -> list[SList]:
    """The ``(pin ...)`` lists of a sheet at ``at`` of ``size``; ``uid()`` makes each
    pin's uuid list."""
    x, y = at
    out, counts = [], {"left": 0, "right": 0}
    for p in pins:
        counts[p.side] += 1
        off = p.offset if p.offset is not None else counts[p.side] * PIN_STEP
        px = x if p.side == "left" else x + size[0]
        out.append(make("pin", quote(p.name), p.shape.encode(),
                        make("at", mm(px), mm(y + off), b"180" if p.side == "left" else b"0"),
                        uid(),
                        make("effects", _font(), make("justify", b"left" if p.side == "left" else b"right"))))
    return out


def sheet_node(name: str, file: str, at: Point, size: Point, pins: list[SList], uid: str,
               project: str, instances: list[tuple[str, str]]) -> SList:
    """The ``(sheet ...)`` list; ``instances``: (parent instance path, page) pairs."""
    x, y = at
    w, h = size
    paths = [make("path", quote(path), make("page", quote(page))) for path, page in instances]
    return make("sheet", make("at", mm(x), mm(y)), make("size", mm(w), mm(h)),
                make("exclude_from_sim", b"no"), make("in_bom", b"yes"), make("on_board", b"yes"),
                make("dnp", b"no"), make("fields_autoplaced", b"yes"),
                make("stroke", make("width", b"0.1524"), make("type", b"solid")),
                make("fill", make("color", b"0", b"0", b"0", b"0.0000")),
                make("uuid", quote(uid)),
                make("property", quote("Sheetname"), quote(name),
                     make("at", mm(x), mm(y - _NAME_ABOVE), b"0"),
                     make("effects", _font(), make("justify", b"left", b"bottom"))),
                make("property", quote("Sheetfile"), quote(file),
                     make("at", mm(x), mm(y + h + _FILE_BELOW), b"0"),
                     make("effects", _font(), make("justify", b"left", b"top"))),
                *pins,
                make("instances", make("project", quote(project), *paths)))
