"""An edit changes only the lines of the items it touches, and KiCad agrees with it.

On every KiCad demo board (and a few older boards of the corpus): move one footprint
by 1 mm, add one track segment and one via, save. Then
* `diff` of the original and the saved file shows exactly the footprint's ``(at ...)``
  line changed and the new items' lines added, nothing else;
* ``kicad-cli pcb drc`` loads the result;
* pcbnew (system python) reports the new position, track and via to the nanometre.
The huge demo boards get the same checks in tests/test_huge_boards.py.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

import boardwire
from boardwire.documents.board import Footprint
from tests.inputs import CORPUS, demo_boards, need
from tests.oracle import pcbnew_dump

pytestmark = pytest.mark.kicad

HUNK = re.compile(r"^(\d+)(?:,(\d+))?([acd])(\d+)(?:,(\d+))?$")

# Older generations from the corpus: KiCad 5, 6, 7 and 8 layouts and tokens.
OLDER_BOARDS = [
    "Sleepdealr__RP2040-designguide/PCB/RP2040-Guide.kicad_pcb",  # KiCad 6
    "DangerousPrototypes__BusPirate5-hardware/bus_pirate_pcb/5-REV10A/REV10a.kicad_pcb",  # 7
    "DangerousPrototypes__BusPirate5-hardware/adapter-blank-plank-1REV0B/blank-plank-rev0b.kicad_pcb",  # 8
]


def boards() -> list:
    out = [pytest.param(p, id=p.stem) for p in demo_boards()]
    out += [pytest.param(CORPUS / rel, id=Path(rel).stem) for rel in OLDER_BOARDS]
    return out


def diff_hunks(a: Path, b: Path) -> list[tuple[str, list[str], list[str]]]:
    """GNU diff's normal output as (kind, old lines, new lines) hunks."""
    r = subprocess.run(["diff", str(a), str(b)], capture_output=True, text=True,
                       errors="surrogateescape")
    assert r.returncode in (0, 1), r.stderr
    hunks = []
    for line in r.stdout.splitlines():
        m = HUNK.match(line)
        if m:
            hunks.append((m.group(3), [], []))
        elif line.startswith("< "):
            hunks[-1][1].append(line[2:])
        elif line.startswith("> "):
            hunks[-1][2].append(line[2:])
    return hunks


def pick_footprint(board) -> Footprint:
    for fp in board.footprints:
        if fp.node.find("zone") is None and fp.reference:
            return fp
    raise AssertionError("no footprint to move")


def edit_touches_only_those_lines(src: Path, tmp_path: Path, kicad_cli: str | None, pcbnew_python: str) -> None:
    """The module's checks on ``src``; ``kicad_cli`` None leaves the load by kicad-cli
    to pcbnew's (the same KiCad board reader): what tests/test_huge_boards.py does."""
    board = boardwire.open(need(src))
    fp = pick_footprint(board)
    x, y = fp.position
    fp.move_to((x + 1_000_000, y))
    net = next((n.number for n in board.nets if n.number > 0), 0)
    t = board.add_track((x, y + 2_000_000), (x + 3_123_457, y + 2_000_000), 254_000,
                        board.copper_layers[0], net)
    v = board.add_via((x + 3_123_457, y + 2_000_000), 800_000, 400_000, net=net)
    out = board.save(tmp_path / src.name)

    hunks = diff_hunks(src, out)
    changed = [h for h in hunks if h[0] == "c"]
    added = [h for h in hunks if h[0] == "a"]
    assert not [h for h in hunks if h[0] == "d"], "lines were deleted"
    assert len(changed) == 1 and len(changed[0][1]) == 1 and len(changed[0][2]) == 1
    old_line, new_line = changed[0][1][0], changed[0][2][0]
    assert old_line.strip().startswith("(at ") and new_line.strip().startswith("(at ")
    new_text = "\n".join(line for h in added for line in h[2])
    for item in (t, v):
        for line in item.node.to_bytes().decode().splitlines():
            assert line.strip() in new_text
    assert sum(len(h[2]) for h in added) == sum(
        len(i.node.to_bytes().splitlines()) for i in (t, v)), "extra lines were added"

    if kicad_cli is not None:
        report = tmp_path / "drc.json"
        r = subprocess.run([kicad_cli, "pcb", "drc", "--format", "json", "-o", str(report), str(out)],
                           capture_output=True, text=True, timeout=1800)
        assert r.returncode == 0 and report.exists(), r.stdout + r.stderr
        assert json.loads(report.read_text())["source"]

    kicad = pcbnew_dump(pcbnew_python, out)
    mine = next(f for f in kicad["footprints"] if f["uuid"] == fp.uuid)
    assert (mine["x"], mine["y"]) == (x + 1_000_000, y)
    track = next(tr for tr in kicad["tracks"] if tr["uuid"] == t.uuid)
    assert track["start"] == [x, y + 2_000_000] and track["end"] == [x + 3_123_457, y + 2_000_000]
    assert track["width"] == 254_000 and track["layer"] == board.copper_layers[0]
    via = next(vv for vv in kicad["vias"] if vv["uuid"] == v.uuid)
    assert (via["x"], via["y"], via["size"], via["drill"]) == (x + 3_123_457, y + 2_000_000,
                                                               800_000, 400_000)


@pytest.mark.parametrize("src", boards())
def test_move_add_track_and_via_touch_only_those_lines(src: Path, tmp_path, kicad_cli, pcbnew_python):
    edit_touches_only_those_lines(src, tmp_path, kicad_cli, pcbnew_python)
