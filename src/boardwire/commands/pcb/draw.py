"""pcb.* drawings: graphics on any layer, the board outline, text. Each is one undo
step; coordinates mm, angles degrees."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...errors import InvalidArgs
from ...registry import Context, command
from ...services.board import board_of
from ..common import Angle, Coord, EditArgs, Point, Size, nm, pt
from ..results import Created
from .args import check_layer, check_polygon

UNITS = "mm, degrees"


class GraphicArgs(EditArgs):
    shape: Literal["line", "rect", "circle", "arc", "poly"]
    points: list[Point] = Field(min_length=2, max_length=10000, description="line/rect: 2; circle: centre and a point on it; arc: start, mid, end; poly: 3+")
    layer: str = "Edge.Cuts"
    width: Size = 0.1
    fill: bool = False


_NPOINTS = {"line": 2, "rect": 2, "circle": 2, "arc": 3}


def _degenerate(shape: str, points: list) -> None:
    """Refuse drawings KiCad would keep but nobody can see or fabricate."""
    bad = None
    if shape in ("line", "circle") and points[0] == points[1]:
        bad = "the two points are the same"
    elif shape == "rect" and (points[0][0] == points[1][0] or points[0][1] == points[1][1]):
        bad = "the rectangle has no area"
    elif shape == "arc":
        (ax, ay), (bx, by), (cx, cy) = points
        if abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) < 1e-12:
            bad = "the three points of the arc are on one line"
    elif shape == "poly":
        check_polygon(points, "points")
    if bad:
        raise InvalidArgs(f"a degenerate {shape}: {bad}",
                          errors=[{"loc": "points", "msg": bad, "type": "value"}])


@command("pcb.addGraphic", kind="edit", args=GraphicArgs, result=Created, units="mm")
def add_graphic(ctx: Context, a: GraphicArgs) -> dict:
    """Add a board drawing (line, rectangle, circle, arc, polygon) on any layer."""
    need = _NPOINTS.get(a.shape)
    if (need and len(a.points) != need) or (a.shape == "poly" and len(a.points) < 3):
        raise InvalidArgs(f"a {a.shape} takes {need or '3 or more'} points",
                          errors=[{"loc": "points", "msg": "wrong count", "type": "value"}])
    _degenerate(a.shape, a.points)
    board = board_of(ctx, a.path)
    check_layer(board, a.layer, copper=False)
    g = board.add_graphic(a.shape, [pt(p) for p in a.points], a.layer, nm(a.width), a.fill)
    ctx.created(g.uuid)
    return {"summary": f"{a.shape} on {a.layer}", "id": g.uuid}


class OutlineArgs(EditArgs):
    rect: list[Coord] | None = Field(None, min_length=4, max_length=4, description="[x1, y1, x2, y2]")
    polygon: list[Point] | None = Field(None, min_length=3, max_length=10000)
    replace: bool = Field(True, description="Remove the existing Edge.Cuts drawings first")
    width: Size = 0.1


@command("pcb.outline", kind="edit", args=OutlineArgs, result=Created, units="mm",
         examples=({"path": "b.kicad_pcb", "rect": [0, 0, 50, 30]},))
def outline(ctx: Context, a: OutlineArgs) -> dict:
    """Set the board outline on Edge.Cuts: a rectangle or a polygon (closed)."""
    if (a.rect is None) == (a.polygon is None):
        raise InvalidArgs("give rect or polygon", errors=[{"loc": "rect", "msg": "one of rect/polygon", "type": "value"}])
    if a.rect is not None and (a.rect[0] == a.rect[2] or a.rect[1] == a.rect[3]):
        raise InvalidArgs("the outline rectangle has no area",
                          errors=[{"loc": "rect", "msg": "zero width or height", "type": "value"}])
    if a.polygon is not None:
        check_polygon(a.polygon, "polygon")
    board = board_of(ctx, a.path)
    removed = 0
    if a.replace:
        for g in list(board.graphics):
            if g.layer == "Edge.Cuts":
                board.delete(g)
                removed += 1
    if a.rect is not None:
        x1, y1, x2, y2 = a.rect
        g = board.add_graphic("rect", [pt([x1, y1]), pt([x2, y2])], "Edge.Cuts", nm(a.width))
    else:
        g = board.add_graphic("poly", [pt(p) for p in a.polygon], "Edge.Cuts", nm(a.width))
    ctx.created(g.uuid)
    return {"summary": "outline set" + (f" (replaced {removed} drawings)" if removed else ""), "id": g.uuid}


class TextArgs(EditArgs):
    text: str = Field(min_length=1, max_length=10000)
    at: Point
    layer: str = "F.SilkS"
    angle: Angle = 0
    size: Size = 1.0
    thickness: Size = 0.15


@command("pcb.addText", kind="edit", args=TextArgs, result=Created, units=UNITS)
def add_text(ctx: Context, a: TextArgs) -> dict:
    """Add text to the board (mirrored on back layers, as KiCad does)."""
    board = board_of(ctx, a.path)
    check_layer(board, a.layer, copper=False)
    t = board.add_text(a.text, pt(a.at), a.layer, a.angle, nm(a.size), nm(a.thickness))
    ctx.created(t.uuid)
    return {"summary": f"text {a.text!r} on {a.layer}", "id": t.uuid}
