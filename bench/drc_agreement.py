"""The built-in DRC against KiCad 9 on every board KiCad 9 loads, per rule, as the
Markdown tables of docs/drc.md.

Usage (from the worktree root):
  PYTHONPATH=src:. python bench/drc_agreement.py [--oracles DIR] [--max-mb N]

Oracles as in tests/checks/agreement.py: a corpus board's stored ``*.drc.json``
(kicad-cli 9.0.8), a demo board's kicad-cli 9 report, written to ``--oracles`` (default
a folder in /tmp, kept across runs: vme-wren alone takes kicad-cli about 13 minutes).
Prints the per-rule totals, then every board where the engines differ on a rule with
the items found by one engine only.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from boardwire.checks import BUILT_IN
from tests.checks.agreement import (board_tally, builtin_report, corpus_boards, demo_boards,
                                    kicad_report, totals)

SHOWN = 6  # items listed per side and board


def _items(v: dict) -> str:
    return " / ".join(i.get("description", "") for i in v.get("items", []))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracles", default=str(Path(tempfile.gettempdir()) / "boardwire-drc-oracles"))
    ap.add_argument("--max-mb", type=float, default=100.0)
    a = ap.parse_args()
    cli = shutil.which("kicad-cli")
    out_dir = Path(a.oracles)
    out_dir.mkdir(parents=True, exist_ok=True)
    boards = [(b, json.loads(o.read_text())) for b, o in corpus_boards()]
    for b in demo_boards(int(a.max_mb * 1e6)):
        if cli is None and not (out_dir / (b.stem + ".drc.json")).exists():
            continue
        boards.append((b, None))
    tallies = {}
    for board, oracle in boards:
        kicad = oracle if oracle is not None else kicad_report(cli, board, out_dir)
        tallies[board] = board_tally(kicad, builtin_report(board))
        print(f"{board.name}", file=sys.stderr, flush=True)
    tot = totals({str(k): v for k, v in tallies.items()})
    print(f"{len(tallies)} boards.\n")
    print("| rule | KiCad | built-in | matched | of which by count | agreement |")
    print("|---|---|---|---|---|---|")
    for rule in BUILT_IN:
        t = tot[rule]
        print(f"| {rule} | {t['kicad']} | {t['builtin']} | {t['matched']} | {t['ambiguous']} | "
              f"{100 * t['agreement']:.2f} % |")
    print("\n| board | rule | KiCad | built-in (all) | matched | only KiCad | only built-in |")
    print("|---|---|---|---|---|---|---|")
    for board, tally in tallies.items():
        for rule, t in tally.items():
            if t["kicad"] == t["builtin"] == t["matched"] and t["builtin_all"] == t["builtin"]:
                continue
            ok = "; ".join(_items(v) for v in t["only_kicad"][:SHOWN])
            ob = "; ".join(_items(v) for v in t["only_builtin"][:SHOWN])
            cut = " (KiCad at its limit)" if t["truncated"] else ""
            print(f"| {board.relative_to(board.parents[2]) if len(board.parents) > 2 else board.name} | {rule} | "
                  f"{t['kicad']}{cut} | {t['builtin']} ({t['builtin_all']}) | {t['matched']} | {ok} | {ob} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
