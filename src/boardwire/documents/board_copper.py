"""Copper stored inside board items as lists of shapes: the primitives of a custom pad
and the filled polygons of a zone.

Format reference: KiCad's "Board File Format" (dev-docs.kicad.org/en/file-formats/
sexpr-pcb/, "Footprint Pad" ``primitives`` and "Zone" ``filled_polygon``).
Coordinates are nanometres.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..sexpr import atoms
from ..sexpr.node import SList
from .views import Point


@dataclass(frozen=True)
class PadPrimitive:
    """One shape of a custom pad, relative to the pad's anchor (not rotated).

    ``kind`` is KiCad's keyword: ``gr_poly`` (``points`` is the outline), ``gr_line``
    and ``gr_rect`` (start, end), ``gr_circle`` (centre, a point on the circle);
    ``width`` is the outline's stroke width (0: none)."""

    kind: str
    points: tuple[Point, ...]
    width: int


def _xy(node: SList | None) -> Point | None:
    vals = node.atoms() if node is not None else []
    return (atoms.to_nm(vals[0]), atoms.to_nm(vals[1])) if len(vals) >= 2 else None


def pad_primitives(pad) -> list[PadPrimitive]:
    """The ``gr_poly``, ``gr_line``, ``gr_rect`` and ``gr_circle`` primitives of a pad's
    ``(primitives ...)`` ([] for a pad without them; other kinds are left out)."""
    prims = pad.child("primitives")
    out: list[PadPrimitive] = []
    for p in (prims.lists() if prims is not None else ()):
        width = p.find("width")
        w = atoms.to_nm(width.atoms()[0]) if width is not None and width.atoms() else 0
        if p.head == "gr_poly":
            pts = p.find("pts")
            xy = (_xy(v) for v in pts.lists("xy")) if pts is not None else ()
            out.append(PadPrimitive(p.head, tuple(q for q in xy if q is not None), w))
            continue
        ends = ("center", "end") if p.head == "gr_circle" else ("start", "end")
        if p.head in ("gr_line", "gr_rect", "gr_circle"):
            a, b = (_xy(p.find(h)) for h in ends)
            if a is not None and b is not None:
                out.append(PadPrimitive(p.head, (a, b), w))
    return out


def zone_fills(zone) -> list[tuple[str, np.ndarray]]:
    """A zone's ``filled_polygon`` outlines as (layer, N x 2 float array, nm), in file
    order. A polygon without ``(layer ...)`` (KiCad 5 and older) is on the zone's one
    layer; one with neither is left out. The coordinates are read as floats, without
    rounding to the nanometre (fills hold up to 100k vertices)."""
    zone_layer = zone.layer
    out = []
    for poly in zone.node.lists("filled_polygon"):
        layer = poly.find("layer")
        pts = poly.find("pts")
        if pts is None or (layer is None and zone_layer is None):
            continue
        flat = [v for xy in pts.kids[1:] if type(xy) is SList for v in xy.kids[1:3]]
        xy = (np.array(flat, dtype=float) * 1e6).reshape(-1, 2)
        out.append((atoms.text(layer.atoms()[0]) if layer is not None else zone_layer, xy))
    return out
