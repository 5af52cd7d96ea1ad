"""Arranging symbols on a sheet the way a person would, before they are connected
(sch.connect), and choosing the paper they fit.

Parts are grouped by function into blocks: each IC (and each connector) with the
passives that serve it, every passive on the side of the host pin it shares a signal
net with, stacked outward in columns or rows that wrap at the host's size (pull-ups
beside the pins they pull, a crystal and its load capacitors beside XIN/XOUT); a
passive that serves no host but shares a signal net with one that does (an LED behind
its resistor) follows it; decoupling capacitors (on supplies alone) go to the IC on
their supply that wants them most (a regulator its first on each net, then ICs by
their pins on it and their size, less for each they have) and stand in rows as a
block of their own beside it (one or two join the IC's block, below it); the rest form
small blocks of parts joined by signal nets. Regulators (ICs whose pins are all on
power nets) make the power blocks, drawn first; ICs follow, largest first, then the
loose blocks. Connectors stand at the sheet's edges: inputs (USB, barrel jacks, power,
and any connector on a regulator's input) down the left, outputs and headers down the
right above the title block; the middle is filled block by block, each at the highest,
then leftmost, free spot (a grid, never a single column; when the blocks do not pack in
drawing order: the power blocks and then the tallest first, the tallest, the largest).

The paper is the smallest of A4, A3, A2, A1, A0 whose drawing area (inside KiCad's
default frame, off its title block: documents/schematic/page) has room for the blocks'
total area and on which they pack; nothing is placed outside the frame or on the title
block. Each symbol's box is its pins' box plus room for the labels and power symbols
sch.connect will draw (the longest net name on that side, the stub, a margin).
Anchors are on the 100 mil (2.54 mm) grid.

Coordinates integer nanometres, y down; pins are given relative to the anchor with
their outward direction (a unit step), as documents/schematic/extent gives them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..documents.schematic.page import ORDER, drawing_area, title_block

MM = 1_000_000
PITCH = 2_540_000
CHAR = int(0.8 * 1.27 * MM)
MARGIN = 2 * PITCH
CONNECTOR_PREFIXES = ("J", "P", "CN", "USB")
INPUT_WORDS = ("USB", "BARREL", "JACK", "POWER", "BATTERY", "DC_")
WRAP_MIN = 60 * MM  # a side's column (or row) of passives wraps at its host's size, at least this
SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass
class Item:
    """A symbol unit to place: key (``U1`` or ``U1:2``), reference, pins as
    (net or None, relative position, outward step), the power nets, its library
    symbol (``Connector:USB_C_Receptacle``; tells an input connector), the nets at its
    power input pins (a regulator's input), its value."""

    key: str
    ref: str
    pins: list[tuple[str | None, tuple[int, int], tuple[int, int]]]
    power: set[str] = field(default_factory=set)
    symbol: str = ""
    power_in: set[str] = field(default_factory=set)  # nets at its power input pins
    value: str = ""  # the Value field's text (its width is kept free)

    @property
    def kind(self) -> str:
        letters = self.ref.rstrip("0123456789")
        if letters.startswith(CONNECTOR_PREFIXES):
            return "connector"
        return "ic" if len(self.pins) > 4 or letters == "U" else "passive"

    @property
    def nets(self) -> set[str]:
        return {n for n, _, _ in self.pins if n}

    @property
    def signals(self) -> set[str]:
        return self.nets - self.power

    def box(self) -> tuple[int, int, int, int]:
        """Pins' box plus room on each side for what is drawn at its pins."""
        xs = [p[1][0] for p in self.pins] or [0]
        ys = [p[1][1] for p in self.pins] or [0]
        x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
        room = {(-1, 0): 0, (1, 0): 0, (0, -1): 0, (0, 1): 0}
        for net, _, out in self.pins:
            if net is None:
                continue
            need = 3 * PITCH if net in self.power else 2 * PITCH + len(net) * CHAR
            room[out] = max(room.get(out, 0), need)
        # the fields: centred on the anchor (ICs, connectors) or beside the body on the
        # right (KiCad's two-pin symbols): room for the longer of value and reference either way
        text = max(len(self.value), len(self.ref)) * CHAR
        beside = self.kind == "passive"
        return (min(x1 - max(room[(-1, 0)], PITCH), 0 if beside else -text // 2 - PITCH) - MARGIN,
                y1 - max(room[(0, -1)], PITCH) - MARGIN,
                max(x2 + max(room[(1, 0)], PITCH), (PITCH + text) if beside else text // 2 + PITCH) + MARGIN,
                y2 + max(room[(0, 1)], PITCH) + MARGIN)

    def size(self) -> tuple[int, int]:
        b = self.box()
        return b[2] - b[0], b[3] - b[1]


@dataclass
class Block:
    """A group of symbols drawn together: ``name`` (its host's reference, ``power``...),
    ``role`` (power, ic, loose, input, output), anchors relative to the block's
    top-left corner, its size."""

    name: str
    role: str
    anchors: dict[str, tuple[int, int]]
    w: int
    h: int
    refs: list[str] = field(default_factory=list)


@dataclass
class Arrangement:
    """Where everything goes: anchors (nm) by ``Item.key``, the paper, each block's
    name, role, references and sheet box (nm)."""

    anchors: dict[str, tuple[int, int]]
    paper: str
    blocks: list[tuple[str, str, list[str], tuple[int, int, int, int]]]
    fits: bool = True


def _snap(v: int) -> int:
    return round(v / PITCH) * PITCH


def _up(v: int) -> int:
    return -(-v // PITCH) * PITCH


def _lines(items: list[Item], limit: int, down: bool) -> list[tuple[list[Item], int, int]]:
    """``items`` in columns (``down``) of at most ``limit`` tall, or rows at most
    ``limit`` wide: (items, extent along, extent across) each."""
    out: list[tuple[list[Item], int, int]] = []
    for it in items:
        w, h = it.size()
        along, across = (h, w) if down else (w, h)
        if out and out[-1][1] + along <= limit:
            line, a, c = out[-1]
            out[-1] = (line + [it], a + along, max(c, across))
        else:
            out.append(([it], along, across))
    return out


def _put(it: Item, x: int, y: int, out: dict) -> None:
    """Anchor ``it`` so that its box's top-left corner is at (x, y)."""
    b = it.box()
    out[it.key] = (x - b[0], y - b[1])


def _cluster(host: Item, sides: dict[tuple[int, int], list[Item]]) -> Block:
    """The host with its passives around it: left and right columns, rows above and
    below, each wrapping outward at the host's size (at least `WRAP_MIN`)."""
    hw, hh = host.size()
    left = _lines(sides.get((-1, 0), []), max(hh, WRAP_MIN), True)
    right = _lines(sides.get((1, 0), []), max(hh, WRAP_MIN), True)
    above = _lines(sides.get((0, -1), []), max(hw, WRAP_MIN), False)
    below = _lines(sides.get((0, 1), []), max(hw, WRAP_MIN), False)
    lw = sum(c for _, _, c in left)
    th = sum(c for _, _, c in above)
    cw = max([hw] + [a for _, a, _ in above + below])
    out: dict[str, tuple[int, int]] = {}
    _put(host, lw + (cw - hw) // 2, th, out)
    x = lw
    for line, _, across in left:  # nearest the host first, outward to the left
        x -= across
        y = th
        for it in line:
            w, h = it.size()
            _put(it, x + across - w, y, out)
            y += h
    x = lw + cw
    for line, _, across in right:
        y = th
        for it in line:
            _put(it, x, y, out)
            y += it.size()[1]
        x += across
    y = th
    for line, _, across in above:
        y -= across
        x = lw
        for it in line:
            w, h = it.size()
            _put(it, x, y + across - h, out)
            x += w
    y = th + hh
    for line, _, across in below:
        x = lw
        for it in line:
            _put(it, x, y, out)
            x += it.size()[0]
        y += across
    w = lw + cw + sum(c for _, _, c in right)
    h = max(th + hh + sum(c for _, _, c in below), th + max([a for _, a, _ in left + right] or [0]))
    return Block(host.ref, "ic", out, w, h, [host.ref] + [i.ref for s in sides.values() for i in s])


def _pin_side(host: Item, nets: set[str]) -> tuple[int, int]:
    sides = [out for n, _, out in host.pins if n in nets]
    return max(set(sides), key=sides.count) if sides else (1, 0)


def _group(items: list[Item]) -> tuple[dict[str, dict[tuple[int, int], list[Item]]], dict[str, list[Item]], list[Item]]:
    """Passives by host key and side; an IC's decoupling capacitors (passives on its
    supplies alone) by its key; the passives that serve no host."""
    hosts = [i for i in items if i.kind != "passive"]
    ics = [i for i in hosts if i.kind == "ic"]
    groups: dict[str, dict[tuple[int, int], list[Item]]] = {h.key: {} for h in hosts}
    where: dict[str, tuple[str, tuple[int, int]]] = {}
    loose, supply_only = [], []
    for p in (i for i in items if i.kind == "passive"):
        best, score = None, 0
        for h in sorted(hosts, key=lambda h: h.kind != "ic"):  # an IC before a connector on a tie
            s = len(p.signals & h.signals)
            if s > score:
                best, score = h, s
        if best is not None:
            side = _pin_side(best, p.signals & best.signals)
            groups[best.key].setdefault(side, []).append(p)
            where[p.key] = (best.key, side)
        elif p.signals:
            loose.append(p)
        else:
            supply_only.append(p)
    decoupling: dict[str, list[Item]] = {}
    taken: dict[tuple[str, str], int] = {}
    regulators = {ic.key for ic in ics if ic.nets and not ic.signals}
    for p in supply_only:  # decoupling: spread over the ICs on its supply (see `_weight`)
        supplies = p.nets - {n for n in p.nets if _ground(n)} or p.nets
        net = min(supplies)
        pick = max(((_weight(ic, net, ic.key in regulators, taken.get((ic.key, net), 0)), -i, ic)
                    for i, ic in enumerate(ics) if net in ic.nets), default=None, key=lambda t: t[:2])
        if pick is None:
            loose.append(p)
            continue
        ic = pick[2]
        taken[(ic.key, net)] = taken.get((ic.key, net), 0) + 1
        decoupling.setdefault(ic.key, []).append(p)
    changed = True
    while changed:  # an LED behind its resistor: with the passive it shares a signal with
        changed = False
        for p in list(loose):
            for q in items:
                if q.key in where and p.signals & q.signals:
                    host, side = where[q.key]
                    line = groups[host][side]
                    line.insert(line.index(q) + 1, p)
                    where[p.key] = (host, side)
                    loose.remove(p)
                    changed = True
                    break
    return groups, decoupling, loose


def _weight(ic: Item, net: str, regulator: bool, taken: int) -> float:
    """How much IC ``ic`` wants one more capacitor on supply ``net`` when it has
    ``taken``: a regulator its first on each of its nets (input and output), then
    none; another IC by its pins on the net and its size (an MCU more than a flash
    chip), less for each it has."""
    if regulator:
        return 1000.0 if taken == 0 else 0.0
    pins = sum(1 for n, _, _ in ic.pins if n == net)
    return pins * len(ic.pins) ** 0.5 / (taken + 1)


def _ground(net: str) -> bool:
    n = net.upper()
    return n.startswith("GND") or n.endswith("GND") or n in ("VSS", "0V")


def _row_block(name: str, role: str, items: list[Item], limit: int) -> Block:
    """``items`` in rows at most ``limit`` wide, as even as the widest allows (13
    capacitors in rows of 7 and 6, not 12 and 1)."""
    anchors: dict[str, tuple[int, int]] = {}
    y = w = 0
    widest = max(i.size()[0] for i in items)
    rows = -(-sum(i.size()[0] for i in items) // max(limit, widest))
    limit = min(max(limit, widest), -(-len(items) // rows) * widest)
    for line, along, across in _lines(items, limit, False):
        x = 0
        for it in line:
            _put(it, x, y, anchors)
            x += it.size()[0]
        y += across
        w = max(w, along)
    return Block(name, role, anchors, w, y, [i.ref for i in items])


def _loose_blocks(loose: list[Item]) -> list[Block]:
    """Passives that serve no host, in blocks of parts joined by signal nets (a row each)."""
    out: list[Block] = []
    left = list(loose)
    while left:
        group = [left.pop(0)]
        grew = True
        while grew:
            grew = False
            for p in list(left):
                if any(p.signals & g.signals for g in group):
                    group.append(p)
                    left.remove(p)
                    grew = True
        anchors: dict[str, tuple[int, int]] = {}
        x = h = 0
        for it in group:
            _put(it, x, 0, anchors)
            w, ih = it.size()
            x += w
            h = max(h, ih)
        out.append(Block(group[0].ref, "loose", anchors, x, h, [g.ref for g in group]))
    return out


def blocks_of(items: list[Item]) -> list[Block]:
    """The blocks of ``items`` in drawing order (see the module), connectors' with role
    ``input`` or ``output``."""
    groups, decoupling, loose = _group(items)
    ics = [i for i in items if i.kind == "ic"]
    regulators = [i for i in ics if i.nets and not i.signals]
    reg_nets = {n for r in regulators for n in (r.power_in or r.nets) if not _ground(n)}
    out: list[Block] = []
    for ic in regulators + sorted((i for i in ics if i not in regulators), key=lambda i: -len(i.pins)):
        b = _cluster(ic, groups[ic.key])
        b.role = "power" if ic in regulators else "ic"
        out.append(b)
        if decoupling.get(ic.key):  # a row (or a few) of capacitors beside it
            caps = decoupling[ic.key]
            if len(caps) <= 2:  # a capacitor or two: in the cluster, below
                b = _cluster(ic, {**groups[ic.key], (0, 1): groups[ic.key].get((0, 1), []) + caps})
                b.role = out[-1].role
                out[-1] = b
            else:
                out.append(_row_block(f"{ic.ref} decoupling", b.role, caps, max(b.w, WRAP_MIN)))
    out += _loose_blocks(loose)
    for c in (i for i in items if i.kind == "connector"):
        b = _cluster(c, groups[c.key])
        name = (c.symbol.split(":")[-1] + " " + c.ref).upper()
        feeds = (c.nets - {n for n in c.nets if _ground(n)}) & reg_nets
        b.role = "input" if any(w in name for w in INPUT_WORDS) or c.ref.upper().startswith("USB") or feeds else "output"
        out.append(b)
    return out


def _columns(blocks: list[Block], x: int, top: int, bottom: int, inward: int) -> tuple[list, int] | None:
    """Blocks stacked down from (x, top), a new column further ``inward`` (+1 right,
    -1 left; x is the outer edge) when one reaches ``bottom``: ((block, x, y)...,
    the inner edge), or None when a block is taller than the space."""
    placed, col_w, y = [], 0, top
    for b in blocks:
        if b.h > bottom - top:
            return None
        if y + b.h > bottom:
            x += inward * col_w
            y, col_w = top, 0
        placed.append((b, x if inward > 0 else x - b.w, y))
        y += b.h
        col_w = max(col_w, b.w)
    return placed, x + inward * col_w


def _free(box: tuple[int, int, int, int], taken: list[tuple[int, int, int, int]]) -> bool:
    return not any(box[0] < t[2] and t[0] < box[2] and box[1] < t[3] and t[1] < box[3] for t in taken)


def _pack(blocks: list[Block], paper: str) -> list[tuple[Block, int, int]] | None:
    """Positions (top-left, nm) of ``blocks`` on ``paper``, or None if they do not fit:
    input connectors down the left edge, outputs down the right (above the title
    block), the rest in the middle, each block in turn at the highest, then leftmost,
    free spot (beside or below those placed: a grid of blocks, not a column)."""
    a = drawing_area(paper)
    tb = title_block(paper)
    inputs = [b for b in blocks if b.role == "input"]
    outputs = [b for b in blocks if b.role == "output"]
    middle = [b for b in blocks if b.role not in ("input", "output")]
    lcol = _columns(inputs, a[0], a[1], a[3], 1)
    rcol = _columns(outputs, a[2], a[1], tb[1], -1)
    if lcol is None or rcol is None:
        return None
    placed = lcol[0] + rcol[0]
    x0, x1 = _up(lcol[1]), rcol[1] // PITCH * PITCH
    taken = [tb] + [(x, y, x + b.w, y + b.h) for b, x, y in placed]
    for b in middle:
        xs = {x0} | {t[2] for t in taken if x0 <= t[2] < x1}
        ys = {a[1]} | {t[3] for t in taken if a[1] <= t[3] < a[3]}
        spots = sorted((y, x) for x in xs for y in ys if x + b.w <= x1 and y + b.h <= a[3])
        spot = next(((x, y) for y, x in spots if _free((x, y, x + b.w, y + b.h), taken)), None)
        if spot is None:
            return None
        placed.append((b, *spot))
        taken.append((spot[0], spot[1], spot[0] + b.w, spot[1] + b.h))
    return placed


def arrange(items: list[Item]) -> Arrangement:
    """Anchors (nm) for ``items`` keyed by ``Item.key`` and the paper they fit (see the
    module). When they fit on no paper up to A0 they are packed on A0 in one grid
    and ``fits`` is False (the caller says so)."""
    blocks = blocks_of(items)
    area = sum(b.w * b.h for b in blocks)
    placed, paper = None, ORDER[-1]
    for name in ORDER:
        a, tb = drawing_area(name), title_block(name)
        room = (a[2] - a[0]) * (a[3] - a[1]) - (tb[2] - tb[0]) * (tb[3] - tb[1])
        if area > room:
            continue
        middle = [b for b in blocks if b.role not in ("input", "output")]
        power = [b for b in middle if b.role == "power"]
        rest = [b for b in middle if b.role != "power"]
        for order in (blocks, power + sorted(rest, key=lambda b: -b.h), sorted(middle, key=lambda b: -b.h),
                      sorted(middle, key=lambda b: -b.w * b.h)):
            # in drawing order; else the power blocks then the tallest first, the tallest, the largest
            placed = _pack([b for b in blocks if b not in middle] + [b for b in order if b in middle], name)
            if placed is not None:
                break
        if placed is not None:
            paper = name
            break
    fits = placed is not None
    if placed is None:  # too big even for A0: a grid from the top-left, reported as not fitting
        a = drawing_area(paper)
        placed, x, y, row_h = [], a[0], a[1], 0
        for b in blocks:
            if x + b.w > a[2] and x > a[0]:
                x, y, row_h = a[0], y + row_h, 0
            placed.append((b, x, y))
            x, row_h = x + b.w, max(row_h, b.h)
    anchors: dict[str, tuple[int, int]] = {}
    boxes = []
    for b, bx, by in placed:
        for key, (ax, ay) in b.anchors.items():
            anchors[key] = (_snap(bx + ax), _snap(by + ay))
        boxes.append((b.name, b.role, b.refs, (bx, by, bx + b.w, by + b.h)))
    return Arrangement(anchors, paper, boxes, fits)
