"""Footprints placed on a board and their pads: fields, fabrication flags, the link to
the schematic symbol, placement (move, rotate, flip), pad nets.

Format reference: KiCad's "Board File Format" and "Footprint Library File Format"
pages (dev-docs.kicad.org/en/file-formats/sexpr-pcb/, .../sexpr-footprint/); where KiCad
writes what inside a footprint is ``PCB_IO_KICAD_SEXPR::format(FOOTPRINT)``.
Coordinates are integer nanometres, angles degrees.
"""

from __future__ import annotations

from ...sexpr import atoms
from ...sexpr.atoms import quote
from ...sexpr.node import SList
from ..ids import new_uuid
from ..sexpr_doc import make
from ..units import rotate
from ..views import Fielded, Placed, Point
from .items import BoardItem, Zone

_LINK = ("path", "sheetname", "sheetfile")  # the schematic link, after the fields


class Pad(BoardItem, Placed):
    """A pad of a footprint. ``position`` is footprint-local; `world_position` is on
    the board."""

    __slots__ = ("footprint",)

    def __init__(self, doc, node: SList, footprint: Footprint | None = None):
        super().__init__(doc, node)
        self.footprint = footprint

    @property
    def number(self) -> str:
        return self.arg(0)

    @property
    def pad_type(self) -> str:
        """smd, thru_hole, np_thru_hole or connect."""
        return self.arg(1)

    @property
    def shape(self) -> str:
        return self.arg(2)

    @property
    def orientation(self) -> float:
        """Absolute pad angle in degrees, as stored (footprint rotation included)."""
        return self.angle("at")

    @property
    def size(self) -> Point | None:
        return self.point("size")

    @property
    def drill(self) -> int | tuple[int, int] | None:
        """The hole (nm): a diameter, (width, height) for an oval hole, None without
        one (``(drill 0.8)``, ``(drill oval 1.2 0.8)``)."""
        vals = self.values("drill")
        if not vals:
            return None
        if vals[0] == b"oval":
            return (atoms.to_nm(vals[1]), atoms.to_nm(vals[2])) if len(vals) >= 3 else None
        return atoms.to_nm(vals[0])

    def set_net(self, number: int, name: str) -> None:
        """Give the pad net ``number``/``name`` (0 / "" clears it), where KiCad writes it:
        after the corner properties, before pinfunction/pintype; ``(net N "name")``,
        or ``(net "name")`` in a KiCad 10 board (`placement.pad_net_list`)."""
        from .library_copy import AFTER_NET, pad_net_list

        net = self.child("net")
        if number == 0 and not name:
            if net is not None:
                self.doc.remove(net)
            return
        fresh = pad_net_list(number, name, self.doc.named_nets)
        if net is not None:
            self.doc.set_atoms(net, fresh.atoms())
            return
        index = None
        for i, k in enumerate(self.node.kids):
            if type(k) is SList and k.head in AFTER_NET:
                index = i
                break
        self.doc.insert(self.node, fresh, index)

    @property
    def world_position(self) -> Point:
        x, y = self.position
        if self.footprint is None:
            return x, y
        fx, fy = self.footprint.position
        dx, dy = rotate((x, y), self.footprint.orientation)
        return fx + dx, fy + dy


class Footprint(BoardItem, Fielded, Placed):
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
    def side(self) -> str:
        return "back" if (self.layer or "").startswith("B.") else "front"

    def field(self, name: str) -> str | None:
        """A field's value: ``property`` lists (KiCad 8+) or ``fp_text`` reference/value
        (earlier)."""
        value = super().field(name)
        if value is not None:
            return value
        key = {"Reference": b"reference", "Value": b"value"}.get(name)
        if key:
            for t in self.node.lists("fp_text"):
                vals = t.atoms()
                if vals and vals[0] == key:
                    return atoms.text(vals[1]) if len(vals) > 1 else ""
        return None

    @property
    def attributes(self) -> list[str]:
        """The words of ``(attr ...)``: smd, through_hole, board_only, dnp..."""
        return [atoms.text(v) for v in self.values("attr")]

    @property
    def models(self) -> list[str]:
        """The 3D model files (``(model "path" ...)``)."""
        return [atoms.text(m.atoms()[0]) for m in self.node.lists("model") if m.atoms()]

    @property
    def jumper_pad_groups(self) -> list[list[str]]:
        """KiCad 10 jumper pads: groups of pad numbers joined inside the part
        (``(jumper_pad_groups ("1" "2"))``); [] without. With
        `duplicate_pad_numbers_are_jumpers`, pads sharing a number are joined too.
        The board's nets stay as the file names them (KiCad gives a group's pads
        their nets from the schematic)."""
        groups = self.child("jumper_pad_groups")
        if groups is None:
            return []
        return [[atoms.text(v) for v in g.kids] for g in groups.kids if type(g) is SList]

    @property
    def duplicate_pad_numbers_are_jumpers(self) -> bool:
        """KiCad 10: pads with the same number are one jumper (``(duplicate_pad_numbers_are_jumpers yes)``)."""
        return self.flag("duplicate_pad_numbers_are_jumpers")

    @property
    def variants(self) -> dict[str, dict]:
        """KiCad 10 design variants: name -> what the variant overrides (``dnp``,
        ``exclude_from_bom``, ``exclude_from_pos_files`` as bools, ``fields`` name ->
        value), from ``(variant (name "V") (dnp yes) (field (name "Value") (value
        "1k")))``; {} without."""
        out: dict[str, dict] = {}
        for v in self.node.lists("variant"):
            name = v.find("name")
            if name is None or not name.atoms():
                continue
            row: dict = {}
            for k in v.lists():
                vals = k.atoms()
                if k.head in ("dnp", "exclude_from_bom", "exclude_from_pos_files"):
                    row[k.head] = not vals or vals[0] == b"yes"
                elif k.head == "field":
                    fname, fvalue = k.find("name"), k.find("value")
                    if fname is not None and fvalue is not None and fname.atoms() and fvalue.atoms():
                        row.setdefault("fields", {})[atoms.text(fname.atoms()[0])] = atoms.text(fvalue.atoms()[0])
            out[atoms.text(name.atoms()[0])] = row
        return out

    @property
    def board_only(self) -> bool:
        """Not in the schematic (``(attr ... board_only)``)."""
        return b"board_only" in self.values("attr")

    @property
    def link(self) -> str | None:
        """The symbol this footprint belongs to: ``(path "/<sheet uuids>/<symbol
        uuid>")``, KiCad's link from the board to the schematic; None without one."""
        return self.text_of("path")

    def set_link(self, path: str, sheetname: str, sheetfile: str) -> None:
        """Set ``(path ...)``, ``(sheetname ...)`` and ``(sheetfile ...)`` (the symbol's
        path, its sheet instance and sheet file), after the fields as KiCad writes
        them; values already right are left alone."""
        index = max((i for i, k in enumerate(self.node.kids)
                     if type(k) is SList and k.head == "property"), default=None)
        for head, value in zip(_LINK, (path, sheetname, sheetfile)):
            node = self.node.find(head)
            if node is not None:
                if node.atoms() != [quote(value)]:
                    self.doc.set_atoms(node, [quote(value)])
                index = self.node.index(node)
            else:
                node = self.doc.insert(self.node, make(head, quote(value)), None if index is None else index + 1)
                index = self.node.index(node)

    @property
    def pad_nets(self) -> dict[str, str]:
        """Pad number -> net name of the pads that have a net (names looked up in the
        board's net table where the pad carries only a number)."""
        nets = {p.number: (p.net_name or self.doc.net_name(p.net) or "") for p in self.pads}
        return {k: v for k, v in nets.items() if v}

    @property
    def pads(self) -> list[Pad]:
        return [Pad(self.doc, p, self) for p in self.node.lists("pad")]

    @property
    def pad_count(self) -> int:
        """How many pads (without reading them: cheap on a large board)."""
        return sum(1 for k in self.node.kids if type(k) is not bytes and k.head_bytes() == b"pad")

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
        p = self._property(name)
        if p is not None:
            self.doc.set_atoms(p, [p.atoms()[0], quote(value)])
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
                    self.doc.id_token(new_uuid()),
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

    def translate(self, dx: int, dy: int) -> None:
        """Move the footprint by (dx, dy) nm (see `move_to`)."""
        x, y = self.position
        self.move_to((x + dx, y + dy))

    def move_to(self, p: Point) -> None:
        """Place the footprint's anchor at ``p`` (nm). Children are stored relative to
        it, except zones, which KiCad stores in board coordinates: those move too."""
        old = self.position
        self.set_point("at", p)
        dx, dy = p[0] - old[0], p[1] - old[1]
        for zone in self.node.lists("zone"):
            Zone(self.doc, zone).translate(dx, dy)


