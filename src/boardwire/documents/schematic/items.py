"""Views of a sheet's items: wires and buses, labels, junctions, no-connect flags, bus
entries, sheet symbols and their pins, and what fielded items share.

Format reference: KiCad's "Schematic File Format" page
(dev-docs.kicad.org/en/file-formats/sexpr-schematic/). Coordinates are integer
nanometres (KiCad's schematic unit is 100 nm, so every schematic coordinate is a whole
number of them).
"""

from __future__ import annotations

from ...sexpr import atoms
from ...sexpr.atoms import mm
from ...sexpr.node import SList
from ..views import Fielded, Placed, Point, View


class SchItem(View):
    """An item of a sheet: it has a place (``at``, or the points of a line) and moves
    with its fields and pins."""

    __slots__ = ()

    @property
    def anchor(self) -> Point | None:
        """Where the item is: its ``at``, or a line's first point."""
        p = self.point("at")
        if p is not None:
            return p
        pts = self.child("pts")
        xy = pts.find("xy") if pts is not None else None
        if xy is None:
            return None
        v = xy.atoms()
        return atoms.to_nm(v[0]), atoms.to_nm(v[1])

    def translate(self, dx: int, dy: int) -> None:
        """Move the item by (dx, dy) nm: its ``at`` or points, and the positions of its
        fields and (sheet) pins."""
        doc = self.doc

        def shift(n: SList) -> None:
            vals = n.atoms()
            doc.set_atoms(n, [mm(atoms.to_nm(vals[0]) + dx), mm(atoms.to_nm(vals[1]) + dy)] + vals[2:])

        at = self.child("at")
        if at is not None:
            shift(at)
        pts = self.child("pts")
        if pts is not None:
            for xy in pts.lists("xy"):
                shift(xy)
        for sub in self.node.lists():
            if sub.head in ("property", "pin") and sub.find("at") is not None:
                shift(sub.find("at"))


class Wire(SchItem):
    """``wire``, ``bus`` or ``polyline``: a list of points."""

    __slots__ = ()

    @property
    def points(self) -> list[Point]:
        pts = self.child("pts")
        if pts is None:
            return []
        return [(atoms.to_nm(v[0]), atoms.to_nm(v[1])) for v in (xy.atoms() for xy in pts.lists("xy"))]

    def set_end(self, p: Point) -> None:
        """Move the last point to ``p`` (nm)."""
        xys = list(self.child("pts").lists("xy"))
        self.doc.set_atoms(xys[-1], [mm(p[0]), mm(p[1])])


class Label(SchItem, Placed):
    """``label``, ``global_label``, ``hierarchical_label`` (and ``netclass_flag``)."""

    __slots__ = ()

    @property
    def text(self) -> str:
        return self.arg(0)

    @property
    def shape(self) -> str | None:
        return self.text_of("shape")


class Marker(SchItem, Placed):
    """``junction``, ``no_connect``, ``bus_entry``: a position."""

    __slots__ = ()


class SheetPin(SchItem, Placed):
    __slots__ = ()

    @property
    def name(self) -> str:
        return self.arg(0)

    @property
    def electrical_type(self) -> str:
        return self.arg(1)


class Sheet(SchItem, Fielded, Placed):
    """A hierarchical sheet symbol: name, file, pins."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self.field("Sheetname") or self.field("Sheet name") or ""

    @property
    def file(self) -> str:
        return self.field("Sheetfile") or self.field("Sheet file") or ""

    @property
    def size(self) -> Point:
        return self.point("size") or (0, 0)

    @property
    def pins(self) -> list[SheetPin]:
        return [SheetPin(self.doc, p) for p in self.node.lists("pin")]

    def instance_pages(self) -> list[tuple[str, str]]:
        """(parent instance path, page number) of each ``(instances (project (path
        PATH (page N))))`` entry, in file order (KiCad 7+; KiCad 6 keeps pages in the
        root's ``sheet_instances``)."""
        inst = self.child("instances")
        out = []
        for project in (inst.lists("project") if inst is not None else ()):
            for p in project.lists("path"):
                vals = p.atoms()
                page = p.find("page")
                if vals and page is not None and page.atoms():
                    out.append((atoms.text(vals[0]), atoms.text(page.atoms()[0])))
        return out
