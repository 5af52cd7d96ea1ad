"""``.kicad_dru``: a project's custom design rules (KiCad's "Custom Rules" syntax:
``(rule "name" (condition "...") (constraint kind (min ..) (opt ..) (max ..)))``)."""

from __future__ import annotations

from ...sexpr import atoms
from ..sexpr_doc import SexprDocument
from ..views import View


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
