"""What boards and footprint files share: the kinds of their top-level items, and
where a new item goes (KiCad writes a board's items grouped by kind, in a fixed order:
``PCB_IO_KICAD_SEXPR::format(BOARD)``)."""

from __future__ import annotations

from ...errors import UnsupportedFormat
from ...sexpr.atoms import quote
from ...sexpr.node import SList
from ..sexpr_doc import SexprDocument, make
from ..versions import board_has
from .footprint import Footprint
from .items import Arc, Barcode, BoardPoint, Dimension, Graphic, Group, Text, Track, Via, Zone

BOARD_KINDS: dict[str, type] = {
    "footprint": Footprint, "module": Footprint,
    "segment": Track, "arc": Arc, "via": Via, "zone": Zone,
    "gr_line": Graphic, "gr_rect": Graphic, "gr_circle": Graphic, "gr_arc": Graphic,
    "gr_poly": Graphic, "gr_curve": Graphic, "gr_bezier": Graphic,
    "gr_text": Text, "gr_text_box": Text,
    "group": Group, "dimension": Dimension,
    "barcode": Barcode, "point": BoardPoint,  # KiCad 10
}
TRACK_KINDS = ("segment", "arc", "via")
GRAPHIC_KINDS = ("gr_line", "gr_rect", "gr_circle", "gr_arc", "gr_poly", "gr_curve", "gr_bezier",
                  "gr_text", "gr_text_box", "dimension", "target", "image")

_TRAILERS = ("embedded_fonts", "embedded_files")


class FootprintContainer(SexprDocument):
    """Shared by boards and footprint files: insertion points and the tokens their
    format version writes."""

    def _insert_index(self, kinds: tuple[str, ...], fallback_before: tuple[str, ...]) -> int:
        """After the last top-level item of ``kinds``; else before the first of
        ``fallback_before``; else at the end (KiCad writes items grouped by kind)."""
        kids = self.root.kids
        last = None
        first_after = None
        for i, k in enumerate(kids):
            if type(k) is SList:
                h = k.head
                if h in kinds:
                    last = i
                elif first_after is None and h in fallback_before:
                    first_after = i
        if last is not None:
            return last + 1
        if first_after is not None:
            return first_after
        end = len(kids)  # KiCad 9 writes its embedded fonts and files after every item
        while end and type(kids[end - 1]) is SList and kids[end - 1].head in _TRAILERS:
            end -= 1
        return end

    def id_token(self, uid: str) -> SList:
        """The item id list this file's format writes: ``(uuid "...")`` (KiCad 8+),
        ``(tstamp ...)`` (KiCad 6-7), a 32-bit hexadecimal time stamp (KiCad 5)."""
        if board_has(self.version, "uuid"):
            return make("uuid", quote(uid))
        if board_has(self.version, "fp_uuid"):
            return make("tstamp", uid.encode())
        # KiCad 5 and earlier: 32-bit hexadecimal time stamps
        return make("tstamp", uid.replace("-", "")[:8].upper().encode())

    def require(self, feature: str, what: str) -> None:
        """Refuse an edit whose tokens this file's format version cannot hold."""
        if not board_has(self.version, feature):
            raise UnsupportedFormat(
                f"{what} needs a KiCad 8 or newer board; this one is format {self.version}",
                hint="Open and save the board in KiCad 9 to upgrade it, then try again "
                     "(boardwire never writes tokens newer than a file's own version).")

    def layer_token(self, name: str) -> bytes:
        """A layer name as this file's format writes it (quoted from KiCad 7 on)."""
        return quote(name) if board_has(self.version, "quoted_layers") else name.encode()

