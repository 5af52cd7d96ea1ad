"""Schematics (``.kicad_sch``) and symbol libraries (``.kicad_sym``).

Format reference: KiCad's "Schematic File Format" and "Symbol Library File Format"
pages (dev-docs.kicad.org/en/file-formats/sexpr-schematic/, .../sexpr-symbol-lib/).
Coordinates are integer nanometres like boards (KiCad's schematic unit is 100 nm, so
every schematic coordinate is a whole number of them).

One job per module: `items` (views of wires, labels, markers, sheets), `symbol` (placed
symbols and their edits), `library` (symbol definitions, `SymbolLibrary`),
`orientation` (KiCad's symbol transform), `lib_info` (a definition's pins and units),
`lib_entry` (``lib_symbols`` entries from library definitions), `placing` (a placed
symbol as eeschema writes it), `sheet_symbol` (a new sheet symbol), `points` (what
connects at a point), `annotation` (references), `reading` and `document`
(`Schematic`).
"""

from .annotation import Annotatable, annotate, reference_prefix
from .document import Schematic
from ..views import Fielded
from .items import Label, Marker, SchItem, Sheet, SheetPin, Wire
from .lib_entry import LibEntry
from .lib_info import LibInfo, LibPinInfo, lib_info
from .library import LibPin, LibSymbol, LibUnit, SymbolLibrary
from .orientation import canonical_orientation, pin_world, symbol_transform
from .placing import Placement
from .points import SheetPoints, on_segment
from .sheet_symbol import NewSheetPin
from .symbol import SymbolInstance

__all__ = ["Annotatable", "Fielded", "Label", "LibEntry", "LibInfo", "LibPin", "LibPinInfo",
           "LibSymbol", "LibUnit", "Marker", "NewSheetPin", "Placement", "SchItem", "Schematic",
           "Sheet", "SheetPin", "SheetPoints", "SymbolInstance", "SymbolLibrary", "Wire", "annotate",
           "canonical_orientation", "lib_info", "on_segment", "pin_world", "reference_prefix",
           "symbol_transform"]
