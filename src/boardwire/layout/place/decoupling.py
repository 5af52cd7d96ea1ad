"""Which capacitor decouples which IC pin: the one assignment the placer, its score
and the design verdict use.

A decoupling capacitor is a two-pad part whose reference designator starts with C and
whose pads are on a ground net and on a supply net, both known by their names
(`netlist.net_names`: GND, VSS...; VCC, +3V3, /sheet/VCC_PIC...). It serves one pin
(a pad number, with every pad of that number) of an IC (reference designator U or IC,
three pads or more) with a pad on that supply and one on that ground.

* Given: a caller's map ``{"C5": "U1.33"}`` (capacitor -> REF.PIN) is kept as it is;
  the capacitor must have two pads, one on the pin's net and one on a ground net
  (`explicit_problems` says what is wrong, codes ``unknown-ref``, ``unknown-pin``,
  ``not-decoupling``).
* Small capacitors (value up to `BULK_FARADS`, or no value read) in the natural
  order of references: among the ICs on the capacitor's schematic sheet (else all),
  the pin with the fewest capacitors so far, then the IC with the most pins on that
  supply, then the natural order of references and pin numbers: one capacitor per
  pin before any pin gets two, the IC with most supply pins first. Target: `TARGET_MM`.
* Bulk capacitors (`BULK_FARADS` and more: 4.7 uF, 10 uF...) serve the rail, next to
  its regulator: the IC on that supply with a pin on another supply too (an LDO's
  input or output) and the fewest pins on this one; else the IC with most supply
  pins. They take its first pin on the supply, claim no pin from the small ones, and
  have the looser `BULK_TARGET_MM`.

Distances are pad edge to pad edge (mm): the capacitor's supply pad to the nearest
pad of its pin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import InvalidArgs
from ...netlist.net_names import GROUND_NAME, POWER_NAME
from .problem import Decoupling, Part

TARGET_MM = 2.0        # small capacitor to its pin, pad edge to pad edge
BULK_TARGET_MM = 5.0   # bulk capacitor to its regulator's pin
BULK_FARADS = 4.7e-6

_CAP = re.compile(r"^C\d", re.I)
_IC = re.compile(r"^(?:U|IC)\d", re.I)
_FARADS = re.compile(r"(\d+(?:[.,]\d+)?)\s*([pnuµμ])(\d*)", re.I)
_SCALE = {"p": 1e-12, "n": 1e-9, "u": 1e-6, "µ": 1e-6, "μ": 1e-6}


def natural(ref: str) -> list:
    """Sort key: U2 before U10, pin 2 before pin 10."""
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", ref)]


def farads(value: str) -> float | None:
    """A capacitor's value in farads: ``100n``, ``0.1uF``, ``4u7``, ``10µF 16V``; None
    when it names none."""
    m = _FARADS.search(value or "")
    if not m:
        return None
    whole, unit, frac = m.groups()
    number = float(whole.replace(",", ".") + (f".{frac}" if frac and "." not in whole and "," not in whole else ""))
    return number * _SCALE[unit.lower() if unit not in "µμ" else unit]


@dataclass
class Pads:
    """A footprint as the assignment reads it: reference, pad numbers and their net
    names ("" for none; None: not known, as a design's hidden pin, not checked by
    `explicit_problems`), schematic sheet, value."""

    ref: str
    numbers: list[str]
    nets: list[str | None]
    sheet: str = ""
    value: str = ""


@dataclass
class Assignment:
    """Capacitor ``cap`` (its pad ``cap_pad`` on ``net``) serves pin ``pin`` of ``ic``
    (its pads ``ic_pads``, indices into the IC's pads); ``bulk``: a rail's bulk
    capacitor; ``given``: from the caller's map."""

    cap: str
    cap_pad: int
    ic: str
    pin: str
    ic_pads: list[int]
    net: str
    bulk: bool = False
    given: bool = False

    @property
    def target_mm(self) -> float:
        return BULK_TARGET_MM if self.bulk else TARGET_MM

    @property
    def label(self) -> str:
        return f"{self.ic}.{self.pin}"


def _ground(net: str) -> bool:
    return bool(net) and bool(GROUND_NAME.search(net))


def _supply(net: str) -> bool:
    return bool(net) and bool(POWER_NAME.search(net)) and not _ground(net)


def explicit_problems(parts: list[Pads], explicit: dict[str, str]) -> list[tuple[str, str, str]]:
    """What is wrong with a caller's map (capacitor -> REF.PIN): (code, capacitor,
    message) per entry, codes ``unknown-ref`` (no such capacitor or IC),
    ``unknown-pin`` (no pad of that number) and ``not-decoupling`` (the capacitor is
    not a two-pad part between that pin's net and a ground net)."""
    by_ref = {p.ref: p for p in parts}
    out = []
    for cap, target in sorted(explicit.items(), key=lambda kv: natural(kv[0])):
        ref, _, number = target.partition(".")
        if cap not in by_ref:
            out.append(("unknown-ref", cap, f"decouple {cap}: no component {cap}"))
            continue
        if ref not in by_ref:
            out.append(("unknown-ref", cap, f"decouple {cap}: {target} names no component {ref}"))
            continue
        ic = by_ref[ref]
        if number not in ic.numbers:
            out.append(("unknown-pin", cap, f"decouple {cap}: {ref} has no pin {number!r}"))
            continue
        net = ic.nets[ic.numbers.index(number)]
        if net is None:
            continue  # not known here (a hidden pin the build connects): not checked
        c = by_ref[cap]
        nets = sorted(set(c.nets))
        if not net or _ground(net) or len(c.numbers) != 2 or net not in c.nets or not any(_ground(n) for n in c.nets):
            out.append(("not-decoupling", cap,
                        f"decouple {cap}: {cap} (nets {', '.join(n or 'none' for n in nets)}) is not between "
                        f"{target}'s net {net or '(none)'} and a ground net"))
    return out


def assign(parts: list[Pads], explicit: dict[str, str] | None = None) -> list[Assignment]:
    """Every decoupling capacitor's pin (see the module), in the natural order of the
    capacitors' references. Raises InvalidArgs (errors per entry: loc ``decouple.REF``)
    for a map `explicit_problems` finds wrong."""
    explicit = explicit or {}
    problems = explicit_problems(parts, explicit)
    if problems:
        raise InvalidArgs(problems[0][2] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                          errors=[{"loc": f"decouple.{cap}", "msg": msg, "type": code} for code, cap, msg in problems],
                          hint="Map a two-pad capacitor between a pin's supply and ground to that pin: {\"C5\": \"U1.33\"}.")
    by_ref = {p.ref: p for p in parts}
    claims: dict[tuple[str, str], int] = {}
    out: list[Assignment] = []

    def pads_of(ic: Pads, number: str) -> list[int]:
        return [k for k, n in enumerate(ic.numbers) if n == number]

    def value_bulk(c: Pads) -> bool:
        f = farads(c.value)
        return f is not None and f >= BULK_FARADS * 0.999

    for cap, target in explicit.items():
        c, (ref, _, number) = by_ref[cap], target.partition(".")
        ic = by_ref[ref]
        net = ic.nets[ic.numbers.index(number)]
        bulk = value_bulk(c)
        if not bulk:
            claims[(ref, number)] = claims.get((ref, number), 0) + 1
        out.append(Assignment(cap, c.nets.index(net), ref, number, pads_of(ic, number), net, bulk, True))
    ics = [p for p in parts if _IC.match(p.ref) and len(p.numbers) >= 3]
    caps = sorted((p for p in parts if _CAP.match(p.ref) and len(p.numbers) == 2 and p.ref not in explicit),
                  key=lambda p: natural(p.ref))
    for c in caps:
        ground = [k for k, n in enumerate(c.nets) if _ground(n)]
        if len(ground) != 1:
            continue
        k = 1 - ground[0]
        supply, gnd = c.nets[k], c.nets[ground[0]]
        if not _supply(supply):
            continue  # a filter or timing capacitor, not a supply's
        candidates = [i for i in ics if supply in i.nets and gnd in i.nets]
        if not candidates:
            continue
        pool = [i for i in candidates if i.sheet == c.sheet] or candidates
        pins = {i.ref: sorted({n for n, net in zip(i.numbers, i.nets) if net == supply}, key=natural) for i in pool}
        bulk = value_bulk(c)
        if bulk:
            regulators = [i for i in pool if any(_supply(n) and n != supply for n in i.nets)]
            if regulators:
                ic = min(regulators, key=lambda i: (len(pins[i.ref]), natural(i.ref)))
            else:
                ic = min(pool, key=lambda i: (-len(pins[i.ref]), natural(i.ref)))
            number = pins[ic.ref][0]
        else:
            ic, number = min(((i, n) for i in pool for n in pins[i.ref]),
                             key=lambda t: (claims.get((t[0].ref, t[1]), 0), -len(pins[t[0].ref]),
                                            natural(t[0].ref), natural(t[1])))
            claims[(ic.ref, number)] = claims.get((ic.ref, number), 0) + 1
        out.append(Assignment(c.ref, k, ic.ref, number, pads_of(ic, number), supply, bulk))
    return sorted(out, key=lambda a: natural(a.cap))


def part_pads(part: Part, nets: list[str]) -> Pads:
    """A placer's part as the assignment reads it."""
    numbers = part.pad_numbers or [str(k + 1) for k in range(len(part.pad_nets))]
    return Pads(part.ref, list(numbers), [nets[n] if n >= 0 else "" for n in part.pad_nets], part.sheet, part.value)


def find_decoupling(parts: list[Part], nets: list[str], explicit: dict[str, str] | None = None) -> list[Decoupling]:
    """`assign` over the placer's parts, as the problem's `Decoupling` entries (part
    indices; targets in nm)."""
    index = {p.ref: i for i, p in enumerate(parts)}
    out = []
    for a in assign([part_pads(p, nets) for p in parts], explicit):
        out.append(Decoupling(index[a.cap], a.cap_pad, index[a.ic], a.ic_pads, a.net, a.pin, a.target_mm * 1e6))
    return out
