"""``fp-lib-table`` and ``sym-lib-table``: the library tables (KiCad's
"Library Table File" format)."""

from __future__ import annotations

from ...sexpr import atoms
from ..sexpr_doc import SexprDocument


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
