"""KiCad documents: open any KiCad file into its typed, lossless model."""

from __future__ import annotations

from pathlib import Path

from ..errors import UnsupportedFormat
from .base import Document
from .board import Board, FootprintFile
from .library.lib_table import LibTable
from .project.project import Project
from .project.rules import DesignRules
from .schematic import Schematic, SymbolLibrary
from .sexpr_doc import SexprDocument
from .worksheet import Worksheet

_BY_SUFFIX = {
    ".kicad_pcb": Board,
    ".kicad_sch": Schematic,
    ".kicad_mod": FootprintFile,
    ".kicad_sym": SymbolLibrary,
    ".kicad_dru": DesignRules,
    ".kicad_wks": Worksheet,
    ".kicad_pro": Project,
    ".kicad_prl": Project,
}
_BY_NAME = {"fp-lib-table": LibTable, "sym-lib-table": LibTable}


def document_class(path: str | Path) -> type[Document]:
    """The document class for a file name; raises UnsupportedFormat."""
    p = Path(path)
    cls = _BY_NAME.get(p.name) or _BY_SUFFIX.get(p.suffix.lower())
    if cls is None:
        raise UnsupportedFormat(f"{p.name}: not a KiCad file boardwire reads")
    return cls


def open_document(path: str | Path) -> Document:
    """Read a KiCad file. Raises ParseError (with line and column) for a file KiCad
    could not read either, UnsupportedFormat for other files, OSError if unreadable."""
    return document_class(path).load(path)


def from_bytes(data: bytes, name: str) -> Document:
    """Read KiCad content that is not (yet) on disk; ``name`` picks the format."""
    return document_class(name)(data, None)


__all__ = ["Board", "DesignRules", "Document", "FootprintFile", "LibTable", "Project",
           "Schematic", "SexprDocument", "SymbolLibrary", "Worksheet", "document_class",
           "from_bytes", "open_document"]
