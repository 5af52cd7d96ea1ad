"""Which capacitor decouples which IC, found through shared nets.

A decoupling capacitor is a two-pad part whose reference designator starts with C and
whose pads are on a ground net and on a supply net, both known by their names
(`netlist.net_names`: GND, VSS...; VCC, +3V3, /sheet/VCC_PIC...). It serves one IC (reference designator U or IC, three pads
or more) with a pad on that supply and one on the ground: of those, an IC on the
capacitor's schematic sheet first, then the IC with the fewest capacitors so far (so
eight capacitors on +5V spread over four ICs), then the natural order of references.
"""

from __future__ import annotations

import re

from ...netlist.net_names import GROUND_NAME, POWER_NAME
from .problem import Decoupling, Part

_CAP = re.compile(r"^C\d", re.I)
_IC = re.compile(r"^(?:U|IC)\d", re.I)


def _natural(ref: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", ref)]


def find_decoupling(parts: list[Part], nets: list[str]) -> list[Decoupling]:
    ics = [i for i, p in enumerate(parts) if _IC.match(p.ref) and len(p.pads) >= 3]
    served: dict[int, int] = {i: 0 for i in ics}
    out = []
    caps = sorted((i for i, p in enumerate(parts) if _CAP.match(p.ref) and len(p.pads) == 2),
                  key=lambda i: _natural(parts[i].ref))
    for c in caps:
        cap = parts[c]
        names = [nets[n] if n >= 0 else "" for n in cap.pad_nets]
        ground = [k for k, n in enumerate(names) if n and GROUND_NAME.search(n)]
        if len(ground) != 1:
            continue
        k = 1 - ground[0]
        supply, gnd = cap.pad_nets[k], cap.pad_nets[ground[0]]
        if supply < 0 or not POWER_NAME.search(names[k]):
            continue  # a filter or timing capacitor, not a supply's
        candidates = [i for i in ics if supply in parts[i].pad_nets and gnd in parts[i].pad_nets]
        if not candidates:
            continue
        same_sheet = [i for i in candidates if parts[i].sheet == cap.sheet]
        pool = same_sheet or candidates
        ic = min(pool, key=lambda i: (served[i], _natural(parts[i].ref)))
        served[ic] += 1
        pads = [j for j, n in enumerate(parts[ic].pad_nets) if n == supply]
        out.append(Decoupling(c, k, ic, pads, names[k]))
    return out
