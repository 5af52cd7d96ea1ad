"""What changed between two drawings of a board (`board_svg.board_parts`), as the page
applies it: per layer, the items (``<g data-k>``) to set and to remove, the zones
likewise, and the whole inside of the layers drawn without item keys (references,
ratsnest, DRC markers) when it changed.

``delta(old, new)`` is None when the two cannot be patched (another frame or side, or
another layer list): the page then takes the whole drawing. Otherwise a dict
``{"layers": [{"layer", "set": {key: svg}, "remove": [key], "zonesSet", "zonesRemove",
"raw"?}], "items": N}`` listing only layers that changed (``items``: how many items
are set or removed, raw layers counting one)."""

from __future__ import annotations


def _diff(old: dict[str, str], new: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    return ({k: v for k, v in new.items() if old.get(k) != v}, [k for k in old if k not in new])


def delta(old: list, new: list) -> dict | None:
    """The change from drawing ``old`` to ``new`` (both `board_parts` lists)."""
    if len(old) != len(new):
        return None
    layers, count = [], 0
    for a, b in zip(old, new):
        if isinstance(a, str) or isinstance(b, str):
            if a != b:  # the frame (viewBox, side), the style: not patchable
                if isinstance(a, str) and isinstance(b, str) and a.startswith("<svg ") and b.startswith("<svg "):
                    if _frame(a) == _frame(b):
                        continue  # only the revision differs
                return None
            continue
        if a.name != b.name or a.open != b.open or (a.raw is None) != (b.raw is None) \
                or (a.zones is None) != (b.zones is None):
            return None
        if b.raw is not None:
            if a.raw != b.raw:
                layers.append({"layer": b.name, "raw": b.raw})
                count += 1
            continue
        put, gone = _diff(a.items, b.items)
        zput, zgone = _diff(a.zones or {}, b.zones or {})
        if put or gone or zput or zgone:
            layers.append({"layer": b.name, "set": put, "remove": gone, "zonesSet": zput, "zonesRemove": zgone})
            count += len(put) + len(gone) + len(zput) + len(zgone)
    return {"layers": layers, "items": count}


def _frame(head: str) -> str:
    """The root tag without its revision."""
    i = head.find(' data-revision="')
    return head if i < 0 else head[:i] + head[head.index('"', i + 16) + 1:]
