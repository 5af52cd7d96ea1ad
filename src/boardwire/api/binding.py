"""The live session the script API acts on, and how one call reaches the registry.

`boardwire run` binds the session it made (and the documents named by ``--board`` and
``--schematic``); a plain Python program is bound on its first call to a session of
the current directory, or explicitly with `connect` (a new session) or `use` (one it
already has, e.g. a server's).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from ..commands import REGISTRY
from ..errors import InvalidArgs, NoDocument
from ..registry import Context
from ..session import Session

ACTOR = "script"

# Commands that would break an open transaction's undo journal, or write its
# uncommitted state to disk.
NOT_IN_TRANSACTION = {"session.undo", "session.redo", "session.save", "session.revert",
                      "session.close"}


@dataclass
class Binding:
    session: Session | None = None
    board: str | None = None
    schematic: str | None = None
    transactions: list = field(default_factory=list)  # open `transaction` blocks, innermost last


_bound = Binding()


def _open(session: Session, path: str | os.PathLike | None, kind: str) -> str | None:
    if path is None:
        return None
    return session.get(os.fspath(path), kind, actor=ACTOR).path


def connect(root: str | os.PathLike = ".", *, board: str | os.PathLike | None = None,
            schematic: str | os.PathLike | None = None) -> Session:
    """Bind the API to a new session of the folder ``root`` and return it.

    ``board`` and ``schematic`` (paths relative to ``root``) are opened now and become
    the defaults of ``board.*`` and ``sch.*``. Raises ``no-document`` if ``root`` is not
    a folder or a named document does not exist, ``wrong-kind`` if it is not a board
    (schematic)."""
    if not Path(root).is_dir():
        raise NoDocument(f"the working directory {root} does not exist")
    return use(Session(root), board=board, schematic=schematic)


def use(session: Session, *, board: str | os.PathLike | None = None,
        schematic: str | os.PathLike | None = None) -> Session:
    """Bind the API to an existing session (documents named are opened in it)."""
    global _bound
    if _bound.transactions:
        raise InvalidArgs("cannot rebind the script API inside a transaction")
    _bound = Binding(session, _open(session, board, "board"), _open(session, schematic, "schematic"))
    return session


def current() -> Session:
    """The bound session; a session of the current directory if none is bound yet."""
    if _bound.session is None:
        connect(".")
    return _bound.session  # type: ignore[return-value]


def binding() -> Binding:
    """The current binding (a session of the current directory is bound if none is)."""
    current()
    return _bound


def snapshot() -> Binding:
    """The current binding as it is, possibly empty (for `restore`)."""
    return _bound


def restore(previous: Binding) -> None:
    """Put back a binding saved with `snapshot` (`boardwire run` does at the end)."""
    global _bound
    _bound = previous


def default_path(document: str) -> str:
    """The document a call without ``path`` acts on (``document``: board, schematic or
    any); raises ``no-document`` naming the choices when there is no single one."""
    session = current()
    b = _bound
    named = [p for p in {"board": [b.board], "schematic": [b.schematic],
                         "any": [b.board, b.schematic]}[document] if p]
    if len(named) == 1:
        return named[0]
    candidates = [od.path for od in session.documents.values()
                  if document == "any" or od.kind == document]
    if not named and len(candidates) == 1:
        return candidates[0]
    what = {"any": "document"}.get(document, document)
    flag = {"board": "--board B / connect(board=...)", "schematic": "--schematic S / connect(schematic=...)"}
    raise NoDocument(
        f"no default {what}: {len(candidates)} open" + (f" ({', '.join(sorted(candidates))})" if candidates else ""),
        hint=f"Pass path=... (relative to {session.workspace.root})"
             + (f", or name one with {flag[document]}" if document in flag else ""))


def jsonable(value: Any) -> Any:
    """Script values as the JSON a protocol door would receive: tuples as arrays, paths
    as strings, dict keys as strings, pydantic models as objects."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, PurePath):
        return str(value)
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_none=True)
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        return value.item()
    return value


def call(command_id: str, args: dict[str, Any], document: str | None = "any") -> dict:
    """Run one registry command in the bound session and return its JSON result.

    ``path``, when the command takes one and it is missing or None, defaults to
    `default_path(document)`. Raises the registry's BoardwireError (stable code)."""
    session = current()
    cmd = REGISTRY.get(command_id)
    args = jsonable(args)
    if "path" in cmd.args.model_fields and args.get("path") is None and document is not None:
        args["path"] = default_path(document)
    if _bound.transactions and command_id in NOT_IN_TRANSACTION:
        raise InvalidArgs(f"{command_id} inside a transaction: finish the `with transaction()` block first",
                          hint="Undo, redo, save, revert and close act on whole changes; call them after the block.")
    ctx = Context(session, actor=ACTOR, door="script")
    result = REGISTRY.call(command_id, args, ctx)
    if _bound.transactions:
        _bound.transactions[-1].new_ids.extend(ctx.new_ids)
    return result


def save(*, force: bool = False, session: Session | None = None) -> list[str]:
    """Save every modified document of the bound session (or ``session``); returns
    their paths.

    Raises ``file-changed`` if a file changed on disk since it was opened (unless
    ``force``), ``read-only`` or ``io-error`` if it cannot be written; documents
    saved before the failure stay saved."""
    session = session or current()
    if _bound.transactions:
        raise InvalidArgs("save inside a transaction: finish the `with transaction()` block first")
    return session.save_modified(ACTOR, force=force)
