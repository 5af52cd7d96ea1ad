"""The built-in DRC of a board in the session, in KiCad's JSON report shape (the rules
`checks.BUILT_IN` only), for check.drc's ``engine``."""

from __future__ import annotations

from ..checks import builtin_drc
from ..geometry import geometry_of
from .rules import session_rules


def builtin_report(ctx, od) -> dict:
    """The built-in DRC of board ``od`` as KiCad's JSON report would hold it (the rules
    `checks.BUILT_IN` only)."""

    with ctx.session.lock:
        rules = session_rules(ctx, od)
        result = builtin_drc(od.doc, rules)
        resolve = geometry_of(od.doc).resolver()
        report = {"violations": [v.to_report(resolve) for v in result.violations],
                  "unconnected_items": [v.to_report(resolve) for v in result.unconnected],
                  "schematic_parity": [], "kicad_version": None, "engine": "builtin"}
    report["unsupported_rules"] = list(rules.unsupported)
    return report
