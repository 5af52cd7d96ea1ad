"""Which Python name reaches which registry command.

One table (`FRIENDLY`) gives the short names people type (``board.place``,
``board.drc``, ``sch.erc``); every other command gets an automatic name: its scope's
namespace (`SCOPE_NAMESPACE`, else the scope itself) and its verb in snake_case
(``pcb.setNetclass`` is ``board.set_netclass``, ``query.sheetTree`` is
``query.sheet_tree``). A table entry whose command is not in the registry is skipped,
so the table may name commands other engineers are still adding.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass

# Registry scope -> namespace of `boardwire.api`.
SCOPE_NAMESPACE = {"pcb": "board", "sch": "sch", "project": "project", "lib": "lib",
                   "query": "query", "session": "session", "check": "check", "render": "render"}

# (namespace, Python name) -> command id. A command named here keeps no automatic name
# in the same namespace (``board.place``, not also ``board.place_footprint``).
FRIENDLY: dict[tuple[str, str], str] = {
    ("board", "place"): "pcb.placeFootprint",
    ("board", "route"): "pcb.route",
    ("board", "via"): "pcb.addVia",
    ("board", "track"): "pcb.addTrack",
    ("board", "zone"): "pcb.addZone",
    ("board", "fill_zones"): "pcb.fillZones",
    ("board", "outline"): "pcb.outline",
    ("board", "move"): "pcb.move",
    ("board", "rotate"): "pcb.rotate",
    ("board", "flip"): "pcb.flip",
    ("board", "delete"): "pcb.delete",
    ("board", "text"): "pcb.addText",
    ("board", "graphic"): "pcb.addGraphic",
    ("board", "set_field"): "pcb.setField",
    ("board", "set_pad_net"): "pcb.setPadNet",
    ("board", "swap"): "pcb.swapFootprint",
    ("board", "drc"): "check.drc",
    ("board", "items"): "query.items",
    ("board", "nets"): "query.nets",
    ("board", "netclasses"): "query.netclasses",
    ("board", "unrouted"): "query.unrouted",
    ("board", "describe"): "query.describe",
    ("board", "footprint"): "query.footprint",
    ("board", "pads"): "query.pads",
    ("board", "diff_pairs"): "query.diffPairs",
    ("board", "length_groups"): "query.lengthGroups",
    ("board", "render_png"): "render.png",
    ("board", "render_svg"): "render.svg",
    ("sch", "describe"): "query.describe",
    ("sch", "symbols"): "query.symbols",
    ("sch", "pins"): "query.pins",
    ("sch", "labels"): "query.labels",
    ("sch", "sheet_tree"): "query.sheetTree",
    ("sch", "connectivity"): "query.connectivity",
    ("sch", "erc"): "check.erc",
}

# Which document a namespace's functions act on when ``path`` is left out.
NAMESPACE_DOCUMENT = {"board": "board", "sch": "schematic"}


@dataclass(frozen=True)
class Entry:
    """One generated function: ``namespace.name`` calls ``command``; ``document`` is
    the kind of document ``path`` defaults to (board, schematic, or any)."""

    namespace: str
    name: str
    command: str
    document: str


def snake(verb: str) -> str:
    """``placeFootprint`` -> ``place_footprint``; a Python keyword gets a trailing ``_``."""
    out = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", verb.replace(".", "_"))
    out = re.sub(r"(?<=[A-Z])([A-Z][a-z])", r"_\1", out).lower().replace("-", "_")
    return out + "_" if keyword.iskeyword(out) else out


def namespace_of(scope: str) -> str:
    return SCOPE_NAMESPACE.get(scope, snake(scope))


def plan(command_ids: list[str]) -> list[Entry]:
    """Every generated function for the registry's ``command_ids``, sorted by
    namespace and name. Every command gets at least one."""
    present = set(command_ids)
    entries: dict[tuple[str, str], Entry] = {}
    named: set[tuple[str, str]] = set()  # (namespace, command) given a friendly name
    for (ns, name), cid in FRIENDLY.items():
        if cid in present:
            entries[(ns, name)] = Entry(ns, name, cid, NAMESPACE_DOCUMENT.get(ns, "any"))
            named.add((ns, cid))
    for cid in sorted(present):
        scope, _, verb = cid.partition(".")
        ns = namespace_of(scope)
        if (ns, cid) in named:
            continue
        name = snake(verb)
        if (ns, name) in entries:  # a friendly name took it: fall back to scope_verb
            name = snake(f"{scope}_{verb}")
        entries[(ns, name)] = Entry(ns, name, cid, NAMESPACE_DOCUMENT.get(ns, "any"))
    return [entries[k] for k in sorted(entries)]
