"""Autoplace, then autoroute, judged by KiCad 9 (issue 15's second table).

For each of ROUTING-NOTES' four boards: the human placement with tracks, vias and
copper zones stripped is routed by pcb.autoroute (the reference); then every
unlocked footprint is scattered over the outline's box at a random quarter turn
(`tests.layout.judge.scatter_board`, seed 1), pcb.autoplace places them (seed 1; the
back side allowed where the human design uses it; ``route_trials`` 3 unless
``--route-trials`` says otherwise: up to three trial routes, the parts at the
connections a trial left moved before the next, the best trial's placement kept) and
pcb.autoroute routes the result.
``kicad-cli pcb drc`` judges both: after placing, courtyard overlaps (checked even
where the project ignores them), other errors the placement made (types the stripped
human board has fewer of: a pad on a logo's solder-mask opening, pads shorted;
silkscreen findings counted apart: pcb.autoplace places reference texts since
2026-12-03, before which they moved with their footprints) and parts off
the board; after routing, connections routed and the violations routing added (those
the placed, unrouted board did not have). Where the human placement has courtyard
overlaps (StickHub's has 45, which its project ignores), a second reference: the
human placement made legal, its overlapping parts re-placed by pcb.autoplace (same
seed) and the rest kept, then routed.

    python bench/bench_place.py [--boards NAME ...] [--timeout 300] [--route-trials 3] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "src"), str(REPO), str(REPO / "bench")]

from bench_route import BOARDS  # noqa: E402
from tests.layout.judge import (courtyards_checked, drc, new_violations, scatter_board, strip_board,  # noqa: E402
                                unconnected)

FOUR = ["ecc83-pp", "pic_programmer", "interf_u", "StickHub"]


def _call(folder: Path, name: str, command: str, **args) -> dict:
    from boardwire.commands import REGISTRY
    from boardwire.registry import Context
    from boardwire.session import Session

    session = Session(folder)
    result = REGISTRY.call(command, {"path": name, **args}, Context(session))
    session.save(name)
    return result


def _uses_back(src: Path) -> bool:
    from boardwire.documents import open_document

    return any(fp.side == "back" and fp.pad_count for fp in open_document(src).footprints)


def _overlapping(report: dict) -> list[str]:
    """The references in KiCad's courtyards_overlap violations (items "Footprint REF")."""
    return sorted({i["description"].split()[1] for v in report.get("violations", [])
                   if v["type"] == "courtyards_overlap" for i in v.get("items", [])})


def _made_legal(src: Path, folder: Path, total: int, back: bool, seed: int, timeout: float) -> dict | None:
    """The human placement made legal: the parts in KiCad's courtyard overlaps re-placed
    by pcb.autoplace (the rest kept where the designer put them), then routed. None
    where the human placement has no overlap (its completion is the human one)."""
    board = strip_board(src, folder)
    courtyards_checked(board)
    refs = _overlapping(drc(board))
    if not refs:
        return None
    placed = _call(board.parent, board.name, "pcb.autoplace", references=refs, seed=seed, allow_back=back,
                   time_limit=timeout)
    _call(board.parent, board.name, "pcb.autoroute", time_limit=timeout)
    left = unconnected(drc(board))
    return {"replaced": len(refs), "unplaced": placed["unplaced"],
            "completion": 100.0 * (total - left) / total if total else 100.0}


def _errors(report: dict) -> Counter:
    """KiCad's errors by type but courtyard overlaps (counted apart)."""
    return Counter(v["type"] for v in report.get("violations", [])
                   if v.get("severity") == "error" and v["type"] != "courtyards_overlap")


def bench(names: list[str], timeout: float, seed: int = 1, trials: int = 3) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-place-") as tmp:
        for name in names:
            src = BOARDS[name]
            if not src.is_file():
                print(f"skip {name}: {src} missing", file=sys.stderr)
                continue
            human = strip_board(src, Path(tmp) / name / "human")
            before = drc(human)
            total = unconnected(before)
            _call(human.parent, human.name, "pcb.autoroute", time_limit=timeout)
            after = drc(human)
            human_done = 100.0 * (total - unconnected(after)) / total if total else 100.0
            back = _uses_back(src)
            legal = _made_legal(src, Path(tmp) / name / "legal", total, back, seed, timeout)
            work = scatter_board(src, Path(tmp) / name / "placed", seed)
            started = time.monotonic()
            placed = _call(work.parent, work.name, "pcb.autoplace", seed=seed, allow_back=back,
                           time_limit=timeout, route_trials=trials)
            place_s = time.monotonic() - started
            courtyards_checked(work)
            placed_drc = drc(work)
            courtyard = sum(1 for v in placed_drc["violations"] if v["type"] == "courtyards_overlap")
            placing = _errors(placed_drc) - _errors(before)
            started = time.monotonic()
            _call(work.parent, work.name, "pcb.autoroute", time_limit=timeout)
            route_s = time.monotonic() - started
            routed_drc = drc(work)
            left = unconnected(routed_drc)
            new = new_violations(placed_drc, routed_drc)
            done = 100.0 * (total - left) / total if total else 100.0
            row = {"board": name, "parts": placed["moved"], "back": back, "total": total,
                   "human_completion": human_done, "legal": legal, "courtyard_overlaps": courtyard,
                   "off_board": placed["off_board"], "unplaced": placed["unplaced"],
                   "ratsnest": placed["ratsnest_length"], "routability": placed["routability"],
                   "routed": total - left, "completion": done, "new": len(new),
                   "new_types": dict(Counter(v["type"] for v in new)), "placing_errors": dict(placing),
                   "place_s": place_s, "route_s": route_s,
                   "trials": [t["routed"] for t in placed.get("route_trials", [])], "kept": placed.get("trial_kept")}
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    return rows


def markdown(rows: list[dict]) -> str:
    out = ["| board | parts placed | courtyard overlaps (KiCad) | other errors from placing (KiCad) | off board | "
           "routed after autoplace (KiCad) | routed on the human placement | on the human placement made legal | "
           "new violations from routing | trial routes (kept) | place s | route s |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        types = ", ".join(f"{k} {v}" for k, v in sorted(r["new_types"].items()))
        placing = {k: v for k, v in r["placing_errors"].items() if not k.startswith("silk")}
        silk = sum(v for k, v in r["placing_errors"].items() if k.startswith("silk"))
        placed = f"{sum(placing.values())}" + (f" ({', '.join(f'{k} {v}' for k, v in sorted(placing.items()))})"
                                               if placing else "") + (f"; silkscreen {silk}" if silk else "")
        trials = f"{', '.join(map(str, r['trials']))} (trial {r['kept']})" if r["trials"] else "none"
        lg = r.get("legal")
        legal = "as human (no overlap)" if lg is None else (
            f"{lg['completion']:.1f}% ({lg['replaced']} parts re-placed"
            + (f", {len(lg['unplaced'])} found no spot: {' '.join(lg['unplaced'])}" if lg["unplaced"] else "") + ")")
        out.append(f"| {r['board']} | {r['parts']}{' (both sides)' if r['back'] else ''} | {r['courtyard_overlaps']} | "
                   f"{placed} | {r['off_board']} | {r['routed']}/{r['total']} ({r['completion']:.1f}%) | "
                   f"{r['human_completion']:.1f}% | {legal} | {r['new']}{' (' + types + ')' if types else ''} | "
                   f"{trials} | "
                   f"{r['place_s']:.1f} | {r['route_s']:.1f} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", nargs="*", default=FOUR)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--route-trials", type=int, default=3, help="pcb.autoplace's route_trials (0: none)")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    rows = bench(a.boards, a.timeout, a.seed, a.route_trials)
    print(markdown(rows) if a.markdown else json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
