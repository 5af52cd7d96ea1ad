"""The lists of new tracks, arcs, vias, zones and drawings, in the tokens of a board's own format
version: what `Board.add_track`, `add_via` and `add_zone` insert, and what the KiCad 10
regeneration test rebuilds from each item's fields (tests/documents/test_kicad10.py);
`Board.add_graphic` and `add_text` write drawings and texts with `graphic_list` and
`text_list`.

Sources: ``PCB_IO_KICAD_SEXPR::format(PCB_TRACK)`` / ``format(ZONE)`` of KiCad 9 and
``PCB_WRITER_V10`` (pcbnew/pcb_io/kicad_sexpr/writers/pcb_writer_v10.cpp) of KiCad 10,
checked against the real KiCad 10 boards of ../shared/corpus. What changed in KiCad 10
(format 20251028 on): items name their net, ``(net "GND")``, and no net codes are
written; a track or via always writes its net (``(net "")`` for none), a zone only when
it has one, with no ``net_name``. Zones (20250302 on) write ``island_removal_mode``
always and no ``filled_areas_thickness``. Coordinates are integer nanometres.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...sexpr import atoms
from ...sexpr.atoms import mm, quote
from ...sexpr.node import SList
from ..sexpr_doc import make
from ..versions import board_has
from ..views import Point

# via protection (IPC-4761) children in the order KiCad writes them
PROTECTION = ("tenting", "capping", "covering", "plugging", "filling")


def net_list(doc, net: int | str | None, *, zone: bool = False) -> SList | None:
    """``(net ...)`` as the board's format writes it: the name from KiCad 10 on (a
    zone without a net writes none), the number before (zones add ``net_name``
    themselves). ``net`` is a number of the board's net table or a net name."""
    if doc.named_nets:
        name = net if isinstance(net, str) else (doc.net_name(net or 0) or "")
        return make("net", quote(name)) if name or not zone else None
    number = net if isinstance(net, int) else (doc.net_number(net) or 0 if net else 0)
    return make("net", str(number).encode())


def track_list(doc, start: Point, end: Point, width: int, layer: str, net: int | str,
               uid: str, *, mid: Point | None = None, locked: bool = False) -> SList:
    """A ``segment`` (or, with ``mid``, a track ``arc``)."""
    return make("arc" if mid is not None else "segment",
                make("start", mm(start[0]), mm(start[1])),
                make("mid", mm(mid[0]), mm(mid[1])) if mid is not None else None,
                make("end", mm(end[0]), mm(end[1])),
                make("width", mm(width)),
                make("locked", b"yes") if locked else None,
                make("layer", doc.layer_token(layer)),
                net_list(doc, net),
                doc.id_token(uid))


def via_list(doc, at: Point, size: int, drill: int, layers: tuple[str, str], net: int | str,
             uid: str, *, via_type: str = "through", locked: bool = False,
             protection: dict | None = None) -> SList:
    """A ``via``; ``via_type`` through, blind, buried or micro; ``protection`` the
    IPC-4761 settings a via overrides (KiCad 10: ``{"tenting": {"front": "yes",
    "back": "no"}, "capping": "no", ...}``), written in KiCad's order."""
    extra = []
    for head in PROTECTION:
        value = (protection or {}).get(head)
        if isinstance(value, dict):
            extra.append(make(head, *(make(side, value[side].encode()) for side in ("front", "back")
                                      if side in value)))
        elif isinstance(value, list):
            extra.append(make(head, *(v.encode() for v in value)))
        elif value is not None:
            extra.append(make(head, value.encode()))
    return make("via", *([via_type.encode()] if via_type != "through" else []),
                make("at", mm(at[0]), mm(at[1])),
                make("size", mm(size)),
                make("drill", mm(drill)),
                make("layers", *(doc.layer_token(name) for name in layers)),
                make("locked", b"yes") if locked else None,
                *extra,
                net_list(doc, net),
                doc.id_token(uid))


@dataclass
class ZoneSpec:
    """A copper zone's settings (nm). ``pads``: KiCad's ``connect_pads`` token (None:
    thermal reliefs, no token; ``yes``; ``thru_hole_only``; ``no``)."""

    outline: list[Point]
    layers: list[str]
    net: str = ""
    uid: str = ""
    name: str | None = None
    locked: bool = False
    hatch: tuple[str, int] = ("edge", 500_000)
    priority: int = 0
    pads: str | None = None
    clearance: int = 500_000
    min_thickness: int = 250_000
    thermal_gap: int = 500_000
    thermal_bridge_width: int = 500_000
    island_removal_mode: int = 0
    holes: list[list[Point]] = field(default_factory=list)
    # what existing zones have beyond a new one (read by `items.Zone.spec`):
    keepout: dict[str, str] | None = None  # rule area: tracks/vias/pads/copperpour/footprints -> allowed|not_allowed
    placement: tuple[bool, str, str] | None = None  # rule area: enabled, source kind, source
    filled: bool = False  # ``(fill yes ...)``
    hatch_fill: list[tuple[str, str]] = field(default_factory=list)  # (mode hatch): hatch_* settings, as written
    hatch_offsets: dict[str, Point] = field(default_factory=dict)  # layer -> hatch_position
    fills: list[tuple[str, bool, list[Point]]] = field(default_factory=list)  # filled_polygon: layer, island, points


def _pts(points: list[Point]) -> SList:
    return make("pts", *(make("xy", mm(x), mm(y)) for x, y in points))


def zone_list(doc, z: ZoneSpec) -> SList:
    """A ``zone`` as the board's format writes it (a new one: unfilled, copper)."""
    v10 = board_has(doc.version, "zone_v10")
    named = doc.named_nets
    layers = [doc.layer_token(name) for name in z.layers]
    return make("zone",
                net_list(doc, z.net, zone=True) if named else make("net", str(doc.net_number(z.net) or 0).encode()),
                None if named else make("net_name", quote(z.net)),
                make("locked", b"yes") if z.locked else None,
                make("layers", *layers) if len(layers) > 1 else make("layer", layers[0]),
                doc.id_token(z.uid),
                make("name", quote(z.name)) if z.name else None,
                make("hatch", z.hatch[0].encode(), mm(z.hatch[1])),
                make("priority", str(z.priority).encode()) if z.priority else None,
                make("connect_pads", *([z.pads.encode()] if z.pads else []), make("clearance", mm(z.clearance))),
                make("min_thickness", mm(z.min_thickness)),
                None if v10 else make("filled_areas_thickness", b"no"),
                make("keepout", *(make(k, v.encode()) for k, v in z.keepout.items())) if z.keepout else None,
                make("placement", make("enabled", b"yes" if z.placement[0] else b"no"),
                     make(z.placement[1], quote(z.placement[2]))) if z.placement else None,
                make("fill", *([b"yes"] if z.filled else []),
                     make("mode", b"hatch") if z.hatch_fill else None,
                     make("thermal_gap", mm(z.thermal_gap)),
                     make("thermal_bridge_width", mm(z.thermal_bridge_width)),
                     make("island_removal_mode", str(z.island_removal_mode).encode())
                     if v10 or z.island_removal_mode else None,
                     *(make(k, v.encode()) for k, v in z.hatch_fill)),
                *(make("property", make("layer", doc.layer_token(layer)), make("hatch_position", make("xy", mm(x), mm(y))))
                  for layer, (x, y) in z.hatch_offsets.items()),
                make("polygon", _pts(z.outline)),
                *(make("polygon", _pts(hole)) for hole in z.holes),
                *(make("filled_polygon", make("layer", doc.layer_token(layer)),
                       (make("island", b"yes") if board_has(doc.version, "island_bool") else make("island"))
                       if island else None, _pts(points)) for layer, island, points in z.fills))


# a drawing's points by shape, in the order KiCad writes them
SHAPE_POINTS = {"line": ("start", "end"), "rect": ("start", "end"), "circle": ("center", "end"),
                "arc": ("start", "mid", "end")}


def graphic_list(doc, shape: str, points: list[Point], layer: str, width: int, uid: str, *,
                 fill: str | None = None, stroke_type: str = "solid", locked: bool = False) -> SList:
    """A board drawing ``gr_<shape>``: line (2 points), rect (2 corners), circle
    (centre, a point on it), arc (start, mid, end), poly (3+ points); ``fill`` (rect,
    circle, poly only) ``yes``/``no`` (KiCad 10 also ``hatch``...), None: ``no``."""
    if shape == "poly":
        p = [_pts(points)]
    else:
        p = [make(h, mm(x), mm(y)) for h, (x, y) in zip(SHAPE_POINTS.get(shape, ()), points)]
    fill_node = make("fill", (fill or "no").encode()) if shape in ("rect", "circle", "poly") else None
    return make(f"gr_{shape}", *p, make("stroke", make("width", mm(width)), make("type", stroke_type.encode())),
                fill_node, make("locked", b"yes") if locked else None,
                make("layer", doc.layer_token(layer)), doc.id_token(uid))


def text_list(doc, text: str, at: Point, angle: float, layer: str, uid: str, *,
              size: Point = (1_000_000, 1_000_000), thickness: int | None = 150_000,
              justify: list[str] | None = None) -> SList:
    """Board text ``gr_text`` at ``at`` (nm) turned ``angle`` degrees; font ``size``
    (width, height nm), stroke ``thickness`` (None: the font's default, not written),
    ``justify`` words (left/right/top/bottom/mirror; [] or None: centred)."""
    font = make("font", make("size", mm(size[0]), mm(size[1])),
                make("thickness", mm(thickness)) if thickness is not None else None)
    return make("gr_text", quote(text), make("at", mm(at[0]), mm(at[1]), atoms.num(angle)),
                make("layer", doc.layer_token(layer)), doc.id_token(uid),
                make("effects", font, make("justify", *(j.encode() for j in justify)) if justify else None))
