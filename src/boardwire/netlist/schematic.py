"""Schematic connectivity: the nets a hierarchy of sheets makes, as KiCad 9 makes them.

Measured against ``kicad-cli sch export netlist`` (KiCad 9.0.8; tests/netlist), the rules:

* Items on one sheet instance connect where their connection points coincide exactly:
  wire ends, symbol pins, labels, sheet pins, junctions. A junction on the middle of a
  wire connects to it, and so does a label (of any kind). A pin or a wire end on the
  middle of another wire does *not* connect, nor do two wires crossing without a
  junction. A pin of type no_connect connects to nothing.
* Pins are placed by KiCad's symbol transform: the library pin ``(x, y)`` read with y
  flipped, through the orientation matrix, then the mirror composed on the right, then
  offset by the symbol's ``at`` (`symbol_transform`, `pin_world`). A placed unit has the
  pins of its unit and of unit 0, of its body style and of body style 0. The reference
  and unit of each sheet instance come from the symbol's ``instances`` (KiCad 7+), the
  root's ``symbol_instances`` (KiCad 6), else the Reference field.
* Names join what geometry does not: on one sheet instance, local, hierarchical and
  global labels and power pins with the same (escaped) text are one net; global labels
  and power pins with the same text are one net everywhere. A power pin is a
  ``power_in`` pin that is hidden or belongs to a power symbol; a power symbol's net is
  its Value (its pin name in files older than format 20230221, which KiCad rewrites on
  load), a hidden power pin's net is its pin name.
* A sheet pin joins the hierarchical labels of its name inside its sheet instance; it
  does not join same-named labels of its own sheet.
* Buses: a bus (wires of kind ``bus`` with their labels, sheet pins and hierarchical
  labels) names its members after its strongest label (``D[0..7]`` -> D0..D7,
  ``USB{DP DM}`` -> USB.DP, USB.DM, bus aliases expanded); members are the nets of those
  names on that sheet. A bus sheet pin joins the members of the child's hierarchical
  bus label, member by member in order (KiCad joins IO[8..15] on a bus to a pin
  IO[0..7] as IO10 with IO2). Group members with markup (``~{RESET}``) are not joined
  through buses (KiCad 9 keeps them apart).
* Net names follow KiCad's driver priorities: a global label, then a power pin, then a
  local label, a hierarchical label, a sheet pin, a pin; among equals the shallowest
  sheet, then the smallest name. Local names carry the sheet path (``/sub/NAME``),
  global names do not; a net named by a pin is ``Net-(R1-Pad1)`` or ``Net-(U1-SDA)``,
  and ``unconnected-(...)`` when it has a single pin or a no-connect flag. (Names agree
  with KiCad's on about 90% of the nets of the test corpus; the grouping agrees on all
  but one orphaned sub-sheet.)

Coordinates are integer nanometres. Nothing here reads files: the caller hands
`schematic_connectivity` the root `Schematic` and a function that opens a child sheet.

This module is the public face of the schematic model; each rule lives in one module:
bus and net names in `bus`, the sheet tree in `hierarchy`, placed symbols and their
pins in `symbols`, what connects at a point in `sheet_geometry`, net building in
`nets` and net naming in `net_names`.
"""

from ..documents.schematic.lib_info import LibInfo, lib_info
from ..documents.schematic.orientation import pin_world, symbol_transform
from .bus import bus_aliases, bus_members, escape_netname, is_bus_name
from .hierarchy import OpenSheet, SheetInstance, load_hierarchy, sheet_file_key
from .net_names import pin_net_name
from .nets import LabelNode, Net, SchematicConnectivity, schematic_connectivity
from .sheet_geometry import SheetGeometry, sheet_geometry
from .symbols import PinNode, PlacedSymbol, natural_key, sub_reference

__all__ = ["LabelNode", "LibInfo", "Net", "OpenSheet", "PinNode", "PlacedSymbol",
           "SchematicConnectivity", "SheetGeometry", "SheetInstance", "bus_aliases",
           "bus_members", "escape_netname", "is_bus_name", "lib_info", "load_hierarchy",
           "natural_key", "pin_net_name", "pin_world", "schematic_connectivity",
           "sheet_file_key", "sheet_geometry", "sub_reference", "symbol_transform"]
