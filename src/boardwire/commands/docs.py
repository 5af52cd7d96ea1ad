"""``python -m boardwire.commands.docs > docs/commands.md``: the commands page, rendered
by `boardwire.registry.docs` from every command."""

from __future__ import annotations

from ..registry.docs import render
from . import REGISTRY

if __name__ == "__main__":
    print(render(REGISTRY), end="")
