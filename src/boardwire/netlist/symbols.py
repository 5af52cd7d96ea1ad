"""Symbols as placed on sheet instances: references, units and pins.

The reference and unit of a symbol on one sheet instance come from the symbol's
``instances`` (KiCad 7+), the root's ``symbol_instances`` (KiCad 6), else its
Reference field. Pins are placed by KiCad's symbol transform (`pin_world`): a placed
unit has the pins of its unit and of unit 0, of its body style and of body style 0.
A power pin is a ``power_in`` pin that is hidden or belongs to a power symbol
(KiCad's ``SCH_PIN::IsGlobalPower``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..documents.schematic.lib_info import LibInfo
from ..documents.schematic.orientation import pin_world, symbol_transform
from ..documents.schematic import SymbolInstance
from .bus import OVERBAR_FORMAT, escape_netname, new_overbar
from .hierarchy import SheetInstance

if TYPE_CHECKING:
    from .nets import Net

Point = tuple[int, int]
LEGACY_POWER_FIX = 20230221  # format from which a power symbol's Value names its net


def sub_reference(unit: int) -> str:
    """KiCad's unit suffix: 1 -> A, 26 -> Z, 27 -> AA."""
    out = ""
    while unit > 0:
        unit -= 1
        out = chr(ord("A") + unit % 26) + out
        unit //= 26
    return out


@dataclass
class PlacedSymbol:
    """A symbol as placed on one sheet instance."""

    sheet: SheetInstance = field(repr=False)
    view: SymbolInstance = field(repr=False)
    reference: str
    unit: int
    lib: LibInfo | None = field(repr=False)

    in_netlist: bool = True  # in KiCad's netlist: on the board and not a "#" symbol

    @property
    def ref_with_unit(self) -> str:
        if self.lib is not None and self.lib.unit_count > 1:
            return self.reference + sub_reference(self.unit)
        return self.reference


@dataclass
class PinNode:
    """One pin of one placed symbol on one sheet instance, with the net it is on."""

    symbol: PlacedSymbol = field(repr=False)
    number: str
    name: str
    type: str
    at: Point
    hidden: bool
    net: Net | None = field(default=None, repr=False)

    @property
    def reference(self) -> str:
        return self.symbol.reference

    @property
    def label(self) -> str:
        return f"{self.symbol.reference}.{self.number}"

    @property
    def is_power(self) -> bool:
        """KiCad's IsGlobalPower: a power input that is hidden or on a power symbol."""
        lib = self.symbol.lib
        return self.type == "power_in" and (self.hidden or (lib is not None and lib.power))

    def power_net(self) -> str:
        """The global net a power pin names: a power symbol's Value, else the pin name.
        KiCad rewrites the Value of power symbols in files older than format 20230221
        to their pin name on load (FixLegacyPowerSymbolMismatches), so there the pin
        name wins."""
        lib = self.symbol.lib
        doc = self.symbol.view.doc
        if lib is not None and lib.power and (doc.version or 0) >= LEGACY_POWER_FIX:
            return escape_netname(self.symbol.view.value)
        return escape_netname(self.name)


def natural_key(s: str):
    """Sort key that orders R2 before R10 (KiCad's reference order)."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def resolve_reference(sym: SymbolInstance, inst: SheetInstance,
                      legacy: dict[str, dict]) -> tuple[str, int]:
    """Reference and unit of a symbol on a sheet instance: KiCad 7+ ``instances``, else
    the root's KiCad 6 ``symbol_instances`` table (``legacy``: rows by path), else the
    Reference field and the symbol's unit."""
    unit = sym.unit
    row = sym.instances().get(inst.kiid_path)
    if row is not None:
        ref, u = row.get("reference"), row.get("unit")
        return (ref if ref is not None else sym.reference,
                int(u) if u and u.lstrip("-").isdigit() else unit)
    if legacy:
        row = legacy.get(f"{inst.uuid_path}{sym.uuid}")
        if row is not None:
            u = row.get("unit")
            return row.get("reference", sym.reference), int(u) if u and u.isdigit() else unit
    return sym.reference, unit


def place_pins(placed: PlacedSymbol) -> list[PinNode]:
    """The pins of a placed symbol's unit and body style at their sheet positions (nm);
    [] when its library symbol is unknown."""
    info = placed.lib
    if info is None:
        return []
    sym = placed.view
    t = symbol_transform(sym.orientation, sym.mirror)
    name = new_overbar if (sym.doc.version or 0) < OVERBAR_FORMAT else str
    return [PinNode(placed, lp.number, name(lp.name), lp.type, pin_world(sym.position, t, lp.at), lp.hidden)
            for lp in info.pins_of(placed.unit, sym.body_style)]


def jumpered(pins: list[PinNode], info: LibInfo) -> list[list[PinNode]]:
    """Groups of a symbol's pins joined inside it: pins sharing a number when the
    library says duplicate numbers are jumpers, and its ``jumper_pin_groups``."""
    by_number: dict[str, list[PinNode]] = {}
    for pn in pins:
        by_number.setdefault(pn.number, []).append(pn)
    groups = list(by_number.values()) if info.duplicate_jumpers else []
    groups += [[pn for num in group for pn in by_number.get(num, ())] for group in info.jumper_groups]
    return [g for g in groups if len(g) > 1]
