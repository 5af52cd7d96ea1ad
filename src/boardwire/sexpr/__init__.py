"""The S-expression layer: a lossless, lazily parsed tree of KiCad's files.

Nothing above `boardwire.documents` reads S-expressions directly.
"""

from .file import SexprFile
from .node import SList

__all__ = ["SList", "SexprFile"]
