"""The names connectivity (`boardwire.netlist`) imports from here; they now live in
`boardwire.documents.schematic` (`orientation`, `lib_info`)."""

from .schematic.lib_info import LibInfo, LibPinInfo, _text, lib_info  # noqa: F401
from .schematic.orientation import pin_world, symbol_transform  # noqa: F401
