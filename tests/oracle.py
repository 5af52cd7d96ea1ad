"""KiCad's own reading of a board, through pcbnew in the system python.

`pcbnew_dump` runs a small script under Debian's python3 (where KiCad installs its
``pcbnew`` module) and returns, in nanometres, what pcbnew holds after LoadBoard:
footprints (reference, position, orientation, pad positions), tracks, vias.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

_DUMP = r'''
import json, sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
out = {"footprints": [], "tracks": [], "vias": []}
for fp in b.GetFootprints():
    out["footprints"].append({
        "uuid": fp.m_Uuid.AsString(), "reference": fp.GetReference(),
        "x": fp.GetPosition().x, "y": fp.GetPosition().y,
        "angle": fp.GetOrientationDegrees(),
        "pads": [[p.GetNumber(), p.GetPosition().x, p.GetPosition().y, p.GetNetname()]
                 for p in fp.Pads()]})
for t in b.GetTracks():
    c = t.GetClass()
    if c == "PCB_VIA":
        out["vias"].append({"uuid": t.m_Uuid.AsString(), "x": t.GetPosition().x,
                            "y": t.GetPosition().y, "size": t.GetWidth(pcbnew.F_Cu),
                            "drill": t.GetDrillValue(), "net": t.GetNetname()})
    else:
        out["tracks"].append({"uuid": t.m_Uuid.AsString(), "kind": c,
                              "start": [t.GetStart().x, t.GetStart().y],
                              "end": [t.GetEnd().x, t.GetEnd().y], "width": t.GetWidth(),
                              "layer": b.GetStandardLayerName(t.GetLayer()), "net": t.GetNetname()})
json.dump(out, sys.stdout)
'''

_RESAVE = r'''
import sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1])
pcbnew.SaveBoard(sys.argv[2], b)
'''


def pcbnew_dump(python: str, board: Path) -> dict:
    r = subprocess.run([python, "-c", _DUMP, str(board)], capture_output=True, text=True,
                       timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"pcbnew could not load {board}: {r.stderr[-2000:]}")
    return json.loads(r.stdout)


def pcbnew_resave(python: str, board: Path, out: Path) -> None:
    """Load ``board`` in pcbnew and SaveBoard it to ``out`` (KiCad's own formatting)."""
    r = subprocess.run([python, "-c", _RESAVE, str(board), str(out)], capture_output=True,
                       text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"pcbnew could not re-save {board}: {r.stderr[-2000:]}")
