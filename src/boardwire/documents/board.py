"""Boards (``.kicad_pcb``) and footprint files (``.kicad_mod``).

Format reference: KiCad's "Board File Format" and "Footprint Library File Format"
pages (dev-docs.kicad.org/en/file-formats/sexpr-pcb/, .../sexpr-footprint/) and, for
version differences, the format history in `versions`.
"""

from __future__ import annotations

import math
from typing import Iterator

from ..sexpr import atoms
from ..sexpr.atoms import mm, quote
from ..sexpr.node import SList
from .board_index import BoardIndex
from .ids import new_uuid
from .placement import board_footprint
from .sexpr_doc import SexprDocument, make
from .versions import LATEST_BOARD, board_has
from .views import Point, View, iter_views


def rotate(p: Point, degrees: float) -> Point:
    """Rotate a footprint-local point as KiCad does (y down, positive = counter-
    clockwise on screen), rounding to the nanometre like KiCad's RotatePoint."""
    if not degrees:
        return p
    r = math.radians(degrees)
    c, s = math.cos(r), math.sin(r)
    x, y = p
    return atoms.kiround(x * c + y * s), atoms.kiround(-x * s + y * c)


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


class Pad(BoardItem):
    """A pad of a footprint. ``position`` is footprint-local; `world_position` is on
    the board."""

    __slots__ = ("footprint",)

    def __init__(self, doc, node: SList, footprint: Footprint | None = None):
        super().__init__(doc, node)
        self.footprint = footprint

    @property
    def number(self) -> str:
        vals = self.node.atoms()
        return atoms.text(vals[0]) if vals else ""

    @property
    def pad_type(self) -> str:
        """smd, thru_hole, np_thru_hole or connect."""
        vals = self.node.atoms()
        return atoms.text(vals[1]) if len(vals) > 1 else ""

    @property
    def shape(self) -> str:
        vals = self.node.atoms()
        return atoms.text(vals[2]) if len(vals) > 2 else ""

    @property
    def position(self) -> Point:
        return self.point("at") or (0, 0)

    @property
    def orientation(self) -> float:
        """Absolute pad angle in degrees, as stored (footprint rotation included)."""
        return self.angle("at")

    @property
    def size(self) -> Point | None:
        return self.point("size")

    def set_net(self, number: int, name: str) -> None:
        """Give the pad net ``number``/``name`` (0 / "" clears it), where KiCad writes it:
        after the corner properties, before pinfunction/pintype."""
        from .placement import AFTER_NET

        net = self.child("net")
        if number == 0:
            if net is not None:
                self.doc.remove(net)
            return
        values = [str(number).encode(), quote(name)]
        if net is not None:
            self.doc.set_atoms(net, values)
            return
        index = None
        for i, k in enumerate(self.node.kids):
            if type(k) is SList and k.head in AFTER_NET:
                index = i
                break
        self.doc.insert(self.node, make("net", *values), index)

    @property
    def world_position(self) -> Point:
        x, y = self.position
        if self.footprint is None:
            return x, y
        fx, fy = self.footprint.position
        dx, dy = rotate((x, y), self.footprint.orientation)
        return fx + dx, fy + dy


class Footprint(BoardItem):
    """A footprint placed on a board (``footprint``, ``module`` before KiCad 6)."""

    __slots__ = ()

    @property
    def lib_id(self) -> str:
        vals = self.node.atoms()
        for v in vals:
            if v not in (b"locked", b"placed"):
                return atoms.text(v)
        return ""

    @property
    def position(self) -> Point:
        return self.point("at") or (0, 0)

    @property
    def orientation(self) -> float:
        return self.angle("at")

    @property
    def side(self) -> str:
        return "back" if (self.layer or "").startswith("B.") else "front"

    def field(self, name: str) -> str | None:
        """A field's value: ``property`` lists (KiCad 8+) or ``fp_text`` reference/value
        (earlier)."""
        for p in self.node.lists("property"):
            vals = p.atoms()
            if vals and atoms.text(vals[0]) == name:
                return atoms.text(vals[1]) if len(vals) > 1 else ""
        key = {"Reference": b"reference", "Value": b"value"}.get(name)
        if key:
            for t in self.node.lists("fp_text"):
                vals = t.atoms()
                if vals and vals[0] == key:
                    return atoms.text(vals[1]) if len(vals) > 1 else ""
        return None

    @property
    def reference(self) -> str:
        return self.field("Reference") or ""

    @property
    def value(self) -> str:
        return self.field("Value") or ""

    @property
    def pads(self) -> list[Pad]:
        return [Pad(self.doc, p, self) for p in self.node.lists("pad")]

    def rotate_to(self, angle: float) -> None:
        """Turn the footprint to ``angle`` degrees (absolute), as pcbnew does."""
        from .footprint_ops import rotate as rotate_fp

        rotate_fp(self, angle)

    def flip(self) -> None:
        """Move the footprint to the other side of the board, mirrored as pcbnew does."""
        from .footprint_ops import flip as flip_fp

        flip_fp(self)

    def set_field(self, name: str, value: str) -> bool:
        """Set a field's value (``Reference``, ``Value``, any property); a missing
        field is added hidden on the fab layer. Returns True if it was added."""
        for p in self.node.lists("property"):
            vals = p.atoms()
            if vals and atoms.text(vals[0]) == name:
                self.doc.set_atoms(p, [vals[0], quote(value)])
                return False
        key = {"Reference": b"reference", "Value": b"value"}.get(name)
        for t in self.node.lists("fp_text"):  # KiCad 7 and earlier
            vals = t.atoms()
            if key and vals and vals[0] == key:
                self.doc.set_atoms(t, [vals[0], quote(value)] + vals[2:])
                return False
        self.doc.require("fields", f"adding the field {name!r}")
        fab = ("B." if self.side == "back" else "F.") + "Fab"
        at = self.node.find("at")
        angle = at.atoms()[2] if at is not None and len(at.atoms()) > 2 else b"0"
        node = make("property", quote(name), quote(value), make("at", b"0", b"0", angle),
                    make("layer", quote(fab)), make("hide", b"yes"),
                    self.doc._id_token(new_uuid()),
                    make("effects", make("font", make("size", b"1.27", b"1.27"),
                                         make("thickness", b"0.15"))))
        last = max((i for i, k in enumerate(self.node.kids)
                    if type(k) is SList and k.head == "property"), default=None)
        self.doc.insert(self.node, node, None if last is None else last + 1)
        return True

    ATTR_FLAGS = ("board_only", "exclude_from_pos_files", "exclude_from_bom", "dnp",
                  "allow_missing_courtyard", "allow_soldermask_bridges")

    def set_attribute(self, flag: str, on: bool) -> None:
        """Set a fabrication flag of ``(attr ...)``: board_only, exclude_from_pos_files,
        exclude_from_bom, dnp (KiCad 8+), allow_missing_courtyard."""
        if flag not in self.ATTR_FLAGS:
            raise ValueError(f"unknown footprint attribute {flag!r}")
        attr = self.node.find("attr")
        if attr is None:
            if on:
                anchor = self.node.find("sheetfile") or self.node.find("path")
                index = self.node.index(anchor) + 1 if anchor is not None else None
                self.doc.insert(self.node, make("attr", flag.encode()), index)
            return
        vals = attr.atoms()
        has = flag.encode() in vals
        if on and not has:
            self.doc.set_atoms(attr, vals + [flag.encode()])
        elif not on and has:
            rest = [v for v in vals if v != flag.encode()]
            if rest:
                self.doc.set_atoms(attr, rest)
            else:
                self.doc.remove(attr)

    def move_to(self, p: Point) -> None:
        """Place the footprint's anchor at ``p`` (nm). Children are stored relative to
        it, except zones, which KiCad stores in board coordinates: those move too."""
        old = self.position
        self.set_point("at", p)
        dx, dy = p[0] - old[0], p[1] - old[1]
        for zone in self.node.lists("zone"):
            Zone(self.doc, zone).translate(dx, dy)


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
        vals = self.values("width")
        return atoms.to_nm(vals[0]) if vals else 0


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
        vals = self.values("size")
        return atoms.to_nm(vals[0]) if vals else 0

    @property
    def drill(self) -> int:
        vals = self.values("drill")
        return atoms.to_nm(vals[0]) if vals else 0

    @property
    def via_type(self) -> str:
        """through, blind or micro."""
        vals = self.node.atoms()
        return atoms.text(vals[0]) if vals and vals[0] in (b"blind", b"micro") else "through"


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


class Graphic(BoardItem):
    """Board drawings: gr_line, gr_rect, gr_circle, gr_arc, gr_poly, gr_curve, bezier."""

    __slots__ = ()


class Text(BoardItem):
    """gr_text / gr_text_box."""

    __slots__ = ()

    @property
    def text(self) -> str:
        vals = self.node.atoms()
        return atoms.text(vals[0]) if vals else ""


class Group(View):
    __slots__ = ()

    @property
    def name(self) -> str:
        vals = self.node.atoms()
        return atoms.text(vals[0]) if vals else ""

    @property
    def members(self) -> list[str]:
        return [atoms.text(v) for v in self.values("members")]


class Dimension(BoardItem):
    __slots__ = ()


_BOARD_KINDS: dict[str, type] = {
    "footprint": Footprint, "module": Footprint,
    "segment": Track, "arc": Arc, "via": Via, "zone": Zone,
    "gr_line": Graphic, "gr_rect": Graphic, "gr_circle": Graphic, "gr_arc": Graphic,
    "gr_poly": Graphic, "gr_curve": Graphic, "gr_bezier": Graphic,
    "gr_text": Text, "gr_text_box": Text,
    "group": Group, "dimension": Dimension,
}
_TRACK_KINDS = ("segment", "arc", "via")
_GRAPHIC_KINDS = ("gr_line", "gr_rect", "gr_circle", "gr_arc", "gr_poly", "gr_curve", "gr_bezier",
                  "gr_text", "gr_text_box", "dimension", "target", "image")


class Net:
    __slots__ = ("number", "name")

    def __init__(self, number: int, name: str):
        self.number, self.name = number, name

    def __repr__(self) -> str:
        return f"Net({self.number}, {self.name!r})"


class Layer:
    """One entry of the board's layer table: ``(0 "F.Cu" signal "top_copper")``."""

    __slots__ = ("ordinal", "name", "type", "user_name")

    def __init__(self, ordinal: int, name: str, type_: str, user_name: str | None):
        self.ordinal, self.name, self.type, self.user_name = ordinal, name, type_, user_name

    @property
    def is_copper(self) -> bool:
        # By type, not name: KiCad 5 boards may rename copper layers ("C1F").
        return self.type in ("signal", "power", "mixed", "jumper")

    def __repr__(self) -> str:
        return f"Layer({self.ordinal}, {self.name!r}, {self.type!r})"


_TRAILERS = ("embedded_fonts", "embedded_files")


class FootprintContainer(SexprDocument):
    """Shared by boards and footprint files: item lookup and insertion points."""

    def _insert_index(self, kinds: tuple[str, ...], fallback_before: tuple[str, ...]) -> int:
        """After the last top-level item of ``kinds``; else before the first of
        ``fallback_before``; else at the end (KiCad writes items grouped by kind)."""
        kids = self.root.kids
        last = None
        first_after = None
        for i, k in enumerate(kids):
            if type(k) is SList:
                h = k.head
                if h in kinds:
                    last = i
                elif first_after is None and h in fallback_before:
                    first_after = i
        if last is not None:
            return last + 1
        if first_after is not None:
            return first_after
        end = len(kids)  # KiCad 9 writes its embedded fonts and files after every item
        while end and type(kids[end - 1]) is SList and kids[end - 1].head in _TRAILERS:
            end -= 1
        return end


class Board(FootprintContainer):
    """A ``.kicad_pcb`` file."""

    def _insert_index(self, kinds: tuple[str, ...], fallback_before: tuple[str, ...]) -> int:
        """After the last item of ``kinds`` (found through the index), else as for any
        document."""
        idx = self.index
        last = [next(reversed(idx.by_kind[k].values())).node for k in kinds if idx.by_kind.get(k)]
        if last:
            kids = self.root.kids
            return max(kids.index(node) for node in last) + 1
        return super()._insert_index(kinds, fallback_before)

    kind = "board"
    roots = ("kicad_pcb",)
    latest = LATEST_BOARD
    _index: BoardIndex | None = None

    @property
    def index(self) -> BoardIndex:
        """Records of the top-level items, refreshed for what edits touched."""
        index = self._index
        if index is None:
            index = self._index = BoardIndex(self.root)
            self._touched = {}
        elif self._touched:
            index.refresh(self._touched)
            self._touched.clear()
            if len(index.entries) != len(self.root.kids) - index.root_atoms:
                index = self._index = BoardIndex(self.root)  # lost track: start again
        return index

    # -- reading ---------------------------------------------------------------------

    def items(self, kinds: str | tuple[str, ...] | None = None) -> Iterator[View]:
        """Top-level items as views, optionally only the given keyword(s)."""
        if isinstance(kinds, str):
            kinds = (kinds,)
        table = _BOARD_KINDS if kinds is None else {k: _BOARD_KINDS[k] for k in kinds}
        return iter_views(self, self.root, table)

    @property
    def footprints(self) -> list[Footprint]:
        return list(self.items(("footprint", "module")))

    @property
    def tracks(self) -> list[Track]:
        return list(self.items(("segment", "arc")))

    @property
    def vias(self) -> list[Via]:
        return list(self.items("via"))

    @property
    def zones(self) -> list[Zone]:
        return list(self.items("zone"))

    @property
    def graphics(self) -> list[Graphic]:
        return [v for v in self.items() if isinstance(v, Graphic)]

    @property
    def texts(self) -> list[Text]:
        return list(self.items(("gr_text", "gr_text_box")))

    @property
    def groups(self) -> list[Group]:
        return list(self.items("group"))

    @property
    def dimensions(self) -> list[Dimension]:
        return list(self.items("dimension"))

    @property
    def nets(self) -> list[Net]:
        """The net table (``(net 0 "")`` ... up to KiCad 9; KiCad 10 boards name nets
        on items instead, so there the table is built from the names found)."""
        out = []
        for kid in self.root.kids:
            if type(kid) is SList and kid.head_bytes() == b"net":
                vals = kid.atoms()
                if len(vals) >= 2:
                    out.append(Net(int(vals[0]), atoms.text(vals[1])))
        return out

    def net_name(self, number: int | None) -> str | None:
        for name, n in self.index.net_table.items():
            if n == number:
                return name
        return None

    def net_number(self, name: str) -> int | None:
        return self.index.net_table.get(name)

    @property
    def layers(self) -> list[Layer]:
        table = self.root.find("layers")
        out = []
        if table is None:
            return out
        for entry in table.lists():
            vals = [entry.head_bytes()] + entry.atoms()
            if len(vals) >= 3:
                user = atoms.text(vals[3]) if len(vals) > 3 else None
                out.append(Layer(int(vals[0]), atoms.text(vals[1]), atoms.text(vals[2]), user))
        return out

    @property
    def copper_layers(self) -> list[str]:
        return [layer.name for layer in self.layers if layer.is_copper]

    @property
    def setup(self) -> SList | None:
        return self.root.find("setup")

    @property
    def net_classes(self) -> list[dict]:
        """Net classes kept in the board file, as up to KiCad 5 (``(net_class ...)``;
        KiCad 6+ keeps them in the project file, `Project.net_classes`). Each: name,
        the rule values (mm) that are set, and ``nets``."""
        out = []
        for nc in self.root.lists("net_class"):
            vals = nc.atoms()
            row: dict = {"name": atoms.text(vals[0]) if vals else ""}
            for rule in nc.lists():
                rv = rule.atoms()
                if rule.head == "add_net":
                    row.setdefault("nets", []).append(atoms.text(rv[0]))
                elif rv:
                    row[rule.head] = float(rv[0])
            out.append(row)
        return out

    def footprint(self, reference: str) -> Footprint | None:
        e = self.index.by_ref.get(reference)
        return Footprint(self, e.node) if e is not None else None

    def by_uuid(self, uid: str) -> View | None:
        e = self.index.by_uuid.get(uid)
        if e is None:
            return None
        cls = _BOARD_KINDS.get(e.kind)
        return cls(self, e.node) if cls is not None else None

    def summary(self) -> dict:
        """Counts a person reads first: format, layers, and items by kind."""
        from .board_stats import board_summary

        return board_summary(self)

    # -- edits -----------------------------------------------------------------------

    def _id_token(self, uid: str) -> SList:
        if board_has(self.version, "uuid"):
            return make("uuid", quote(uid))
        if board_has(self.version, "fp_uuid"):
            return make("tstamp", uid.encode())
        # KiCad 5 and earlier: 32-bit hexadecimal time stamps
        return make("tstamp", uid.replace("-", "")[:8].upper().encode())

    def require(self, feature: str, what: str) -> None:
        """Refuse an edit whose tokens this file's format version cannot hold."""
        from ..errors import UnsupportedFormat

        if not board_has(self.version, feature):
            raise UnsupportedFormat(
                f"{what} needs a KiCad 8 or newer board; this one is format {self.version}",
                hint="Open and save the board in KiCad 9 to upgrade it, then try again "
                     "(boardwire never writes tokens newer than a file's own version).")

    def _layer_token(self, name: str) -> bytes:
        return quote(name) if board_has(self.version, "quoted_layers") else name.encode()

    def add_track(self, start: Point, end: Point, width: int, layer: str, net: int = 0,
                  uid: str | None = None) -> Track:
        """Add a straight track segment; points and width in nm. Returns the track."""
        node = make("segment",
                    make("start", mm(start[0]), mm(start[1])),
                    make("end", mm(end[0]), mm(end[1])),
                    make("width", mm(width)),
                    make("layer", self._layer_token(layer)),
                    make("net", str(net).encode()),
                    self._id_token(uid or new_uuid()))
        index = self._insert_index(_TRACK_KINDS, ("zone", "group", "embedded_fonts"))
        return Track(self, self.insert(self.root, node, index))

    def ensure_net(self, name: str) -> int:
        """The number of net ``name``, adding it to the net table if it is new."""
        if not name:
            return 0
        number = self.net_number(name)
        if number is not None:
            return number
        nets = [k for k in self.root.kids if type(k) is SList and k.head_bytes() == b"net"]
        number = max((int(k.atoms()[0]) for k in nets if k.atoms()), default=0) + 1
        index = self.root.index(nets[-1]) + 1 if nets else self._insert_index(
            ("setup", "properties"), ("footprint", "module"))
        self.insert(self.root, make("net", str(number).encode(), quote(name)), index)
        return number

    def delete(self, item: View) -> None:
        """Delete a top-level item (footprint, track, via, zone, drawing, text, group),
        and its id from any group that lists it."""
        uid = item.uuid
        self.remove(item.node)
        if uid:
            for group in self.items("group"):
                members = group.child("members")
                if members is not None and quote(uid) in members.atoms():
                    rest = [m for m in members.atoms() if m != quote(uid)]
                    if rest:
                        self.set_atoms(members, rest)
                    else:
                        self.remove(members)

    def _stroke(self, width: int) -> SList:
        return make("stroke", make("width", mm(width)), make("type", b"solid"))

    def add_graphic(self, shape: str, points: list[Point], layer: str = "Edge.Cuts",
                    width: int = 100_000, fill: bool = False, uid: str | None = None) -> Graphic:
        """Add a board drawing. ``shape``: line (2 points), rect (2 corners), circle
        (centre, a point on it), arc (start, mid, end), poly (3+ points). nm."""
        self.require("uuid", "adding a drawing")
        p = [make(h, mm(x), mm(y)) for h, (x, y) in zip(
            {"line": ("start", "end"), "rect": ("start", "end"), "circle": ("center", "end"),
             "arc": ("start", "mid", "end")}.get(shape, ()), points)]
        if shape == "poly":
            p = [make("pts", *(make("xy", mm(x), mm(y)) for x, y in points))]
        fill_node = make("fill", b"yes" if fill else b"no") if shape in ("rect", "circle", "poly") else None
        node = make(f"gr_{shape}", *p, self._stroke(width), fill_node,
                    make("layer", self._layer_token(layer)), self._id_token(uid or new_uuid()))
        index = self._insert_index(tuple(_GRAPHIC_KINDS), ("segment", "arc", "via", "zone", "group"))
        return Graphic(self, self.insert(self.root, node, index))

    def add_text(self, text: str, at: Point, layer: str = "F.SilkS", angle: float = 0.0,
                 size: int = 1_000_000, thickness: int = 150_000, uid: str | None = None) -> Text:
        """Add board text (gr_text); on a back layer it is mirrored, as KiCad does."""
        self.require("uuid", "adding text")
        effects = make("effects", make("font", make("size", mm(size), mm(size)),
                                       make("thickness", mm(thickness))),
                       make("justify", b"mirror") if layer.startswith("B.") else None)
        node = make("gr_text", quote(text), make("at", mm(at[0]), mm(at[1]), atoms.num(angle)),
                    make("layer", self._layer_token(layer)), self._id_token(uid or new_uuid()),
                    effects)
        index = self._insert_index(tuple(_GRAPHIC_KINDS), ("segment", "arc", "via", "zone", "group"))
        return Text(self, self.insert(self.root, node, index))

    def add_footprint(self, library: FootprintFile, lib_id: str, at: Point, angle: float = 0.0,
                      reference: str | None = None, value: str | None = None,
                      pad_nets: dict[str, str] | None = None, index: int | None = None) -> Footprint:
        """Place a copy of a library footprint (front side) at ``at`` (nm), turned
        ``angle`` degrees, as KiCad 9 does (see `placement`). ``pad_nets`` maps pad
        numbers to net names already in the board's net table."""
        self.require("uuid", "placing a KiCad 9 library footprint")
        nets = {}
        for number, name in (pad_nets or {}).items():
            code = self.net_number(name)
            if code is None:
                raise KeyError(f"net {name!r} is not in the board's net table")
            nets[number] = (code, name)
        node = board_footprint(library.root, lib_id, at, angle, reference, value, nets,
                               board_layers={layer.name for layer in self.layers})
        if index is None:
            index = self._insert_index(("footprint", "module"),
                                       ("gr_line", "gr_rect", "gr_circle", "gr_arc", "gr_poly",
                                        "gr_text", "segment", "arc", "via", "zone", "group"))
        return Footprint(self, self.insert(self.root, node, index))

    def add_zone(self, outline: list[Point], layer: str, net: str = "", *,
                 clearance: int = 500_000, min_thickness: int = 250_000,
                 thermal_gap: int = 500_000, thermal_bridge_width: int = 500_000,
                 priority: int = 0, name: str | None = None, uid: str | None = None) -> Zone:
        """Add an (unfilled) copper zone on ``layer`` for net ``net`` (a name; "" for
        no net) with KiCad 9's defaults (nm): clearance 0.5 mm, minimum width
        0.25 mm, thermal gap and spoke width 0.5 mm. Fill it with KiCad's filler."""
        code = self.net_number(net) if net else 0
        if code is None:
            raise KeyError(f"net {net!r} is not in the board's net table")
        pts = make("pts", *(make("xy", mm(x), mm(y)) for x, y in outline))
        node = make("zone",
                    make("net", str(code).encode()),
                    make("net_name", quote(net)),
                    make("layer", self._layer_token(layer)),
                    self._id_token(uid or new_uuid()),
                    make("name", quote(name)) if name else None,
                    make("hatch", b"edge", b"0.5"),
                    make("priority", str(priority).encode()) if priority else None,
                    make("connect_pads", make("clearance", mm(clearance))),
                    make("min_thickness", mm(min_thickness)),
                    make("filled_areas_thickness", b"no"),
                    make("fill", make("thermal_gap", mm(thermal_gap)),
                         make("thermal_bridge_width", mm(thermal_bridge_width))),
                    make("polygon", pts))
        index = self._insert_index(("zone",), ("group", "embedded_fonts"))
        return Zone(self, self.insert(self.root, node, index))

    def add_via(self, at: Point, size: int, drill: int, layers: tuple[str, str] = ("F.Cu", "B.Cu"),
                net: int = 0, uid: str | None = None) -> Via:
        """Add a through via at ``at`` (nm) with pad ``size`` and ``drill`` (nm)."""
        node = make("via",
                    make("at", mm(at[0]), mm(at[1])),
                    make("size", mm(size)),
                    make("drill", mm(drill)),
                    make("layers", *(self._layer_token(name) for name in layers)),
                    make("net", str(net).encode()),
                    self._id_token(uid or new_uuid()))
        index = self._insert_index(_TRACK_KINDS, ("zone", "group", "embedded_fonts"))
        return Via(self, self.insert(self.root, node, index))


class FootprintFile(FootprintContainer):
    """A ``.kicad_mod`` file: one footprint at the root."""

    kind = "footprint"
    roots = ("footprint", "module")

    @property
    def footprint(self) -> Footprint:
        return Footprint(self, self.root)

    @property
    def name(self) -> str:
        return self.footprint.lib_id

    @property
    def pads(self) -> list[Pad]:
        return self.footprint.pads

    def summary(self) -> dict:
        fp = self.footprint
        return {
            "kind": self.kind, "version": self.version, "name": self.name,
            "pads": len(fp.pads),
            "graphics": sum(1 for k in self.root.lists() if k.head.startswith("fp_")),
            "models": sum(1 for _ in self.root.lists("model")),
        }
