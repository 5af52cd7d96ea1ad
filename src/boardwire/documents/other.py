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

    def parsed_rules(self) -> list[dict]:
        """Each rule as plain data: ``name``, ``layer`` (outer, inner, a layer name or
        None), ``condition`` (the expression text or ""), ``severity`` (or None) and
        ``constraints``: ``{"type", "min", "opt", "max"}`` with lengths in nm (units
        mm, mil, in, um as KiCad reads them; a bare number is mm), plus any other atoms
        of the constraint in ``args``."""
        out = []
        for r in self.rules:
            vals = r.node.atoms()
            rule = {"name": atoms.text(vals[0]) if vals else "", "layer": None, "condition": "",
                    "severity": None, "constraints": []}
            for k in r.node.lists():
                kv = k.atoms()
                if k.head == "layer" and kv:
                    rule["layer"] = atoms.text(kv[0])
                elif k.head == "condition" and kv:
                    rule["condition"] = atoms.text(kv[0])
                elif k.head == "severity" and kv:
                    rule["severity"] = atoms.text(kv[0])
                elif k.head == "constraint" and kv:
                    c = {"type": atoms.text(kv[0]), "args": [atoms.text(v) for v in kv[1:]]}
                    for q in k.lists():
                        qv = q.atoms()
                        if q.head in ("min", "opt", "max") and qv:
                            c[q.head] = _length_nm(atoms.text(qv[0]))
                    rule["constraints"].append(c)
            out.append(rule)
        return out

    def summary(self) -> dict:
        return {"kind": self.kind, "version": self.version, "rules": self.rule_names()}


_UNITS = {"mm": 1e6, "mil": 25_400.0, "mils": 25_400.0, "in": 25_400_000.0, "um": 1e3, "nm": 1.0}


def _length_nm(text: str) -> float | None:
    """A custom-rule length ("0.2mm", "8mil", "0.5") in nm; None when not a length."""
    t = text.strip().lower()
    for unit in sorted(_UNITS, key=len, reverse=True):
        if t.endswith(unit):
            try:
                return float(t[: -len(unit)]) * _UNITS[unit]
            except ValueError:
                return None
    try:
        return float(t) * 1e6
    except ValueError:
        return None


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


# net class sizes (mm): a width, a diameter or a drill must be above 0
_POSITIVE = ("track_width", "via_diameter", "via_drill")
_SIZES = ("clearance", "track_width", "via_diameter", "via_drill", "microvia_diameter", "microvia_drill",
          "diff_pair_width", "diff_pair_gap", "diff_pair_via_gap")


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
        if not isinstance(self.data, dict):
            raise ParseError("a KiCad project file is a JSON object", path=str(path) if path else None)

    def _bad(self, what: str) -> ParseError:
        return ParseError(f"{what} (KiCad's project file format: pcbnew's BOARD_DESIGN_SETTINGS, "
                          f"common/project/net_settings.cpp)", path=str(self.path) if self.path else None)

    def _object(self, *keys: str) -> dict:
        """``data[k1][k2]...``, {} where absent; ParseError where it is not an object."""
        node = self.data
        for i, key in enumerate(keys):
            node = node.get(key, {})
            if not isinstance(node, dict):
                raise self._bad(f"{'.'.join(keys[:i + 1])} is not an object")
        return node

    def _sizes(self, values: dict, where: str, positive: tuple[str, ...]) -> dict:
        """``values`` with its rule sizes checked: numbers (mm), not negative, and more
        than 0 for the keys in ``positive`` (a width or a drill)."""
        for key, v in values.items():
            sized = key in positive or key in _SIZES or key.startswith("min_")
            if not sized or v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v < 0 \
                    or (key in positive and v == 0):
                need = "a number above 0" if key in positive else "a number, 0 or more"
                raise self._bad(f"{where}.{key} is {json.dumps(v)}, not {need} (mm)")
        return values

    def to_bytes(self) -> bytes:
        if self.edits == 0:
            return self.original
        return (json.dumps(self.data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")

    @property
    def net_classes(self) -> list[dict]:
        """``net_settings.classes``: each class with its name and rule values (mm)."""
        classes = self._object("net_settings").get("classes", [])
        if not isinstance(classes, list) or not all(isinstance(c, dict) for c in classes):
            raise self._bad("net_settings.classes is not a list of objects")
        return [self._sizes(c, f"net class {c.get('name')!r}", _POSITIVE) for c in classes]

    def net_class(self, net: str | None) -> dict:
        """The class ``net`` belongs to: that of the first ``net_settings.
        netclass_patterns`` entry whose pattern (``*`` and ``?`` wildcards) matches
        it, else ``Default``; {} when the project has neither."""
        settings = self._object("net_settings")
        classes = {c.get("name"): c for c in self.net_classes}
        patterns = settings.get("netclass_patterns") or []
        if not isinstance(patterns, list) or not all(isinstance(p, dict) for p in patterns):
            raise self._bad("net_settings.netclass_patterns is not a list of objects")
        for p in patterns:
            if net and fnmatch.fnmatchcase(net, str(p.get("pattern", ""))) and p.get("netclass") in classes:
                return classes[p["netclass"]]
        return classes.get("Default", {})

    def checked(self) -> dict:
        """The data, once its net classes, net class patterns and design rules have
        the shapes and sizes KiCad writes (ParseError naming the first that does not:
        a rule engine fed a string or a negative clearance fails far from the cause)."""
        self.net_class(None)
        self.design_rules
        return self.data

    @property
    def design_rules(self) -> dict:
        """``board.design_settings.rules``: the board's minimum constraints (mm)."""
        return self._sizes(dict(self._object("board", "design_settings", "rules")), "board.design_settings.rules", ())

    def summary(self) -> dict:
        meta = self.data.get("meta", {})
        return {"kind": self.kind, "version": meta.get("version"),
                "net_classes": [c.get("name") for c in self.net_classes],
                "sections": sorted(self.data)}
