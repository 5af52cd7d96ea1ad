"""A symbol placed on a sheet: its fields, unit, orientation, per-instance references,
and the edits KiCad's symbol editor makes on it.

Format reference: KiCad's "Schematic File Format" page, ``symbol`` section
(dev-docs.kicad.org/en/file-formats/sexpr-schematic/); writer
``SCH_IO_KICAD_SEXPR::saveSymbol``. A symbol's reference is kept per sheet instance in
``(instances (project "NAME" (path "/root-uuid[/sheet-uuid...]" (reference ..) (unit
N))))`` (KiCad 7+); the Reference field shows the first instance's. Field positions are
on the sheet; rotating or mirroring a symbol moves its fields with it
(``SCH_FIELD::GetPosition``: the field's unrotated offset through the transform) and
keeps their text angles. Coordinates are integer nanometres, angles degrees.
"""

from __future__ import annotations

from typing import Callable

from ...sexpr import atoms
from ...sexpr.atoms import mm, quote
from ...sexpr.node import SList
from ..sexpr_doc import make
from ..views import Fielded, Placed
from .items import SchItem
from .lib_entry import BOOLEAN_EFFECTS_HIDE, FIELD_IDS, downgrade
from .orientation import apply, canonical_orientation, inverse, mirrored, rotated, symbol_transform


class SymbolInstance(SchItem, Fielded, Placed):
    """A symbol placed on a sheet (``symbol`` at the schematic's top level)."""

    __slots__ = ()

    @property
    def lib_id(self) -> str:
        return self.text_of("lib_id") or ""

    @property
    def lib_key(self) -> str:
        """The name of its definition in the sheet's ``lib_symbols``: ``lib_name`` when
        the symbol has one (an edited copy), else its library id."""
        return self.text_of("lib_name") or self.lib_id

    @property
    def mirror(self) -> str | None:
        """``"x"`` (mirrored about the X axis), ``"y"``, or None."""
        vals = self.values("mirror")
        return atoms.text(vals[0]) if vals else None

    @property
    def unit(self) -> int:
        vals = self.values("unit")
        return int(vals[0]) if vals else 1

    @property
    def units_placed(self) -> set[int]:
        """Its own unit and the units its sheet instances give it."""
        units = {self.unit}
        inst = self.child("instances")
        for project in (inst.lists("project") if inst is not None else ()):
            for path in project.lists("path"):
                u = path.find("unit")
                if u is not None and u.atoms() and u.atoms()[0].isdigit():
                    units.add(int(u.atoms()[0]))
        return units

    @property
    def footprint(self) -> str:
        return self.field("Footprint") or ""

    @property
    def dnp(self) -> bool:
        return self.flag("dnp")

    @property
    def in_bom(self) -> bool:
        return self.flag("in_bom") if self.child("in_bom") is not None else True

    @property
    def on_board(self) -> bool:
        return self.flag("on_board") if self.child("on_board") is not None else True

    @property
    def body_style(self) -> int:
        """The body style shown: ``(body_style N)`` (KiCad 9), ``(convert N)`` before;
        1 (the normal body) when absent. 2 is KiCad's De Morgan alternate."""
        style = 1
        for head in ("convert", "body_style"):
            v = self.values(head)
            if v and v[0].isdigit():
                style = int(v[0])
        return style

    def instances(self) -> dict[str, dict[str, str]]:
        """Per sheet-instance path (``/<root uuid>/<sheet uuid>...``), the fields
        (``reference``, ``unit``, ``value``, ``footprint``) of this symbol's
        ``(instances (project (path PATH ...)))`` entry (KiCad 7+; the first, should
        two projects list the same path)."""
        out: dict[str, dict[str, str]] = {}
        inst = self.child("instances")
        for project in (inst.lists("project") if inst is not None else ()):
            for p in project.lists("path"):
                vals = p.atoms()
                if vals:
                    out.setdefault(atoms.text(vals[0]),
                                   {f.head: atoms.text(f.atoms()[0]) for f in p.lists() if f.atoms()})
        return out

    # -- edits ------------------------------------------------------------------------

    def set_field(self, name: str, value: str, hidden: bool | None = None) -> bool:
        """Set field ``name`` to ``value`` (shown or hidden when ``hidden`` is given).
        A field the symbol lacks is added after its fields, at the anchor, hidden
        unless ``hidden`` is False. Returns True if the field was added. Other than
        the reference (see `set_reference`), a field is stored once per sheet file.

        Written in the file's own format: KiCad 6 files number a new field
        (``(id N)``, after the symbol's highest) and keep Value and Footprint also in
        the root sheet's ``symbol_instances``, which KiCad reads instead of the field:
        those of this file are kept equal (`Schematic.set_instance_field` for a root
        elsewhere); KiCad 6 and 7 hide text with a bare ``hide``."""
        doc = self.doc
        prop = self._property(name)
        if name in ("Value", "Footprint"):
            doc.set_instance_field(self.uuid or "", name, value)
        if prop is not None:
            doc.set_atoms(prop, [quote(name), quote(value)])
            if hidden is not None:
                self._set_hidden(prop, hidden)
            return False
        at = self.position
        props = [k for k in self.node.kids if type(k) is SList and k.head == "property"]
        last = self.node.kids.index(props[-1])
        ids = [int(v[0]) for v in (p.find("id").atoms() for p in props if p.find("id") is not None)
               if v and v[0].isdigit()]
        field_id = (make("id", str(max(ids + [3]) + 1).encode())
                    if (doc.version or 0) < FIELD_IDS and ids else None)
        hide = hidden if hidden is not None else True
        new = make("property", quote(name), quote(value), field_id,
                   make("at", mm(at[0]), mm(at[1]), b"0"),
                   make("effects", make("font", make("size", b"1.27", b"1.27")),
                        make("hide", b"yes") if hide else None))
        doc.insert(self.node, downgrade(new, doc.version or 0), last + 1)
        return True

    def place_field(self, name: str, at: tuple[int, int] | None, angle: int | None) -> bool:
        """Move field ``name`` to sheet position ``at`` (nm) and/or turn its text to
        ``angle`` (0 or 90, degrees on the sheet). Returns False if there is no such
        field."""
        prop = self._property(name)
        node = prop.find("at") if prop is not None else None
        if node is None:
            return False
        xy = node.atoms()
        x = mm(at[0]) if at is not None else xy[0]
        y = mm(at[1]) if at is not None else xy[1]
        turn = str(angle).encode() if angle is not None else (xy[2] if len(xy) > 2 else b"0")
        self.doc.set_atoms(node, [x, y, turn])
        return True

    def _set_hidden(self, prop: SList, hidden: bool) -> None:
        """``(hide yes|no)`` in a field's effects (KiCad 8 and 9), a bare ``hide``
        atom present or not (KiCad 6 and 7)."""
        eff = prop.find("effects")
        if eff is None:
            return
        if (self.doc.version or 0) < BOOLEAN_EFFECTS_HIDE:
            at = [i for i, k in enumerate(eff.kids) if k == b"hide"]
            if hidden and not at:
                self.doc.set_atoms(eff, [b"hide"], start=len(eff.kids))
            elif not hidden and at:
                self.doc.note(eff)
                eff.remove_kid(at[0])
                self.doc.touch()
            return
        h = eff.find("hide")
        if h is not None:
            self.doc.set_atoms(h, [b"yes" if hidden else b"no"])
        elif hidden:
            self.doc.insert(eff, make("hide", b"yes"))

    def set_reference(self, instance_path: str, reference: str, project: Callable[[], str],
                      unit: int) -> None:
        """Write ``reference`` into the symbol's instance path ``instance_path``
        (``/root-uuid/sheet-uuid...``), adding the path (under the project named by
        ``project()``, asked only then, with ``unit``) if the symbol has none for it,
        and into the Reference field when that instance is the first one listed (the
        field shows the first instance's reference)."""
        doc = self.doc
        inst = self.child("instances")
        first = True
        target = None
        for proj in (inst.lists("project") if inst is not None else ()):
            for i, path in enumerate(proj.lists("path")):
                vals = path.atoms()
                if vals and atoms.text(vals[0]) == instance_path:
                    target = path
                    first = i == 0
        if target is not None:
            r = target.find("reference")
            if r is not None:
                doc.set_atoms(r, [quote(reference)])
            else:
                doc.insert(target, make("reference", quote(reference)), 2)
        else:
            new_path = make("path", quote(instance_path), make("reference", quote(reference)),
                            make("unit", str(unit).encode()))
            if inst is None:
                doc.insert(self.node, make("instances", make("project", quote(project()), new_path)))
            else:
                doc.insert(next(inst.lists("project")), new_path)
                first = False
        if first:
            prop = self._property("Reference")
            if prop is not None:
                doc.set_atoms(prop, [quote("Reference"), quote(reference)])

    def set_orientation(self, angle: int, mirror: str | None) -> None:
        """Set the orientation (written in KiCad's canonical form), moving the fields
        with the symbol as KiCad does (their unrotated offsets stay; text angles stay)."""
        doc = self.doc
        angle, mirror = canonical_orientation(angle, mirror)
        old_t = symbol_transform(self.orientation, self.mirror)
        new_t = symbol_transform(angle, mirror)
        at = self.position
        node = self.node
        doc.set_atoms(node.find("at"), [mm(at[0]), mm(at[1]), str(angle).encode()])
        m = node.find("mirror")
        if mirror is None and m is not None:
            doc.remove(m)
        elif mirror is not None and m is not None:
            doc.set_atoms(m, [mirror.encode()])
        elif mirror is not None:
            doc.insert(node, make("mirror", mirror.encode()), node.index(node.find("at")) + 1)
        inv = inverse(old_t)
        for prop in node.lists("property"):
            pa = prop.find("at")
            if pa is None:
                continue
            vals = pa.atoms()
            rel = (atoms.to_nm(vals[0]) - at[0], atoms.to_nm(vals[1]) - at[1])
            new = apply(new_t, apply(inv, rel))
            if new != rel:
                doc.set_atoms(pa, [mm(at[0] + new[0]), mm(at[1] + new[1])] + vals[2:])

    def rotate_by(self, angle: int) -> None:
        """Turn the symbol by ``angle`` degrees counter-clockwise about its anchor."""
        self.set_orientation(*rotated(self.orientation, self.mirror, angle))

    def mirror_about(self, axis: str) -> None:
        """KiCad's Mirror X (``axis`` "x": top-bottom) or Mirror Y ("y": left-right)."""
        self.set_orientation(*mirrored(self.orientation, self.mirror, axis))
