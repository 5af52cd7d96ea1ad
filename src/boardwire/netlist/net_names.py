"""Net names: the strongest driver of a net names it, as KiCad 9's driver priorities
(``CONNECTION_SUBGRAPH::PRIORITY``, eeschema/connection_graph.h) say.

A global label, then a power pin, then a local label, a hierarchical label, a sheet
pin (an output sheet pin first), a pin; among equals the shallowest sheet, then the
smallest name. Local names carry the sheet path (``/sub/NAME``), global names do not;
a net named by a pin is ``Net-(R1-Pad1)`` or ``Net-(U1-SDA)``, and
``unconnected-(...)`` when it has a single pin or a no-connect flag
(``SCH_PIN::GetDefaultNetName``).
"""

from __future__ import annotations

import re
from typing import Callable

from .bus import escape_netname
from .symbols import PinNode

# Names of supply nets (a pattern, where a schematic's power pins do not say it) and of
# ground nets among them.
POWER_NAME = re.compile(r"(?:^|/)(?:GND\w*|VSS\w*|VCC\w*|VDD\w*|VBUS\w*|\+\d[\w.]*V\w*|\d+V\d*)$", re.I)
GROUND_NAME = re.compile(r"(?:^|/)(?:[ADPS]?GND\w*|VSS\w*|0V)$", re.I)

# Driver priorities (CONNECTION_SUBGRAPH::PRIORITY)
PIN, SHEET_PIN, HIER_LABEL, LOCAL_LABEL, POWER_PIN, GLOBAL = 1, 2, 3, 4, 5, 6

# (priority, union-find key, name, sheet depth, item): a label or power pin gives its
# name; a pin gives (pin, the pins of its symbol) and is named here; a sheet pin gives
# (label, shape).
Driver = tuple[int, object, str, int, object]


def pin_net_name(pin: PinNode, force_nc: bool, pins_of_symbol: list[PinNode]) -> str:
    """KiCad's SCH_PIN::GetDefaultNetName: the name a net driven by ``pin`` alone gets
    (``unconnected-`` with ``force_nc``, or for a no-connect pin)."""
    sym = pin.symbol
    unconnected = force_nc or pin.type == "no_connect"
    prefix = "unconnected-(" if unconnected else "Net-("
    shown_name = "" if pin.name == "~" else pin.name
    if sym.reference.endswith("?"):
        return f"{prefix}{sym.view.uuid}-Pad{pin.number})"
    if shown_name and shown_name != pin.number:
        multiple = pin.type != "no_connect" and any(
            (("" if o.name == "~" else o.name) == shown_name and o.number != pin.number)
            for o in pins_of_symbol)
        name = f"{prefix}{sym.ref_with_unit}-{escape_netname(shown_name)}"
        if unconnected or multiple:
            name += f"-Pad{escape_netname(pin.number)}"
        return name + ")"
    return f"{prefix}{sym.reference}-Pad{escape_netname(pin.number)})"


def _rank(prio: int, depth: int, name: str, item) -> tuple:
    """Higher is stronger, except the last element (a tie-break where lower wins)."""
    if prio == PIN:
        return (0, 0, prio, -depth, 1 if "-Pad" in name else 0)
    rank = (1 if prio >= POWER_PIN else 0, 1 if prio >= HIER_LABEL else 0, prio, -depth, 0)
    if prio == SHEET_PIN and item[1] == "output":
        rank = rank[:4] + (-1,)
    return rank


def _better(a, b) -> bool:
    """Is driver ``a`` = (rank, name) better than ``b``? Higher rank, then smaller name."""
    if a[0] != b[0]:
        if a[0][:4] != b[0][:4]:
            return a[0][:4] > b[0][:4]
        return a[0][4] < b[0][4]
    return a[1] < b[1]


def _is_bus_member(item) -> bool:
    return isinstance(item, tuple) and len(item) == 2 and item[1] == "bus"


def name_nets(drivers: list[Driver], find: Callable[[object], object], groups: dict[object, list[PinNode]],
              nc_roots: set) -> dict[object, str]:
    """Net root key -> name, for the nets (``groups``: root key -> pins) a driver
    reaches; ``find`` is the union-find's, ``nc_roots`` the roots of nets with a
    no-connect flag.

    The strongest driver names a net (see the module), except that a net on a bus
    member (a driver with item ``(instance, "bus")``) takes a member's name unless a
    global label or power pin drives it (KiCad's bus neighbours take their member's
    connection): among the members, the strong ones (a bus named by a hierarchical
    label or stronger) by their bus label's strength, then the sheet nearest the root,
    then the smallest name (cynthion, ButterStick, vme-wren: a member's own local label
    does not count); with no strong one, the strongest member."""
    listed = {k: sum(1 for p in v if p.symbol.in_netlist) for k, v in groups.items()}
    best: dict = {}
    members: dict = {}  # root key -> bus member candidates
    for prio, key, name, depth, item in drivers:
        root_key = find(key)
        if root_key not in groups:
            continue
        if prio == PIN:
            pn, siblings = item
            name = pin_net_name(pn, root_key in nc_roots or listed[root_key] == 1, siblings)
        cand = (_rank(prio, depth, name, item), name)
        if _is_bus_member(item):
            members.setdefault(root_key, []).append((prio, depth, cand))
        cur = best.get(root_key)
        if cur is None or _better(cand, cur):
            best[root_key] = cand
    out = {k: name for k, (_, name) in best.items()}
    for root_key, cands in members.items():
        if best[root_key][0][2] >= POWER_PIN:
            continue  # a global label or power pin names it
        strong = [c for c in cands if c[0] >= HIER_LABEL]
        if strong:
            out[root_key] = min(strong, key=lambda c: (-c[0], c[1], c[2][1]))[2][1]
        else:
            top = cands[0][2]
            for _, _, c in cands[1:]:
                if _better(c, top):
                    top = c
            out[root_key] = top[1]
    return out
