"""The built-in DRC against KiCad's on real boards: the oracle reports and the
per-rule tally shared by tests/checks/test_agreement.py and bench/drc_agreement.py.

Oracles, chosen before looking at any built-in result: for a corpus board, the
``*.drc.json`` KiCad 9.0.8 wrote beside it (default options); for a KiCad demo board,
kicad-cli 9 run on the installed file. Boards KiCad 9 cannot load (``*.drc.json.failed``)
have no oracle and are left out.

KiCad stops reporting a rule after 199 violations (clearance: 499; its ERROR_LIMIT and
EXTENDED_ERROR_LIMIT in pcbnew/drc/drc_engine.cpp, racy by one across threads). Where
its count is at that limit its list is a sample: only its recall is measured then, and
the built-in count is taken as at most KiCad's.
"""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict
from pathlib import Path

from boardwire.checks import BUILT_IN
from boardwire.checks.compare import compare_reports
from tests.inputs import CORPUS, DEMOS, kicad_files

LIMITS = {"clearance": (499, 500), "unconnected_items": (499, 500)}
DEFAULT_LIMIT = (199, 200)


def corpus_boards() -> list[tuple[Path, Path]]:
    out = []
    for board in kicad_files(CORPUS, (".kicad_pcb",), ()):
        oracle = board.with_suffix(".drc.json")
        if oracle.exists():
            out.append((board, oracle))
    return out


def demo_boards(max_bytes: int = 10_000_000) -> list[Path]:
    return [b for b in kicad_files(DEMOS, (".kicad_pcb",), ()) if b.stat().st_size <= max_bytes]


def kicad_report(kicad_cli: str, board: Path, out_dir: Path) -> dict:
    out = out_dir / (board.stem + ".drc.json")
    if not out.exists():
        subprocess.run([kicad_cli, "pcb", "drc", "--format", "json", "-o", str(out), str(board)],
                       capture_output=True, timeout=1800)
    return json.loads(out.read_text())


def builtin_report(board: Path) -> dict:
    from boardwire.checks import builtin_drc
    from boardwire.documents import open_document
    from boardwire.geometry import geometry_of

    doc = open_document(board)
    result = builtin_drc(doc)
    resolve = geometry_of(doc).resolver()
    return {"violations": [v.to_report(resolve) for v in result.violations],
            "unconnected_items": [v.to_report(resolve) for v in result.unconnected]}


def board_tally(kicad: dict, ours: dict) -> dict:
    """Per rule: KiCad's count, the built-in count (capped at KiCad's where KiCad hit
    its limit), matched, and the unmatched violations of each side."""
    out = {}
    for rule, c in compare_reports(kicad, ours, BUILT_IN).items():
        limit = LIMITS.get(rule, DEFAULT_LIMIT)
        truncated = c["kicad"] in limit
        builtin = min(c["builtin"], c["kicad"]) if truncated else c["builtin"]
        out[rule] = {"kicad": c["kicad"], "builtin": builtin, "builtin_all": c["builtin"],
                     "matched": c["matched"], "ambiguous": c["ambiguous"], "truncated": truncated,
                     "only_kicad": c["only_kicad"], "only_builtin": [] if truncated else c["only_builtin"]}
    return out


def totals(tallies: dict[str, dict]) -> dict[str, dict]:
    """Per rule over boards: KiCad, built-in (capped), matched, and agreement =
    matched / (KiCad + built-in - matched), 1.0 when neither found any."""
    tot: dict[str, dict] = defaultdict(lambda: {"kicad": 0, "builtin": 0, "matched": 0, "ambiguous": 0})
    for tally in tallies.values():
        for rule, t in tally.items():
            for k in ("kicad", "builtin", "matched", "ambiguous"):
                tot[rule][k] += t[k]
    for rule in BUILT_IN:
        t = tot[rule]
        union = t["kicad"] + t["builtin"] - t["matched"]
        t["agreement"] = t["matched"] / union if union else 1.0
    return dict(tot)
