"""Writes `boardwire.commands.index` from the real declarations (see its docstring):
``python -m boardwire.commands.index_gen > src/boardwire/commands/index.py``."""

from __future__ import annotations

import pkgutil
from importlib import import_module

from . import REGISTRY

HEADER = '''"""Which module declares each command: the registry imports only that module for a
call by id (`Registry.get`), not every family. Generated from the declarations by
``python -m boardwire.commands.index_gen > src/boardwire/commands/index.py``; a test
(tests/registry/test_index.py) holds it equal to what the modules really declare.
Do not edit by hand."""

MODULE_OF = {
'''


def import_all() -> None:
    """Import every module below `boardwire.commands` (not only those the index names:
    a new command module is found here first)."""
    package = import_module(__package__)
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{__package__}."):
        if not info.name.endswith((".index_gen", ".docs")):
            import_module(info.name)


def render() -> str:
    """The text of index.py: ``MODULE_OF`` maps every command id to its module's name
    relative to `boardwire.commands` (e.g. ``"pcb.move": "pcb.edit"``)."""
    import_all()
    prefix = __package__ + "."
    rows = [f"    {c.id!r}: {c.handler.__module__.removeprefix(prefix)!r},\n" for c in REGISTRY.all()]
    return HEADER + "".join(rows) + "}\n"


if __name__ == "__main__":
    print(render(), end="")
