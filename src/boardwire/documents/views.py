"""Typed views over lists: read and write fields in KiCad's units and spelling.

A view is a thin handle (document + list node). It owns no data: reading a property
reads the tree; writing one edits the tree through the document, so the file changes
only where the value changed. Coordinates are integer nanometres, angles degrees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..sexpr import atoms
from ..sexpr.node import SList

if TYPE_CHECKING:
    from .sexpr_doc import SexprDocument

Point = tuple[int, int]


class View:
    """A handle on one list of a document."""

    __slots__ = ("doc", "node")

    def __init__(self, doc: SexprDocument, node: SList):
        self.doc = doc
        self.node = node

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and other.node is self.node

    def __hash__(self) -> int:
        return id(self.node)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.node.head}>"

    @property
    def kind(self) -> str:
        """The item's KiCad keyword (``segment``, ``footprint``, ``wire``...)."""
        return self.node.head

    @property
    def in_document(self) -> bool:
        """False once the item was removed from its document."""
        return self.node.parent is not None

    # -- reading helpers -------------------------------------------------------------

    def child(self, head: str) -> SList | None:
        return self.node.find(head)

    def values(self, head: str) -> list[bytes]:
        """The atoms of child ``(head ...)``, or [] if there is none."""
        c = self.node.find(head)
        return c.atoms() if c is not None else []

    def arg(self, i: int = 0) -> str:
        """The ``i``-th atom after the keyword as text (``(pad "1" smd rect ...)``:
        arg(1) is "smd"); "" if there is none."""
        vals = self.node.atoms()
        return atoms.text(vals[i]) if len(vals) > i else ""

    def nm_of(self, head: str) -> int:
        """The length in child ``(head 0.25)`` in nm; 0 if there is none."""
        vals = self.values(head)
        return atoms.to_nm(vals[0]) if vals else 0

    def text_of(self, head: str) -> str | None:
        vals = self.values(head)
        return atoms.text(vals[0]) if vals else None

    def point(self, head: str = "at") -> Point | None:
        vals = self.values(head)
        if len(vals) < 2:
            return None
        return atoms.to_nm(vals[0]), atoms.to_nm(vals[1])

    def angle(self, head: str = "at") -> float:
        return at_angle(self.values(head))

    def flag(self, name: str) -> bool:
        """A yes/no setting in either spelling: ``(name yes)`` or a bare ``name`` atom."""
        c = self.node.find(name)
        if c is not None:
            vals = c.atoms()
            return not vals or vals[0] in (b"yes", b"true")
        return name.encode() in self.node.kids[1:]

    @property
    def uuid(self) -> str | None:
        """The item's UUID (``uuid`` from KiCad 8, ``tstamp`` before)."""
        return self.text_of("uuid") or self.text_of("tstamp")

    # -- writing helpers -------------------------------------------------------------

    def set_values(self, head: str, values: list[bytes], *, after: str | None = None) -> None:
        """Set child ``(head values...)``, creating it (after child ``after``, else at
        the end) when missing."""
        c = self.node.find(head)
        if c is not None:
            self.doc.set_atoms(c, values)
            return
        from .sexpr_doc import make

        index = None
        if after is not None:
            anchor = self.node.find(after)
            if anchor is not None:
                index = self.node.index(anchor) + 1
        self.doc.insert(self.node, make(head, *values), index)

    def set_point(self, head: str, p: Point, angle: float | None = None) -> None:
        """Set ``(head x y [angle])``; an existing angle atom is kept unless given."""
        vals = [atoms.mm(p[0]), atoms.mm(p[1])]
        old = self.values(head)
        if angle is not None:
            if angle or len(old) > 2:
                vals.append(atoms.num(angle))
        elif len(old) > 2:
            vals.append(old[2])
        self.set_values(head, vals)


class Placed(View):
    """An item placed by ``(at x y [angle])``: a footprint, pad, symbol, pin, label..."""

    __slots__ = ()

    @property
    def position(self) -> Point:
        return self.point("at") or (0, 0)

    @property
    def orientation(self) -> float:
        """Degrees, counter-clockwise, as stored."""
        return self.angle("at")


class Fielded(View):
    """Something with ``(property "Name" "value" ...)`` fields."""

    __slots__ = ()

    @property
    def fields(self) -> dict[str, str]:
        out = {}
        for p in self.node.lists("property"):
            vals = p.atoms()
            if len(vals) >= 2:
                out[atoms.text(vals[0])] = atoms.text(vals[1])
        return out

    def field(self, name: str) -> str | None:
        """The value of field ``name``; None if the item has no such field."""
        p = self._property(name)
        if p is None:
            return None
        vals = p.atoms()
        return atoms.text(vals[1]) if len(vals) > 1 else ""

    @property
    def reference(self) -> str:
        """The Reference field ("" without one)."""
        return self.field("Reference") or ""

    @property
    def value(self) -> str:
        return self.field("Value") or ""

    def _property(self, name: str) -> SList | None:
        for p in self.node.lists("property"):
            vals = p.atoms()
            if vals and atoms.text(vals[0]) == name:
                return p
        return None


def split_at(vals: list[bytes]) -> tuple[list[bytes], list[bytes], list[bytes]]:
    """The atoms of ``(at x y [angle] [unlocked])`` as (x y, [angle] or [], the rest):
    KiCad 5-7 write a footprint text's "unlocked" with or without an angle."""
    if len(vals) > 2 and vals[2] != b"unlocked":
        return vals[:2], vals[2:3], vals[3:]
    return vals[:2], [], vals[2:]


def at_angle(vals: list[bytes]) -> float:
    """The angle (degrees) of ``(at x y [angle] [unlocked])``: 0 when absent."""
    angle = split_at(vals)[1]
    return float(angle[0]) if angle else 0.0


def iter_views(doc, node: SList, kinds: dict[str, type]) -> Iterator[View]:
    """Views of the child lists of ``node`` whose keyword is in ``kinds``."""
    for kid in node.kids:
        if type(kid) is SList:
            cls = kinds.get(kid.head)
            if cls is not None:
                yield cls(doc, kid)
