"""Arranging symbols on a sheet readably, before they are connected (sch.connect).

Connectors stand at the sides (the first half on the left, the rest on the right), ICs
in a middle column, and each passive beside the IC pin it serves: a passive goes with
the IC it shares most signal nets with (else the IC with a power pin on its net), on
the side that pin points to, stacked outward. Passives that serve no IC form a row
below, in rows as wide as the columns above. Each symbol's box is its pins' box plus room for the labels and power symbols
sch.connect will draw (the longest net name on that side, the stub, a margin), so the
arrangement leaves space for them. Anchors are on the 100 mil (2.54 mm) grid.

Coordinates integer nanometres, y down; pins are given relative to the anchor with
their outward direction (a unit step), as documents/schematic/extent gives them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MM = 1_000_000
PITCH = 2_540_000
CHAR = int(0.8 * 1.27 * MM)
MARGIN = 3 * PITCH
CONNECTOR_PREFIXES = ("J", "P", "CN", "USB")
ROW_MIN = 150 * MM  # the narrowest row of passives that serve no IC


@dataclass
class Item:
    """A symbol unit to place: key (``U1`` or ``U1:2``), reference, pins as
    (net or None, relative position, outward step)."""

    key: str
    ref: str
    pins: list[tuple[str | None, tuple[int, int], tuple[int, int]]]
    power: set[str] = field(default_factory=set)

    @property
    def kind(self) -> str:
        letters = self.ref.rstrip("0123456789")
        if letters.startswith(CONNECTOR_PREFIXES):
            return "connector"
        return "ic" if len(self.pins) > 4 or letters == "U" else "passive"

    def box(self) -> tuple[int, int, int, int]:
        """Pins' box plus room on each side for what is drawn at its pins."""
        xs = [p[1][0] for p in self.pins] or [0]
        ys = [p[1][1] for p in self.pins] or [0]
        x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
        room = {(-1, 0): 0, (1, 0): 0, (0, -1): 0, (0, 1): 0}
        for net, _, out in self.pins:
            if net is None:
                continue
            need = (2 * PITCH + 5 * PITCH // 2) if net in self.power else 2 * PITCH + len(net) * CHAR
            room[out] = max(room.get(out, 0), need)
        return (x1 - max(room[(-1, 0)], PITCH) - MARGIN, y1 - max(room[(0, -1)], PITCH) - MARGIN,
                x2 + max(room[(1, 0)], PITCH) + MARGIN, y2 + max(room[(0, 1)], PITCH) + MARGIN)


def _snap(v: int) -> int:
    return round(v / PITCH) * PITCH


def _stack(items: list[Item], x: int, y: int, down: bool, out: dict) -> tuple[int, int]:
    """Place ``items`` from (x, y) (their boxes' top-left corner) down a column or
    across a row; returns the (width, height) used."""
    w = h = 0
    for it in items:
        b = it.box()
        bw, bh = b[2] - b[0], b[3] - b[1]
        out[it.key] = (_snap(x - b[0] + (0 if down else w)), _snap(y - b[1] + (h if down else 0)))
        if down:
            h += bh
            w = max(w, bw)
        else:
            w += bw
            h = max(h, bh)
    return w, h


def _serves(passive: Item, ics: list[Item]) -> tuple[Item, tuple[int, int]] | None:
    """The IC a passive serves and the direction of the IC pin it shares."""
    nets = {n for n, _, _ in passive.pins if n}
    best, score, side = None, 0, (1, 0)
    for ic in ics:
        shared = [(n, out) for n, _, out in ic.pins if n in nets]
        signal = [s for s in shared if s[0] not in ic.power]
        s = 10 * len(signal) + len(shared)
        if s > score:
            best, score, side = ic, s, (signal or shared)[0][1]
    return (best, side) if best is not None else None


def arrange(items: list[Item], origin: tuple[int, int] = (25_400_000, 25_400_000)) -> dict[str, tuple[int, int]]:
    """Anchors (nm) for ``items`` keyed by ``Item.key``."""
    out: dict[str, tuple[int, int]] = {}
    connectors = [i for i in items if i.kind == "connector"]
    ics = [i for i in items if i.kind == "ic"]
    passives = [i for i in items if i.kind == "passive"]
    groups: dict[str, dict[tuple[int, int], list[Item]]] = {ic.key: {} for ic in ics}
    loose = []
    for p in passives:
        found = _serves(p, ics)
        if found is None:
            loose.append(p)
        else:
            groups[found[0].key].setdefault(found[1], []).append(p)
    left, right = connectors[: (len(connectors) + 1) // 2], connectors[(len(connectors) + 1) // 2:]
    x, y = origin
    lw, lh = _stack(left, x, y, True, out)
    x += lw
    top = y
    width = 0
    for ic in ics:
        sides = groups[ic.key]
        tmp: dict = {}
        lw2, lh2 = _stack(sides.get((-1, 0), []), 0, 0, True, tmp)
        uw, uh = _stack(sides.get((0, -1), []), 0, 0, False, tmp)
        b = ic.box()
        icw, ich = b[2] - b[0], b[3] - b[1]
        # the cluster: left column | (row above, IC, row below) | right column
        _stack(sides.get((-1, 0), []), x, top, True, out)
        cx = x + lw2
        _stack(sides.get((0, -1), []), cx, top, False, out)
        _stack([ic], cx, top + uh, True, out)
        dw, dh = _stack(sides.get((0, 1), []), cx, top + uh + ich, False, out)
        rw, rh = _stack(sides.get((1, 0), []), cx + max(icw, uw, dw), top, True, out)
        cw = lw2 + max(icw, uw, dw) + rw
        top += max(lh2, uh + ich + dh, rh)
        width = max(width, cw)
    x += width
    rw, rh = _stack(right, x, y, True, out)
    bottom = max(y + lh, top, y + rh)
    row: list[Item] = []
    for it in loose + [None]:  # rows no wider than the columns above (at least ROW_MIN)
        if it is not None:
            b = it.box()
            used = sum(r.box()[2] - r.box()[0] for r in row)
            if not row or used + b[2] - b[0] <= max(x + rw - origin[0], ROW_MIN):
                row.append(it)
                continue
        _, h = _stack(row, origin[0], bottom, False, out)
        bottom += h
        row = [it] if it is not None else []
    return out
