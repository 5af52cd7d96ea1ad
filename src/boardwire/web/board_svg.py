"""The live view's board drawing: an SVG of the in-memory board, drawn as KiCad's PCB
editor shows it.

Copper from `geometry/` (the model the built-in DRC uses: pads in their real shapes,
turned and mirrored with their footprint, tracks, arcs, vias, filled zones, holes),
courtyards as its polygons; silkscreen, fabrication, user and Edge.Cuts drawings, all
texts and unfilled zones' outlines from `board_art` (through the documents layer).
Every layer is a ``<g class="layer" data-layer="NAME">`` the page toggles, stacked as
KiCad stacks them for the side looked at; inside a layer, each top-level item
(footprint, track, via, zone, drawing) is one ``<g data-k="KEY">`` (its uuid), so the
page replaces only the items an edit changed. Pads and courtyards carry ``data-ref``,
``data-value``, ``data-net`` and ``data-pad`` for the page's hover. Units: millimetres
in the SVG's user space (the viewBox, references, ratsnest, markers), whole
micrometres inside the group scaled by 0.001 that holds the board (integers print
several times faster than decimals); KiCad's axes (x right, y down); ``side="back"``
mirrors the board left to right (as KiCad's "flip board view") and stacks the layers
from the back. Colours are KiCad 9's default theme (`theme`). Compared with
kicad-cli's plot in tests/web/test_view_fidelity.py (docs/view.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

import numpy as np
import shapely

from ..geometry import geometry_of
from .board_art import art_of, owner_key
from .theme import BACKGROUND, DRILL, MARKER, RATSNEST, VIA, ZONE_OPACITY, copper_colours, layer_colour

# a side's technical layers, from the board outwards (the side looked at is drawn
# bottom to top in this order, the other side top to bottom beneath the copper)
SIDE_STACK = ("Adhes", "Paste", "Mask", "SilkS", "Fab", "CrtYd")
STYLE = ("<style>.t{fill:none;stroke:currentColor;stroke-linecap:round;stroke-linejoin:round}"
         ".f{stroke:currentColor;stroke-linejoin:round}text{pointer-events:none}</style>")
QUAD_SEGS = 6  # quarter-circle segments of a round pad or a rounded end drawn as a polygon


def _n(v: float) -> str:
    """Nanometres as millimetres, 4 decimals (0.1 um), trailing zeros dropped."""
    return f"{v / 1e6:.4f}".rstrip("0").rstrip(".")


def _u(v: float) -> str:
    """Nanometres as whole micrometres (the copper's user space, see `board_svg`)."""
    return str(round(v / 1000))


def _pts(xy: np.ndarray) -> str:
    """Points (N x 2, nm) as "x y x y ..." in whole micrometres: SVG reads the pairs
    after a moveto as linetos, and integers print fast."""
    return " ".join(map(str, np.rint(xy / 1000).astype(np.int64).ravel().tolist()))


def _path_of(geom) -> str:
    """An SVG path (even-odd) of a polygon or multipolygon in nanometres."""
    out = []
    for poly in shapely.get_parts(geom):
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        for ring in (poly.exterior, *poly.interiors):
            out.append("M" + _pts(shapely.get_coordinates(ring)[:-1]) + "Z")
    return "".join(out)


def _line(core) -> str:
    return "M" + _pts(shapely.get_coordinates(core))


def _attrs(**kv) -> str:
    return "".join(f' data-{k}="{escape(str(v))}"' for k, v in kv.items() if v not in (None, ""))


def _shape(it) -> str:
    """One copper item as an SVG element (``it.core`` swept by ``it.r``)."""
    core = it.core
    if core.geom_type == "Point" and it.r > 0:
        return f'<circle cx="{_u(core.x)}" cy="{_u(core.y)}" r="{_u(it.r)}"'
    if core.geom_type == "LineString" and it.kind in ("track", "arc", "shape"):
        return f'<path class="t" d="{_line(core)}" stroke-width="{_u(2 * it.r)}"'
    geom = shapely.buffer(core, it.r, quad_segs=QUAD_SEGS) if it.r > 0 else core
    return f'<path d="{_path_of(geom)}"'


def _elements(it, fp, values: dict) -> tuple[str, str | None]:
    """A copper item's SVG element (with its data-* attributes) and its hole's (or None)."""
    if fp is not None and fp.id not in values:
        values[fp.id] = getattr(fp.owner, "value", "") or ""
    data = _attrs(ref=fp.reference if fp else None, value=values.get(fp.id) if fp else None,
                  net=it.net, pad=it.number if it.kind == "pad" else None, kind=it.kind)
    element = f'<path d="{_path_of(it.core)}"{data}/>' if it.kind == "zone" else _shape(it) + data + "/>"
    hole = None
    if it.kind in ("pad", "via") and it.hole is not None and it.hole_r > 0:
        hole = f'<path d="{_path_of(shapely.buffer(it.hole, it.hole_r, quad_segs=QUAD_SEGS))}"/>'
    return element, hole


def _frame(model) -> tuple[float, float, float, float]:
    """(x, y, width, height) in nm: the outline's box, else the items' box, plus a margin."""
    outline = model.outline()
    if outline is not None and not outline.is_empty:
        x0, y0, x1, y1 = outline.bounds
    else:
        geoms = [it.core for it in model.items if it is not None]
        geoms += [e.core for e in model.edges if e is not None]
        if not geoms:
            return -10e6, -10e6, 20e6, 20e6
        x0, y0, x1, y1 = shapely.total_bounds(geoms)
    pad = max(x1 - x0, y1 - y0) * 0.04 + 1e6
    return x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad


@dataclass(slots=True)
class LayerPart:
    """One ``<g class="layer">`` of the drawing: its opening tag, its items (item key ->
    ``<g data-k>`` text, in order), a copper layer's zones likewise (inside ``<g
    class="zones">``), or, for the ratsnest, markers and references, its whole inside
    (``raw``)."""

    name: str
    open: str
    items: dict[str, str] = field(default_factory=dict)
    zones: dict[str, str] | None = None
    raw: str | None = None

    def text(self) -> str:
        if self.raw is not None:
            return f"{self.open}{self.raw}</g>"
        zones = (f'<g class="zones" opacity="{ZONE_OPACITY}" stroke="none">{"".join(self.zones.values())}</g>'
                 if self.zones is not None else "")
        return f'{self.open}{zones}{"".join(self.items.values())}</g>'


def board_svg(board, *, side: str = "front", unrouted: list[dict] = (), markers: list[dict] = (),
              path: str = "", revision: int = 0) -> str:
    """The SVG text of ``board`` (a documents Board): `board_parts` joined; same
    arguments and errors."""
    return "".join(p if isinstance(p, str) else p.text() for p in
                   board_parts(board, side=side, unrouted=unrouted, markers=markers, path=path, revision=revision))


def board_parts(board, *, side: str = "front", unrouted: list[dict] = (), markers: list[dict] = (),
                path: str = "", revision: int = 0) -> list:
    """The drawing of ``board`` as parts: SVG text (str) and `LayerPart` in order (what
    the view compares between two revisions to send only the items that changed).

    ``unrouted``: ratsnest links ``{"net", "from_at": [x, y], "to_at": [x, y]}`` (mm,
    query.unrouted's rows); ``markers``: DRC violations ``{"type", "severity",
    "description", "items": [{"at": [x, y]}]}`` (mm, check.drc's; drawn at the first item). ``side``: "front" or "back".
    Raises ValueError for another side."""
    if side not in ("front", "back"):
        raise ValueError(f"side is front or back, not {side!r}")
    model = geometry_of(board)
    copper = list(model.layers.names)
    colour = copper_colours(copper)
    art = art_of(board, copper).layers()
    fps = model.footprints
    values: dict = {}
    # layer -> item key -> elements (copper); zones, vias and holes likewise
    layers: dict[str, dict[str, list[str]]] = {name: {} for name in copper}
    zones: dict[str, dict[str, list[str]]] = {name: {} for name in copper}
    vias: dict[str, list[str]] = {}
    holes: dict[str, list[str]] = {}
    cache = getattr(board, "_view_elements", None) or {}
    fresh: dict = {}  # the elements of each item object: an edit replaces its items, so only those are redrawn
    for it in model.items:
        if it is None:
            continue
        fp = fps[it.fp] if it.fp is not None and it.fp < len(fps) else None
        key = owner_key(it.owner, fp.uuid if fp is not None else it.uuid)
        got = fresh[it] = cache.get(it) or _elements(it, fp, values)
        element, hole = got
        if it.kind == "via":
            vias.setdefault(key, []).append(element)
        elif it.kind == "zone":
            for name in model.layers.of(it.mask):
                zones[name].setdefault(key, []).append(element)
        else:
            for name in model.layers.of(model.flash(it) if it.kind == "pad" else it.mask):
                layers[name].setdefault(key, []).append(element)
        if hole is not None:
            holes.setdefault(key, []).append(hole)
    board._view_elements = fresh
    x, y, w, h = _frame(model)
    back = side == "back"
    near, far = ("B", "F") if back else ("F", "B")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_n(x)} {_n(y)} {_n(w)} {_n(h)}"'
           f' data-path="{escape(path)}" data-revision="{revision}" data-side="{side}">', STYLE,
           f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{BACKGROUND}"/>',
           f'<g class="board"' + (f' transform="translate({_n(2 * x + w)} 0) scale(-1 1)"' if back else "") + ">",
           '<g transform="scale(0.001)" font-family="sans-serif">']  # the board in micrometres
    courtyards = _courtyards(fps, values)
    done = set(copper)

    def technical(name: str) -> None:
        done.add(name)
        if name.endswith(".CrtYd"):
            c = layer_colour(name)
            out.append(LayerPart(name, f'<g class="layer" data-layer="{name}" fill="{c}" fill-opacity="0.04"'
                                       f' stroke="{c}" stroke-width="50">', _keyed(courtyards[name[0]], art.get(name, {}))))
        elif name in art or name[2:] in ("SilkS", "Fab") or name == "Edge.Cuts":
            c = layer_colour(name)
            # drawings do not take the pointer: hover reaches the copper under them
            out.append(LayerPart(name, f'<g class="layer" data-layer="{name}" fill="{c}" color="{c}"'
                                       ' pointer-events="none">', _keyed({}, art.get(name, {}))))

    for part in reversed(SIDE_STACK):  # the far side's layers, outermost first
        technical(f"{far}.{part}")
    for name in (copper if back else list(reversed(copper))):  # the side looked at is drawn last
        c = colour[name]
        out.append(LayerPart(name, f'<g class="layer" data-layer="{escape(name)}" fill="{c}" color="{c}">',
                             _keyed(layers[name], art.get(name, {})), _keyed(zones[name], {})))
    out.append(LayerPart("Vias", f'<g class="layer" data-layer="Vias" fill="{VIA}">', _keyed(vias, {})))
    out.append(LayerPart("Holes", f'<g class="layer" data-layer="Holes" fill="{DRILL}" pointer-events="none">',
                         _keyed(holes, {})))
    for part in SIDE_STACK:
        technical(f"{near}.{part}")
    technical("Edge.Cuts")
    for name in sorted(set(art) - done):  # user layers, margin: on top, as KiCad draws them
        technical(name)
    out.append("</g>")  # the rest in millimetres
    refs = []
    for fp in fps:
        if fp is None or not fp.reference:
            continue
        tx, ty = fp.pos
        flip = f' transform="translate({_n(2 * tx)} 0) scale(-1 1)"' if back else ""
        refs.append(f'<text x="{_n(tx)}" y="{_n(ty)}"{flip}>{escape(fp.reference)}</text>')
    out.append(LayerPart("References", '<g class="layer" data-layer="References" fill="#f2f2f2" font-size="1"'
                         ' font-family="sans-serif" text-anchor="middle" dominant-baseline="middle"'
                         ' pointer-events="none">', raw="".join(refs)))
    lines = "".join(f'<line x1="{a["from_at"][0]}" y1="{a["from_at"][1]}" x2="{a["to_at"][0]}" '
                    f'y2="{a["to_at"][1]}"{_attrs(net=a.get("net"), kind="ratsnest")}/>' for a in unrouted)
    out.append(LayerPart("Ratsnest", f'<g class="layer" data-layer="Ratsnest" stroke="{RATSNEST}" stroke-width="0.1">',
                         raw=lines))
    marks = []
    for v in markers:
        at = v.get("at") or next((i.get("at") or [i["pos"]["x"], i["pos"]["y"]] for i in v.get("items", [])
                                  if "at" in i or "pos" in i), None)
        if not at:
            continue
        mx, my = at
        c = MARKER.get(v.get("severity", "error"), MARKER["error"])
        marks.append(f'<circle cx="{mx}" cy="{my}" r="0.6" stroke="{c}"'
                     + _attrs(kind="drc", rule=v.get("type"), message=v.get("description")) + "/>")
    out.append(LayerPart("DRC", '<g class="layer" data-layer="DRC" fill="none" stroke-width="0.25">',
                         raw="".join(marks)))
    out.append("</g></svg>")
    return out


def _keyed(elements: dict[str, list[str]], art: dict[str, tuple[dict, str]]) -> dict[str, str]:
    """One ``<g data-k>`` per item key: its elements, then its drawings and texts."""
    out = {}
    for key, els in elements.items():
        extra = art.get(key)
        out[key] = f'<g data-k="{escape(key)}">{"".join(els)}{extra[1] if extra else ""}</g>'
    for key, (attrs, frag) in art.items():
        if key not in elements:
            out[key] = f'<g data-k="{escape(key)}"{_attrs(**attrs)}>{frag}</g>'
    return out


def _courtyards(fps, values) -> dict[str, dict[str, list[str]]]:
    """Each footprint's courtyard polygons per side ("F", "B"), by item key."""
    out: dict[str, dict[str, list[str]]] = {"F": {}, "B": {}}
    for fp in fps:
        if fp is None:
            continue
        for s, k in (("front", "F"), ("back", "B")):
            if fp.courtyard.get(s) is None:
                continue
            value = values.get(fp.id) or getattr(fp.owner, "value", "")
            out[k][owner_key(fp.owner, fp.uuid)] = [f'<path d="{_path_of(fp.courtyard[s])}"'
                                                   + _attrs(ref=fp.reference, value=value, kind="footprint") + "/>"]
    return out
