"""The design rules a board is checked against, resolved as KiCad 9 resolves them.

Sources, in KiCad's order (``DRC_ENGINE::loadImplicitRules`` and ``EvalRules`` in
pcbnew/drc/drc_engine.cpp):

1. Board setup constraints: the project's ``board.design_settings.rules`` (KiCad 6+),
   else what a KiCad 5 board keeps in its ``setup`` section, else KiCad 9's defaults
   (`DEFAULTS`, from include/board_design_settings.h).
2. Net classes: ``net_settings`` of the project (classes, ``nets`` lists, patterns,
   explicit assignments), or a KiCad 5 board's ``net_class`` lists. A net without a
   class is in ``Default``. A net class clearance applies between two copper items as
   the larger of the two items' classes; a coupled differential pair whose class gap is
   below its clearance uses the gap between its two nets.
3. Local settings: a pad's (or its footprint's) clearance overrides every rule except
   the board minimum; a zone's clearance is a floor.
4. Custom rules (``.kicad_dru``, `dru`): the last rule whose condition holds wins, for
   the constraints listed in `dru.SUPPORTED_CONSTRAINTS`.

Values are nanometres. Severities come from ``rule_severities`` (KiCad's defaults:
errors, except hole_to_hole and holes_co_located, which are warnings).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from functools import lru_cache

MM = 1_000_000

# KiCad 9's defaults for a board without these settings (mm).
DEFAULTS = {
    "min_clearance": 0.0, "min_track_width": 0.0, "min_via_diameter": 0.5,
    "min_through_hole_diameter": 0.3, "min_microvia_diameter": 0.2, "min_microvia_drill": 0.1,
    "min_hole_to_hole": 0.25, "min_hole_clearance": 0.25, "min_copper_edge_clearance": 0.5,
    "min_via_annular_width": 0.1, "min_silk_clearance": 0.0,
    "max_error": 0.005,  # arc approximation error (ARC_HIGH_DEF)
}

WARNINGS_BY_DEFAULT = {"hole_to_hole", "holes_co_located"}

# KiCad 9's Default net class where the project (or board) sets no value (mm;
# common/netclass.cpp, NETCLASS's defaults)
DEFAULT_NETCLASS = {"clearance": 0.2, "track_width": 0.2, "via_diameter": 0.6, "via_drill": 0.3,
                    "microvia_diameter": 0.3, "microvia_drill": 0.1, "diff_pair_width": 0.2,
                    "diff_pair_gap": 0.25}


@dataclass
class NetClass:
    """A net class's values (nm; None where the class does not set one)."""

    name: str
    clearance: int | None = None
    track_width: int | None = None
    via_diameter: int | None = None
    via_drill: int | None = None
    microvia_diameter: int | None = None
    microvia_drill: int | None = None
    diff_pair_width: int | None = None
    diff_pair_gap: int | None = None
    priority: int = 0


def _nm(mm: float | None) -> int | None:
    """Millimetres to nanometres, rounded half away from zero as KiCad rounds."""
    if mm is None:
        return None
    v = float(mm) * MM
    return int(v + 0.5) if v >= 0 else -int(-v + 0.5)


def _netclass(row: dict) -> NetClass:
    keys = {"clearance": "clearance", "track_width": "track_width", "via_diameter": "via_diameter",
            "via_drill": "via_drill", "microvia_diameter": "microvia_diameter",
            "microvia_drill": "microvia_drill", "diff_pair_width": "diff_pair_width",
            "diff_pair_gap": "diff_pair_gap",
            # KiCad 5 board net_class tokens
            "trace_width": "track_width", "via_dia": "via_diameter", "uvia_dia": "microvia_diameter",
            "uvia_drill": "microvia_drill"}
    nc = NetClass(str(row.get("name", "Default")))
    for k, attr in keys.items():
        if row.get(k) is not None:
            setattr(nc, attr, _nm(row[k]))
    p = row.get("priority")
    nc.priority = int(p) if isinstance(p, (int, float)) else 0
    return nc


def _pattern_matcher(pattern: str):
    """KiCad's net class patterns: a wildcard pattern (``*``, ``?``) or a regular
    expression, matched against the whole net name."""
    try:
        rx = re.compile(pattern)
    except re.error:
        rx = None
    return lambda name: fnmatch.fnmatchcase(name, pattern) or bool(rx and rx.fullmatch(name))


def diff_pair_base(name: str) -> tuple[str, str] | None:
    """KiCad's ``DRC_ENGINE::MatchDpSuffix``: (base, polarity) for a net named like a
    differential pair member (``USB_D+``, ``CLK_P``, ``LVDS_N2``), else None."""
    i = len(name)
    while i > 0 and (name[i - 1].isdigit() or name[i - 1] == "_"):
        i -= 1
    if i == 0 or name[i - 1] not in "+-PN":
        return None
    return name[:i - 1] + "\x00" + name[i:], name[i - 1]


@dataclass
class Rules:
    """A board's resolved rules. ``values`` holds the board setup constraints in nm
    (keys of `DEFAULTS`); ``classes`` the net classes by name; ``custom`` the compiled
    custom rules (`dru.CustomRule`)."""

    values: dict[str, int]
    classes: dict[str, NetClass]
    severities: dict[str, str]
    custom: list = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    assignments: dict[str, str] = field(default_factory=dict)
    patterns: list = field(default_factory=list)
    exclusions: set = field(default_factory=set)  # (type, frozenset of uuids)

    def excluded(self, rule: str, uuids) -> bool:
        """True when the project excludes this violation (``drc_exclusions``)."""
        return bool(self.exclusions) and (rule, frozenset(u for u in uuids if u)) in self.exclusions

    def __post_init__(self) -> None:
        self.netclass = lru_cache(maxsize=None)(self._netclass)
        self.effective = lru_cache(maxsize=None)(self._effective)

    def value(self, key: str) -> int:
        return self.values[key]

    def severity(self, rule: str) -> str:
        default = "warning" if rule in WARNINGS_BY_DEFAULT else "error"
        return self.severities.get(rule, default)

    def _netclass(self, net: str) -> NetClass:
        """The net class of net ``net`` ("" and unknown nets: Default)."""
        name = self.assignments.get(net)
        if name is None and net:
            for match, cls in self.patterns:
                if match(net):
                    name = cls
                    break
        return self.classes.get(name or "Default") or self.classes["Default"]

    def _effective(self, net: str) -> NetClass:
        """The net class of ``net`` with every value set (nm): a value its class does
        not set comes from the Default class, else from KiCad 9's Default
        (`DEFAULT_NETCLASS`), as KiCad's ``NET_SETTINGS::makeEffectiveNetclass`` fills
        it. What the router and pcb.route/pcb.addVia's via sizes read."""
        nc, default = self.netclass(net), self.classes["Default"]
        out = NetClass(nc.name, priority=nc.priority)
        for key, mm in DEFAULT_NETCLASS.items():
            v = getattr(nc, key)
            if v is None:
                v = getattr(default, key)
            setattr(out, key, _nm(mm) if v is None else v)
        return out

    def netclass_clearance(self, net: str) -> int:
        nc = self.netclass(net)
        return nc.clearance or 0

def build_rules(project: dict | None, legacy: dict | None = None,
                board_classes: list[dict] | None = None, custom: list | None = None,
                unsupported: list[str] | None = None) -> Rules:
    """Rules from a project file's data (``.kicad_pro`` as a dict, or None), a KiCad 5
    board's setup values and net classes (`documents.board_shapes.legacy_rules`,
    `Board.net_classes`), and compiled custom rules."""
    ds = ((project or {}).get("board") or {}).get("design_settings") or {}
    rules_mm = dict(DEFAULTS)
    legacy = legacy or {}
    if not ds.get("rules"):
        rules_mm.update({k: v for k, v in legacy.items() if k in DEFAULTS})
    rules_mm.update({k: v for k, v in (ds.get("rules") or {}).items() if k in DEFAULTS and v is not None})
    values = {k: _nm(v) for k, v in rules_mm.items()}
    ns = (project or {}).get("net_settings") or {}
    classes: dict[str, NetClass] = {}
    assignments: dict[str, str] = {}
    rows = list(ns.get("classes") or []) or list(board_classes or [])
    for row in rows:
        nc = _netclass(row)
        classes[nc.name] = nc
        for net in row.get("nets") or []:
            assignments.setdefault(net, nc.name)
    if "Default" not in classes:
        # KiCad 9's Default class
        classes["Default"] = NetClass("Default", **{k: _nm(v) for k, v in DEFAULT_NETCLASS.items()})
        classes["Default"].clearance = _nm(legacy.get("trace_clearance", DEFAULT_NETCLASS["clearance"]))
    elif legacy.get("trace_clearance") and classes["Default"].clearance is None:
        classes["Default"].clearance = _nm(legacy["trace_clearance"])
    for net, cls in (ns.get("netclass_assignments") or {}).items():
        if isinstance(cls, list):
            cls = cls[0] if cls else None
        if cls:
            assignments[net] = cls
    patterns = [(_pattern_matcher(p.get("pattern", "")), p.get("netclass"))
                for p in ns.get("netclass_patterns") or [] if p.get("netclass") in classes]
    severities = dict(ds.get("rule_severities") or {})
    return Rules(values, classes, severities, list(custom or []), list(unsupported or []),
                 assignments, patterns, _exclusions(ds.get("drc_exclusions") or []))


_NO_UUID = "00000000-0000-0000-0000-000000000000"


def _exclusions(rows) -> set:
    """KiCad's serialised exclusions ``type|x|y|uuid|uuid`` (KiCad 9 may pair each with a
    comment) as (type, uuids); the position is not compared."""
    out = set()
    for row in rows:
        text = row[0] if isinstance(row, list) and row else row
        if not isinstance(text, str):
            continue
        parts = text.split("|")
        if len(parts) >= 4:
            out.add((parts[0], frozenset(u for u in parts[3:] if u and u != _NO_UUID)))
    return out
