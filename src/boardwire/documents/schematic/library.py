"""Library symbols: definitions in a ``.kicad_sym`` file or in a schematic's
``lib_symbols``, their units and pins.

Format reference: KiCad's "Symbol Library File Format" page
(dev-docs.kicad.org/en/file-formats/sexpr-symbol-lib/): a symbol's units are
sub-symbols named ``NAME_UNIT_STYLE`` (unit 0: common to every unit; style 0: common
to both body styles, 2: the De Morgan alternate). Coordinates are integer nanometres,
stored y up as in the file.
"""

from __future__ import annotations

from typing import Iterator

from ...sexpr import atoms
from ...sexpr.node import SList
from ..sexpr_doc import SexprDocument
from ..versions import SYMBOL_LIB_RELEASES, kicad_major
from ..views import Fielded, Placed, View


def unit_body(sub_name: str) -> tuple[int, int]:
    """(unit, body style) of a sub-symbol name ``NAME_U_S``; (0, 0) if it is not one."""
    parts = sub_name.rsplit("_", 2)
    try:
        return int(parts[-2]), int(parts[-1])
    except (ValueError, IndexError):
        return 0, 0


class LibPin(Placed):
    """A pin of a library symbol: ``(pin type style (at x y angle) (length l) (name ..)
    (number ..))``."""

    __slots__ = ()

    @property
    def electrical_type(self) -> str:
        return self.arg(0)

    @property
    def length(self) -> int:
        return self.nm_of("length")

    @property
    def name(self) -> str:
        return self.text_of("name") or ""

    @property
    def number(self) -> str:
        return self.text_of("number") or ""

    @property
    def hidden(self) -> bool:
        return self.flag("hide")


class LibUnit(View):
    """A unit sub-symbol ``(symbol "NAME_U_S" ...)`` of a library symbol."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self.arg(0)

    @property
    def unit(self) -> int:
        return unit_body(self.name)[0]

    @property
    def body_style(self) -> int:
        return unit_body(self.name)[1]

    @property
    def unit_name(self) -> str | None:
        """The unit's own name (``(unit_name "A")``), if it has one."""
        return self.text_of("unit_name")

    @property
    def pins(self) -> list[LibPin]:
        return [LibPin(self.doc, p) for p in self.node.lists("pin")]


class LibSymbol(Fielded):
    """A symbol definition (in a library file, or a schematic's ``lib_symbols``)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self.arg(0)

    @property
    def extends(self) -> str | None:
        return self.text_of("extends")

    @property
    def is_power(self) -> bool:
        return self.child("power") is not None or b"power" in self.node.kids[1:]

    def units(self) -> Iterator[SList]:
        """The unit sub-symbols ``(symbol "NAME_U_S" ...)``, as lists."""
        return self.node.lists("symbol")

    @property
    def unit_views(self) -> list[LibUnit]:
        """The unit sub-symbols as views: unit, body style, unit name, pins."""
        return [LibUnit(self.doc, s) for s in self.units()]

    @property
    def pins(self) -> list[LibPin]:
        """Pins of every unit and body style."""
        out = [LibPin(self.doc, p) for p in self.node.lists("pin")]
        for unit in self.unit_views:
            out.extend(unit.pins)
        return out


class SymbolLibrary(SexprDocument):
    """A ``.kicad_sym`` file."""

    kind = "symbol_library"
    roots = ("kicad_symbol_lib",)

    @property
    def symbols(self) -> list[LibSymbol]:
        return [LibSymbol(self, s) for s in self.root.lists("symbol")]

    def symbol(self, name: str) -> LibSymbol | None:
        for s in self.root.lists("symbol"):
            vals = s.atoms()
            if vals and atoms.text(vals[0]) == name:
                return LibSymbol(self, s)
        return None

    def put_symbol(self, node: SList, replace: bool = False) -> bool:
        """Add the top-level symbol ``node`` (a fresh list, e.g. from `make`) after the
        others, or in place of the symbol of its name when ``replace``; returns whether
        one was replaced. ValueError when the library has one of that name and
        ``replace`` is false."""
        name = atoms.text(node.atoms()[0])
        old = self.symbol(name)
        if old is not None:
            if not replace:
                raise ValueError(f"the library already has a symbol {name!r}")
            self.replace(old.node, node)
            return True
        self.insert(self.root, node)
        return False

    def summary(self) -> dict:
        syms = self.symbols
        return {"kind": self.kind, "version": self.version,
                "kicad": kicad_major(self.version, SYMBOL_LIB_RELEASES),
                "symbols": len(syms), "pins": sum(len(s.pins) for s in syms)}
