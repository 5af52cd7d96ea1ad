"""Schematic connectivity against KiCad 9's netlist, as the Markdown table of
docs/netlist.md: per root schematic of KiCad's demos and ../shared/corpus (and any
extra roots given), the share of KiCad's nets whose pins boardwire groups the same
and the share it also names the same.

Usage (from the worktree root):
  PYTHONPATH=src:. python bench/netlist_agreement.py [EXTRA_ROOT.kicad_sch ...]

Roots as tests/netlist/test_schematic.py finds them (schematics no other one names as
a sheet); KiCad's netlists come from ``kicad-cli sch export netlist`` (written to a
temporary folder); roots KiCad 9 does not load are counted, not listed.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from tests.inputs import CORPUS, DEMOS
from tests.netlist.test_schematic import ROOTS, kicad_groups, ours


def _name(root: Path) -> str:
    for base, label in ((CORPUS, "corpus"), (DEMOS, "demos")):
        if base in root.parents:
            return f"{label}/{root.relative_to(base)}"
    return str(root)


def main() -> int:
    cli = shutil.which("kicad-cli")
    rows, refused = [], 0
    tot = [0, 0, 0]  # KiCad nets, same pins, same pins and name
    with tempfile.TemporaryDirectory() as tmp:
        for root in [*ROOTS, *map(Path, sys.argv[1:])]:
            theirs = kicad_groups(cli, root, Path(tmp))
            if theirs is None:
                refused += 1
                continue
            mine = ours(root)
            groups = set(mine.values())
            same = sum(1 for g in theirs.values() if g in groups)
            named = sum(1 for n, g in theirs.items() if mine.get(n) == g)
            tot = [tot[0] + len(theirs), tot[1] + same, tot[2] + named]
            rows.append((_name(root), len(theirs), same, named))
    print("| schematic | KiCad nets | pin grouping | names |\n|---|---:|---:|---:|")
    for name, n, same, named in rows:
        pct = (lambda k: f"{100 * k / n:.1f} %" if n else "-")
        print(f"| {name} | {n} | {pct(same)} | {pct(named)} |")
    n = tot[0]
    print(f"| **all {len(rows)}** | {n} | {100 * tot[1] / n:.2f} % | {100 * tot[2] / n:.2f} % |")
    print(f"\n{refused} roots KiCad 9 does not load (KiCad 10 files, broken QA files) are left out.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
