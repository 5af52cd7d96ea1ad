"""Effective constraints between copper items, as KiCad 9's ``DRC_ENGINE::EvalRules``
resolves them (pcbnew/drc/drc_engine.cpp), vectorised over pairs of item ids.

Clearance between copper items a and b, when no custom rule applies:
``max(netclass(a), netclass(b), local(a), local(b), board minimum)`` where a pad's (or
its footprint's) clearance override replaces the net class values (then only the board
minimum still applies) and a zone's clearance is a local floor. Items without a net
(drawings without one, texts) have no net class. Hole clearance is the board's
``min_hole_clearance`` (pad overrides apply too); edge clearance the board's
``min_copper_edge_clearance``. A matching custom rule (``.kicad_dru``) replaces the
value. Values in nm; names as KiCad prints them ("netclass 'Default'", "board
minimum", "board setup constraints", a custom rule's name).
"""

from __future__ import annotations

import numpy as np

from .index import KIND
from .rules import Rules, diff_pair_base

CONNECTED = {KIND[k] for k in ("pad", "via", "track", "arc", "zone", "shape")}


class Constraints:
    """Constraint values of one model under one set of rules; per-item values are
    computed when first needed and kept until the model changes."""

    def __init__(self, model, rules: Rules):
        self.model = model
        self.rules = rules
        self._nc = np.zeros(0)
        self._override = np.zeros(0)
        self._local = np.zeros(0)
        self._dp = np.zeros(0, dtype=np.int64)  # diff pair base id, -1: none
        self._dp_sign = np.zeros(0, dtype=np.int8)
        self._dp_gap = np.zeros(0)  # the class gap when below its clearance, else 0
        self._dp_ids: dict[str, int] = {}
        self._nets: dict[str, tuple] = {}

    def _ensure(self) -> None:
        """Per-item values for the items added since last time (item ids are never
        reused, so earlier values stay right)."""
        m = self.model
        n, done = m.cols.n, len(self._nc)
        if done >= n:
            return
        k_ = n - done
        nc, ov, local = np.zeros(k_), np.zeros(k_), np.zeros(k_)
        dp, sign, gap = np.full(k_, -1, dtype=np.int64), np.zeros(k_, dtype=np.int8), np.zeros(k_)
        rules = self.rules
        for k, it in enumerate(m.items[done:n]):
            if it is None:
                continue
            if it.net:
                nc[k], dp[k], sign[k], gap[k] = self._of_net(it.net)
            elif it.kind != "shape":
                nc[k] = rules.netclass_clearance(it.net)
            if it.local_clearance:
                ov[k] = it.local_clearance
            if it.kind == "zone":
                local[k] = it.zone_clearance
        self._nc = np.concatenate([self._nc, nc])
        self._override = np.concatenate([self._override, ov])
        self._local = np.concatenate([self._local, local])
        self._dp = np.concatenate([self._dp, dp])
        self._dp_sign = np.concatenate([self._dp_sign, sign])
        self._dp_gap = np.concatenate([self._dp_gap, gap])

    def _of_net(self, net: str) -> tuple:
        """(net class clearance, diff pair id or -1, pair sign, coupled gap) of a net."""
        got = self._nets.get(net)
        if got is None:
            rules = self.rules
            dp, sign, gap = -1, 0, 0.0
            base = diff_pair_base(net)
            if base is not None:
                dp = self._dp_ids.setdefault(base[0], len(self._dp_ids))
                sign = {"+": 1, "P": 2, "-": -1, "N": -2}[base[1]]
                cls = rules.netclass(net)
                if cls.diff_pair_gap and cls.clearance and cls.diff_pair_gap < cls.clearance:
                    gap = cls.diff_pair_gap
            got = self._nets[net] = (rules.netclass_clearance(net), dp, sign, gap)
        return got

    # -- copper to copper ---------------------------------------------------------------------

    def clearance(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, list[str] | None]:
        """Clearance (nm) between copper items a[k] and b[k], and the name of the rule
        that set each (None: computed lazily by `clearance_name`)."""
        self._ensure()
        rules = self.rules
        board_min = rules.value("min_clearance")
        nca, ncb = self._nc[a], self._nc[b]
        ova, ovb = self._override[a], self._override[b]
        value = np.maximum(nca, ncb)
        # the two nets of a coupled differential pair: their class's gap, when below
        # its clearance (KiCad's "netclass (diff pair)" rule)
        coupled = (self._dp[a] >= 0) & (self._dp[a] == self._dp[b]) \
            & (self._dp_sign[a] == -self._dp_sign[b]) & (self._dp_gap[a] > 0)
        if coupled.any():
            value = np.where(coupled, self._dp_gap[a], value)
        value = np.maximum(value, np.maximum(self._local[a], self._local[b]))
        over = np.maximum(ova, ovb)
        value = np.where(over > 0, over, value)
        value = np.maximum(value, board_min)
        if rules.custom:
            from .dru import apply_custom

            value = apply_custom(self, "clearance", a, b, value)
        return value, None

    def clearance_name(self, a: int, b: int, value: float) -> str:
        """KiCad's name for the constraint that set the clearance of one pair."""
        items = self.model.items
        ia, ib = items[a], items[b]
        if self.rules.custom:
            from .dru import rule_name

            name = rule_name(self, "clearance", a, b)
            if name:
                return name
        if max(ia.local_clearance or 0, ib.local_clearance or 0) > 0:
            return "" if value > self.rules.value("min_clearance") else "board minimum"
        for it in (ia, ib):
            if it.kind == "zone" and it.zone_clearance == value:
                return "zone"
        if value == self.rules.value("min_clearance"):
            return "board minimum"
        for it in (ia, ib):
            if it.kind != "shape" or it.net:
                nc = self.rules.netclass(it.net)
                if nc.clearance == value:
                    return f"netclass '{nc.name}'"
        return ""

    def hole_clearance(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Hole clearance (nm) between the hole of a[k] and the copper of b[k]."""
        self._ensure()
        board = self.rules.value("min_hole_clearance")
        over = np.maximum(self._override[a], self._override[b])
        value = np.where(over > 0, np.maximum(over, board), board).astype(float)
        if self.rules.custom:
            from .dru import apply_custom

            value = apply_custom(self, "hole_clearance", a, b, value)
        return value

    def edge_clearance(self, ids: np.ndarray) -> np.ndarray:
        value = np.full(len(ids), float(self.rules.value("min_copper_edge_clearance")))
        if self.rules.custom:
            from .dru import apply_custom

            value = apply_custom(self, "edge_clearance", ids, None, value)
        return value

    # -- single items ---------------------------------------------------------------------------

    def minimum(self, constraint: str, ids: np.ndarray, default: float) -> np.ndarray:
        """A per-item minimum (track_width, via_diameter, hole_size, annular_width,
        hole_to_hole ...) from the board setup ``default``, replaced by custom rules."""
        value = np.full(len(ids), float(default))
        if self.rules.custom:
            from .dru import apply_custom

            value = apply_custom(self, constraint, ids, None, value)
        return value

    def max_clearance(self) -> float:
        """The largest clearance any pair may need (nm): bounds neighbour searches."""
        self._ensure()
        r = self.rules
        vals = [r.value("min_clearance"), r.value("min_hole_clearance")]
        vals += [nc.clearance or 0 for nc in r.classes.values()]
        if len(self._override):
            vals.append(float(self._override.max()))
            vals.append(float(self._local.max()))
        for rule in r.custom:
            vals.extend(v for v in rule.max_values() if v is not None)
        return float(max(vals))


def constraints_for(model, rules: Rules) -> Constraints:
    """The `Constraints` of ``model`` under ``rules``, kept on the model while both
    stay the same (its per-item values then grow with the items edits add)."""
    kept = getattr(model, "_constraints", None)
    if kept is None or kept.rules is not rules:
        kept = model._constraints = Constraints(model, rules)
    return kept
