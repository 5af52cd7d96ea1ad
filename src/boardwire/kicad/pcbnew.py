"""KiCad's own zone filler, through the pcbnew module of the system Python.

kicad-cli cannot fill zones without also checking the board, and boardwire's own
Python (often a virtualenv) cannot import pcbnew, so a small script runs under the
interpreter KiCad installed its module for (``$BOARDWIRE_PCBNEW_PYTHON``, else
``/usr/bin/python3`` and ``python3`` on PATH). It loads the snapshot, fills, saves; the
caller copies the fills back into the in-memory board.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

from ..errors import CheckFailed, ServiceUnavailable

_FILL = r'''
import sys, pcbnew
board = pcbnew.LoadBoard(sys.argv[1])
wanted = set(sys.argv[3:])
zones = [z for z in board.Zones() if not wanted or z.m_Uuid.AsString() in wanted]
pcbnew.ZONE_FILLER(board).Fill(zones)
pcbnew.SaveBoard(sys.argv[2], board)
print(len(zones))
'''


@functools.lru_cache(maxsize=1)
def pcbnew_python() -> str | None:
    """An interpreter that can import pcbnew, or None."""
    for c in (os.environ.get("BOARDWIRE_PCBNEW_PYTHON"), "/usr/bin/python3", shutil.which("python3")):
        if not c or not Path(c).exists():
            continue
        try:
            r = subprocess.run([c, "-c", "import pcbnew"], capture_output=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if r.returncode == 0:
            return c
    return None


def fill_zones(board_file: Path, out_file: Path, zone_ids: list[str], cancel=None,
               timeout: float = 3600) -> int:
    """Fill zones of ``board_file`` (all when ``zone_ids`` is empty) into ``out_file``;
    returns how many zones were filled."""
    python = pcbnew_python()
    if python is None:
        raise ServiceUnavailable(
            "filling zones needs KiCad's pcbnew Python module, which no python3 here imports",
            hint="Install KiCad 9 (it provides pcbnew for the system python3), or set "
                 "BOARDWIRE_PCBNEW_PYTHON to a Python that can import pcbnew.")
    from .cli import KiCadCli  # the same process-group handling as kicad-cli

    runner = KiCadCli(python, "KiCad's zone filler")
    r = runner.run(["-c", _FILL, str(board_file), str(out_file), *zone_ids], cancel=cancel,
                   timeout=timeout)
    if r.returncode != 0 or not out_file.exists():
        detail = (r.stderr or r.stdout).strip()[-500:] or "it wrote no board"
        raise CheckFailed(f"KiCad's zone filler ({python}) failed (exit {r.returncode}): {detail}")
    return int(r.stdout.strip().splitlines()[-1])
