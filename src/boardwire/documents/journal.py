"""The edit journal of tree documents, for undo, redo and rollback.

Every structural edit of a document's tree (`SexprDocument.insert`, ``replace``,
``remove``, ``set_atoms``) records the operation that undoes it while a `recording`
block is open, so undo is exact and costs only what the edit touched. The journal is
shared by every document edited inside the block; `by_document` splits it.

A journal is an opaque list: callers keep it, slice it, split it, and hand it back to
`undo` (newest operation last). Undoing inside another `recording` block records the
journal that redoes it.
"""

from __future__ import annotations

from typing import Hashable, Mapping

from ..sexpr.node import SList, apply_undo, recording

__all__ = ["by_document", "recording", "undo"]


def undo(ops: list) -> None:
    """Undo the edits whose journal is ``ops`` (newest last)."""
    apply_undo(ops)


def by_document(ops: list, roots: Mapping[int, Hashable]) -> dict[Hashable, list]:
    """Split a journal by document: ``roots`` maps ``id(document.root)`` to a key for
    each document; the result maps each key to its operations, in journal order.
    Operations on a list no document holds (a list built and dropped inside the
    change) belong to nobody and are left out."""
    removed_from = {id(op[3]): op[1] for op in ops if op[0] == "insert" and type(op[3]) is SList}
    out: dict[Hashable, list] = {}
    for op in ops:
        node = op[1]
        while True:
            key = roots.get(id(node))
            if key is not None:
                out.setdefault(key, []).append(op)
                break
            up = node.parent if node.parent is not None else removed_from.get(id(node))
            if up is None:
                break
            node = up
    return out

