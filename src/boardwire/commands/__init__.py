"""The command families: one module per scope (``check``, ``fab``, ``lib``...) or one
package per scope with several (``pcb/``, ``sch/``, ``query/``, ``project/``,
``fw/``). Each module translates arguments to domain calls and results back, and
registers its commands when imported; what several families share is below, in
`boardwire.services`.

Importing this package installs the loader that imports every command module on the
registry's first lookup (the registry never imports this package), and the edit hook
that reports the violations each board edit introduced (`services.feedback`). The
doors (protocols, the script API, the command line, the live view) import `REGISTRY`
from here.
"""

from __future__ import annotations

from importlib import import_module

from ..registry import REGISTRY
from ..services.feedback import before_edit

MODULES = ("agent", "check", "design", "fab", "job", "lib", "parts", "render", "session",
           "pcb.copper", "pcb.draw", "pcb.edit", "pcb.place", "pcb.route", "pcb.rules",
           "query.board", "query.pads", "query.schematic",
           "project.new", "project.update",
           "sch.connect", "sch.hierarchy", "sch.place", "sch.symbol", "sch.wire",
           "fw.project", "fw.board", "fw.monitor")


def load() -> None:
    """Import every command module (each registers its commands)."""
    for name in MODULES:
        import_module(f"{__name__}.{name}")


REGISTRY.add_loader(load)
REGISTRY.on_edit(before_edit)

__all__ = ["MODULES", "REGISTRY", "load"]
