"""Missing connections: KiCad's ``unconnected_items`` (drc_test_provider_connectivity.cpp),
one per ratsnest line of the board's own copper connectivity (`netlist.copper`): the
shortest links that would join each net's separately connected clusters."""

from __future__ import annotations

from dataclasses import dataclass

from ..netlist.copper import connectivity
from .report import Violation


@dataclass
class _End:
    """One end of a missing connection, as a report item."""

    uuid: str | None
    desc: str
    pos: tuple[float, float]


def unconnected_items(board, rules, near=None) -> list[Violation]:
    """One violation per ratsnest link; ``near``: geometry item pairs (lo, hi) that
    include every touching pair, when the caller has them (`connectivity`)."""
    if rules.severity("unconnected_items") == "ignore":
        return []
    out = []
    for link in connectivity(board, near).links:
        a = _End(link.a_id, f"{link.a} [{link.net}]", link.a_at)
        b = _End(link.b_id, f"{link.b} [{link.net}]", link.b_at)
        out.append(Violation("unconnected_items", rules.severity("unconnected_items"), "", [a, b],
                             link.a_at, link.length, 0.0))
    return out
