"""Connecting pins on a schematic sheet readably: the plan behind sch.connect.

Each pin of a net gets a short wire out of its symbol and, at the wire's end, a net
label (text running away from the pin) or a power symbol (ground pointing down,
supplies up: a sideways pin gets a wire that turns down or up; a pin pointing the other
way gets the symbol turned); a flag pin (PWR_FLAG) joins nets that need a source.
Every choice is checked against the boxes of what is already on the sheet (symbol
bodies, visible fields, labels, power symbols, other wires) and against the connection
points of other nets: wires grow in 50 mil steps until nothing overlaps. What still
overlaps after the longest try is reported, never hidden.

All coordinates integer nanometres, y down; KiCad's 50 mil grid is 1.27 mm; stubs are
multiples of 2.54 mm. Box estimates are documents/schematic/extent's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..documents.schematic.extent import DEFAULT_SIZE, Box, PinSide, boxes_overlap, label_box

MM = 1_000_000
GRID = 1_270_000
STEP = 2_540_000
MAX_STEPS = 6
Point = tuple[int, int]

LABEL_ANGLE = {(1, 0): 0, (-1, 0): 180, (0, -1): 90, (0, 1): 270}
# power symbol angle so that its body points along d (ground drawn down at 0, supplies up at 0)
GROUND_ANGLE = {(0, 1): 0, (0, -1): 180, (1, 0): 90, (-1, 0): 270}
SUPPLY_ANGLE = {(0, -1): 0, (0, 1): 180, (-1, 0): 90, (1, 0): 270}


@dataclass
class Op:
    """One edit: ``wire`` (points), ``label`` (text, at, angle), ``power`` (symbol,
    value, at, angle), ``no_connect`` (at)."""

    kind: str
    at: Point | None = None
    points: list[Point] = field(default_factory=list)
    text: str = ""
    symbol: str = ""
    angle: int = 0


@dataclass
class Plan:
    ops: list[Op] = field(default_factory=list)
    overlaps: list[str] = field(default_factory=list)
    missing_flags: list[str] = field(default_factory=list)  # nets whose PWR_FLAG found no room at all


def _box_of_segment(a: Point, b: Point) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    if not (min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])):
        return False
    return (b[0] - a[0]) * (p[1] - a[1]) == (b[1] - a[1]) * (p[0] - a[0])


def _grow(box: Box, by: int) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def power_box(at: Point, value: str, body: tuple[int, int], size: int = DEFAULT_SIZE) -> Box:
    """A power symbol's box: its body and value text from ``at`` along ``body`` (unit
    step). Upright, 3.8 mm deep plus the text's height, as wide as the text; turned
    sideways, the text turns too (KiCad draws a turned symbol's fields turned): as
    tall as the text, deep by the body and the text's height."""
    text = int(len(value) * 0.8 * size)
    x, y = at
    dx, dy = body
    if dy != 0:
        depth = int(3.81 * MM) + size
        half = max(int(1.27 * MM), text // 2 + size // 4)
    else:
        depth = int(3.81 * MM) + size
        half = max(int(1.27 * MM), text // 2 + size // 4)
    if dx == 0:
        y2 = y + dy * depth
        return (x - half, min(y, y2), x + half, max(y, y2))
    x2 = x + dx * depth
    return (min(x, x2), y - half, max(x, x2), y + half)


class Sheet:
    """What is on the sheet while planning: boxes (with owner), and the connection
    points and wire segments of each net (None: unknown net)."""

    def __init__(self, boxes: list[tuple[str, Box]], points: dict[Point, str | None],
                 segments: list[tuple[Point, Point, str | None]]):
        self.boxes = list(boxes)
        self.points = dict(points)
        self.segments = list(segments)

    def free(self, box: Box, owner: str) -> list[str]:
        """Owners of boxes that ``box`` overlaps (other than ``owner``'s)."""
        return [o for o, b in self.boxes if o != owner and boxes_overlap(box, b)]

    def wire_ok(self, a: Point, b: Point, net: str, body_owner: str) -> bool:
        """A wire a-b on ``net`` touches no point or wire of another net and crosses no
        box but its own symbol's."""
        for p, n in self.points.items():
            if n != net and _on_segment(p, a, b):
                return False
        for s, t, n in self.segments:
            if n != net and (_on_segment(s, a, b) or _on_segment(t, a, b) or _on_segment(a, s, t)
                             or _on_segment(b, s, t)):
                return False
        seg = _box_of_segment(a, b)
        return not any(o != body_owner and boxes_overlap(seg, box) for o, box in self.boxes
                       if not o.startswith("wire:"))

    def add_wire(self, pts: list[Point], net: str) -> None:
        for a, b in zip(pts, pts[1:]):
            self.segments.append((a, b, net))
            self.boxes.append((f"wire:{net}", _box_of_segment(a, b)))
        for p in pts:
            self.points.setdefault(p, net)


def _add(p: Point, d: tuple[int, int], n: int) -> Point:
    return (p[0] + d[0] * n, p[1] + d[1] * n)


def _candidates(pin: PinSide, kind: str, along: bool = False):
    """(wire points, end, direction of the item at the end) to try, best first;
    ``along``: a sideways power pin tries its symbol turned along the pin first (on a
    connector, whose pins sit 2.54 mm apart, a turning wire runs into the next pin's)."""
    d = pin.out
    if kind == "label":
        for k in range(1, MAX_STEPS + 1):
            end = _add(pin.at, d, k * STEP)
            yield [pin.at, end], end, d
        return
    want = (0, 1) if kind == "ground" else (0, -1)
    if d == want:
        for k in range(1, MAX_STEPS + 1):
            end = _add(pin.at, d, k * STEP)
            yield [pin.at, end], end, d
    elif d[1] == 0 and along:  # the short turn, then turned symbols, then longer turns
        corner = _add(pin.at, d, STEP)
        yield [pin.at, corner, _add(corner, want, STEP)], _add(corner, want, STEP), want
        for k in range(1, MAX_STEPS + 1):
            end = _add(pin.at, d, k * STEP)
            yield [pin.at, end], end, d
        for k in range(2, MAX_STEPS + 1):
            corner = _add(pin.at, d, k * STEP)
            yield [pin.at, corner, _add(corner, want, STEP)], _add(corner, want, STEP), want
    elif d[1] == 0:  # sideways: out, then turn
        for k in range(1, MAX_STEPS + 1):
            corner = _add(pin.at, d, k * STEP)
            end = _add(corner, want, STEP)
            yield [pin.at, corner, end], end, want
        for k in range(1, MAX_STEPS + 1):
            end = _add(pin.at, d, k * STEP)
            yield [pin.at, end], end, d
    else:  # pointing the other way: the symbol turned along the pin
        for k in range(1, MAX_STEPS + 1):
            end = _add(pin.at, d, k * STEP)
            yield [pin.at, end], end, d


def _item_box(kind: str, end: Point, d: tuple[int, int], text: str) -> Box:
    if kind == "label":
        return label_box(end, text, LABEL_ANGLE[d])
    return power_box(end, text, d)


def place_one(sheet: Sheet, pin: PinSide, net: str, kind: str, owner: str, plan: Plan,
              symbol: str = "", value: str | None = None, along: bool = False) -> Point:
    """Plan the wire and the label or power symbol of one pin; returns the wire's end."""
    text = value or net
    chosen = None
    margin = GRID // 4 if kind == "label" else 0  # a power symbol's box is its outline already
    for pts, end, d in _candidates(pin, kind, along):
        if not all(sheet.wire_ok(a, b, net, owner) for a, b in zip(pts, pts[1:])):
            continue
        box = _item_box(kind, end, d, text)
        if sheet.free(_grow(box, margin), f"wire:{net}"):
            continue
        chosen = (pts, end, d, box)
        break
    if chosen is None:  # nothing clean: the shortest, reported
        pts, end, d = next(iter(_candidates(pin, kind, along)))
        box = _item_box(kind, end, d, text)
        hit = sheet.free(box, f"wire:{net}")
        plan.overlaps.append(f"{pin.reference}.{pin.number} {net}: overlaps {', '.join(sorted(set(hit)))}"
                             if hit else f"{pin.reference}.{pin.number} {net}: wire crosses another net's items")
        chosen = (pts, end, d, box)
    pts, end, d, box = chosen
    if kind == "label":
        plan.ops.append(Op("label", at=end, text=net, angle=LABEL_ANGLE[d]))
    else:
        angle = (GROUND_ANGLE if kind == "ground" else SUPPLY_ANGLE)[d]
        plan.ops.append(Op("power", at=end, symbol=symbol, text=text, angle=angle))
    plan.ops.append(Op("wire", points=pts))
    sheet.add_wire(pts, net)
    sheet.boxes.append((f"item:{pin.reference}.{pin.number}", box))
    return end


FLAG = "power:PWR_FLAG"
APART = 40  # grid steps (2.54 mm) around a net's point searched for a flag drawn apart


def place_flag(sheet: Sheet, ends: list[Point], net: str, plan: Plan, kind: str = "supply",
               net_symbol: tuple[str, str | None] = ("", None), symbol: str = FLAG) -> bool:
    """A PWR_FLAG on ``net``: on a wire from one of ``ends`` (points of the net, the
    preferred first) to a free spot; failing that, apart (`_flag_apart`): the net drawn
    once more where nothing is (its power symbol ``net_symbol`` (lib id, value) for
    ``kind`` supply or ground, its label for a label) with the flag on a short wire.
    Returns whether it was drawn; when not, the net is in ``plan.missing_flags`` (ERC
    will find its power inputs undriven), never dropped silently."""
    if any(_flag_beside(sheet, at, net, plan, symbol) for at in ends):
        return True
    if ends and _flag_apart(sheet, ends[0], net, plan, kind, net_symbol, symbol):
        return True
    plan.missing_flags.append(net)
    plan.overlaps.append(f"PWR_FLAG of {net}: no free place")
    return False


def _flag_beside(sheet: Sheet, at: Point, net: str, plan: Plan, symbol: str) -> bool:
    """A PWR_FLAG on a straight wire from ``at`` (up to `MAX_STEPS` steps, each way)
    to the first spot where it meets nothing."""
    for d in ((1, 0), (-1, 0), (0, -1), (0, 1)):
        for k in range(1, MAX_STEPS + 1):
            end = _add(at, d, k * STEP)
            if not sheet.wire_ok(at, end, net, ""):
                continue
            up = (0, -1) if d != (0, 1) else (0, 1)
            box = power_box(end, "PWR_FLAG", up)
            if sheet.free(_grow(box, GRID // 4), f"wire:{net}"):
                continue
            plan.ops.append(Op("power", at=end, symbol=symbol, text="PWR_FLAG", angle=SUPPLY_ANGLE[up]))
            plan.ops.append(Op("wire", points=[at, end]))
            sheet.add_wire([at, end], net)
            sheet.boxes.append((f"flag:{net}", box))
            return True
    return False


def _flag_apart(sheet: Sheet, near: Point, net: str, plan: Plan, kind: str, net_symbol: tuple[str, str | None],
                symbol: str) -> bool:
    """The net's power symbol (or label) at a free grid point S nearest ``near`` (within
    `APART` steps), a wire of one step from S away from its body and the PWR_FLAG there,
    facing away: nothing of it meets anything on the sheet."""
    text = net_symbol[1] or net
    body = (0, 1) if kind == "ground" else (0, -1)  # the net's symbol; a label's text runs right, above
    away = (-body[0], -body[1])
    offsets = sorted(((i, j) for i in range(-APART, APART + 1) for j in range(-APART, APART + 1)),
                     key=lambda o: (o[0] * o[0] + o[1] * o[1], o[1], o[0]))
    for i, j in offsets:
        at = (near[0] + i * STEP, near[1] + j * STEP)
        flag_at = _add(at, away, STEP)
        if kind == "label":
            item = label_box(at, net, 0)
        else:
            item = power_box(at, text, body)
        flag = power_box(flag_at, "PWR_FLAG", away)
        wire = _box_of_segment(at, flag_at)
        if any(sheet.free(_grow(b, GRID // 4), "") for b in (item, flag, wire)):
            continue
        if at in sheet.points or flag_at in sheet.points or not sheet.wire_ok(at, flag_at, net, ""):
            continue
        if kind == "label":
            plan.ops.append(Op("label", at=at, text=net, angle=0))
        else:
            angle = (GROUND_ANGLE if kind == "ground" else SUPPLY_ANGLE)[body]
            plan.ops.append(Op("power", at=at, symbol=net_symbol[0], text=text, angle=angle))
        plan.ops.append(Op("power", at=flag_at, symbol=symbol, text="PWR_FLAG", angle=SUPPLY_ANGLE[away]))
        plan.ops.append(Op("wire", points=[at, flag_at]))
        sheet.add_wire([at, flag_at], net)
        sheet.boxes += [(f"item:{net}", item), (f"flag:{net}", flag)]
        return True
    return False


# -- the whole plan for a sheet -------------------------------------------------------

GROUND_NAMES = ("GND", "VSS", "0V", "AGND", "DGND", "GNDA", "GNDD", "GNDPWR")


def is_ground(net: str) -> bool:
    n = net.upper()
    return n in GROUND_NAMES or n.startswith("GND") or n.endswith("GND")


def is_power_name(net: str) -> bool:
    """Names drawn with power symbols by default: grounds, ``+...`` supplies, VCC/VDD/VBUS..."""
    n = net.upper()
    return is_ground(net) or n.startswith("+") or n in ("VCC", "VDD", "VBUS", "VIN", "VBAT", "3V3", "5V", "VEE")


class PinError(ValueError):
    """A pin named in a net that the sheet lacks (``ref.pin``, the reason)."""


def plan_sheet(doc, nets: dict[str, list[str]], power: set[str], no_connect: list[str],
               flags: bool, power_symbol) -> Plan:
    """The plan connecting ``nets`` (name -> ["U1.3", ...]) on sheet ``doc``.

    ``power``: nets drawn with power symbols; ``power_symbol(net)`` -> (lib id, value)
    names the symbol; when every symbol body lies on the sheet's paper (inside the
    frame, off the title block: documents/schematic/page) nothing is drawn off it;
    ``flags``: add a PWR_FLAG to each power net, and each net with a
    power input, that has no power output pin. Raises PinError for an unknown
    reference or pin, or a pin given twice."""
    from ..documents.schematic.extent import pin_sides, sheet_extents
    from ..documents.schematic.lib_info import lib_info
    from ..documents.schematic.page import PAPERS, keep_out, off_page

    table = doc.lib_symbol_table()
    pins: dict[str, PinSide] = {}
    owner: dict[str, str] = {}
    points: dict[Point, str | None] = {}
    for sym in doc.symbols:
        info = lib_info(table, sym.lib_key)
        for p in pin_sides(sym, table):
            points.setdefault(p.at, None)
            if info is not None and not info.power:
                pins[f"{p.reference}.{p.number}"] = p
                owner[p.reference] = sym.uuid
    seen: dict[str, str] = {}
    for net, names in list(nets.items()) + [("(no connect)", no_connect)]:
        for name in names:
            if name not in pins:
                ref = name.split(".")[0]
                have = sorted(k.split(".", 1)[1] for k in pins if k.split(".")[0] == ref)
                raise PinError(f"{name}: " + (f"{ref} has pins {', '.join(have)}" if have else f"no symbol {ref} on the sheet"))
            if name in seen:
                raise PinError(f"{name} is in {seen[name]} and {net}")
            seen[name] = net
            points[pins[name].at] = net
    for lab in doc.labels:
        points.setdefault(lab.position, lab.text)
    segments = [(a, b, None) for w in doc.wires for a, b in zip(w.points, w.points[1:])]
    extents = sheet_extents(doc)
    boxes = [(e.owner, e.box) for e in extents]
    if doc.paper in PAPERS and not any(off_page(e.box, doc.paper) for e in extents if e.kind == "body"):
        # the symbols are on the page: what is drawn for them stays inside the frame, off the title block
        boxes += [("page", b) for b in keep_out(doc.paper)]
    sheet = Sheet(boxes, points, segments)
    plan = Plan()
    flagged: set[Point] = set()
    for name in no_connect:
        if pins[name].at not in flagged:  # pins stacked at one point (USB-C's) take one flag
            flagged.add(pins[name].at)
            plan.ops.append(Op("no_connect", at=pins[name].at))
    # labels first: a power symbol's wire may turn, and then goes around the labels
    for net, names in sorted(nets.items(), key=lambda kv: kv[0] in power):
        kind = ("ground" if is_ground(net) else "supply") if net in power else "label"
        symbol, value = power_symbol(net) if kind != "label" else ("", None)
        ends, drawn = [], set()
        for name in names:
            p = pins[name]
            if p.at in drawn:  # a pin stacked on one already drawn (same net): connected there
                continue
            drawn.add(p.at)
            along = p.reference.rstrip("0123456789").startswith(("J", "P", "CN"))
            ends.append((name, place_one(sheet, p, net, kind, owner[p.reference], plan, symbol, value, along)))
        types = {pins[n].type for n in names}
        if flags and "power_out" not in types and (kind != "label" or "power_in" in types):
            # at a connector if there is one: that is where the supply comes in
            first = [e for n, e in ends if n[0] in "JP"] + [e for n, e in ends if n[0] not in "JP"]
            place_flag(sheet, first, net, plan, kind, (symbol, value))
    return plan
