"""A board's top-level lists by key, to keep two copies of one board in step.

The live attach (``boardwire.session.live``) holds the session's board and the board
open in KiCad's PCB editor. Each side is compared with its own earlier state only
(never one producer's printing with the other's), so formatting never reads as a
change: `item_texts` gives every top-level list's text under a key, `changed_keys`
what differs between two such maps, and `adopt` copies those lists from one board
into another as ordinary journaled edits (one undo step when run inside a session
change).

Keys: an item's UUID (``uuid``, or ``tstamp`` before KiCad 8); for lists without one
(``net``, ``setup``, ``layers``, ``general``...), the keyword and its first atom, e.g.
``net:3``, with ``#2``... appended to repeats.
"""

from __future__ import annotations

from ...sexpr.node import SList
from ..views import View
from .container import BOARD_KINDS
from .reading import BoardReading


def _key(node: SList, seen: dict[str, int]) -> str:
    uid = View(None, node).uuid if node.head in BOARD_KINDS else None  # type: ignore[arg-type]
    if uid:
        return uid
    atoms = node.atoms()
    key = f"{node.head}:{atoms[0].decode(errors='replace') if atoms else ''}"
    n = seen.get(key, 0) + 1
    seen[key] = n
    return key if n == 1 else f"{key}#{n}"


def _top(board: BoardReading, cache: dict[bytes, str] | None = None) -> dict[str, tuple[SList, bytes]]:
    """Key -> (list, its text) for every top-level list. ``cache`` (text -> UUID key,
    kept by the caller between calls) spares reading the UUID of a list seen before:
    a freshly parsed board is read lazily, and finding a UUID materialises the list
    (about 80 ms for the 0.15 MB ecc83 demo; a few ms with the cache)."""
    out: dict[str, tuple[SList, bytes]] = {}
    seen: dict[str, int] = {}
    for node in board.root.kids:
        if type(node) is not SList:
            continue
        text = node.to_bytes()
        key = cache.get(text) if cache is not None else None
        if key is None:
            key = _key(node, seen)
            if cache is not None and ":" not in key:
                if len(cache) > 100_000:
                    cache.clear()
                cache[text] = key
        out[key] = (node, text)
    return out


def item_texts(board: BoardReading, cache: dict[bytes, str] | None = None) -> dict[str, bytes]:
    """Key -> the list's text (whitespace inside it included) for every top-level list."""
    return {key: text for key, (_, text) in _top(board, cache).items()}


def changed_keys(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    """Keys added, removed or changed from ``before`` to ``after`` (in ``after``'s
    order, removals last)."""
    out = [k for k, v in after.items() if before.get(k) != v]
    return out + [k for k in before if k not in after]


def adopt(board: BoardReading, source: BoardReading, keys: list[str],
          cache: dict[bytes, str] | None = None) -> dict[str, list[str]]:
    """Make the lists of ``board`` under ``keys`` what they are in ``source``: replaced,
    inserted (after the last list of the same keyword, as KiCad groups them) or
    removed. Returns ``{"changed": [...], "added": [...], "removed": [...]}`` (keys).
    The copies are laid out in ``board``'s own format (tabs or spaces, line ending)."""
    mine = {k: node for k, (node, _) in _top(board).items()}
    theirs = {k: node for k, (node, _) in _top(source, cache).items()}
    out: dict[str, list[str]] = {"changed": [], "added": [], "removed": []}
    for key in keys:
        new, old = theirs.get(key), mine.get(key)
        if new is None and old is not None:
            board.remove(old)
            out["removed"].append(key)
        elif new is not None and old is not None:
            board.replace(old, new)
            out["changed"].append(key)
        elif new is not None:
            board.insert(board.root, new, board._insert_index((new.head,), ("embedded_fonts",)))
            out["added"].append(key)
    return out
