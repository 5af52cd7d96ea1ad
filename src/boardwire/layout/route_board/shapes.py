"""What the board draws, read for the router: pad and via holes, local clearances,
the Edge.Cuts outline, copper drawings and text, solder-mask openings and keep-out
rule areas (board nm, shapely). Part of the adapter `boardwire.layout.route_board`;
`boardwire.geometry` replaces it when it lands."""

from __future__ import annotations

import math

import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box

from ...documents.board import Board, Footprint, Zone, rotate
from ...documents.views import View, iter_views
from ...geometry.shapes import arc_points
from ..route.problem import Keepout, Obstacle

MM = 1_000_000
CHAIN = 5_000  # nm: Edge.Cuts ends closer than this are joined


def _nm(mm: float) -> int:
    return int(round(mm * MM))


def hole_of(item: View, at: tuple[int, int], angle: float):
    """The drilled hole of a pad or via (round or oval), or None."""
    vals = item.values("drill")
    nums = [float(v) for v in vals if v not in (b"oval",)]
    if not nums or nums[0] <= 0:
        return None
    w = nums[0] * MM
    h = nums[1] * MM if len(nums) > 1 and b"oval" in vals else w
    off = item.child("drill").find("offset") if item.child("drill") is not None else None
    ox, oy = (0, 0)
    if off is not None:
        o = [float(v) * MM for v in off.atoms()[:2]]
        ox, oy = rotate((o[0], o[1]), angle)
    cx, cy = at[0] + ox, at[1] + oy
    if abs(w - h) < 1:
        return Point(cx, cy).buffer(w / 2, 16)
    r = min(w, h) / 2
    dx, dy = (w / 2 - r, 0) if w > h else (0, h / 2 - r)
    g = LineString([(cx - dx, cy - dy), (cx + dx, cy + dy)]).buffer(r, 16)
    return affinity.rotate(g, -angle, origin=(cx, cy)) if angle % 180 else g


def local_clearance(pad: View, fp: Footprint) -> float | None:
    for v in (pad, fp):
        vals = v.values("clearance")
        if vals:
            return float(vals[0])
    return None


def edge_lines(board: Board) -> list:
    """The Edge.Cuts drawings (top level and in footprints) as lines, board nm."""
    lines = []
    for g, place in _drawings(board, "Edge.Cuts"):
        geom = _drawing_geom(g, place)
        if geom is not None:
            lines.append(geom.boundary if geom.geom_type == "Polygon" else geom)
    return lines


def outline_of(board: Board):
    """The board area from its Edge.Cuts drawings (top level and in footprints), holes
    cut out; None when the edges do not close."""
    lines = edge_lines(board)
    if not lines:
        return None
    # ends a few nanometres apart meet (KiCad chains outline segments with a tolerance)
    snapped = shapely.set_precision(shapely.union_all(lines), CHAIN)
    noded = shapely.get_parts(shapely.node(snapped))
    polys = list(shapely.get_parts(shapely.polygonize(noded)))
    if not polys:
        return None
    polys.sort(key=lambda p: -p.area)
    outer = polys[0]
    holes = [p for p in polys[1:] if outer.contains(p.representative_point())]
    # nested polygons alternate board / cut-out: a cut-out is inside an odd number of others
    cut = [p for p in holes if sum(1 for q in polys if q is not p and q.area > p.area
                                   and q.contains(p.representative_point())) % 2 == 1]
    return outer.difference(shapely.union_all(cut)) if cut else outer


def _drawings(board: Board, layer: str, skip: frozenset = frozenset()):
    """(view, placement) of drawings on ``layer``: top-level gr_* (placement None) and
    footprints' fp_* (placement = the footprint), but those of footprints in ``skip``."""
    for g in board.graphics:
        if g.layer == layer and g.kind.startswith("gr_") and g.kind != "gr_text":
            yield g, None
    kinds = {k: View for k in ("fp_line", "fp_arc", "fp_circle", "fp_rect", "fp_poly")}
    for fp in board.footprints:
        if fp.node in skip:
            continue
        for g in iter_views(board, fp.node, kinds):
            if g.text_of("layer") == layer:
                yield g, fp


def _drawing_geom(g: View, fp: Footprint | None):
    """A drawing's centre line (LineString) or filled shape (Polygon), board nm."""
    def at(head):
        p = g.point(head)
        if p is None or fp is None:
            return p
        dx, dy = rotate(p, fp.orientation)
        return fp.position[0] + dx, fp.position[1] + dy

    kind = g.kind[3:]
    if kind == "line":
        a, b = at("start"), at("end")
        return LineString([a, b]) if a and b and a != b else None
    if kind == "arc":
        a, m, b = at("start"), at("mid"), at("end")
        if not (a and m and b):
            return None
        pts = [(round(x), round(y)) for x, y in arc_points(a, m, b)]
        return LineString([a] + pts[1:-1] + [b])  # exact ends: they meet the next edge
    if kind == "circle":
        c, e = at("center"), at("end")
        return Point(c).buffer(math.dist(c, e), 32).exterior if c and e else None
    if kind == "rect":
        a, b = g.point("start"), g.point("end")
        if not a or not b:
            return None
        corners = [(a[0], a[1]), (b[0], a[1]), (b[0], b[1]), (a[0], b[1])]
        if fp is not None:
            corners = [(fp.position[0] + rotate(p, fp.orientation)[0],
                        fp.position[1] + rotate(p, fp.orientation)[1]) for p in corners]
        return LineString(corners + corners[:1])
    if kind == "poly":
        pts_node = g.child("pts")
        pts = []
        for xy in (pts_node.lists("xy") if pts_node is not None else []):
            vals = xy.atoms()
            p = (_nm(float(vals[0])), _nm(float(vals[1])))
            if fp is not None:
                d = rotate(p, fp.orientation)
                p = (fp.position[0] + d[0], fp.position[1] + d[1])
            pts.append(p)
        return LineString(pts + pts[:1]) if len(pts) >= 3 else None
    return None


def _stroke_width(g: View) -> int:
    stroke = g.child("stroke")
    vals = View(g.doc, stroke).values("width") if stroke is not None else g.values("width")
    return int(round(float(vals[0]) * MM)) if vals else 0


def _filled(g: View) -> bool:
    vals = g.values("fill")
    return bool(vals) and vals[0] in (b"yes", b"solid")


def text_box(t: View, fp: Footprint | None, at=None, angle: float | None = None, tight: bool = False):
    """A box sure to hold a stroke-font text (KiCad draws each character within its
    width), turned and placed: where the text is, or anchored at ``at`` (board nm,
    the point its justification refers to) at the absolute ``angle`` (degrees) when
    given. Its height is 1.5 text
    heights (accents and descenders), or 1.1 when ``tight`` (for a reference
    designator: capitals and digits). A footprint's text is drawn upright, as pcbnew
    draws it: at an angle in (90, 270] it is turned half round and its justification
    swapped. A text box (``gr_text_box``) is its own box."""
    if t.kind in ("gr_text_box", "fp_text_box"):
        return _text_frame(t, fp)
    text = t.node.atoms()[1:2] if t.kind in ("fp_text", "property") else t.node.atoms()[:1]
    body = text[0].decode("utf-8", "replace").strip('"') if text else ""
    eff = t.child("effects")
    font = View(t.doc, eff.find("font")) if eff is not None and eff.find("font") is not None else None
    size = font.values("size") if font is not None else []
    h = float(size[0]) * MM if size else MM
    w = float(size[1]) * MM if len(size) > 1 else h
    thick = font.values("thickness") if font is not None else []
    th = float(thick[0]) * MM if thick else h / 8
    lines = body.split("\\n")
    bw = max(len(s) for s in lines) * w * 1.1 + th
    bh = (len(lines) * (1.3 if tight else 1.7) - 0.2) * h + th
    justify = View(t.doc, eff).values("justify") if eff is not None else []
    if b"mirror" in justify:  # drawn mirrored (the back): left-justified text runs leftwards
        justify = [{b"left": b"right", b"right": b"left"}.get(j, j) for j in justify]
    angle = t.angle("at") if angle is None else angle
    if t.kind in ("fp_text", "property") and 90 < angle % 360 <= 270:  # kept upright
        angle -= 180
        justify = [_OPPOSITE.get(j, j) for j in justify]
    x0 = -bw / 2 if b"left" not in justify and b"right" not in justify else (0 if b"left" in justify else -bw)
    y0 = -bh / 2 if b"top" not in justify and b"bottom" not in justify else (0 if b"top" in justify else -bh)
    g = box(x0, y0, x0 + bw, y0 + bh)
    if at is not None:
        x, y = at
    else:
        x, y = t.point("at") or (0, 0)
        if fp is not None:
            dx, dy = rotate((x, y), fp.orientation)
            x, y = fp.position[0] + dx, fp.position[1] + dy
    g = affinity.translate(g, x, y)
    return affinity.rotate(g, -angle, origin=(x, y)) if angle else g


def drawn(board: Board, layer: str, skip: frozenset = frozenset()):
    """(shape, footprint or None) of each drawing on ``layer`` (top level and in
    footprints not in ``skip``): its stroke as drawn (board nm), a filled closed
    shape filled."""
    for g, fp in _drawings(board, layer, skip):
        geom = _drawing_geom(g, fp)
        if geom is None:
            continue
        if _filled(g) and geom.geom_type == "LineString" and geom.is_closed:
            geom = Polygon(geom.coords)
        yield geom.buffer(max(_stroke_width(g), 1) / 2, 16), fp


_OPPOSITE = {b"left": b"right", b"right": b"left", b"top": b"bottom", b"bottom": b"top"}


def _text_frame(t: View, fp: Footprint | None):
    """A text box's own frame: its (start)/(end) box or its (pts) polygon, placed."""
    def at(p):
        if fp is None:
            return p
        dx, dy = rotate(p, fp.orientation)
        return fp.position[0] + dx, fp.position[1] + dy

    a, b = t.point("start"), t.point("end")
    if a is not None and b is not None:
        corners = [a, (b[0], a[1]), b, (a[0], b[1])]
    else:
        pts = t.child("pts")
        corners = [(_nm(float(xy.atoms()[0])), _nm(float(xy.atoms()[1]))) for xy in
                   (pts.lists("xy") if pts is not None else [])]
    if len(corners) < 3:
        return box(0, 0, 0, 0)
    return Polygon([at(p) for p in corners]).buffer(0)


def copper_art(board: Board, layer_index: dict[str, int], skip: frozenset = frozenset()) -> list[Obstacle]:
    """Copper drawings and visible copper text, and drawings and text on the solder
    mask layers (openings): obstacles of no net on the outer copper layer of their side.
    ``layer_index``: copper layer name -> index, front to back. The art of footprints
    whose node is in ``skip`` is left out (the placer moves those)."""
    out = []
    for name, li in layer_index.items():
        for geom, _ in drawn(board, name, skip):
            out.append(Obstacle(geom, (li,), 0, 0, kind="graphic"))
    # solder mask openings drawn on a mask layer: a track under one would be bared
    # next to whatever else the opening shows (KiCad's solder_mask_bridge)
    copper = list(layer_index)
    masks = {"F.Mask": layer_index.get(copper[0]), "B.Mask": layer_index.get(copper[-1])}
    for mask, li in masks.items():
        for g, fp in _drawings(board, mask, skip):
            geom = _drawing_geom(g, fp)
            if geom is None:
                continue
            if (_filled(g) or g.kind.endswith(("circle", "rect"))) and geom.geom_type == "LineString" \
                    and geom.is_closed:
                geom = Polygon(geom.coords)
            out.append(Obstacle(geom.buffer(max(_stroke_width(g), 1) / 2, 16), (li,), 0, 0, kind="graphic"))
    texts = [(t, None) for t in board.texts]
    for fp in board.footprints:
        if fp.node not in skip:
            texts += [(t, fp) for t in iter_views(board, fp.node, {"fp_text": View, "property": View})]
    for t, fp in texts:  # on copper, or on a mask layer (an opening, as above)
        layer = t.text_of("layer")
        li = layer_index.get(layer, masks.get(layer))
        if li is None or t.flag("hide"):
            continue
        eff = t.child("effects")
        if eff is not None and b"hide" in eff.atoms():
            continue
        out.append(Obstacle(text_box(t, fp), (li,), 0, 0, kind="text"))
    return out


def keepouts(board: Board, layer_index: dict[str, int]) -> list[Keepout]:
    zones = list(board.zones)
    for fp in board.footprints:
        zones += list(iter_views(board, fp.node, {"zone": Zone}))
    out = []
    for z in zones:
        if not z.is_keepout or len(z.outline) < 3:
            continue
        k = View(board, z.child("keepout"))
        names = z.layers
        layers = tuple(sorted({i for n in names for i in
                               (layer_index.values() if n in ("*.Cu", "F&B.Cu") else [layer_index.get(n)])
                               if i is not None}))
        out.append(Keepout(Polygon(z.outline).buffer(0), layers,
                           tracks=k.text_of("tracks") == "not_allowed",
                           vias=k.text_of("vias") == "not_allowed"))
    return out
