"""The live view's drawings and texts: what `board_svg` draws beside the copper model.

Silkscreen, fabrication, user and Edge.Cuts drawings (``gr_*`` and footprints'
``fp_line``/``fp_arc``/``fp_circle``/``fp_rect``/``fp_poly``, arcs as true SVG arcs),
footprint fields and texts and ``gr_text`` on any layer (copper text included: the
geometry model does not hold it), and the outline of unfilled zones, read through
the documents layer (`read_footprint`, `read_drawing`, `footprint_texts`, `Text`,
`read_zone`). Copper and courtyards come from `geometry/` (board_svg.py).

`art_of(board)` keeps one `BoardArt` per board, following its edits as the geometry
model does (`SexprDocument.watch`): only the top-level items an edit touched are
read again. Each item's drawing is one SVG fragment per layer, in whole micrometres
(the user space of board_svg's ``scale(0.001)`` group), keyed by the item's uuid
(``data-k``) so the page can replace only what changed. Texts are SVG ``<text>`` in a
sans-serif font sized to KiCad's glyph height (KiCad's stroke font itself is not
drawn), placed, turned and justified as KiCad does (footprint texts kept upright,
texts marked ``justify mirror`` mirrored: KiCad writes that on the back's texts).
"""

from __future__ import annotations

import math
from html import escape

from ..documents.board import Text
from ..documents.board.footprint_shapes import read_footprint
from ..documents.board.footprint_text import footprint_texts
from ..documents.board.shapes import read_drawing, read_zone, touched_items

CAP_HEIGHT = 0.72  # a sans-serif font's capital height per em: KiCad's size is the capital's
DEFAULT_WIDTH = 100_000  # nm: a drawing written with no stroke width (KiCad draws a thin line)


def _u(v: float) -> str:
    return str(round(v / 1000))


def _p(pt) -> str:
    return f"{_u(pt[0])} {_u(pt[1])}"


def _arc(s, m, e) -> str | None:
    """The SVG arc command from ``s`` through ``m`` to ``e`` (after an M to ``s``);
    None when the three points are on a line."""
    (ax, ay), (bx, by), (cx, cy) = s, m, e
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if abs(d) < 1e-9:
        return None
    a2, b2, c2 = ax * ax + ay * ay, bx * bx + by * by, cx * cx + cy * cy
    ux = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d
    uy = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d
    r = math.hypot(ax - ux, ay - uy)
    turn = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)  # > 0: clockwise on screen (y down)
    side_m = (cx - ax) * (by - ay) - (cy - ay) * (bx - ax)
    side_c = (cx - ax) * (uy - ay) - (cy - ay) * (ux - ax)
    large = 1 if side_m * side_c > 0 else 0  # centre on the mid point's side: more than half
    return f"A{_u(r)} {_u(r)} 0 {large} {1 if turn > 0 else 0} {_p(e)}"


def drawing_svg(d) -> str:
    """One `DrawingData` as an SVG element (stroked, or filled when ``d.filled``)."""
    pts = d.points
    width = d.width or (0 if d.filled else DEFAULT_WIDTH)
    closed = False
    if d.shape == "segment":
        path = f"M{_p(pts[0])}L{_p(pts[1])}"
    elif d.shape == "arc":
        arc = _arc(*pts[:3]) if len(pts) >= 3 else None
        path = f"M{_p(pts[0])}" + (arc or f"L{_p(pts[-1])}")
    elif d.shape == "circle":
        r = math.dist(pts[0], pts[1])
        cls = "f" if d.filled else "t"
        return f'<circle class="{cls}" cx="{_u(pts[0][0])}" cy="{_u(pts[0][1])}" r="{_u(r)}" stroke-width="{_u(width)}"/>'
    elif d.shape == "rect":
        (x0, y0), (x1, y1) = pts[:2]
        path = f"M{_u(x0)} {_u(y0)}H{_u(x1)}V{_u(y1)}H{_u(x0)}Z"
        closed = True
    elif d.shape == "bezier" and len(pts) == 4:
        path = f"M{_p(pts[0])}C{_p(pts[1])} {_p(pts[2])} {_p(pts[3])}"
    elif len(pts) >= 2:
        path = "M" + " ".join(_p(q) for q in pts) + "Z"
        closed = True
    else:
        return ""
    cls = "f" if d.filled and closed else "t"
    return f'<path class="{cls}" d="{path}" stroke-width="{_u(width)}"/>'


def _upright(angle: float) -> float:
    """KiCad's "keep upright": a footprint text is never drawn upside down."""
    a = (angle + 180) % 360 - 180  # (-180, 180]
    if a > 90:
        a -= 180
    elif a <= -90:
        a += 180
    return a


def text_svg(text: str, at, angle: float, size, justify, thickness, *, upright: bool = False) -> str:
    """A KiCad text as SVG ``<text>``: ``at`` (nm) is its anchor, ``angle`` degrees
    counter-clockwise, ``size`` (height, width) nm, ``justify`` KiCad's words
    (left/right: the anchor's end; top/bottom; mirror: drawn mirrored, as KiCad
    writes the texts of the back); ``upright``: KiCad's keep-upright of footprint texts."""
    if not text or at is None:
        return ""
    h = (size[0] if size else 0) or 1_000_000
    a = _upright(angle) if upright else angle
    mirror = "mirror" in justify
    anchor = "start" if "left" in justify else "end" if "right" in justify else "middle"
    dy = h if "top" in justify else 0 if "bottom" in justify else h / 2  # the baseline below the anchor
    weight = ' font-weight="bold"' if thickness and thickness >= 0.2 * h else ""
    transform = f"translate({_p(at)})" + (f" rotate({-a:g})" if a else "") + (" scale(-1 1)" if mirror else "")
    lines = text.replace("\\n", "\n").split("\n")
    step = h * 1.6  # KiCad's interline spacing
    y0 = dy - step * (len(lines) - 1) / 2 if "top" not in justify and "bottom" not in justify else dy
    out = []
    for i, line in enumerate(lines):
        out.append(f'<text x="0" y="{_u(y0 + i * step)}" font-size="{_u(h / CAP_HEIGHT)}"'
                   f' text-anchor="{anchor}"{weight} transform="{transform}">{escape(line)}</text>')
    return "".join(out)


def owner_key(view, uid: str | None) -> str:
    """The stable key (``data-k``) of a top-level item's drawing: its uuid, else its
    list's identity (the same list while the item is on the board)."""
    return uid or f"n{id(view.node)}"


class BoardArt:
    """The non-copper drawings and all texts of one board, per top-level item, kept in
    step with its edits (`layers`)."""

    def __init__(self, board, copper: set[str]):
        self.board = board
        self.copper = copper
        self._log = board.watch()
        self.owned: dict = {}  # View -> (key, attrs, {layer: fragment})
        for view in board.items():
            self._read(view)

    def layers(self) -> dict[str, dict[str, tuple[dict, str]]]:
        """Layer name -> {item key: (its data-* attributes, SVG fragment)}, after
        re-reading what edits touched."""
        if self._log.pending:
            for view, alive in touched_items(self.board, self._log):
                self.owned.pop(view, None)
                if alive:
                    self._read(view)
        out: dict[str, dict[str, tuple[dict, str]]] = {}
        for key, attrs, frags in self.owned.values():
            for layer, frag in frags.items():
                out.setdefault(layer, {})[key] = (attrs, frag)
        return out

    def _read(self, view) -> None:
        kind = view.kind
        frags: dict[str, list[str]] = {}
        uid, attrs = None, {}
        if kind in ("footprint", "module"):
            f = read_footprint(view)
            uid = f.uuid
            for d in f.drawings:
                self._drawing(d, frags)
            ref, value = f.reference, getattr(view, "value", "") or ""
            attrs = {"ref": ref, "value": value, "kind": "footprint"}
            for t in footprint_texts(view):
                if not t.visible or not t.layer:
                    continue
                text = (t.text.replace("${REFERENCE}", ref).replace("%R", ref)
                        .replace("${VALUE}", value).replace("%V", value))
                frags.setdefault(t.layer, []).append(
                    text_svg(text, t.at, t.angle, t.size, t.justify, t.thickness, upright=True))
        elif kind.startswith("gr_text"):
            t = Text(view.doc, view.node)
            if t.layer and not t.child("hide"):
                frags.setdefault(t.layer, []).append(
                    text_svg(t.text, t.position, t.orientation, t.size, t.justify, t.thickness))
            uid = t.uuid
        elif kind.startswith("gr_"):
            d = read_drawing(view)
            if d is not None:
                uid = d.uuid
                self._drawing(d, frags)
        elif kind == "zone":
            z = read_zone(view)
            uid = z.uuid
            if z.keepout is None:
                for layer in z.layers:
                    if layer in self.copper and layer not in z.fills:
                        frags.setdefault(layer, []).extend(
                            f'<path class="t" d="M{" ".join(_p(q) for q in ring)}Z" stroke-width="100"/>'
                            for ring in z.outline if len(ring) >= 3)
        if frags:
            self.owned[view] = (owner_key(view, uid), attrs, {k: "".join(v) for k, v in frags.items()})

    def _drawing(self, d, frags: dict) -> None:
        for layer in d.layers:
            if layer in self.copper or layer.endswith(".CrtYd"):
                continue  # copper from geometry/, courtyards as its polygons (board_svg)
            el = drawing_svg(d)
            if el:
                frags.setdefault(layer, []).append(el)


def art_of(board, copper: list[str]) -> BoardArt:
    """The `BoardArt` kept on ``board`` (built on first use, synced with its edits)."""
    art = getattr(board, "_view_art", None)
    if art is None or art.copper != set(copper):
        art = board._view_art = BoardArt(board, set(copper))
    return art
