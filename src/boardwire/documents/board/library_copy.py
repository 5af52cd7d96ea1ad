"""Copying a library footprint into a board the way KiCad 9 places one.

Measured against pcbnew (FootprintLoad, add to the board, SaveBoard): the copy
* is named ``"Lib:Name"``, loses the library file's ``version``/``generator`` header and
  gains ``uuid`` and ``at`` after its ``layer``;
* reads a KiCad 7-or-earlier footprint's ``fp_text reference``/``value`` as the
  ``Reference``/``Value`` fields KiCad 8+ loads them into (so the designator is set);
* gains the mandatory ``Datasheet`` and ``Description`` fields when the library has none;
* gives every field, text, drawing, pad, zone a fresh UUID (KiCad never reuses the
  library's, so one footprint placed twice has distinct items);
* stores pad and text angles absolute (footprint angle added), drawings relative;
* gives each pad ``(net N "name")`` right after its corner properties, before
  ``pinfunction``/``pintype`` and the local overrides (``format(PAD)`` in
  ``pcb_io_kicad_sexpr.cpp``).
Only front-side placement is handled here; flipping is a board command.
"""

from __future__ import annotations

import uuid as uuidlib
from typing import Callable

from ...sexpr import atoms
from ...sexpr.atoms import mm, quote
from ...sexpr.node import SList
from ..ids import new_uuid
from ..sexpr_doc import make
from ..units import rotate
from ..versions import board_has, kicad_major, library_vars_for

_HEADER_DROP = {"version", "generator", "generator_version"}
_NEEDS_UUID_AT_END = {"pad"}
_NEEDS_UUID_BEFORE_EFFECTS = {"property", "fp_text", "fp_text_box"}
_NEEDS_UUID_AFTER_LAYER = {"fp_line", "fp_rect", "fp_circle", "fp_arc", "fp_poly",
                           "fp_curve", "zone", "dimension"}
AFTER_NET = {"pinfunction", "pintype", "die_length", "die_delay", "solder_mask_margin",
              "solder_paste_margin", "solder_paste_margin_ratio", "clearance",
              "zone_connect", "thermal_width", "thermal_bridge_width", "thermal_bridge_angle",
              "thermal_gap", "options", "primitives", "teardrops", "tenting", "uuid"}
_MANDATORY_FIELDS = ("Datasheet", "Description")


def pad_net_list(number: int, name: str, named: bool) -> SList:
    """A pad's ``(net N "name")`` (KiCad 9), or ``(net "name")`` in a board whose items
    name their nets (KiCad 10, `Board.named_nets`: no net codes)."""
    if named:
        return make("net", quote(name))
    return make("net", str(number).encode(), quote(name))


_PROTECTION = ("tenting", "covering", "plugging", "capping", "filling")


def _drop_children(node: SList, heads, start: int = 0) -> None:
    """Remove the lists among ``node``'s children (from index ``start``) whose keyword
    is in ``heads`` (a fresh, unjournaled list being prepared for insertion)."""
    for i in range(len(node.kids) - 1, start - 1, -1):
        k = node.kids[i]
        if type(k) is SList and k.head in heads:
            del node.kids[i]
            del node.ws[i]


def _older_footprint(fp: SList, version: int | None) -> None:
    """Drop what a KiCad 10 library footprint has that a board of ``version`` cannot
    hold (the footprint is KiCad 9's otherwise): the jumper settings (before
    20250324), the pads' via-protection overrides (before 20250228), a rectangle's
    corner radius (before 20250829: the rectangle stays, sharp), its snap points and
    barcodes (before 20250901 / 20250914), its ``(units ...)`` pin groups (KiCad 9
    refuses a board holding any of these)."""
    if not board_has(version, "jumper_pads"):
        _drop_children(fp, ("duplicate_pad_numbers_are_jumpers", "jumper_pad_groups"))
    for feature, head in (("fp_units", "units"), ("points", "point"), ("barcodes", "barcode")):
        if not board_has(version, feature):
            _drop_children(fp, (head,))
    for k in fp.kids:
        if type(k) is SList and k.head == "pad" and not board_has(version, "via_protection"):
            _drop_children(k, _PROTECTION)
        elif type(k) is SList and k.head == "fp_rect" and not board_has(version, "rounded_rects"):
            _drop_children(k, ("radius",))


def _add_jumper_flag(fp: SList) -> None:
    """KiCad 10 writes ``(duplicate_pad_numbers_are_jumpers no)`` in every footprint,
    after its fields, ``attr`` and ``net_tie_pad_groups``, before its items."""
    if fp.find("duplicate_pad_numbers_are_jumpers") is not None:
        return
    items = _DRAWINGS | {"pad", "zone", "group", "dimension", "embedded_fonts", "model",
                         "jumper_pad_groups", "fp_text", "fp_text_box"}
    pos = _index_of(fp, items)
    _set_child(fp, pos if pos is not None else len(fp.kids),
               make("duplicate_pad_numbers_are_jumpers", b"no"))


def _norm180(angle: float) -> float:
    """EDA_ANGLE::Normalize180: (-180, 180], used for the footprint's orientation."""
    a = angle % 360.0
    if a > 180.0:
        a -= 360.0
    return a + 0.0


def _norm360(angle: float) -> float:
    """EDA_ANGLE::Normalize: [0, 360), used for pad and text angles."""
    return angle % 360.0 + 0.0


def _strip_ws(node: SList) -> SList:
    """A copy of ``node`` without its whitespace (it is laid out again on insert)."""
    kids = [_strip_ws(k) if type(k) is SList else k for k in node.kids]
    out = SList(kids)
    out.implicit = node.implicit
    for k in kids:
        if type(k) is SList:
            k.parent = out
    return out


def _set_child(node: SList, index: int, child: SList) -> None:
    node.kids.insert(index, child)
    node.ws.insert(index, b"")
    child.parent = node


def _index_of(node: SList, heads: set[str] | tuple[str, ...]) -> int | None:
    for i, k in enumerate(node.kids):
        if type(k) is SList and k.head in heads:
            return i
    return None


def _add_uuid(node: SList, make_uuid: Callable[[], str]) -> None:
    uid = make("uuid", quote(make_uuid()))
    old = _index_of(node, ("uuid", "tstamp"))
    if old is not None:
        node.kids[old] = uid
        uid.parent = node
        return
    head = node.head
    if head in _NEEDS_UUID_AT_END:
        _set_child(node, len(node.kids), uid)
    elif head in _NEEDS_UUID_BEFORE_EFFECTS:
        at = _index_of(node, ("effects",))
        _set_child(node, at if at is not None else len(node.kids), uid)
    elif head in _NEEDS_UUID_AFTER_LAYER:
        at = _index_of(node, ("layer", "layers"))
        _set_child(node, at + 1 if at is not None else len(node.kids), uid)


def _rotate_at(node: SList, angle: float, always_angle: bool) -> None:
    """Add the footprint's angle to a pad's or text's stored (absolute) angle. A pad
    at angle 0 has no angle atom; a text always has one."""
    at = node.find("at")
    if at is None or not angle:
        return
    vals = at.atoms()
    new = _norm360((float(vals[2]) if len(vals) > 2 else 0.0) + angle)
    kids = [at.kids[0], vals[0], vals[1]]
    if new or always_angle:
        kids.append(atoms.num(new))
    at.kids[:] = kids
    at.ws[:] = [b""] * len(kids)


_POINT_HEADS = {"at", "start", "end", "mid", "center", "xy"}


def _drift(node: SList, angle: float) -> None:
    """KiCad holds footprint children in board coordinates and writes them back
    footprint-relative (rotate, round to nm, rotate back, round): at angles other than
    quarter turns the written coordinates move by a nanometre or so. Do the same."""

    for kid in node.kids:
        if type(kid) is not SList:
            continue
        head = kid.head
        if head in _POINT_HEADS:
            vals = kid.atoms()
            if len(vals) >= 2:
                p = (atoms.to_nm(vals[0]), atoms.to_nm(vals[1]))
                x, y = rotate(rotate(p, angle), -angle)
                if (x, y) != p:
                    kid.kids[1:3] = [mm(x), mm(y)]
        if head not in ("primitives", "model", "effects", "stroke", "at"):
            _drift(kid, angle)


def _place_points(zone: SList, at: tuple[int, int], angle: float) -> None:

    for poly in zone.lists():
        pts = poly.find("pts")
        if pts is None:
            continue
        for xy in pts.lists("xy"):
            vals = xy.atoms()
            x, y = rotate((atoms.to_nm(vals[0]), atoms.to_nm(vals[1])), angle)
            xy.kids[1:3] = [mm(x + at[0]), mm(y + at[1])]


# KiCad 9 PCB_LAYER_ID values (the ordinals of KiCad 9's layer table) and the KICAD_T
# and SHAPE_T orders FOOTPRINT::cmp_drawings sorts by.
KICAD9_LAYER_IDS = {
    "F.Cu": 0, "F.Mask": 1, "B.Cu": 2, "B.Mask": 3, "F.SilkS": 5, "B.SilkS": 7,
    "F.Adhes": 9, "B.Adhes": 11, "F.Paste": 13, "B.Paste": 15, "Dwgs.User": 17,
    "Cmts.User": 19, "Eco1.User": 21, "Eco2.User": 23, "Edge.Cuts": 25, "Margin": 27,
    "B.CrtYd": 29, "F.CrtYd": 31, "B.Fab": 33, "F.Fab": 35,
    **{f"In{i}.Cu": 2 + 2 * i for i in range(1, 31)},
    **{f"User.{i}": 37 + 2 * i for i in range(1, 46)},
}
_ITEM_TYPE = {"fp_text": 1, "fp_text_box": 2, "dimension": 3}  # after PCB_SHAPE_T (0)
_SHAPE_KIND = {"fp_line": 0, "fp_rect": 1, "fp_arc": 2, "fp_circle": 3, "fp_poly": 4,
               "fp_curve": 5}
_DRAWINGS = set(_ITEM_TYPE) | set(_SHAPE_KIND)


def _drawing_key(node: SList, at: tuple[int, int], angle: float):
    """FOOTPRINT::cmp_drawings: type, layer, then for shapes kind, start, end (board
    coordinates), arc centre / bezier controls / polygon vertices, width; then UUID."""

    def world(head: str):
        c = node.find(head)
        if c is None or len(c.atoms()) < 2:
            return (0, 0)
        v = c.atoms()
        x, y = rotate((atoms.to_nm(v[0]), atoms.to_nm(v[1])), angle)
        return (x + at[0], y + at[1])

    head = node.head
    layer = KICAD9_LAYER_IDS.get(atoms.text((node.find("layer") or make("layer", b'""')).atoms()[0]), 99)
    uid = uuidlib.UUID(atoms.text(node.find("uuid").atoms()[0])).bytes
    if head not in _SHAPE_KIND:
        return (_ITEM_TYPE.get(head, 9), layer, (), uid)
    kind = _SHAPE_KIND[head]
    if head == "fp_circle":
        geo = [world("center"), world("end")]
    elif head == "fp_poly":
        pts = node.find("pts")
        verts = []
        for xy in (pts.lists("xy") if pts is not None else ()):
            v = xy.atoms()
            x, y = rotate((atoms.to_nm(v[0]), atoms.to_nm(v[1])), angle)
            verts.append((x + at[0], y + at[1]))
        geo = [(0, 0), (0, 0), (len(verts),), *verts]  # a polygon's start/end are unset
    else:
        geo = [world("start"), world("end")]
        if head == "fp_arc":
            geo.append(_arc_center(world("start"), world("mid"), world("end")))
    stroke = node.find("stroke")
    width = stroke.find("width") if stroke is not None else None
    w = atoms.to_nm(width.atoms()[0]) if width is not None else 0
    return (0, layer, (kind, *geo, (w,)), uid)


def _arc_center(a, m, b):
    ax, ay = a
    bx, by = m
    cx, cy = b
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if not d:
        return m
    ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) + (cx * cx + cy * cy) * (ay - by)) / d
    uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) + (cx * cx + cy * cy) * (bx - ax)) / d
    return (atoms.kiround(ux), atoms.kiround(uy))


def _strnumcmp(a: str, b: str) -> int:
    """KiCad's StrNumCmp: digit runs compare as numbers, other characters as codes."""
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i].isdigit() and b[j].isdigit():
            i2, j2 = i, j
            while i2 < len(a) and a[i2].isdigit():
                i2 += 1
            while j2 < len(b) and b[j2].isdigit():
                j2 += 1
            na, nb = int(a[i:i2]), int(b[j:j2])
            if na != nb:
                return -1 if na < nb else 1
            i, j = i2, j2
        else:
            if a[i] != b[j]:
                return -1 if a[i] < b[j] else 1
            i, j = i + 1, j + 1
    return (i < len(a)) - (j < len(b))


_PAD_SHAPES = {"circle": 0, "rect": 1, "oval": 2, "trapezoid": 3, "roundrect": 4,
               "chamfered_rect": 5, "custom": 6}


def _layer_seq(node: SList) -> list[int]:
    names = [atoms.text(v) for v in (node.find("layers") or node.find("layer") or make("x")).atoms()]
    return sorted(KICAD9_LAYER_IDS.get(n, 98) for n in names)


def _pad_cmp(a: SList, b: SList) -> int:
    """FOOTPRINT::cmp_pads: number (StrNumCmp), relative position, size, shape,
    layers, UUID."""
    va, vb = a.atoms(), b.atoms()
    c = _strnumcmp(atoms.text(va[0]), atoms.text(vb[0]))
    if c:
        return c

    def rest(n: SList, v: list[bytes]):
        pos = [atoms.to_nm(x) for x in n.find("at").atoms()[:2]]
        size = [atoms.to_nm(x) for x in (n.find("size") or make("size", b"0", b"0")).atoms()[:2]]
        shape = _PAD_SHAPES.get(atoms.text(v[2]) if len(v) > 2 else "", 9)
        return (pos, size, shape, _layer_seq(n), _uuid_bytes(n))

    ra, rb = rest(a, va), rest(b, vb)
    return (ra > rb) - (ra < rb)


def _uuid_bytes(node: SList) -> bytes:
    u = node.find("uuid")
    return uuidlib.UUID(atoms.text(u.atoms()[0])).bytes if u is not None else b""


def _zone_key(zone: SList):
    """FOOTPRINT::cmp_zones: priority, layers, outline vertices, UUID."""
    prio = zone.find("priority")
    verts = []
    for poly in zone.lists("polygon"):
        pts = poly.find("pts")
        for xy in (pts.lists("xy") if pts is not None else ()):
            verts.append(tuple(atoms.to_nm(v) for v in xy.atoms()[:2]))
    return (int(prio.atoms()[0]) if prio is not None else 0, _layer_seq(zone), len(verts),
            verts, _uuid_bytes(zone))


def _sort_children(fp: SList, at: tuple[int, int], angle: float) -> None:
    """Reorder drawings, pads and zones of ``fp`` (each kind sits together) as KiCad's
    save does (FOOTPRINT::cmp_drawings, cmp_pads, cmp_zones)."""
    import functools

    sorts = (
        (_DRAWINGS, lambda items: sorted(items, key=lambda n: _drawing_key(n, at, angle))),
        ({"pad"}, lambda items: sorted(items, key=functools.cmp_to_key(_pad_cmp))),
        ({"zone"}, lambda items: sorted(items, key=_zone_key)),
    )
    for heads, order in sorts:
        idx = [i for i, k in enumerate(fp.kids) if type(k) is SList and k.head in heads]
        if len(idx) > 1:
            for i, node in zip(idx, order([fp.kids[i] for i in idx])):
                fp.kids[i] = node


def _rect_to_poly(rect: SList) -> None:
    """A rectangle turned by other than a quarter turn becomes a polygon in KiCad."""
    start, end = rect.find("start"), rect.find("end")
    (x1, y1), (x2, y2) = start.atoms()[:2], end.atoms()[:2]
    pts = make("pts", make("xy", x1, y1), make("xy", x2, y1), make("xy", x2, y2),
               make("xy", x1, y2))
    i = rect.index(start)
    rect.kids[0] = b"fp_poly"
    rect.kids[i] = pts
    pts.parent = rect
    del rect.ws[rect.index(end)]
    rect.kids.remove(end)


def _limit_layers(zone: SList, enabled: set[str] | None) -> None:
    """KiCad writes a zone's layers as they exist on the board."""
    layers = zone.find("layers")
    if layers is None or enabled is None:
        return
    keep = [v for v in layers.atoms() if atoms.text(v) in enabled or "*" in atoms.text(v)]
    if keep and len(keep) != len(layers.atoms()):
        layers.kids[1:] = keep
        layers.ws[1:] = [b""] * len(keep)


def _field(name: str, make_uuid: Callable[[], str], angle: float) -> SList:
    return make("property", quote(name), quote(""),
                make("at", b"0", b"0", atoms.num(_norm360(angle))),
                make("layer", quote("F.Fab")),
                make("hide", b"yes"),
                make("uuid", quote(make_uuid())),
                make("effects", make("font", make("size", b"1.27", b"1.27"),
                                     make("thickness", b"0.15"))))


_TEXT_FIELDS = {b"reference": "Reference", b"value": "Value"}


def _texts_to_fields(fp: SList) -> None:
    """A KiCad 7-or-earlier footprint's ``(fp_text reference "REF**" ...)`` and
    ``(fp_text value ...)`` as the ``(property "Reference" ...)``/``"Value"`` fields
    KiCad 8+ loads them into (FOOTPRINT::Reference() / Value(), written back as
    properties): same place, layer, effects; a bare ``hide`` becomes ``(hide yes)``,
    ``unlocked`` ``(unlocked yes)``, in the order KiCad 9 writes them (at, unlocked,
    layer, hide, uuid, effects). Other ``fp_text`` (user texts) stay as they are."""
    for i, k in enumerate(fp.kids):
        if type(k) is not SList or k.head != "fp_text":
            continue
        vals = k.atoms()
        name = _TEXT_FIELDS.get(vals[0]) if vals else None
        if name is None:
            continue
        flags = {v for v in vals[2:]}
        lists = {c.head: c for c in k.lists()}
        prop = make("property", quote(name), vals[1] if len(vals) > 1 else quote(""),
                    lists.get("at"),
                    make("unlocked", b"yes") if b"unlocked" in flags else lists.get("unlocked"),
                    lists.get("layer"),
                    make("hide", b"yes") if b"hide" in flags else lists.get("hide"),
                    lists.get("uuid") or lists.get("tstamp"),
                    lists.get("effects"))
        fp.kids[i] = prop
        prop.parent = fp


def board_footprint(library: SList, lib_id: str, at: tuple[int, int], angle: float = 0.0,
                    reference: str | None = None, value: str | None = None,
                    pad_nets: dict[str, tuple[int, str]] | None = None,
                    make_uuid: Callable[[], str] | None = None,
                    board_layers: set[str] | None = None, version: int | None = None,
                    named_nets: bool | None = None) -> SList:
    """The ``(footprint ...)`` list KiCad 9 writes for ``library`` (the root of a
    ``.kicad_mod``) placed at ``at`` (nm) turned ``angle`` degrees on the front.

    ``pad_nets`` maps pad numbers to (net number, net name); ``board_layers`` are the
    board's layer names (zones keep only those); ``version`` the board's format (None:
    KiCad 9's): a KiCad 10 board gets pads that name their net and the footprint's
    ``(duplicate_pad_numbers_are_jumpers no)`` and 3D model paths under
    ``${KICAD10_3DMODEL_DIR}`` (all as in the KiCad 10 boards of
    ../shared/corpus); ``named_nets`` whether pads name their net (default: as
    ``version`` does; `Board.named_nets` follows the file). Returns a list without whitespace, ready for
    `SexprDocument.insert`."""
    make_uuid = make_uuid or new_uuid
    pad_nets = pad_nets or {}
    if named_nets is None:
        named_nets = board_has(version, "net_names")
    fp = _strip_ws(library)
    kids = fp.kids
    kids[1] = quote(lib_id)
    _drop_children(fp, _HEADER_DROP, start=2)
    _texts_to_fields(fp)
    layer_at = _index_of(fp, ("layer",))
    insert_at = layer_at + 1 if layer_at is not None else 2
    at_vals = [mm(at[0]), mm(at[1])] + ([atoms.num(_norm180(angle))] if _norm180(angle) else [])
    _set_child(fp, insert_at, make("uuid", quote(make_uuid())))
    _set_child(fp, insert_at + 1, make("at", *at_vals))

    present = set()
    last_field = None
    for i, k in enumerate(fp.kids):
        if type(k) is not SList:
            continue
        if k.head == "property":
            vals = k.atoms()
            name = atoms.text(vals[0]) if vals else ""
            present.add(name)
            last_field = i
            if name == "Reference" and reference is not None:
                k.kids[2] = quote(reference)
            elif name == "Value" and value is not None:
                k.kids[2] = quote(value)
    for name in reversed(_MANDATORY_FIELDS):
        if name not in present and last_field is not None:
            _set_child(fp, last_field + 1, _field(name, make_uuid, 0.0))

    for k in list(fp.kids):
        if type(k) is not SList:
            continue
        head = k.head
        if head in ("property", "fp_text", "fp_text_box"):
            _rotate_at(k, angle, always_angle=True)
        elif head == "pad":
            _rotate_at(k, angle, always_angle=False)
            number = atoms.text(k.atoms()[0]) if k.atoms() else ""
            if number in pad_nets:
                code, name = pad_nets[number]
                pos = _index_of(k, AFTER_NET)
                _set_child(k, pos if pos is not None else len(k.kids),
                           pad_net_list(code, name, named_nets))
        elif head == "zone":  # the one child KiCad stores in board coordinates
            _place_points(k, at, angle)
            _limit_layers(k, board_layers)
        elif head == "fp_rect" and angle % 90:
            _rect_to_poly(k)
        elif head == "model" and k.atoms() and version is not None:
            k.kids[1] = quote(library_vars_for(atoms.text(k.atoms()[0]), kicad_major(version)))
        if head in _NEEDS_UUID_AT_END | _NEEDS_UUID_BEFORE_EFFECTS | _NEEDS_UUID_AFTER_LAYER:
            _add_uuid(k, make_uuid)
    if angle % 90:
        for k in fp.kids:
            if type(k) is SList and k.head != "zone" and (k.head in _DRAWINGS or k.head in ("pad", "property")):
                _drift(k, angle)
    _sort_children(fp, at, angle)
    if board_has(version, "jumper_pads"):
        _add_jumper_flag(fp)
    if version is not None:
        _older_footprint(fp, version)
    return fp
