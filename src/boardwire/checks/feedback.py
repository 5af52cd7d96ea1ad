"""The violations an edit introduced.

Before the edit, the board's change log names the top-level items the edit is about to
touch (tracks, vias, footprints, zones, drawings), with those a command re-read itself
during the edit (`Synced`). The built-in engine checks what involved those items
before the edit (their old shapes, still in the model) and after it (re-read); the
violations found only after are the edit's new violations (rule, items, position,
actual and required distance in mm). When the edit changed the rules (net classes,
design rules), the whole board is checked under the old and the new rules. Missing
connections (unconnected_items) are not reported here; check.drc lists them.
"""

from __future__ import annotations

import json

from ..geometry.constraints import constraints_for
from .engine import check_scope, run

MAX_LISTED = 50


def _fingerprint(rules) -> str:
    return json.dumps([rules.values, sorted(rules.severities.items()),
                       {k: vars(v) for k, v in rules.classes.items()}, rules.assignments,
                       [p[1] for p in rules.patterns], [r.name for r in rules.custom]],
                      sort_keys=True, default=str)


class Synced:
    """What a command re-read itself before the edit ended (a command that checks
    its own work, as pcb.autoplace does, syncs the model mid-edit): attached to the
    model's `before_sync`, it takes each sync's pending items and the violations
    found on them then, under ``rules`` (the old shapes are still in the model)."""

    def __init__(self, model, rules):
        self.model, self.rules = model, rules
        self.views: list = []
        self.before: list = []
        model.before_sync.append(self)

    def __call__(self, model) -> None:
        seen = set(self.views)
        fresh = [v for v in model.pending_owners() if v not in seen]
        self.before += _scope(model, self.rules, fresh)
        self.views += fresh

    def detach(self) -> None:
        if self in self.model.before_sync:
            self.model.before_sync.remove(self)


def _scope(model, rules, views) -> list:
    """The violations involving the items of ``views`` (as the model has them now)."""
    ids = [i for v in views for i in model.owned_by(v)]
    fps = [i for v in views for i in model.footprints_of(v)]
    return check_scope(model, constraints_for(model, rules), ids, fps) if ids or fps else []


def new_violations(model, rules, new_rules, synced: Synced | None = None) -> list:
    """The violations found after the edits pending in ``model``'s change log (and
    those ``synced`` saw re-read during the edit) and not before them (under
    ``rules`` before, ``new_rules`` after); syncs the model."""
    if new_rules is not rules and _fingerprint(new_rules) != _fingerprint(rules):
        if synced:
            synced.detach()
        before = run(model, constraints_for(model, rules), connectivity=False).violations
        model.sync()
        now = run(model, constraints_for(model, new_rules), connectivity=False).violations
    else:
        views, before = (list(synced.views), list(synced.before)) if synced else ([], [])
        seen = set(views)
        pending = [v for v in model.pending_owners() if v not in seen]
        before += _scope(model, rules, pending)
        if synced:
            synced.detach()
        model.sync()
        now = _scope(model, new_rules, views + pending)
    seen = {v.key() for v in before}
    return [v for v in now if v.key() not in seen]
