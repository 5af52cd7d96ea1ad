"""The violations an edit introduced, on the result of every board edit: the edit hook
(`Registry.on_edit`, installed by the commands' loader) around `checks.feedback`.

The board an edit changes is the ``.kicad_pcb`` its arguments' roles name as edited
(`Command.edited`: its `registry.roles.EditPath`, whatever the argument is called).
Before the edit it brings the board's geometry up to date and watches what the command
re-reads itself (`checks.feedback.Synced`); after it, the violations found only after
the edit are the result's ``new_violations`` and its summary says how many.
"""

from __future__ import annotations

from ..checks.feedback import MAX_LISTED, Synced, new_violations
from ..errors import BoardwireError
from ..geometry import geometry_of
from .rules import session_rules


def before_edit(cmd, args, ctx):
    """The edit hook (`Registry.on_edit`): None for an edit of no board, else the
    function that adds ``new_violations`` to the edit's result (see the module)."""
    session = ctx.session
    path = next((p for p in cmd.edited(args, session.workspace) if p.endswith(".kicad_pcb")), None)
    if path is None:
        return None
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
