"""boardwire: lossless KiCad 9 documents for coding agents and scripts.

``boardwire.open(path)`` reads a board, schematic, library, rules, table or project
file; ``doc.save()`` writes it back atomically, byte-identical where nothing changed.

The names below load on first use (PEP 562), so that ``boardwire --help`` and other
short processes pay only for what they run.
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["BoardwireError", "ParseError", "__version__", "open"]


def __getattr__(name: str):
    if name == "open":
        from .documents import open_document

        return open_document
    if name in ("BoardwireError", "ParseError"):
        from . import errors

        return getattr(errors, name)
    raise AttributeError(f"module 'boardwire' has no attribute {name!r}")
