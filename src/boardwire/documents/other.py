"""The smaller formats: design rules, drawing sheets, library tables, projects."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path

from ..errors import ParseError
from ..sexpr import atoms
from .base import Document
from .sexpr_doc import SexprDocument
from .views import View


class Rule(View):
    """One ``(rule "name" (condition "...") (constraint kind (min ..) (opt ..) (max ..)))``."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self.arg(0)

    @property
    def condition(self) -> str:
        return self.text_of("condition") or ""

    def constraints(self, kinds: tuple[str, ...] | None = None) -> dict[str, dict[str, str]]:
        """Constraint kind -> its values as written (``{"length": {"min": "10mm"}}``),
        only the ``kinds`` given (default all)."""
        out = {}
        for c in self.node.lists("constraint"):
            vals = c.atoms()
            if vals and (kinds is None or atoms.text(vals[0]) in kinds):
                out[atoms.text(vals[0])] = {k.head: atoms.text(k.atoms()[0]) for k in c.lists() if k.atoms()}
        return out


class DesignRules(SexprDocument):
    """A ``.kicad_dru`` custom-rules file: ``(version 1)`` then ``(rule ...)`` lists.

    Reference: KiCad's "Custom design rules" documentation (pcbnew, Board Setup)."""

    kind = "design_rules"
    forest = True

    @property
    def version(self) -> int | None:
        for kid in self.root.lists("version"):
            vals = kid.atoms()
            return int(vals[0]) if vals and vals[0].isdigit() else None
        return None

    @property
    def rules(self) -> list[Rule]:
        return [Rule(self, r) for r in self.root.lists("rule")]

    def rule_names(self) -> list[str]:
        return [atoms.text(r.node.atoms()[0]) for r in self.rules if r.node.atoms()]

    def summary(self) -> dict:
        return {"kind": self.kind, "version": self.version, "rules": self.rule_names()}


class Worksheet(SexprDocument):
    """A ``.kicad_wks`` drawing sheet (title block layout)."""

    kind = "worksheet"
    roots = ("kicad_wks", "page_layout")

    def summary(self) -> dict:
        counts: dict[str, int] = {}
        for kid in self.root.lists():
            counts[kid.head] = counts.get(kid.head, 0) + 1
        return {"kind": self.kind, "version": self.version, "items": counts}


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


class Project(Document):
    """A ``.kicad_pro`` (or ``.kicad_prl``) JSON file.

    KiCad writes it with two-space indentation and shortest round-trip numbers, which
    ``json.dumps(indent=2)`` reproduces, so an edit changes only the edited lines."""

    kind = "project"

    def __init__(self, data: bytes, path: str | Path | None = None):
        super().__init__(data, path)
        try:
            self.data = json.loads(data.decode("utf-8")) if data.strip() else {}
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            line, col = (getattr(e, "lineno", 0), getattr(e, "colno", 0))
            raise ParseError(f"not valid JSON: {getattr(e, 'msg', e)}",
                             path=str(path) if path else None, line=line, col=col) from e

    def to_bytes(self) -> bytes:
        if self.edits == 0:
            return self.original
        return (json.dumps(self.data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")

    @property
    def net_classes(self) -> list[dict]:
        """``net_settings.classes``: each class with its name and rule values (mm)."""
        return list(self.data.get("net_settings", {}).get("classes", []))

    def net_class(self, net: str | None) -> dict:
        """The class ``net`` belongs to: that of the first ``net_settings.
        netclass_patterns`` entry whose pattern (``*`` and ``?`` wildcards) matches
        it, else ``Default``; {} when the project has neither."""
        settings = self.data.get("net_settings", {})
        classes = {c.get("name"): c for c in settings.get("classes", [])}
        for p in settings.get("netclass_patterns") or []:
            if net and fnmatch.fnmatchcase(net, p.get("pattern", "")) and p.get("netclass") in classes:
                return classes[p["netclass"]]
        return classes.get("Default", {})

    @property
    def design_rules(self) -> dict:
        """``board.design_settings.rules``: the board's minimum constraints (mm)."""
        return dict(self.data.get("board", {}).get("design_settings", {}).get("rules", {}))

    def summary(self) -> dict:
        meta = self.data.get("meta", {})
        return {"kind": self.kind, "version": meta.get("version"),
                "net_classes": [c.get("name") for c in self.net_classes],
                "sections": sorted(self.data)}
