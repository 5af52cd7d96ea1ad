"""A board's one-screen summary, computed without parsing what it does not need.

On a file read through the fast scan, footprints nobody has touched are still lazy
spans; their pads are counted from the scan's index of second-level lists instead of
parsing each footprint (vme-wren: 36,000 items, 70 MB).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ...sexpr.node import SList
from ..versions import kicad_major


def _lazy_pad_counts(board) -> dict[int, int]:
    """Pads per lazy top-level list, keyed by its start offset in the source."""
    index = board.tree.index
    if index is None or index.second_starts.size == 0:
        return {}
    a = np.frombuffer(board.tree.src, dtype=np.uint8)
    s = index.second_starts
    end = a.size - 1
    is_pad = ((a[np.minimum(s + 1, end)] == ord("p")) & (a[np.minimum(s + 2, end)] == ord("a"))
              & (a[np.minimum(s + 3, end)] == ord("d"))
              & np.isin(a[np.minimum(s + 4, end)], np.frombuffer(b" \t\r\n)", dtype=np.uint8)))
    counts = np.bincount(index.second_parent[is_pad], minlength=index.starts.size)
    return dict(zip(index.starts.tolist(), counts.tolist()))


def board_summary(board) -> dict:
    heads: Counter = Counter()
    pads = 0
    lazy_pads = None
    for kid in board.root.kids:
        if type(kid) is not SList:
            continue
        head = kid.head
        heads[head] += 1
        if head in ("footprint", "module"):
            if kid.is_lazy:
                if lazy_pads is None:
                    lazy_pads = _lazy_pad_counts(board)
                if kid._start in lazy_pads:
                    pads += lazy_pads[kid._start]
                    continue
            pads += sum(1 for _ in kid.lists("pad"))
    layers = board.layers
    return {
        "kind": "board",
        "version": board.version,
        "kicad": kicad_major(board.version),
        "generator": board.generator,
        "copper_layers": [layer.name for layer in layers if layer.is_copper],
        "layers": len(layers),
        "footprints": heads["footprint"] + heads["module"],
        "pads": pads,
        "tracks": heads["segment"],
        "arcs": heads["arc"],
        "vias": heads["via"],
        "zones": heads["zone"],
        # net 0 is the "no net" entry; KiCad 10 boards have no table: the names on items
        "nets": max((len(board.net_table) if board.named_nets else heads["net"]) - 1, 0),
        "graphics": sum(n for h, n in heads.items() if h.startswith("gr_") and "text" not in h),
        "texts": heads["gr_text"] + heads["gr_text_box"],
        "groups": heads["group"],
        "dimensions": heads["dimension"],
    }
