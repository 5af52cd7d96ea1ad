"""A schematic's ``lib_symbols`` entry made from a library definition, as eeschema 9
copies one, and items written down to a file's own format version.

Measured on the KiCad 9 demos (/usr/share/kicad/demos): a ``lib_symbols`` entry is the
library definition byte for byte, renamed ``"Lib:Name"`` (unit sub-symbols keep their
short names ``Name_U_B``). A derived symbol (``extends``) is flattened: the parent's
units and flags with the child's fields, sub-symbols renamed after the child
(KiCad's ``LIB_SYMBOL::Flatten``).

No token newer than the file's format version is written: library definitions lose
``embedded_fonts`` (KiCad 9, schematic format 20240620) in older files, and the
``(hide yes)`` of pins, ``pin_names`` and ``pin_numbers`` becomes the bare ``hide`` of
formats before 20241004 (KiCad 8; text effects already wrote ``(hide yes)``, as KiCad
8 files in ../shared/corpus show), and that of text effects the bare ``hide`` of KiCad
6 and 7 (formats before 20231120, as their files in ../shared/corpus show).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...sexpr import atoms
from ...sexpr.atoms import quote
from ...sexpr.node import SList
from ..board.library_copy import _strip_ws
from .lib_info import LibInfo, lib_info
from .library import LibSymbol

EMBEDDED_FONTS = 20240620  # sch_file_versions.h: "Embedded Files"
BOOLEAN_EFFECTS_HIDE = 20231120  # KiCad 8 ("V8 cleanups"): (effects ... (hide yes)); KiCad 6/7: bare hide
FIELD_IDS = 20230121  # KiCad 6 files number their fields: (property "Value" "1k" (id 1) ...)
BOOLEAN_HIDE = 20241004  # sch_file_versions.h: "Use booleans for 'hide' in symbols"
_BARE_HIDE = ("pin", "pin_names", "pin_numbers")  # text effects had (hide yes) already in KiCad 8


def _short(name: str) -> str:
    return name.split(":", 1)[1] if ":" in name else name


def flatten(node: SList, parents: list[SList]) -> SList:
    """A library symbol with its ``extends`` chain resolved (``parents``: the parent,
    its parent...): KiCad's LIB_SYMBOL::Flatten. The result has no whitespace."""
    node = _strip_ws(node)
    if not parents:
        return node
    base = flatten(parents[0], parents[1:])
    name = atoms.text(node.atoms()[0])
    base_name = atoms.text(base.atoms()[0])
    own = {atoms.text(p.atoms()[0]): p for p in node.lists("property") if p.atoms()}
    kids: list = [b"symbol", quote(name)]
    used = set()
    for k in base.kids[2:]:
        if type(k) is not SList:
            kids.append(k)
            continue
        if k.head == "property":
            pname = atoms.text(k.atoms()[0])
            if pname in own:
                kids.append(own[pname])
                used.add(pname)
                continue
        elif k.head == "symbol":  # a unit: renamed after the derived symbol
            sub = atoms.text(k.atoms()[0])
            if sub.startswith(_short(base_name) + "_"):
                sub = _short(name) + sub[len(_short(base_name)):]
            k.kids[1] = quote(sub)
        elif k.head in ("extends",):
            continue
        elif node.find(k.head) is not None and k.head not in ("pin", "embedded_fonts"):
            k = node.find(k.head)  # the derived symbol's own flag wins
        kids.append(k)
    # fields only the derived symbol has go after the parent's
    last = max((i for i, k in enumerate(kids) if type(k) is SList and k.head == "property"), default=len(kids) - 1)
    extra = [p for n, p in own.items() if n not in used]
    kids[last + 1:last + 1] = extra
    out = SList(kids)
    for k in kids:
        if type(k) is SList:
            k.parent = out
    return out


def downgrade(node: SList, version: int) -> SList:
    """Drop tokens newer than ``version`` from a definition or item about to be written."""
    if version >= BOOLEAN_HIDE and version >= EMBEDDED_FONTS:
        return node
    bare = _BARE_HIDE + (("effects",) if version < BOOLEAN_EFFECTS_HIDE else ())
    out: list = []
    for k in node.kids:
        if type(k) is SList:
            if k.head == "embedded_fonts" and version < EMBEDDED_FONTS:
                continue
            if k.head == "fields_autoplaced" and version < BOOLEAN_EFFECTS_HIDE:
                k = SList([b"fields_autoplaced"])  # KiCad 6/7: a bare (fields_autoplaced)
            if k.head == "hide" and version < BOOLEAN_HIDE and node.head in bare:
                vals = k.atoms()
                if not vals or vals[0] == b"yes":
                    out.append(b"hide")
                continue
            k = downgrade(k, version)
            k.parent = None
        out.append(k)
    new = SList(out)
    for k in out:
        if type(k) is SList:
            k.parent = new
    return new


def library_entry(node: SList, parents: list[SList], lib_id: str, version: int) -> SList:
    """The ``lib_symbols`` entry for library symbol ``node`` (with its ``extends``
    chain ``parents``) placed as ``lib_id`` in a schematic of format ``version``."""
    from .upgrade import upgrade

    flat = flatten(node, parents)
    flat.kids[1] = quote(lib_id)
    return downgrade(upgrade(flat, version, placed=False), version)


@dataclass
class LibEntry:
    """A ``lib_symbols`` entry made for placing ``lib_id``, not yet on a sheet (see
    `Schematic.library_entry`)."""

    lib_id: str
    node: SList

    @classmethod
    def of(cls, node: SList, parents: list[SList], lib_id: str, version: int) -> LibEntry:
        return cls(lib_id, library_entry(node, parents, lib_id, version))

    @property
    def fields(self) -> dict[str, str]:
        return LibSymbol(None, self.node).fields  # type: ignore[arg-type]

    @property
    def info(self) -> LibInfo | None:
        """Pins, units and power flag of the entry (`lib_info`)."""
        return lib_info({self.lib_id: self.node}, self.lib_id)
