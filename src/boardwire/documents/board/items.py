"""Views of a board's items: tracks, arcs, vias, zones, drawings, texts, groups,
dimensions, and what every board item has (layers, net, lock).

Format reference: KiCad's "Board File Format" page (dev-docs.kicad.org/en/file-formats/
sexpr-pcb/). Coordinates are integer nanometres, angles degrees.
"""

from __future__ import annotations

from ...sexpr import atoms
from ...sexpr.atoms import mm
from ..versions import zone_fill_stroked
from ..views import Point, View

_POINT_HEADS = ("at", "start", "end", "mid", "center")


class BoardItem(View):
    """Any board item: it may have a layer (or layers) and a net."""

    __slots__ = ()

    @property
    def layer(self) -> str | None:
        return self.text_of("layer")

    @property
    def layers(self) -> list[str]:
        vals = self.values("layers")
        if vals:
            return [atoms.text(v) for v in vals]
        one = self.layer
        return [one] if one else []

    @property
    def net(self) -> int | None:
        """Net number (``(net 3)``); None when the item has no net."""
        vals = self.values("net")
        if vals and vals[0][:1] != b'"':
            try:
                return int(vals[0])
            except ValueError:
                return None
        return None

    @property
    def net_name(self) -> str | None:
        """Net name when the item carries it (pads: ``(net 3 "GND")``; KiCad 10:
        ``(net "GND")``); else None (look the number up in `Board.nets`)."""
        vals = self.values("net")
        if len(vals) > 1:
            return atoms.text(vals[1])
        if vals and vals[0][:1] == b'"':
            return atoms.text(vals[0])
        return self.text_of("net_name")

    @property
    def locked(self) -> bool:
        return self.flag("locked")

    def translate(self, dx: int, dy: int) -> None:
        """Move the item by (dx, dy) nm: its ``at``, ``start``, ``end``, ``mid`` and
        ``center`` points and the ``xy`` points of its ``pts`` (tracks, vias, drawings,
        texts)."""
        for head in _POINT_HEADS:
            c = self.child(head)
            if c is not None:
                v = c.atoms()
                self.doc.set_atoms(c, [mm(atoms.to_nm(v[0]) + dx), mm(atoms.to_nm(v[1]) + dy)] + v[2:])
        pts = self.child("pts")
        if pts is not None:
            for xy in pts.lists("xy"):
                v = xy.atoms()
                self.doc.set_atoms(xy, [mm(atoms.to_nm(v[0]) + dx), mm(atoms.to_nm(v[1]) + dy)])


class Track(BoardItem):
    """A straight track segment (``segment``)."""

    __slots__ = ()

    @property
    def start(self) -> Point:
        return self.point("start")

    @property
    def end(self) -> Point:
        return self.point("end")

    @property
    def width(self) -> int:
        return self.nm_of("width")


class Arc(Track):
    """A track arc (``arc``): start, mid, end."""

    __slots__ = ()

    @property
    def mid(self) -> Point:
        return self.point("mid")


class Via(BoardItem):
    __slots__ = ()

    @property
    def position(self) -> Point:
        return self.point("at")

    @property
    def size(self) -> int:
        return self.nm_of("size")

    @property
    def drill(self) -> int:
        return self.nm_of("drill")

    @property
    def via_type(self) -> str:
        """through, blind, buried (KiCad 10) or micro."""
        vals = self.node.atoms()
        return atoms.text(vals[0]) if vals and vals[0] in (b"blind", b"buried", b"micro") else "through"

    @property
    def protection(self) -> dict:
        """The IPC-4761 protection this via overrides (KiCad 9 ``tenting``; KiCad 10
        also ``covering``, ``plugging``, ``capping``, ``filling``): ``{"tenting":
        {"front": "yes", "back": "no"}, "capping": "no"}``; KiCad 9's ``(tenting front
        back)`` gives a list); {} when it follows the board's settings."""
        out: dict = {}
        for head in ("tenting", "capping", "covering", "plugging", "filling"):
            c = self.child(head)
            if c is None:
                continue
            sides = {k.head: atoms.text(k.atoms()[0]) for k in c.lists() if k.atoms()}
            vals = c.atoms()
            out[head] = sides or (atoms.text(vals[0]) if len(vals) == 1 else [atoms.text(v) for v in vals])
        return out


class Zone(BoardItem):
    __slots__ = ()

    @property
    def name(self) -> str | None:
        return self.text_of("name")

    @property
    def is_keepout(self) -> bool:
        return self.child("keepout") is not None

    @property
    def outline(self) -> list[Point]:
        poly = self.child("polygon")
        pts = poly.find("pts") if poly is not None else None
        if pts is None:
            return []
        return [(atoms.to_nm(a[0]), atoms.to_nm(a[1]))
                for a in (xy.atoms() for xy in pts.lists("xy"))]

    @property
    def filled(self) -> bool:
        return self.child("filled_polygon") is not None

    @property
    def stroked_fill(self) -> bool:
        """Whether KiCad strokes this zone's filled polygons with its minimum width
        (`versions.zone_fill_stroked`: a KiCad 5 format's fills)."""
        token = self.values("filled_areas_thickness")
        return zone_fill_stroked(self.doc.version if self.doc is not None else None,
                                 token[0] if token else None, self.child("fill") is not None)

    def spec(self):
        """The zone's settings as a `new_items.ZoneSpec` (nm), None when it has some
        the spec does not hold (teardrop areas, smoothing, arcs in outlines, island
        areas...): what `new_items.zone_list` writes the zone back from."""
        from .new_items import ZoneSpec

        known = {"net", "net_name", "locked", "layer", "layers", "uuid", "name", "hatch", "priority",
                 "connect_pads", "min_thickness", "filled_areas_thickness", "keepout", "placement",
                 "fill", "property", "polygon", "filled_polygon"}
        fill_known = {"mode", "thermal_gap", "thermal_bridge_width", "island_removal_mode", "hatch_thickness",
                      "hatch_gap", "hatch_orientation", "hatch_smoothing_level", "hatch_smoothing_value",
                      "hatch_border_algorithm", "hatch_min_hole_area"}
        fill = self.child("fill")
        if any(k.head not in known for k in self.node.lists()) or fill is None \
                or any(k.head not in fill_known for k in fill.lists()):
            return None
        polys = [_xy_points(p.find("pts")) for p in self.node.lists("polygon")]
        fills = [(atoms.text(f.find("layer").atoms()[0]), f.find("island") is not None
                  and (not f.find("island").atoms() or f.find("island").atoms()[0] == b"yes"),
                  _xy_points(f.find("pts"))) for f in self.node.lists("filled_polygon")]
        if any(p is None for p in polys) or any(f[2] is None for f in fills) or not polys:
            return None
        hatch = self.values("hatch")
        pads = self.child("connect_pads")
        how = pads.atoms() if pads is not None else []
        clearance = pads.find("clearance") if pads is not None else None
        keepout = self.child("keepout")
        placement = self.child("placement")
        source = [k for k in placement.lists() if k.head != "enabled"] if placement is not None else []
        offsets = {}
        for prop in self.node.lists("property"):
            layer, pos = prop.find("layer"), prop.find("hatch_position")
            xy = pos.find("xy").atoms() if pos is not None and pos.find("xy") is not None else None
            if layer is None or xy is None or len(prop.kids) != 3:
                return None
            offsets[atoms.text(layer.atoms()[0])] = (atoms.to_nm(xy[0]), atoms.to_nm(xy[1]))
        number = lambda h, d=0: atoms.to_nm(fill.find(h).atoms()[0]) if fill.find(h) is not None else d  # noqa: E731
        return ZoneSpec(
            polys[0], self.layers, self.net_name or "", self.uuid or "", name=self.name, locked=self.locked,
            hatch=(atoms.text(hatch[0]), atoms.to_nm(hatch[1])), priority=int(self.values("priority")[0])
            if self.child("priority") is not None else 0,
            pads=atoms.text(how[0]) if how else None,
            clearance=atoms.to_nm(clearance.atoms()[0]) if clearance is not None else 0,
            min_thickness=self.nm_of("min_thickness"), thermal_gap=number("thermal_gap"),
            thermal_bridge_width=number("thermal_bridge_width"),
            island_removal_mode=int(fill.find("island_removal_mode").atoms()[0])
            if fill.find("island_removal_mode") is not None else 0,
            holes=polys[1:],
            keepout={k.head: atoms.text(k.atoms()[0]) for k in keepout.lists()} if keepout is not None else None,
            placement=(placement.find("enabled") is not None and placement.find("enabled").atoms()[0] == b"yes",
                       source[0].head, atoms.text(source[0].atoms()[0])) if source else None,
            filled=b"yes" in fill.atoms(),
            hatch_fill=[(k.head, atoms.text(k.atoms()[0])) for k in fill.lists() if k.head.startswith("hatch_")],
            hatch_offsets=offsets, fills=fills)

    def translate(self, dx: int, dy: int) -> None:
        """Move every point of the outline and of the fill by (dx, dy) nm."""
        for head in ("polygon", "filled_polygon"):
            for poly in self.node.lists(head):
                pts = poly.find("pts")
                if pts is None:
                    continue
                for xy in pts.lists():
                    vals = xy.atoms()
                    if xy.head in ("xy", "start", "mid", "end") and len(vals) >= 2:
                        self.doc.set_atoms(xy, [mm(atoms.to_nm(vals[0]) + dx),
                                                mm(atoms.to_nm(vals[1]) + dy)])


def _xy_points(pts) -> list[Point] | None:
    """The points of a ``pts`` list of ``xy`` only (None with arcs or without)."""
    if pts is None or any(k.head != "xy" for k in pts.lists()):
        return None
    return [(atoms.to_nm(v[0]), atoms.to_nm(v[1])) for v in (xy.atoms() for xy in pts.lists())]


class Graphic(BoardItem):
    """Board drawings: gr_line, gr_rect, gr_circle, gr_arc, gr_poly, gr_curve, bezier."""

    __slots__ = ()

    @property
    def shape(self) -> str:
        """line, rect, circle, arc, poly, curve, bezier (the keyword after ``gr_``)."""
        return self.kind.split("_", 1)[1] if "_" in self.kind else self.kind

    @property
    def stroke(self) -> tuple[int, str] | None:
        """(width nm, line type) of ``(stroke (width w) (type t))``; None without."""
        st = self.child("stroke")
        if st is None:
            return None
        w, t = st.find("width"), st.find("type")
        return (atoms.to_nm(w.atoms()[0]) if w is not None else 0,
                atoms.text(t.atoms()[0]) if t is not None else "default")

    @property
    def fill(self) -> str | None:
        """``yes``/``no`` (KiCad 10 also ``hatch``, ``reverse_hatch``, ``cross_hatch``);
        None where the drawing has no fill (lines, arcs)."""
        return self.text_of("fill")

    @property
    def corner_radius(self) -> int:
        """A KiCad 10 rounded rectangle's corner radius (``(radius r)``, nm; 0: sharp)."""
        return self.nm_of("radius") if self.child("radius") is not None else 0

    @property
    def points(self) -> list[Point]:
        """The points that define the drawing (nm): start, end, center, mid, then the
        ``xy`` points of ``pts`` (polygons, curves)."""
        out = [p for p in (self.point(h) for h in ("start", "end", "center", "mid")) if p is not None]
        pts = self.child("pts")
        if pts is not None:
            out += [(atoms.to_nm(v[0]), atoms.to_nm(v[1])) for v in (xy.atoms() for xy in pts.lists("xy"))]
        return out


class Barcode(BoardItem):
    """A KiCad 10 barcode (``(barcode (at x y angle) (layer) (size w h) (text "...")
    (type qr|datamatrix|...) ...)``): position, size (nm), text, type."""

    __slots__ = ()

    @property
    def position(self) -> Point:
        return self.point("at")

    @property
    def size(self) -> Point | None:
        return self.point("size")

    @property
    def text(self) -> str | None:
        return self.text_of("text")

    @property
    def barcode_type(self) -> str | None:
        return self.text_of("type")


class BoardPoint(BoardItem):
    """A KiCad 10 board point (``(point (at x y) (size s) (layer) (uuid))``): a marked
    position with no copper."""

    __slots__ = ()

    @property
    def position(self) -> Point:
        return self.point("at")


class Text(BoardItem):
    """gr_text / gr_text_box."""

    __slots__ = ()

    @property
    def text(self) -> str:
        return self.arg(0)

    @property
    def position(self) -> Point | None:
        return self.point("at")

    @property
    def orientation(self) -> float:
        return self.angle("at")

    def _font(self, head: str):
        effects = self.child("effects")
        font = effects.find("font") if effects is not None else None
        return font.find(head) if font is not None else None

    @property
    def size(self) -> Point | None:
        """The font's (width, height) nm."""
        s = self._font("size")
        return (atoms.to_nm(s.atoms()[0]), atoms.to_nm(s.atoms()[1])) if s is not None else None

    @property
    def thickness(self) -> int | None:
        """The stroke width (nm); None when the file leaves it to the font."""
        t = self._font("thickness")
        return atoms.to_nm(t.atoms()[0]) if t is not None else None

    @property
    def justify(self) -> list[str]:
        effects = self.child("effects")
        j = effects.find("justify") if effects is not None else None
        return [atoms.text(v) for v in j.atoms()] if j is not None else []


class Group(View):
    __slots__ = ()

    @property
    def name(self) -> str:
        return self.arg(0)

    @property
    def members(self) -> list[str]:
        return [atoms.text(v) for v in self.values("members")]


class Dimension(BoardItem):
    __slots__ = ()

