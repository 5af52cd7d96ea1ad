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
out = {"footprints": [], "tracks": [], "vias": [], "zones": [], "drawings": [], "nets": []}
for fp in b.GetFootprints():
    out["footprints"].append({
        "uuid": fp.m_Uuid.AsString(), "reference": fp.GetReference(), "value": fp.GetValue(),
        "lib_id": fp.GetFPIDAsString(),
        "x": fp.GetPosition().x, "y": fp.GetPosition().y,
        "angle": fp.GetOrientationDegrees(), "layer": b.GetStandardLayerName(fp.GetLayer()),
        "fields": sorted([str(f.GetName()), str(f.GetText())] for f in fp.GetFields()),
        "dnp": fp.IsDNP(), "exclude_from_bom": fp.IsExcludedFromBOM(),
        "pads": sorted([p.GetNumber(), p.GetPosition().x, p.GetPosition().y, p.GetNetname(),
                        round(p.GetOrientationDegrees(), 6), b.GetStandardLayerName(p.GetLayer())]
                       for p in fp.Pads())})
for z in b.Zones():
    o = z.Outline()
    out["zones"].append({"uuid": z.m_Uuid.AsString(), "net": z.GetNetname(),
                         "layers": [b.GetStandardLayerName(l) for l in z.GetLayerSet().Seq()],
                         "outline": [[o.CVertex(i).x, o.CVertex(i).y] for i in range(o.TotalVertices())],
                         "filled": z.IsFilled()})
for d in b.GetDrawings():
    rec = {"uuid": d.m_Uuid.AsString(), "class": d.GetClass(), "layer": b.GetStandardLayerName(d.GetLayer())}
    if d.GetClass() == "PCB_SHAPE":
        rec.update(shape=d.GetShapeStr(), start=[d.GetStart().x, d.GetStart().y], end=[d.GetEnd().x, d.GetEnd().y])
    elif d.GetClass() == "PCB_TEXT":
        t = d.Cast()
        rec.update(text=str(t.GetText()), at=[t.GetPosition().x, t.GetPosition().y],
                   angle=t.GetTextAngleDegrees(), mirrored=t.IsMirrored())
    out["drawings"].append(rec)
out["nets"] = sorted(str(n) for n in b.GetNetsByName().keys() if str(n))
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


def pcbnew_apply_dump(python: str, board: Path, code: str) -> dict:
    """Load ``board`` in pcbnew, run ``code`` (with ``b`` the board and ``fp(ref)``
    finding a footprint), then dump what pcbnew holds: KiCad doing the edit itself."""
    script = _DUMP.replace("b = pcbnew.LoadBoard(sys.argv[1])",
                           "b = pcbnew.LoadBoard(sys.argv[1])\n"
                           "fp = lambda ref: b.FindFootprintByReference(ref)\n" + code)
    r = subprocess.run([python, "-c", script, str(board)], capture_output=True, text=True,
                       timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"pcbnew failed on {board}: {r.stderr[-2000:]}")
    return json.loads(r.stdout)


def netlist_nets(netlist: Path) -> dict:
    """Net name -> {REF.PIN} of a netlist kicad-cli exported (``--format kicadsexpr``)."""
    from boardwire.sexpr import atoms
    from boardwire.sexpr.file import SexprFile

    tree = SexprFile(netlist.read_bytes(), str(netlist)).root
    nets = {}
    for net in tree.find("nets").lists("net"):
        name = atoms.text(net.find("name").atoms()[0])
        nets[name] = frozenset(f"{atoms.text(n.find('ref').atoms()[0])}.{atoms.text(n.find('pin').atoms()[0])}"
                               for n in net.lists("node"))
    return nets
