"""The judge of a router, as ROUTING-NOTES sets it: strip every track, via and copper
zone from a board (or keep the zones), run ``kicad-cli pcb drc --format json
--severity-all`` on the stripped and on the routed board, and count as *new* the
violations the stripped board did not have. Shared by tests/layout and
bench/bench_route.py."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

from boardwire.documents import open_document

SIBLINGS = (".kicad_pro", ".kicad_dru")


def strip_board(src: Path, folder: Path, keep_zones: bool = False) -> Path:
    """Copy ``src`` (and its project files) into ``folder`` without tracks, vias and
    (unless ``keep_zones``) copper zones; returns the new board's path."""
    folder.mkdir(parents=True, exist_ok=True)
    board = open_document(src)
    for item in list(board.items(("segment", "arc", "via"))):
        board.delete(item)
    if not keep_zones:
        for z in list(board.zones):
            if not z.is_keepout:
                board.delete(z)
    out = folder / src.name
    out.write_bytes(board.to_bytes())
    for suffix in SIBLINGS:
        p = src.with_suffix(suffix)
        if p.is_file():
            shutil.copy(p, folder / p.name)
    return out


def drc(board: Path, timeout: float = 900) -> dict:
    out = board.with_suffix(".drc.json")
    subprocess.run(["kicad-cli", "pcb", "drc", "--format", "json", "--severity-all", "-o", str(out),
                    str(board)], capture_output=True, timeout=timeout, check=False)
    return json.loads(out.read_text())


def _key(v: dict) -> tuple:
    # by description and position, not uuid: KiCad makes up new uuids on every load of
    # boards older than KiCad 6 for items that have none
    items = tuple(sorted(f"{i.get('description')}@{i.get('pos')}" for i in v.get("items", [])))
    return v.get("type"), items


def new_violations(before: dict, after: dict) -> list[dict]:
    """Violations of ``after`` that ``before`` did not have (by type and items)."""
    seen = Counter(_key(v) for v in before.get("violations", []))
    out = []
    for v in after.get("violations", []):
        k = _key(v)
        if seen[k]:
            seen[k] -= 1
        else:
            out.append(v)
    return out


def courtyards_checked(board: Path) -> None:
    """Make KiCad check courtyard overlaps on ``board`` (its project may ignore them:
    StickHub's does, its own placement has 45)."""
    pro = board.with_suffix(".kicad_pro")
    if pro.is_file():
        data = json.loads(pro.read_text())
        data.setdefault("board", {}).setdefault("design_settings", {}).setdefault(
            "rule_severities", {})["courtyards_overlap"] = "error"
        pro.write_text(json.dumps(data, indent=2))


def unconnected(report: dict) -> int:
    return len(report.get("unconnected_items", []))


def refill(board: Path) -> None:
    """Fill the board's zones with KiCad's filler, in place."""
    from boardwire.kicad.pcbnew import fill_zones

    fill_zones(board, board, [])


def scatter_board(src: Path, folder: Path, seed: int = 1) -> Path:
    """``strip_board`` (tracks, vias and copper zones gone), then every unlocked
    footprint with pads moved to a random spot in the outline's box at a random
    quarter turn (numpy's PCG64 with ``seed``: the same seed, the same scatter)."""
    import numpy as np

    from boardwire.geometry import geometry_of

    path = strip_board(src, folder)
    board = open_document(path)
    x1, y1, x2, y2 = geometry_of(board).outline().bounds
    rng = np.random.Generator(np.random.PCG64(seed))
    for fp in board.footprints:
        if fp.locked or not fp.pad_count:
            continue
        fp.rotate_to(float(rng.integers(4) * 90))
        fp.move_to((int(rng.uniform(x1, x2)) // 1000 * 1000, int(rng.uniform(y1, y2)) // 1000 * 1000))
    path.write_bytes(board.to_bytes())
    return path
