"""Boards (``.kicad_pcb``) and footprint files (``.kicad_mod``).

Format reference: KiCad's "Board File Format" and "Footprint Library File Format"
pages (dev-docs.kicad.org/en/file-formats/sexpr-pcb/, .../sexpr-footprint/) and, for
version differences, the format history in `versions`.

One job per module: `items` (views of tracks, vias, zones, drawings...), `footprint`
(footprints and pads), `tables` (nets, layers), `container` (item kinds, where a new
item goes, the tokens a format version writes), `reading` (a board's index and
items), `document` (`Board` with its edit primitives, `FootprintFile`), `extents`
(courtyard and layout boxes of a footprint).
"""

from ..units import rotate
from .container import BOARD_KINDS, GRAPHIC_KINDS, TRACK_KINDS, FootprintContainer
from .document import Board, FootprintFile
from .footprint import Footprint, Pad
from .items import (
           Arc,
           Barcode,
           BoardItem,
           BoardPoint,
           Dimension,
           Graphic,
           Group,
           Text,
           Track,
           Via,
           Zone,
)
from .tables import Layer, Net

__all__ = ["Arc", "BOARD_KINDS", "Barcode", "BoardPoint", "Board", "BoardItem", "Dimension", "Footprint", "FootprintContainer",
           "FootprintFile", "GRAPHIC_KINDS", "Graphic", "Group", "Layer", "Net", "Pad", "TRACK_KINDS",
           "Text", "Track", "Via", "Zone", "rotate"]
