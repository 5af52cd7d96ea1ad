"""The built-in DRC of a board in the session: its rules (the project and custom rules as
they are in the session, else on disk) and its report in KiCad's JSON shape, for
check.drc's ``engine`` and for the feedback on every edit (`drc_feedback`)."""

from __future__ import annotations

from ..checks import BUILT_IN, board_rules, builtin_drc
from ..checks.compare import compare_reports


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


def builtin_report(ctx, od) -> dict:
    """The built-in DRC of board ``od`` as KiCad's JSON report would hold it (the rules
    `checks.BUILT_IN` only)."""
    from ..geometry import geometry_of

    with ctx.session.lock:
        rules = session_rules(ctx, od)
        result = builtin_drc(od.doc, rules)
        resolve = geometry_of(od.doc).resolver()
        report = {"violations": [v.to_report(resolve) for v in result.violations],
                  "unconnected_items": [v.to_report(resolve) for v in result.unconnected],
                  "schematic_parity": [], "kicad_version": None, "engine": "builtin"}
    report["unsupported_rules"] = list(rules.unsupported)
    return report


def agreement(kicad: dict, builtin: dict, limit: int) -> dict:
    """For each built-in rule: how many violations each engine found, how many both
    found, and (up to ``limit``) those only one found."""
    out = {}
    for rule, c in compare_reports(kicad, builtin, BUILT_IN).items():
        out[rule] = {"kicad": c["kicad"], "builtin": c["builtin"], "both": c["matched"],
                     "only_kicad": c["only_kicad"][:limit], "only_builtin": c["only_builtin"][:limit]}
    return out
