"""Checks of board-edit arguments shared by the pcb.* families: layer names, net names,
polygons. Each raises InvalidArgs or NotFound naming the argument."""

from __future__ import annotations

from ...documents.board import Board
from ...errors import InvalidArgs, NotFound


def check_layer(board: Board, layer: str, copper: bool) -> str:
    """Check a layer name against the board's layer table (copper layers only for
    tracks, vias and zones)."""
    names = board.copper_layers if copper else [lay.name for lay in board.layers] + ["Edge.Cuts"]
    if layer not in names:
        raise InvalidArgs(f"{layer!r} is not a {'copper ' if copper else ''}layer of this board; "
                          f"it has {', '.join(names)}",
                          errors=[{"loc": "layer", "msg": "no such layer", "type": "value"}])
    return layer


def no_copper(copper) -> None:
    """Refuse a board without copper layers (no ``layers`` table: a bare
    ``(kicad_pcb)``), which nothing can route and KiCad's exporter crashes on."""
    if not copper:
        raise InvalidArgs("the board has no copper layers (its layers table is missing or empty)",
                          hint="Open or create a board from KiCad (project.new), which writes its layers.")


def net_code(board: Board, net: str | None) -> int:
    if not net:
        return 0
    number = board.net_number(net)
    if number is None:
        raise NotFound(f"no net {net!r} on the board",
                       hint="List nets with query.nets; pcb.setPadNet or pcb.placeFootprint add new ones.")
    return number


def check_polygon(points: list, loc: str) -> None:
    from shapely.geometry import Polygon

    poly = Polygon(points)
    if not poly.is_valid or poly.area <= 0:
        raise InvalidArgs(f"the {loc} is not a simple polygon (it crosses itself or has no area)",
                          errors=[{"loc": loc, "msg": "not a simple polygon", "type": "value"}])
