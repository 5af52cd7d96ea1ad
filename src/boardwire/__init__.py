"""boardwire: lossless KiCad 9 documents for coding agents and scripts.

``boardwire.open(path)`` reads a board, schematic, library, rules, table or project
file; ``doc.save()`` writes it back atomically, byte-identical where nothing changed.
"""

from __future__ import annotations

from .documents import open_document as open  # noqa: A001  (the public entry point)
from .errors import BoardwireError, ParseError

__version__ = "0.1.0"
__all__ = ["BoardwireError", "ParseError", "__version__", "open"]
