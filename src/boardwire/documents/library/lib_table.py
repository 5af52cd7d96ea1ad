"""``fp-lib-table`` and ``sym-lib-table``: the library tables (KiCad's
"Library Table File" format)."""

from __future__ import annotations

from ...sexpr import atoms
from ..sexpr_doc import SexprDocument, make


class LibTable(SexprDocument):
    """``fp-lib-table`` / ``sym-lib-table``: ``(lib (name ..)(type ..)(uri ..)...)``."""

    kind = "library_table"
    roots = ("fp_lib_table", "sym_lib_table")

    @property
    def libraries(self) -> list[dict[str, str]]:
        out = []
        for lib in self.root.lists("lib"):
            row = {}
            for field in lib.lists():
                vals = field.atoms()
                row[field.head] = atoms.text(vals[0]) if vals else ""
            out.append(row)
        return out

    def summary(self) -> dict:
        return {"kind": self.kind, "table": self.root.head,
                "libraries": len(self.libraries)}

    def nicknames(self) -> list[str]:
        """The nicknames of the table's rows, in order."""
        return [row.get("name", "") for row in self.libraries]

    def add_library(self, name: str, uri: str, type_: str = "KiCad", options: str = "",
                    descr: str = "") -> None:
        """Append the row ``(lib (name ..)(type ..)(uri ..)(options ..)(descr ..))`` as
        KiCad writes it (LIB_TABLE_ROW::Format). ValueError for a nickname the table
        already has (KiCad keeps the first row of a nickname and drops the other)."""
        if name in self.nicknames():
            raise ValueError(f"the table already has a library {name!r}")
        row = make("lib", make("name", atoms.quote(name)), make("type", atoms.quote(type_)),
                   make("uri", atoms.quote(uri)), make("options", atoms.quote(options)),
                   make("descr", atoms.quote(descr)))
        self.insert(self.root, row)

