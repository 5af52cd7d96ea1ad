"""A board's design rules as the session has them.

`session_rules` is the one rules model (`geometry.Rules`: board setup constraints, net
classes, custom ``.kicad_dru`` rules, severities) that the built-in DRC, the edit
feedback, the placer, the router (pcb.autoroute, trial routes) and the via sizes of
pcb.route and pcb.addVia read. It comes from the project file and custom rules open in
the session (unsaved edits included), else as on disk.

KiCad 6+ keeps net classes and design rules in the project file beside the board
(``net_settings.classes`` and ``netclass_patterns``, ``board.design_settings.rules``):
`editable_project` opens it in the session to be edited (undoable, saved with
session.save like any document); `net_classes` and `design_rules` read its rows as
written (mm) for results that show them (query.describe), not for rules to apply.
"""

from __future__ import annotations

from ..checks import board_rules
from ..errors import NoDocument


def _sibling(ctx, od, suffix: str):
    """The open session document beside board ``od`` with ``suffix``, if open."""
    session = ctx.session
    try:
        key = session.workspace.relative(od.full.with_suffix(suffix))
    except Exception:  # outside the workspace
        return None
    return session.documents.get(key)


def _version(ctx, od, suffix: str):
    """What identifies the current content of the file beside ``od``: the session's
    revision when it is open, else the file's modification time."""
    doc = _sibling(ctx, od, suffix)
    if doc is not None:
        return ("open", id(doc.doc), doc.revision, doc.doc.edits)
    path = od.full.with_suffix(suffix)
    return ("disk", path.stat().st_mtime_ns) if path.is_file() else None


def session_rules(ctx, od):
    """The rules of board ``od``: its project file and custom rules as open in the
    session (unsaved edits included), else as on disk; the same object while neither
    changes (so what is computed from the rules is kept too). Raises parse-error for a
    project file that does not parse or whose net classes or rules are malformed
    (`Project.checked`)."""
    key = (_version(ctx, od, ".kicad_pro"), _version(ctx, od, ".kicad_dru"))
    kept = getattr(od.doc, "_session_rules", None)
    if kept is not None and kept[0] == key:
        return kept[1]
    pro = ctx.session.project_file(od, ".kicad_pro")  # parse-error for a broken one, as autoroute's
    dru = _sibling(ctx, od, ".kicad_dru")
    project = pro.checked() if pro is not None else None
    dru_rules = dru.doc.parsed_rules() if dru is not None else None
    rules = board_rules(od.doc, project, dru_rules)
    od.doc._session_rules = (key, rules)
    return rules


def editable_project(ctx, board_path: str):
    """The board's ``.kicad_pro``, opened in the session to be edited; NoDocument
    when the board has none."""
    od = ctx.session.get(board_path, "board", ctx.actor)
    pro = od.full.with_suffix(".kicad_pro")
    if not pro.is_file():
        raise NoDocument(f"{od.path} has no project file {pro.name}",
                         hint="Create the project first (KiCad or project.new): net classes and "
                              "rules live in the .kicad_pro.")
    return ctx.session.get(ctx.session.workspace.relative(pro), "project", ctx.actor)


def net_classes(ctx, od) -> list[dict]:
    """The board's net classes: in the board file up to KiCad 5, else in its project."""
    pro = ctx.session.project_file(od, ".kicad_pro")
    return od.doc.net_classes or (pro.net_classes if pro is not None else [])


def design_rules(ctx, od) -> dict:
    """The board's minimum constraints in its project (mm); {} without a project."""
    pro = ctx.session.project_file(od, ".kicad_pro")
    return pro.design_rules if pro is not None else {}
