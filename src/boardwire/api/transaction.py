"""``with transaction("label"):`` one undo step for every call inside the block."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

from . import binding


@dataclass
class Transaction:
    """The open block: its label and the ids of the items created so far."""

    label: str
    new_ids: list[str] = field(default_factory=list)


@contextmanager
def transaction(label: str = "script transaction") -> Iterator[Transaction]:
    """Group the edits made inside the block into one change: one undo step (and one
    revision) per document it touches, labelled ``label``.

    If the block raises, every document is put back as it was before the block and the
    exception propagates. A transaction inside another joins it (the outer one commits
    or rolls back everything). The session is locked for the whole block, so other
    clients of a shared session wait. Undo, redo, save, revert and close are refused
    inside the block (``invalid-args``)."""
    session = binding.current()
    tx = Transaction(label)
    bound = binding.binding()
    outer = bound.transactions[-1] if bound.transactions else None
    with session.group(label, actor=binding.ACTOR, new_ids=tx.new_ids):
        bound.transactions.append(tx)
        try:
            yield tx
        finally:
            bound.transactions.remove(tx)
            if outer is not None:
                outer.new_ids.extend(tx.new_ids)
