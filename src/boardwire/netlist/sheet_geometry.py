"""What connects at a point on one sheet file, as KiCad 9 connects it.

Items connect where their connection points coincide exactly: wire ends, symbol pins,
labels, sheet pins, junctions. A junction on the middle of a wire connects to it, and
so does a label (of any kind). A pin or a wire end on the middle of another wire does
*not* connect, nor do two wires crossing without a junction. Buses are joined the same
way, apart from wires. (Measured with kicad-cli 9.0.8's netlist; tests/netlist.)

The geometry is the same for every instance of a sheet file; coordinates are integer
nanometres.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..documents.schematic import Schematic, Sheet, SymbolInstance
from .bus import OVERBAR_FORMAT, is_bus_name, new_overbar

Point = tuple[int, int]


class UnionFind:
    """Disjoint sets over any hashable keys; a key seen for the first time is a set of
    its own."""

    __slots__ = ("parent",)

    def __init__(self) -> None:
        self.parent: dict = {}

    def find(self, x):
        parent = self.parent
        root = x
        while True:
            p = parent.get(root)
            if p is None:
                parent[root] = root
                break
            if p == root:
                break
            root = p
        while x != root:
            nxt = parent[x]
            parent[x] = root
            x = nxt
        return root

    def union(self, a, b) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


@dataclass
class SheetGeometry:
    """The wires (and, apart, the buses) of one sheet file joined into groups; the same
    for every instance of the file.

    ``group(p)`` is the wire group of a connection point, ``bus_group(p)`` its bus
    group; a point on no wire (bus) is a group of its own."""

    uf: UnionFind
    labels: list[tuple[str, str, Point, str | None]]  # kind, text, at, uuid
    no_connects: list[Point]
    sheets: list[tuple[Sheet, list[tuple[str, Point, str]]]]  # sheet, [(name, at, shape)]
    symbols: list[SymbolInstance]

    def group(self, p: Point):
        return self.uf.find(("p", p))

    def bus_group(self, p: Point):
        return self.uf.find(("bp", p))


def join_segments(uf: UnionFind, segs: list[tuple[Point, Point]], seg_tag: str, pt_tag: str,
                  inner: list[Point]) -> None:
    """Join segments that share an end, and the points of ``inner`` (junctions, labels)
    with every segment they lie on, end or middle. Keys: ``(seg_tag, index)`` for a
    segment, ``(pt_tag, point)`` for a point."""
    horiz: dict[int, list[tuple[int, int, int]]] = {}
    vert: dict[int, list[tuple[int, int, int]]] = {}
    other: list[int] = []
    for i, (a, b) in enumerate(segs):
        uf.union((pt_tag, a), (seg_tag, i))
        uf.union((pt_tag, b), (seg_tag, i))
        if a[1] == b[1]:
            horiz.setdefault(a[1], []).append((min(a[0], b[0]), max(a[0], b[0]), i))
        elif a[0] == b[0]:
            vert.setdefault(a[0], []).append((min(a[1], b[1]), max(a[1], b[1]), i))
        else:
            other.append(i)
    for p in set(inner):
        x, y = p
        for lo, hi, i in horiz.get(y, ()):
            if lo < x < hi:
                uf.union((pt_tag, p), (seg_tag, i))
        for lo, hi, i in vert.get(x, ()):
            if lo < y < hi:
                uf.union((pt_tag, p), (seg_tag, i))
        for i in other:
            a, b = segs[i]
            if (min(a[0], b[0]) <= x <= max(a[0], b[0]) and min(a[1], b[1]) <= y <= max(a[1], b[1])
                    and (b[0] - a[0]) * (y - a[1]) == (b[1] - a[1]) * (x - a[0])):
                uf.union((pt_tag, p), (seg_tag, i))


def _segments(lines) -> list[tuple[Point, Point]]:
    out: list[tuple[Point, Point]] = []
    for line in lines:
        pts = line.points
        out.extend(zip(pts, pts[1:]))
    return out


def sheet_geometry(doc: Schematic, aliases: dict[str, list[str]] | None = None) -> SheetGeometry:
    """Read one sheet file's wires, buses, labels, junctions, sheets and symbols; a
    label whose text is a bus name (`is_bus_name`, with ``aliases``) joins buses."""
    uf = UnionFind()
    text = new_overbar if (doc.version or 0) < OVERBAR_FORMAT else str
    labels = [(lab.kind, text(lab.text), lab.position, lab.uuid) for lab in doc.labels]
    junctions = [j.position for j in doc.junctions]
    ncs = [n.position for n in doc.no_connects]
    sheets = [(s, [(text(p.name), p.position, p.electrical_type) for p in s.pins]) for s in doc.sheets]
    net_labels = [lab[2] for lab in labels if not is_bus_name(lab[1], aliases)]
    bus_labels = [lab[2] for lab in labels if is_bus_name(lab[1], aliases)]
    # a junction or a label on the middle of a wire (bus) connects to it
    join_segments(uf, _segments(doc.wires), "w", "p", junctions + net_labels)
    join_segments(uf, _segments(doc.buses), "b", "bp", junctions + bus_labels)
    return SheetGeometry(uf, labels, ncs, sheets, doc.symbols)
