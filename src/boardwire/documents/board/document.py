"""Boards (``.kicad_pcb``) with their edit primitives, and footprint files
(``.kicad_mod``).

Format reference: KiCad's "Board File Format" and "Footprint Library File Format"
pages (dev-docs.kicad.org/en/file-formats/sexpr-pcb/, .../sexpr-footprint/) and, for
version differences, the format history in `versions`. New items are written as
pcbnew 9 writes them (``PCB_IO_KICAD_SEXPR``). Coordinates are integer nanometres.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

from ...errors import CheckFailed, InvalidArgs
from ...sexpr.atoms import quote
from ...sexpr.node import SList
from ...sexpr.pretty import as_tree
from ..ids import new_uuid
from ..sexpr_doc import make
from ..views import Point, View
from .container import GRAPHIC_KINDS, TRACK_KINDS, FootprintContainer
from .extents import courtyard_boxes, layout_box
from .footprint import Footprint, Pad
from .items import Graphic, Text, Track, Via, Zone
from .library_copy import board_footprint
from .new_items import (
    ZoneSpec,
    graphic_list,
    text_list,
    track_list,
    via_list,
    zone_list,
)
from .reading import BoardReading


class Board(BoardReading):
    """A ``.kicad_pcb`` file."""

    def add_track(self, start: Point, end: Point, width: int, layer: str, net: int | str = 0,
                  uid: str | None = None) -> Track:
        """Add a straight track segment; points and width in nm, ``layer`` a copper layer
        of the board, ``net`` a number of its net table or a net name (0 or "": no
        net), written in the board's own tokens (`new_items`). Returns the track.
        Raises InvalidArgs (``data.errors`` names the argument) for a width that is not
        positive, a layer that is not copper, a net the board lacks, or a point that is
        not two finite numbers: KiCad would refuse the file."""
        _check_points(("start", start), ("end", end))
        _check_sizes(("width", width))
        self._check_copper_layer("layer", layer)
        self._check_net(net)
        node = track_list(self, start, end, width, layer, net, uid or new_uuid())
        index = self._insert_index(TRACK_KINDS, ("zone", "group", "embedded_fonts"))
        return Track(self, self.insert(self.root, node, index))

    def _check_copper_layer(self, loc: str, layer) -> None:
        # A file without a layer table loads in pcbnew as a default two-layer board.
        names = self.copper_layers or ["F.Cu", "B.Cu"]
        if not isinstance(layer, str) or layer not in names:
            raise _invalid(loc, f"{layer!r} is not a copper layer of this board; it has {', '.join(names)}")

    def _check_net(self, net) -> None:
        """``net`` is 0, "", a number of the board's net table or one of its net names."""
        if isinstance(net, str):
            if net and self.net_number(net) is None:
                raise _invalid("net", f"net {net!r} is not on the board (ensure_net(name) adds one)")
            return
        if isinstance(net, bool) or not isinstance(net, Integral):
            raise _invalid("net", f"the net is a net number (int; 0 for no net) or a name, not {net!r}"
                           + (": net_number() gives None for a name the board lacks" if net is None else ""))
        if net != 0 and self.net_name(net) is None:
            raise _invalid("net", f"net number {net} is not in the board's net table "
                           "(net_number(name) gives a net's number; ensure_net(name) adds one)")

    def ensure_net(self, name: str) -> int:
        """The number of net ``name``, adding it to the net table if it is new (KiCad
        10 boards have no table: the name is only remembered, and written on the
        items given it)."""
        if not name:
            return 0
        number = self.net_number(name)
        if number is not None:
            return number
        if self.named_nets:
            codes = self._named_codes()
            codes[name] = len(codes)
            return codes[name]
        nets = [k for k in self.root.kids if type(k) is SList and k.head_bytes() == b"net"]
        number = max((int(k.atoms()[0]) for k in nets if k.atoms()), default=0) + 1
        index = self.root.index(nets[-1]) + 1 if nets else self._insert_index(
            ("setup", "properties"), ("footprint", "module"))
        self.insert(self.root, make("net", str(number).encode(), quote(name)), index)
        return number

    def rename_net(self, old: str, new: str) -> None:
        """Rename net ``old`` to ``new`` (a name the board lacks) on everything on it, as
        KiCad's Update PCB renames a net the schematic renamed: the net table's entry
        (tracks and vias keep its number), pads' ``(net N "old")``, zones'
        ``(net_name "old")``; in a KiCad 10 board every ``(net "old")``. Raises
        invalid-args when ``new`` is already a net of the board or ``old`` is not."""
        if not old or self.net_number(old) is None:
            raise _invalid("net", f"net {old!r} is not on the board")
        if not new or self.net_number(new) is not None:
            raise _invalid("net", f"net {new!r} is empty or already on the board: pads move to it one by one instead")
        was, to = quote(old), quote(new)
        stack = [self.root]
        while stack:
            node = stack.pop()
            for kid in node.kids:
                if type(kid) is not SList:
                    continue
                head = kid.head_bytes()
                if head in (b"net", b"net_name"):
                    vals = kid.atoms()
                    if vals and vals[-1] == was and len(vals) <= 2:
                        self.set_atoms(kid, [*vals[:-1], to])
                elif head not in (b"setup", b"layers", b"general", b"property", b"fp_text", b"gr_text"):
                    stack.append(kid)
        if self.named_nets:
            codes = self._named_codes()
            codes[new] = codes.pop(old)

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

    def add_graphic(self, shape: str, points: list[Point], layer: str = "Edge.Cuts",
                    width: int = 100_000, fill: bool = False, uid: str | None = None) -> Graphic:
        """Add a board drawing. ``shape``: line (2 points), rect (2 corners), circle
        (centre, a point on it), arc (start, mid, end), poly (3+ points). nm."""
        self.require("uuid", "adding a drawing")
        node = graphic_list(self, shape, points, layer, width, uid or new_uuid(), fill="yes" if fill else "no")
        index = self._insert_index(tuple(GRAPHIC_KINDS), ("segment", "arc", "via", "zone", "group"))
        return Graphic(self, self.insert(self.root, node, index))

    def add_text(self, text: str, at: Point, layer: str = "F.SilkS", angle: float = 0.0,
                 size: int = 1_000_000, thickness: int = 150_000, uid: str | None = None) -> Text:
        """Add board text (gr_text); on a back layer it is mirrored, as KiCad does."""
        self.require("uuid", "adding text")
        node = text_list(self, text, at, angle, layer, uid or new_uuid(), size=(size, size), thickness=thickness,
                         justify=["mirror"] if layer.startswith("B.") else None)
        index = self._insert_index(tuple(GRAPHIC_KINDS), ("segment", "arc", "via", "zone", "group"))
        return Text(self, self.insert(self.root, node, index))

    def add_footprint(self, library: FootprintFile, lib_id: str, at: Point, angle: float = 0.0,
                      reference: str | None = None, value: str | None = None,
                      pad_nets: dict[str, str] | None = None, index: int | None = None) -> Footprint:
        """Place a copy of a library footprint (front side) at ``at`` (nm), turned
        ``angle`` degrees, as KiCad 9 does (see `placement`; in a KiCad 10 board with
        KiCad 10's tokens). ``pad_nets`` maps pad numbers to net names already in the
        board's net table (InvalidArgs for another)."""
        self.require("uuid", "placing a KiCad 9 library footprint")
        nets = {}
        for number, name in (pad_nets or {}).items():
            code = self.net_number(name)
            if code is None:
                raise _invalid(f"pad_nets.{number}", f"net {name!r} is not in the board's net table (ensure_net adds it)")
            nets[number] = (code, name)
        node = board_footprint(library.root, lib_id, at, angle, reference, value, nets,
                               board_layers={layer.name for layer in self.layers},
                               version=self.version, named_nets=self.named_nets)
        if index is None:
            index = self._insert_index(("footprint", "module"),
                                       ("gr_line", "gr_rect", "gr_circle", "gr_arc", "gr_poly",
                                        "gr_text", "segment", "arc", "via", "zone", "group"))
        return Footprint(self, self.insert(self.root, node, index))

    def add_zone(self, outline: list[Point], layer: str, net: str = "", *,
                 clearance: int = 500_000, min_thickness: int = 250_000,
                 thermal_gap: int = 500_000, thermal_bridge_width: int = 500_000,
                 priority: int = 0, name: str | None = None, uid: str | None = None,
                 pads: str = "thermal") -> Zone:
        """Add an (unfilled) copper zone on ``layer`` for net ``net`` (a name; "" for
        no net) with KiCad 9's defaults (nm): clearance 0.5 mm, minimum width
        0.25 mm, thermal gap and spoke width 0.5 mm. ``pads``: how the zone joins its
        net's pads, KiCad's ``connect_pads`` choices: "thermal" (reliefs; no token),
        "solid" (``yes``), "thermal_tht" (reliefs on through-hole pads, solid on SMD:
        ``thru_hole_only``). Fill it with KiCad's filler. InvalidArgs for a layer that
        is not copper, a net the table lacks, an outline of fewer than 3 points."""
        how = {"thermal": None, "solid": "yes", "thermal_tht": "thru_hole_only"}[pads]
        self._check_copper_layer("layer", layer)
        if len(outline) < 3:
            raise _invalid("outline", f"a zone's outline has 3 or more points, not {len(outline)}")
        _check_points(*(("outline", p) for p in outline))
        if net and self.net_number(net) is None:
            raise _invalid("net", f"net {net!r} is not in the board's net table (ensure_net adds it)")
        node = zone_list(self, ZoneSpec(
            list(outline), [layer], net, uid or new_uuid(), name=name, priority=priority, pads=how,
            clearance=clearance, min_thickness=min_thickness, thermal_gap=thermal_gap,
            thermal_bridge_width=thermal_bridge_width))
        index = self._insert_index(("zone",), ("group", "embedded_fonts"))
        return Zone(self, self.insert(self.root, node, index))

    def add_via(self, at: Point, size: int, drill: int, layers: tuple[str, str] = ("F.Cu", "B.Cu"),
                net: int | str = 0, uid: str | None = None) -> Via:
        """Add a through via at ``at`` (nm) with pad ``size`` and ``drill`` (nm) between
        two copper ``layers``, on net ``net`` (a number or a name; 0: no net). Raises InvalidArgs as
        `add_track` does, and for a drill not smaller than the size."""
        _check_points(("at", at))
        _check_sizes(("size", size), ("drill", drill))
        if drill >= size:
            raise _invalid("drill", f"the via drill ({drill} nm) must be smaller than its size ({size} nm)")
        if isinstance(layers, str) or len(layers) != 2 or layers[0] == layers[1]:
            raise _invalid("layers", f"a via joins two different copper layers, not {layers!r}")
        for name in layers:
            self._check_copper_layer("layers", name)
        self._check_net(net)
        node = via_list(self, at, size, drill, tuple(layers), net, uid or new_uuid())
        index = self._insert_index(TRACK_KINDS, ("zone", "group", "embedded_fonts"))
        return Via(self, self.insert(self.root, node, index))

    def swap_footprint(self, old: Footprint, library: FootprintFile, lib_id: str) -> tuple[Footprint, list[str]]:
        """Put library footprint ``library`` (placed as ``lib_id``) in the place of ``old``
        (pcbnew's Change Footprint): same place, side, angle, id, reference, value, other
        fields, fabrication flags, schematic link, and pad nets by pad number. Returns
        the new footprint and the (sorted) pad numbers whose nets found no pad."""
        nets = old.pad_nets
        numbers = {p.number for p in library.pads}
        dropped = sorted(set(nets) - numbers)
        keep = {n: old.field(n) for n in ("Reference", "Value")}
        fields = [(k, v) for k, v in old.fields.items() if k not in ("Reference", "Value")]
        flags = [f for f in Footprint.ATTR_FLAGS if f in old.attributes]
        index = self.root.index(old.node)
        uid, side, angle, at = old.uuid, old.side, old.orientation, old.position
        carried = [k for k in old.node.lists() if k.head in ("path", "sheetname", "sheetfile")]
        self.delete(old)
        new = self.add_footprint(library, lib_id, at, angle, keep["Reference"], keep["Value"],
                                 {k: v for k, v in nets.items() if k in numbers}, index=index)
        if uid:  # the same footprint for the schematic link and for groups
            self.set_atoms(new.node.find("uuid"), [quote(uid)])
        last_field = max(i for i, k in enumerate(new.node.kids) if type(k) is not bytes and k.head == "property")
        for offset, c in enumerate(carried, 1):
            self.insert(new.node, c, last_field + offset)
        for name, value in fields:  # the instance's field values and flags stay
            new.set_field(name, value)
        for flag in flags:
            new.set_attribute(flag, True)
        if side == "back":
            new.flip()
        return new, dropped

    def replace_fills(self, filled: bytes, ids: list[str] | None = None) -> int:
        """Take the zone fills of ``filled`` (this board as KiCad's filler saved it):
        each zone (those of ``ids``, default every zone) gets KiCad's ``fill`` settings
        and ``filled_polygon`` lists; nothing else changes. Zones are matched by net,
        layers and outline (in order, for zones alike in all three), else by id: KiCad
        gives new ids to zones whose ids repeat (a KiCad 5.99 board's ``(tstamp 0)``)
        and writes a legacy 8-digit ``tstamp`` as a full UUID. Returns how many zones
        were filled; CheckFailed if KiCad's board lacks one of them."""
        theirs = Board(filled).zones
        alike: dict[tuple, list] = {}
        for z in theirs:
            alike.setdefault(_zone_key(z), []).append(z)
        by_id = {z.uuid: z for z in theirs if z.uuid}
        taken: set[int] = set()
        changed = 0
        for zone in self.zones:
            uid = zone.uuid
            if ids and uid not in ids:
                continue
            kicad = next((z for z in alike.get(_zone_key(zone), []) if id(z.node) not in taken), None)
            if kicad is None and uid in by_id and id(by_id[uid].node) not in taken:
                kicad = by_id[uid]
            if kicad is None:
                raise CheckFailed(f"KiCad's filled board lost zone {uid or '(no id)'} "
                                  f"({zone.net_name or 'no net'} on {', '.join(zone.layers)})")
            taken.add(id(kicad.node))
            for old in list(zone.node.lists("filled_polygon")):
                self.remove(old)
            fill_kicad, fill_ours = kicad.child("fill"), zone.child("fill")
            if fill_kicad is not None and fill_ours is not None:
                self.replace(fill_ours, as_tree(fill_kicad.to_bytes()))
            for poly in kicad.node.lists("filled_polygon"):
                self.insert(zone.node, as_tree(poly.to_bytes()))
            changed += 1
        return changed


def _zone_key(zone) -> tuple:
    """What matches a zone to KiCad's copy of it: net name, layers, outline (nm)."""
    return zone.net_name or "", tuple(zone.layers), tuple(zone.outline)


def _invalid(loc: str, msg: str) -> InvalidArgs:
    return InvalidArgs(f"{loc}: {msg}", errors=[{"loc": loc, "msg": msg, "type": "value"}])


def _is_number(v) -> bool:
    return isinstance(v, Real) and not isinstance(v, bool) and math.isfinite(v)


def _check_points(*named: tuple[str, Point]) -> None:
    for loc, p in named:
        if isinstance(p, (str, bytes)) or len(p) != 2 or not all(_is_number(c) for c in p):
            raise _invalid(loc, f"a point is two finite numbers (x, y) in nm, not {p!r}")


def _check_sizes(*named: tuple[str, int]) -> None:
    for loc, v in named:
        if not _is_number(v) or v <= 0:
            raise _invalid(loc, f"a size is a positive number of nm, not {v!r}")


class FootprintFile(FootprintContainer):
    """A ``.kicad_mod`` file: one footprint at the root."""

    kind = "footprint"
    roots = ("footprint", "module")
    lengths_checked = True

    @property
    def footprint(self) -> Footprint:
        return Footprint(self, self.root)

    @property
    def name(self) -> str:
        return self.footprint.lib_id

    @property
    def pads(self) -> list[Pad]:
        return self.footprint.pads

    def courtyards(self) -> dict[str, tuple[float, float, float, float]]:
        """(x1, y1, x2, y2) nm of the courtyard per side (see `extents.courtyard_boxes`)."""
        return courtyard_boxes(self.footprint)

    def layout_box(self) -> tuple[int, int, int, int]:
        """(x1, y1, x2, y2) nm the footprint takes when laid out beside others (see
        `extents.layout_box`)."""
        return layout_box(self.footprint)

    def summary(self) -> dict:
        fp = self.footprint
        return {
            "kind": self.kind, "version": self.version, "name": self.name,
            "pads": len(fp.pads),
            "graphics": sum(1 for k in self.root.lists() if k.head.startswith("fp_")),
            "models": sum(1 for _ in self.root.lists("model")),
        }
