"""The violations an edit introduced, on the result of every board edit.

One hook around every edit command (`Registry.on_edit`), not code in each command:
before the edit it brings the board's geometry up to date; after it, the board's change
log names the top-level items the edit touched (tracks, vias, footprints, zones,
drawings), with those a command re-read itself during the edit (`Synced`). The built-in
engine checks what involved those items before the edit (their old shapes, still in the
model) and after it (re-read); the violations found only after
are the edit's ``new_violations`` (rule, items, position, actual and required distance in
mm). When the edit changed the project's rules (net classes, design rules), the whole
board is checked under the old and the new rules. Missing connections
(unconnected_items) are not reported here; check.drc lists them.
"""

from __future__ import annotations

import json

from ..checks import check_scope, run
from ..errors import BoardwireError
from ..geometry import geometry_of
from ..geometry.constraints import constraints_for
from ..registry import REGISTRY
from .drc_builtin import session_rules

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


def _before(cmd, args, ctx):
    path = getattr(args, cmd.edits or "path", None)
    if not isinstance(path, str) or not path.endswith(".kicad_pcb"):
        return None
    session = ctx.session
    with session.lock:
        try:
            od = session.get(path, "board", ctx.actor)
        except BoardwireError:
            return None  # the command reports it
        board = od.doc
        try:
            rules = session_rules(ctx, od)
        except BoardwireError:
            return None  # a broken project file: no feedback (commands needing rules report it)
        model = geometry_of(board)
        synced = Synced(model, rules)

    def after(out: dict) -> None:
        with session.lock:
            if od.doc is not board:
                synced.detach()
                return
            new = new_violations(model, rules, session_rules(ctx, od), synced)
        out["new_violations"] = [v.to_feedback() for v in new[:MAX_LISTED]]
        if new:
            first = new[0].to_feedback()
            what = ", ".join(dict.fromkeys(v.type for v in new))
            detail = ""
            if first.get("actual_mm") is not None and first.get("required_mm"):  # not courtyards (0 < 0)
                detail = f" (first: {first['rule']} {first['actual_mm']} mm < {first['required_mm']} mm)"
            out["summary"] = f"{out.get('summary', '')}; {len(new)} new DRC violation" \
                             f"{'s' if len(new) != 1 else ''}: {what}{detail}"
    after.abandon = synced.detach
    return after


REGISTRY.on_edit(_before)
