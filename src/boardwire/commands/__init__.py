"""The command families: one module per scope (``check``, ``fab``, ``lib``...) or one
package per scope with several (``pcb/``, ``sch/``, ``query/``, ``project/``,
``fw/``). Each module translates arguments to domain calls and results back, and
registers its commands when imported; what several families share is below, in
`boardwire.services`.

Importing this package installs the loader (the registry never imports this package):
a lookup by id imports the one module `index.MODULE_OF` names for it, a listing every
command module; and the edit hook
that reports the violations each board edit introduced (`services.feedback`). The
doors (protocols, the script API, the command line, the live view) import `REGISTRY`
from here.
"""

from __future__ import annotations

from importlib import import_module

from ..registry import REGISTRY
from .index import MODULE_OF

MODULES = tuple(dict.fromkeys(MODULE_OF.values()))  # every command module, once each


def load() -> None:
    """Import every command module (each registers its commands)."""
    for name in MODULES:
        import_module(f"{__name__}.{name}")


def load_one(id: str) -> None:
    """Import the module that declares command ``id``, if the index names one."""
    name = MODULE_OF.get(id)
    if name is not None:
        import_module(f"{__name__}.{name}")


def before_edit(cmd, args, ctx):
    """The edit hook (`services.feedback.before_edit`), imported on the first edit."""
    from ..services.feedback import before_edit as hook

    return hook(cmd, args, ctx)


REGISTRY.add_loader(load, load_one)
REGISTRY.on_edit(before_edit)

__all__ = ["MODULES", "REGISTRY", "load"]
