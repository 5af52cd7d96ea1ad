"""Custom design rules (``.kicad_dru``) for the constraints the built-in checks use.

A rule applies when its layer matches and its condition holds for the pair of items
(A, B) — or, as KiCad's ``DRC_RULE_CONDITION::EvaluateFor`` does, for (B, A). Among
the rules for a constraint the last one that applies wins, and a clearance set by a
custom rule is used as it is (KiCad's "winner takes all"; no net class or board
minimum on top). A rule with ``(severity ignore)`` switches its check off.

Supported constraints: `SUPPORTED_CONSTRAINTS`. Supported in conditions: ``A.``/``B.``
properties NetClass, NetName, Type ('Pad', 'Via', 'Track', 'Zone', 'Graphic'),
Pad_Type ('Through-hole', 'SMD', 'NPTH, mechanical', 'Edge connector'), Via_Type
('Through', 'Blind/buried', 'Micro'), Layer, Reference (of a pad's footprint);
functions isPlated(), hasNetclass('x'), inDiffPair('pattern'), AB.isCoupledDiffPair(),
intersectsArea('name'), insideArea('name'), enclosedByArea('name'); ``==``, ``!=``,
``&&``, ``||``, ``!``, parentheses, '*' and '?' wildcards in compared strings. A rule
using anything else is not applied and is listed as unsupported.
"""

from __future__ import annotations

import fnmatch
import re

import numpy as np
import shapely

SUPPORTED_CONSTRAINTS = ("clearance", "hole_clearance", "edge_clearance", "hole_to_hole",
                         "track_width", "via_diameter", "hole_size", "annular_width",
                         "courtyard_clearance")

_TOKEN = re.compile(r"\s*(?:(?P<str>'[^']*')|(?P<op>&&|\|\||==|!=|[!(),])|(?P<num>\d+(?:\.\d+)?[a-z]*)"
                    r"|(?P<id>[A-Za-z_][A-Za-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*)?))")


class Unsupported(ValueError):
    pass


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise Unsupported(f"cannot read {text[pos:pos + 20]!r}")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.t = _tokens(text)
        self.i = 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise Unsupported(f"expected {value}")
        self.i += 1
        return tok

    def parse(self):
        e = self.or_()
        if self.i != len(self.t):
            raise Unsupported("trailing text")
        return e

    def or_(self):
        e = self.and_()
        while self.peek()[1] == "||":
            self.take()
            r = self.and_()
            e = (lambda l, r: lambda x, y: l(x, y) or r(x, y))(e, r)
        return e

    def and_(self):
        e = self.not_()
        while self.peek()[1] == "&&":
            self.take()
            r = self.not_()
            e = (lambda l, r: lambda x, y: l(x, y) and r(x, y))(e, r)
        return e

    def not_(self):
        if self.peek()[1] == "!":
            self.take()
            e = self.not_()
            return lambda x, y: not e(x, y)
        return self.cmp()

    def cmp(self):
        left = self.value()
        op = self.peek()[1]
        if op in ("==", "!="):
            self.take()
            right = self.value()

            def eq(x, y, left=left, right=right):
                a, b = left(x, y), right(x, y)
                if isinstance(a, str) and isinstance(b, str):
                    return fnmatch.fnmatchcase(a.lower(), b.lower()) or fnmatch.fnmatchcase(b.lower(), a.lower())
                return a == b
            return eq if op == "==" else (lambda x, y: not eq(x, y))
        return lambda x, y: bool(left(x, y))

    def value(self):
        kind, text = self.take()
        if kind == "str":
            s = text[1:-1]
            return lambda x, y: s
        if kind == "num":
            return lambda x, y: text
        if text == "(":
            e = self.or_()
            self.take(")")
            return e
        if kind == "id" and "." in text:
            who, prop = text.split(".", 1)
            if self.peek()[1] == "(":
                self.take("(")
                args = []
                while self.peek()[1] != ")":
                    k, v = self.take()
                    if k != "str":
                        raise Unsupported("function arguments must be strings")
                    args.append(v[1:-1])
                    if self.peek()[1] == ",":
                        self.take()
                self.take(")")
                return _function(who, prop, args)
            return _property(who, prop)
        raise Unsupported(f"unexpected {text!r}")


def _pick(who: str):
    if who == "A":
        return lambda x, y: x
    if who == "B":
        return lambda x, y: y
    raise Unsupported(f"unknown object {who!r}")


_TYPES = {"pad": "Pad", "via": "Via", "track": "Track", "arc": "Track", "zone": "Zone", "shape": "Graphic"}
_PAD_TYPES = {"thru_hole": "Through-hole", "smd": "SMD", "np_thru_hole": "NPTH, mechanical",
              "connect": "Edge connector"}
_VIA_TYPES = {"through": "Through", "blind": "Blind/buried", "micro": "Micro"}


def _property(who: str, prop: str):
    get = _pick(who)
    p = prop.lower()
    if p == "netclass":
        return lambda x, y: (lambda it: it and it.ctx.rules.netclass(it.item.net).name)(get(x, y))
    if p == "netname":
        return lambda x, y: (lambda it: it and it.item.net)(get(x, y))
    if p == "type":
        return lambda x, y: (lambda it: it and _TYPES.get(it.item.kind, ""))(get(x, y))
    if p == "pad_type":
        return lambda x, y: (lambda it: it and it.item.kind == "pad" and _PAD_TYPES.get(it.item.data.pad_type))(get(x, y))
    if p == "via_type":
        return lambda x, y: (lambda it: it and it.item.kind == "via" and _VIA_TYPES.get(it.item.data.via_type))(get(x, y))
    if p == "layer":
        return lambda x, y: (lambda it: it and (it.ctx.model.layers.of(it.item.mask) or [""])[0])(get(x, y))
    if p == "reference":
        return lambda x, y: (lambda it: it and it.item.fp is not None
                             and it.ctx.model.footprints[it.item.fp].reference)(get(x, y))
    raise Unsupported(f"property {prop!r}")


def _function(who: str, name: str, args: list[str]):
    n = name.lower()
    if who == "AB" and n == "iscoupleddiffpair":
        from .rules import coupled

        return lambda x, y: bool(x and y and coupled(x.item.net, y.item.net))
    get = _pick(who)
    if n == "isplated":
        return lambda x, y: (lambda it: bool(it and it.item.hole is not None and it.item.plated))(get(x, y))
    if n == "hasnetclass" and args:
        return lambda x, y: (lambda it: bool(it and fnmatch.fnmatchcase(
            it.ctx.rules.netclass(it.item.net).name.lower(), args[0].lower())))(get(x, y))
    if n == "indiffpair" and args:
        return lambda x, y: (lambda it: bool(it and it.ctx.in_diff_pair(it.item.net, args[0])))(get(x, y))
    if n in ("intersectsarea", "insidearea", "enclosedbyarea") and args:
        def inside(x, y, name=args[0], n=n):
            it = get(x, y)
            if not it:
                return False
            area = it.ctx.area(name)
            if area is None:
                return False
            g = shapely.buffer(it.item.core, it.item.r) if it.item.r else it.item.core
            return bool(shapely.intersects(area, g) if n == "intersectsarea" else shapely.within(g, area))
        return inside
    raise Unsupported(f"function {name!r}")


class CustomRule:
    """A compiled custom rule."""

    def __init__(self, name: str, layer: str | None, condition, constraints: dict, severity: str | None):
        self.name, self.layer, self.condition = name, layer, condition
        self.constraints, self.severity = constraints, severity

    def max_values(self) -> list:
        return [c.get("min") for t, c in self.constraints.items() if t.endswith("clearance")]

    def applies(self, ctx, a, b) -> bool:
        if self.layer and not _layer_ok(ctx.model, self.layer, a.item, b.item if b else None):
            return False
        if self.condition is None:
            return True
        return bool(self.condition(a, b)) or (b is not None and bool(self.condition(b, a)))


def _layer_ok(model, layer: str, a, b) -> bool:
    names = model.layers.names
    mask = a.mask & (b.mask if b is not None else a.mask)
    if layer == "outer":
        want = model.layers.outer
    elif layer == "inner":
        want = model.layers.all & ~model.layers.outer
    else:
        want = model.layers.mask([layer]) if layer in names else 0
    return bool(mask & want) if want else layer not in names


def compile_rules(parsed: list[dict]) -> tuple[list[CustomRule], list[str]]:
    """Compile parsed rules (`DesignRules.parsed_rules`): (rules, names of the rules
    not applied because they use what is not supported)."""
    out, skipped = [], []
    for r in parsed:
        cons = {c["type"]: c for c in r["constraints"] if c["type"] in SUPPORTED_CONSTRAINTS}
        if not cons:
            continue
        try:
            cond = _Parser(r["condition"]).parse() if r["condition"].strip() else None
        except Unsupported:
            skipped.append(r["name"])
            continue
        out.append(CustomRule(r["name"], r["layer"], cond, cons, r["severity"]))
    return out, skipped


class _Ref:
    __slots__ = ("item", "ctx")

    def __init__(self, item, ctx):
        self.item, self.ctx = item, ctx


class _Ctx:
    def __init__(self, cons):
        self.model, self.rules = cons.model, cons.rules
        self._areas: dict = {}

    def in_diff_pair(self, net: str, pattern: str) -> bool:
        """KiCad's ``inDiffPair``: the net's name ends like a pair member (``_P``, ``+``
        ...), its partner net exists, and the pair's base name matches ``pattern``."""
        from .rules import diff_pair_base

        if not net:
            return False
        base = diff_pair_base(net)
        if base is None:
            return False
        stem, pol = base
        other = {"+": "-", "-": "+", "P": "N", "N": "P"}[pol]
        head, _, tail = stem.partition("\x00")
        if head + other + tail not in self.model.net_names():
            return False
        return fnmatch.fnmatchcase(head, pattern) or fnmatch.fnmatchcase(net, pattern)

    def area(self, name: str):
        if name not in self._areas:
            polys = [k.polygon for k in self.model.keepouts if k is not None and k.name == name and k.polygon is not None]
            polys += [it.core for it in self.model.items if it is not None and it.kind == "zone"
                      and it.data.name == name]
            self._areas[name] = shapely.union_all(polys) if polys else None
        return self._areas[name]


def _winner(cons, constraint: str, a, b):
    ctx = getattr(cons, "_dru_ctx", None)
    if ctx is None:
        ctx = cons._dru_ctx = _Ctx(cons)
    ra = _Ref(cons.model.items[a], ctx)
    rb = _Ref(cons.model.items[b], ctx) if b is not None else None
    win = None
    for rule in cons.rules.custom:
        if constraint in rule.constraints and rule.applies(ctx, ra, rb):
            win = rule
    return win


def apply_custom(cons, constraint: str, a, b, value: np.ndarray) -> np.ndarray:
    """``value`` with each entry replaced by the winning custom rule's minimum (0 when
    that rule's severity is ignore)."""
    if not any(constraint in r.constraints for r in cons.rules.custom):
        return value
    value = np.array(value, dtype=float)
    for k in range(len(a)):
        win = _winner(cons, constraint, int(a[k]), None if b is None else int(b[k]))
        if win is not None:
            if win.severity == "ignore":
                value[k] = 0.0
            elif win.constraints[constraint].get("min") is not None:
                value[k] = win.constraints[constraint]["min"]
    return value


def rule_name(cons, constraint: str, a: int, b: int) -> str | None:
    win = _winner(cons, constraint, a, b)
    return f"rule '{win.name}'" if win is not None else None
