"""Land patterns from package descriptions: IPC-7351B nominal (density level B) pads
for chips, SOIC, SOT-23 and QFN, KiCad's library conventions for pin headers and
castellated modules; with the courtyard, silkscreen and fabrication outlines KiCad's
library rules (KLC) ask for. All lengths in mm, x right, y down, origin at the
package's centre (pin 1 for pin headers, as KiCad's library does).

The pad formulas are IPC-7351B's (section 3.1.4, the same as KiCad's footprint
generator, kicad-footprint-generator ``ipc_pad_size_calculators``)::

    Z = Lmin + 2 Jt + sqrt(Ltol² + F² + P²)                      outer pad edges
    G = Smax,rms - 2 Jh - sqrt(Stol,rms² + F² + P²)              inner pad edges
    X = Wmin + 2 Js + sqrt(Wtol² + F² + P²)                      pad width
    S = L - 2 T;  Stol,rms = sqrt(Ltol² + 2 Ttol²);  Smax,rms = Smax - (Stol - Stol,rms) / 2

with L the terminal span (toe to toe), T the terminal length, W the terminal width
(each min/max from the package standard), F = 0.10 mm fabrication and P = 0.05 mm
placement tolerance (KiCad's generator defaults), Jt/Jh/Js the toe, heel and side
solder fillet goals of IPC-7351B's table for the package family at level B. Pad
sizes are rounded to 0.01 mm and positions to 0.005 mm; pads of different numbers stay
at least `PAD_GAP` apart (KiCad's default copper clearance), so a board using them
passes KiCad's DRC.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

F_TOL = 0.10  # fabrication tolerance, mm (kicad-footprint-generator's IPC default)
P_TOL = 0.05  # placement tolerance, mm (idem)
PAD_GAP = 0.2  # copper gap kept between pads: KiCad's default board clearance
SILK_WIDTH = 0.12  # KLC F5.1: silkscreen 0.12 mm
SILK_OFFSET = 0.11  # KLC F5.1: silkscreen 0.11 mm outside the body
SILK_PAD_GAP = 0.2  # KLC F5.1: silkscreen 0.2 mm from pads (plus half its width)
FAB_WIDTH = 0.10  # KLC F5.2: fabrication outline 0.10 mm
COURTYARD_WIDTH = 0.05  # KLC F5.3: courtyard 0.05 mm, on a 0.01 mm grid


@dataclass(frozen=True)
class Fillets:
    """IPC-7351B solder fillet goals at density level B (nominal), mm, and the
    courtyard excess of the package family."""

    toe: float
    heel: float
    side: float
    courtyard: float = 0.25
    source: str = ""


# IPC-7351B Table 3-5 (rectangular or square-end chip components, 1608/0603 and up),
# Table 3-6 (smaller than 1608), Table 3-2 (gull-wing leads, pitch over 0.625 mm),
# Table 3-15 (quad flat no-lead, QFN): level B.
CHIP = Fillets(0.35, 0.0, 0.0, 0.25, "IPC-7351B Table 3-5, level B")
CHIP_SMALL = Fillets(0.20, 0.0, 0.0, 0.15, "IPC-7351B Table 3-6, level B")
GULL_WING = Fillets(0.35, 0.35, 0.03, 0.25, "IPC-7351B Table 3-2, level B")
NO_LEAD = Fillets(0.30, 0.0, -0.04, 0.25, "IPC-7351B Table 3-15, level B")
# KiCad's library (KLC F5.3) keeps 0.5 mm courtyards for connectors and modules.
CONNECTOR_COURTYARD = 0.5


@dataclass(frozen=True)
class Dim:
    """A package dimension: minimum and maximum, mm."""

    min: float
    max: float

    @property
    def tol(self) -> float:
        return self.max - self.min

    @property
    def nom(self) -> float:
        return (self.min + self.max) / 2


def nominal(value: float, tol: float) -> Dim:
    return Dim(value - tol, value + tol)


@dataclass
class Pad:
    number: str
    kind: str  # "smd" or "thru_hole"
    shape: str  # "roundrect", "rect", "circle", "oval"
    x: float
    y: float
    w: float
    h: float
    drill: float | None = None

    def box(self) -> tuple[float, float, float, float]:
        return (self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2, self.y + self.h / 2)


@dataclass
class LandPattern:
    """A footprint's geometry and what its docstring says of it."""

    name: str
    description: str
    tags: str
    smd: bool
    pads: list[Pad]
    body: tuple[float, float, float, float]  # x1, y1, x2, y2 of the package outline
    courtyard_excess: float
    pin1_chamfer: bool = True
    sources: list[str] = field(default_factory=list)
    silk: list[tuple[float, float, float, float]] = field(default_factory=list)
    fab: list[tuple[float, float]] = field(default_factory=list)  # closed polygon
    courtyard: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


def _r(v: float, step: float) -> float:
    return round(round(v / step) * step, 6)


def ipc_pads(span: Dim, term: Dim, width: Dim, fillets: Fillets) -> tuple[float, float, float]:
    """(Z, G, X): outer edge-to-edge, inner edge-to-edge and width of a pair of pads
    (IPC-7351B, see the module)."""
    z = span.min + 2 * fillets.toe + math.sqrt(span.tol ** 2 + F_TOL ** 2 + P_TOL ** 2)
    s_min, s_max = span.min - 2 * term.max, span.max - 2 * term.min
    s_tol = s_max - s_min
    s_tol_rms = math.sqrt(span.tol ** 2 + 2 * term.tol ** 2)
    s_max_rms = s_max - (s_tol - s_tol_rms) / 2
    g = s_max_rms - 2 * fillets.heel - math.sqrt(s_tol_rms ** 2 + F_TOL ** 2 + P_TOL ** 2)
    x = width.min + 2 * fillets.side + math.sqrt(width.tol ** 2 + F_TOL ** 2 + P_TOL ** 2)
    return z, max(g, 0.0), x


def _pad_row(z: float, g: float) -> tuple[float, float]:
    """(centre distance from the middle, length) of the pads whose outer edges are Z
    apart and inner edges G apart."""
    length = _r((z - g) / 2, 0.01)
    return _r((z + g) / 4, 0.005), length


# -- chip components -----------------------------------------------------------------

# EIA size -> (metric name, body length L, width W, terminal length T) as (nominal,
# tolerance) mm: thick-film chip resistors, Yageo RC series datasheet (RC0402: 1.00±0.05,
# 0.50±0.05, 0.25±0.10; RC0603: 1.60±0.10, 0.80±0.10, 0.25±0.10; RC0805: 2.00±0.10,
# 1.25±0.10, 0.35±0.20; RC1206: 3.10±0.10, 1.60±0.10, 0.45±0.20), which are the EIA
# (IEC 60115-8) outlines.
CHIPS = {
    "0402": ("1005Metric", (1.00, 0.05), (0.50, 0.05), (0.25, 0.10)),
    "0603": ("1608Metric", (1.60, 0.10), (0.80, 0.10), (0.25, 0.10)),
    "0805": ("2012Metric", (2.00, 0.10), (1.25, 0.10), (0.35, 0.20)),
    "1206": ("3216Metric", (3.10, 0.10), (1.60, 0.10), (0.45, 0.20)),
}


def chip(size: str, prefix: str = "Chip") -> LandPattern:
    """Two-terminal chip (resistor, capacitor, inductor) ``size`` ("0402", "0603",
    "0805", "1206"; `CHIPS`): pads by IPC-7351B Table 3-5 (3-6 for 0402), level B."""
    metric, (ln, lt), (wn, wt), (tn, tt) = CHIPS[size]
    fillets = CHIP_SMALL if size == "0402" else CHIP
    z, g, x = ipc_pads(nominal(ln, lt), nominal(tn, tt), nominal(wn, wt), fillets)
    at, length = _pad_row(z, g)
    width = _r(x, 0.01)
    pads = [Pad("1", "smd", "roundrect", -at, 0, length, width), Pad("2", "smd", "roundrect", at, 0, length, width)]
    return LandPattern(f"{prefix}_{size}_{metric}",
                       f"{prefix} SMD {size} ({metric.removesuffix('Metric')} metric), body {ln}x{wn} mm; "
                       f"IPC-7351B nominal land pattern generated by boardwire",
                       f"{prefix.lower()} {size}", True, pads, (-ln / 2, -wn / 2, ln / 2, wn / 2), fillets.courtyard,
                       pin1_chamfer=False,
                       sources=[f"body: EIA {size} / Yageo RC{size} datasheet", f"fillets: {fillets.source}"])


# -- gull-wing: SOIC, SOT-23 ---------------------------------------------------------

# JEDEC MS-012 (SOIC, 3.9 mm body, 1.27 mm pitch): E (lead span) 5.80-6.20, E1 (body
# width) 3.80-4.00, L (lead length) 0.40-1.27, b (lead width) 0.31-0.51, D (body
# length) by pin count: AA 8: 4.90, AB 14: 8.65, AC 16: 9.90 (±0.10).
SOIC_LENGTH = {8: 4.90, 14: 8.65, 16: 9.90}


def _dual_row(n: int, pitch: float, at: float, length: float, width: float, left: list[int] | None = None,
              right: list[int] | None = None) -> list[Pad]:
    """Pads of two rows of ``n`` pads, numbered counter-clockwise from the top left
    (``left``/``right``: the pad numbers of each row's positions, top to bottom, when
    a row has gaps: SOT-23)."""
    half = n // 2
    left = left or list(range(1, half + 1))
    right = right or list(range(n, half, -1))
    pads = []
    for rows, x in ((left, -at), (right, at)):
        count = len(rows)
        for i, number in enumerate(rows):
            if number is None:
                continue
            y = _r((i - (count - 1) / 2) * pitch, 0.005)
            pads.append(Pad(str(number), "smd", "roundrect", x, y, length, width))
    return sorted(pads, key=lambda p: int(p.number))


def soic(pins: int) -> LandPattern:
    """SOIC-``pins`` (8, 14, 16), 3.9 mm body, 1.27 mm pitch, JEDEC MS-012: pads by
    IPC-7351B Table 3-2 (gull-wing), level B."""
    length = SOIC_LENGTH[pins]
    z, g, x = ipc_pads(Dim(5.80, 6.20), Dim(0.40, 1.27), Dim(0.31, 0.51), GULL_WING)
    at, plen = _pad_row(z, g)
    pads = _dual_row(pins, 1.27, at, plen, _r(x, 0.01))
    return LandPattern(f"SOIC-{pins}_3.9x{length}mm_P1.27mm",
                       f"SOIC, {pins} pins, body 3.9x{length} mm, pitch 1.27 mm (JEDEC MS-012); "
                       "IPC-7351B nominal land pattern generated by boardwire",
                       "SOIC SO", True, pads, (-1.95, -length / 2, 1.95, length / 2), GULL_WING.courtyard,
                       sources=["body, leads: JEDEC MS-012", f"fillets: {GULL_WING.source}"])


# JEDEC TO-236 (SOT-23, 3 pins): E 2.10-2.64, E1 1.20-1.40, D 2.80-3.04, L 0.30-0.60,
# b 0.30-0.50, pitch 0.95 (1.90 between the outer pins); MO-178 (SOT-23-5, -6): E
# 2.60-3.00, E1 1.50-1.70, D 2.80-3.00, L 0.30-0.60, b 0.30-0.50, pitch 0.95.
SOT23 = {3: (Dim(2.10, 2.64), 1.30, 2.92, "JEDEC TO-236"), 5: (Dim(2.60, 3.00), 1.60, 2.90, "JEDEC MO-178"),
         6: (Dim(2.60, 3.00), 1.60, 2.90, "JEDEC MO-178")}


def sot23(pins: int) -> LandPattern:
    """SOT-23 (3 pins: 1, 2 on the left, 3 on the right), SOT-23-5 (1-3 left, 4-5
    right) and SOT-23-6 (1-3 left, 4-6 right), pitch 0.95 mm, JEDEC TO-236 / MO-178:
    pads by IPC-7351B Table 3-2 (gull-wing), level B."""
    span, e1, d, standard = SOT23[pins]
    z, g, x = ipc_pads(span, Dim(0.30, 0.60), Dim(0.30, 0.50), GULL_WING)
    at, plen = _pad_row(z, g)
    if pins == 3:
        pads = _dual_row(3, 0.95, at, plen, _r(x, 0.01), left=[1, None, 2], right=[None, 3, None])
    elif pins == 5:
        pads = _dual_row(5, 0.95, at, plen, _r(x, 0.01), left=[1, 2, 3], right=[5, None, 4])
    else:
        pads = _dual_row(6, 0.95, at, plen, _r(x, 0.01))
    name = "SOT-23" if pins == 3 else f"SOT-23-{pins}"
    return LandPattern(name, f"{name}, {pins} pins, body {e1}x{d} mm, pitch 0.95 mm ({standard}); "
                       "IPC-7351B nominal land pattern generated by boardwire",
                       "SOT-23 SOT", True, pads, (-e1 / 2, -d / 2, e1 / 2, d / 2), GULL_WING.courtyard,
                       sources=[f"body, leads: {standard}", f"fillets: {GULL_WING.source}"])


# -- QFN -------------------------------------------------------------------------------

# JEDEC MO-220 (QFN): body D/E ±0.10; terminal length L 0.30-0.50; terminal width b by
# pitch: 0.65 mm: 0.25-0.35, 0.5 mm: 0.18-0.30, 0.4 mm: 0.15-0.25.
QFN_WIDTH = {0.65: Dim(0.25, 0.35), 0.5: Dim(0.18, 0.30), 0.4: Dim(0.15, 0.25)}


def qfn(pins: int, body: float, pitch: float, exposed: float, terminal: Dim | None = None) -> LandPattern:
    """QFN-``pins`` (a multiple of 4) on a ``body`` mm square, ``pitch`` 0.4/0.5/0.65
    mm, exposed pad ``exposed`` mm square (pad ``pins + 1``), JEDEC MO-220 terminals:
    pads by IPC-7351B Table 3-15, level B; the inner pad ends kept `PAD_GAP` from the
    exposed pad (as KiCad's generator does). ValueError when the pins do not fit."""
    per = pins // 4
    term = terminal or Dim(0.30, 0.50)
    z, g, x = ipc_pads(nominal(body, 0.10), term, QFN_WIDTH[pitch], NO_LEAD)
    x = min(x, pitch - PAD_GAP)
    # inner ends: PAD_GAP from the exposed pad, and from the corner pads of the next side
    g = max(g, exposed + 2 * PAD_GAP, 2 * ((per - 1) / 2 * pitch + _r(x, 0.01) / 2 + PAD_GAP / math.sqrt(2)) + 0.01)
    at, plen = _pad_row(z, g)
    width = _r(x, 0.01)
    if plen <= 0 or (per - 1) * pitch + width > body:
        raise ValueError(f"{pins} pins at {pitch} mm do not fit a {body} mm body with a {exposed} mm exposed pad")
    pads, n = [], 1
    offsets = [_r((i - (per - 1) / 2) * pitch, 0.005) for i in range(per)]
    for side in range(4):  # counter-clockwise from the top of the left side
        for off in offsets:
            px, py, w, h = {0: (-at, off, plen, width), 1: (off, at, width, plen),
                            2: (at, -off, plen, width), 3: (-off, -at, width, plen)}[side]
            pads.append(Pad(str(n), "smd", "roundrect", px, py, w, h))
            n += 1
    pads.append(Pad(str(n), "smd", "rect", 0.0, 0.0, exposed, exposed))
    name = f"QFN-{pins}-1EP_{body:g}x{body:g}mm_P{pitch:g}mm_EP{exposed:g}x{exposed:g}mm"
    return LandPattern(name, f"QFN, {pins} pins, body {body:g}x{body:g} mm, pitch {pitch:g} mm, exposed pad "
                       f"{exposed:g} mm (JEDEC MO-220); IPC-7351B nominal land pattern generated by boardwire",
                       "QFN DFN NoLead", True, pads, (-body / 2, -body / 2, body / 2, body / 2), NO_LEAD.courtyard,
                       sources=["terminals: JEDEC MO-220", f"fillets: {NO_LEAD.source}",
                                f"pad to exposed pad: {PAD_GAP} mm (KiCad's default clearance)"])


# -- pin headers, castellated modules ----------------------------------------------------

HEADER_PAD = 1.7  # KiCad's Connector_PinHeader_2.54mm: 1.7 mm pads,
HEADER_DRILL = 1.0  # 1.0 mm holes (0.64 mm square posts: IPC-2222 hole = lead diagonal + 0.1)


def pin_header(rows: int, pins: int) -> LandPattern:
    """A ``rows`` x ``pins`` (1xN or 2xN) 2.54 mm pin header, vertical: pin 1 at the
    origin (square pad), pins down the y axis, the second row at x = 2.54, odd numbers
    in the first row (KiCad's Connector_PinHeader_2.54mm conventions: 1.7 mm pads,
    1.0 mm drills, 0.5 mm courtyard)."""
    pitch = 2.54
    pads = []
    for i in range(pins):
        for r in range(rows):
            number = i * rows + r + 1
            shape = "rect" if number == 1 else "oval"
            pads.append(Pad(str(number), "thru_hole", shape, r * pitch, i * pitch, HEADER_PAD, HEADER_PAD,
                            HEADER_DRILL))
    pads.sort(key=lambda p: int(p.number))
    body = (-pitch / 2, -pitch / 2, (rows - 0.5) * pitch, (pins - 0.5) * pitch)
    name = f"PinHeader_{rows}x{pins:02d}_P2.54mm_Vertical"
    return LandPattern(name, f"Through hole pin header, {rows}x{pins:02d}, 2.54 mm pitch, single row"
                       if rows == 1 else f"Through hole pin header, {rows}x{pins:02d}, 2.54 mm pitch, double rows",
                       f"Through hole pin header THT {rows}x{pins:02d} 2.54mm", False, pads, body,
                       CONNECTOR_COURTYARD, sources=["pads, drills, courtyard: KiCad's Connector_PinHeader_2.54mm"])


def castellated_module(width: float, length: float, pitch: float, left: int, bottom: int, right: int,
                       top: int = 0, pad: tuple[float, float] = (1.5, 0.9)) -> LandPattern:
    """A module soldered by castellated (half-hole) edge pads: a ``width`` x ``length``
    mm body, ``left``/``bottom``/``right``/``top`` pads per side at ``pitch``, numbered
    counter-clockwise from the top of the left side, each pad ``pad`` mm (length across
    the edge, width along it) centred on the module's edge, half under the module, half
    outside for the solder fillet (as module makers' recommended land patterns: ESP-12F,
    RP2040 Pico). 0.5 mm courtyard. ValueError when a side's pads do not fit."""
    plen, pw = pad
    pads, n = [], 1
    for side, count in enumerate((left, bottom, right, top)):
        span = length if side in (0, 2) else width
        if count and (count - 1) * pitch + pw > span:
            raise ValueError(f"{count} pads at {pitch} mm do not fit a {span} mm side")
        if count and pitch - pw < PAD_GAP:
            raise ValueError(f"pads {pw} mm wide at {pitch} mm pitch are closer than {PAD_GAP} mm")
        for i in range(count):
            off = _r((i - (count - 1) / 2) * pitch, 0.005)
            px, py, w, h = {0: (-width / 2, off, plen, pw), 1: (off, length / 2, pw, plen),
                            2: (width / 2, -off, plen, pw), 3: (-off, -length / 2, pw, plen)}[side]
            pads.append(Pad(str(n), "smd", "rect" if n == 1 else "roundrect", px, py, w, h))
            n += 1
    total = n - 1
    name = f"Module_Castellated_{width:g}x{length:g}mm_P{pitch:g}mm_{total}pads"
    return LandPattern(name, f"Module with {total} castellated edge pads, body {width:g}x{length:g} mm, pitch "
                       f"{pitch:g} mm; land pattern generated by boardwire",
                       "module castellated", True, pads, (-width / 2, -length / 2, width / 2, length / 2),
                       CONNECTOR_COURTYARD, sources=["pads centred on the edge: module makers' land patterns"])


# -- courtyard, silkscreen, fabrication outline ------------------------------------------

def _outward(v: float, step: float = 0.01) -> float:
    return math.floor(v / step + 1e-9) * step if v < 0 else math.ceil(v / step - 1e-9) * step


def _subtract(lo: float, hi: float, cuts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    parts = [(lo, hi)]
    for a, b in cuts:
        parts = [piece for s, e in parts for piece in ((s, min(e, a)), (max(s, b), e)) if piece[1] - piece[0] > 1e-9]
    return parts


def _clipped(p: LandPattern, x1: float, y1: float, x2: float, y2: float) -> list[tuple[float, float, float, float]]:
    """An axis-parallel silkscreen segment with the parts near pads taken out
    (`SILK_PAD_GAP` plus half the line width), pieces shorter than 0.2 mm dropped (slivers between pads)."""
    keep = SILK_PAD_GAP + SILK_WIDTH / 2
    cuts = []
    for pad in p.pads:
        bx1, by1, bx2, by2 = pad.box()
        if y1 == y2 and by1 - keep < y1 < by2 + keep:
            cuts.append((bx1 - keep, bx2 + keep))
        elif x1 == x2 and bx1 - keep < x1 < bx2 + keep:
            cuts.append((by1 - keep, by2 + keep))
    if y1 == y2:
        return [(a, y1, b, y1) for a, b in _subtract(min(x1, x2), max(x1, x2), cuts) if b - a >= 0.2]
    return [(x1, a, x1, b) for a, b in _subtract(min(y1, y2), max(y1, y2), cuts) if b - a >= 0.2]


def check_gaps(p: LandPattern) -> None:
    """ValueError when two pads of different numbers are closer than `PAD_GAP`."""
    for i, a in enumerate(p.pads):
        ax1, ay1, ax2, ay2 = a.box()
        for b in p.pads[i + 1:]:
            if a.number == b.number:
                continue
            bx1, by1, bx2, by2 = b.box()
            dx = max(bx1 - ax2, ax1 - bx2, 0.0)
            dy = max(by1 - ay2, ay1 - by2, 0.0)
            if math.hypot(dx, dy) < PAD_GAP - 1e-6:
                raise ValueError(f"pads {a.number} and {b.number} are {math.hypot(dx, dy):.3f} mm apart, "
                                 f"less than {PAD_GAP} mm")


def finish(p: LandPattern) -> LandPattern:
    """Add the courtyard (body and pads plus the family's excess, on a 0.01 mm grid),
    the fabrication outline (the body, pin 1's corner chamfered by a quarter of its
    smaller side, at most 1 mm) and the silkscreen (the body outline 0.11 mm outside,
    kept clear of pads, the top left line run out to pin 1's pad end as its mark)."""
    check_gaps(p)
    bx1, by1, bx2, by2 = p.body
    xs = [bx1, bx2] + [v for pad in p.pads for v in (pad.box()[0], pad.box()[2])]
    ys = [by1, by2] + [v for pad in p.pads for v in (pad.box()[1], pad.box()[3])]
    e = p.courtyard_excess
    p.courtyard = (_outward(min(xs) - e), _outward(min(ys) - e), _outward(max(xs) + e), _outward(max(ys) + e))
    c = min(1.0, min(bx2 - bx1, by2 - by1) / 4) if p.pin1_chamfer else 0.0
    p.fab = ([(bx1 + c, by1), (bx2, by1), (bx2, by2), (bx1, by2), (bx1, by1 + c)] if c
             else [(bx1, by1), (bx2, by1), (bx2, by2), (bx1, by2)])
    o = SILK_OFFSET
    sx1, sy1, sx2, sy2 = bx1 - o, by1 - o, bx2 + o, by2 + o
    silk = []
    for seg in ((sx1, sy1, sx2, sy1), (sx2, sy1, sx2, sy2), (sx1, sy2, sx2, sy2), (sx1, sy1, sx1, sy2)):
        silk += _clipped(p, *seg)
    if p.pin1_chamfer and p.pads:
        one = next(pad for pad in p.pads if pad.number == "1")
        end = min(one.box()[0], sx1)
        mark_y = min(sy1, one.box()[1] - SILK_PAD_GAP - SILK_WIDTH / 2)
        near_corner = one.box()[1] - by1 < 1.5  # pin 1 is the top of the left side
        if end < sx1 - 0.05 and mark_y == sy1 and near_corner:
            silk += [s for s in _clipped(p, end, sy1, sx1, sy1)]
    p.silk = [tuple(round(v, 4) for v in s) for s in silk]
    return p
