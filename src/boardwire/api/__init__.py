"""The Python script API (C4): the registry's commands as Python functions on a live
session.

    from boardwire.api import board, sch, lib, query, run, transaction

    board.place(footprint="Resistor_SMD:R_0805_2012Metric", reference="R1", at=(100, 50),
                nets={"1": "VCC", "2": "LED"})
    with transaction("fan-out"):          # one undo step; rolled back if the block raises
        board.route(points=[(100, 50), (110, 50)], layers=["F.Cu"], width=0.25, net="VCC")
        board.via(at=(110, 50), net="VCC")
    print(board.drc()["counts"])

Every function takes the registry command's arguments as keyword arguments (snake_case
names; millimetres and degrees; tuples and lists alike), returns the command's JSON
result as a dict, and raises a `boardwire.errors.BoardwireError` subclass whose
``code`` is the registry's stable code. ``path`` defaults to the board (``board.*``) or
schematic (``sch.*``) named by ``boardwire run --board/--schematic`` or `connect`, else
to the only one open.

Namespaces, generated from the registry (`names` holds the one table of short names):
``board`` (pcb.* edits, board queries, DRC, renders), ``sch`` (sch.* and schematic
queries, ERC), ``project``, ``lib``, ``query`` (every query.*), ``session``
(session.*: open, undo, redo, save...), ``check``, ``render``; `run` calls any command
by id. `boardwire run build.py` binds the session and saves at the end; a plain Python
program binds a session of the current directory on its first call (or `connect`,
`use`) and saves with `save`.
"""

from __future__ import annotations

from ..errors import BoardwireError
from .binding import connect, current, save, use
from .namespaces import Namespace, build
from .transaction import Transaction, transaction

namespaces: dict[str, Namespace] = {name: Namespace(name) for name in (
    "board", "sch", "project", "lib", "query", "session", "check", "render")}
build(namespaces)

board = namespaces["board"]
sch = namespaces["sch"]
project = namespaces["project"]
lib = namespaces["lib"]
query = namespaces["query"]
session = namespaces["session"]
check = namespaces["check"]
render = namespaces["render"]


def run(command_id: str, args: dict | None = None, /, **kwargs) -> dict:
    """Run any registry command by id, e.g. ``run("pcb.addVia", at=(10, 10))`` or
    ``run("pcb.addVia", {"at": [10, 10]})``; keyword arguments update ``args``.

    ``path`` defaults as in ``query.*``. Returns the command's JSON result; raises
    ``unknown-command`` for an id the registry lacks, else the command's errors."""
    from .binding import call

    return call(command_id, {**(args or {}), **kwargs}, "any")


def refresh() -> None:
    """Regenerate the namespaces after commands were added to the registry."""
    build(namespaces)
    globals().update(namespaces)


def __getattr__(name: str):
    """Namespaces of scopes added later (``boardwire.api.<scope>``)."""
    if name in namespaces:
        return namespaces[name]
    raise AttributeError(f"module 'boardwire.api' has no attribute {name!r}")


__all__ = ["BoardwireError", "Namespace", "Transaction", "board", "check", "connect", "current",
           "lib", "namespaces", "project", "query", "refresh", "render", "run", "save", "sch",
           "session", "transaction", "use"]
