"""New items are written exactly as KiCad 9 writes them.

For boards the oracle is pcbnew itself: we add items, save, let pcbnew load and
re-save the board (SaveBoard), and compare each of our items with the item of the same
UUID in KiCad's file. KiCad's load+save is not byte-stable for whole files, so the
comparison is item by item.

Schematics have no headless re-save in KiCad 9 (kicad-cli has no ``sch upgrade``), so
what stands in is: the new items have the children, order and defaults of the same
items eeschema wrote in the KiCad 9 demos, their layout is the one test_pretty proves
equal to eeschema's for every list of those demos, and kicad-cli loads the result and
puts the new wire and label on one net.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

import boardwire
from boardwire.sexpr.file import SexprFile
from boardwire.sexpr.node import SList
from tests.inputs import DEMOS, FOOTPRINTS, need
from tests.oracle import pcbnew_resave

pytestmark = pytest.mark.kicad

MM = 1_000_000


def kicad_items(path: Path) -> dict[str, SList]:
    """Top-level items (and footprints) of a KiCad-written board by UUID."""
    out = {}
    for kid in SexprFile(path.read_bytes()).root.kids:
        if type(kid) is SList:
            u = kid.find("uuid")
            if u is not None:
                out[boardwire.sexpr.atoms.text(u.atoms()[0])] = kid
    return out


def sample_footprints(n: int, seed: int = 9) -> list[Path]:
    libs = sorted(p for p in need(FOOTPRINTS).iterdir() if p.suffix == ".pretty")
    rng = random.Random(seed)
    picks = []
    for lib in rng.sample(libs, min(n, len(libs))):
        mods = sorted(lib.glob("*.kicad_mod"))
        if mods:
            picks.append(rng.choice(mods))
    return picks


def test_placed_footprints_tracks_vias_zones_equal_pcbnew(tmp_path, pcbnew_python):
    src = need(DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb")
    board = boardwire.open(src)
    nets = [n.name for n in board.nets if n.number > 0]
    added = []
    angles = [0, 90, 180, -90, 45, -137.5]
    for i, mod in enumerate(sample_footprints(36)):
        lib = boardwire.open(mod)
        pads = sorted({p.number for p in lib.pads if p.number})
        fp = board.add_footprint(lib, f"{mod.parent.stem}:{mod.stem}",
                                 (60 * MM + (i % 6) * 25 * MM, 40 * MM + (i // 6) * 25 * MM),
                                 angles[i % len(angles)], reference=f"U{900 + i}", value=mod.stem,
                                 pad_nets={p: nets[j % len(nets)] for j, p in enumerate(pads)})
        added.append(fp)
    added.append(board.add_track((10 * MM, 10 * MM), (20_500_000, 10 * MM), 250_000, "F.Cu", 1))
    added.append(board.add_track((20_500_000, 10 * MM), (20_500_000, 3_333_333), 200_000, "B.Cu", 1))
    added.append(board.add_via((20_500_000, 10 * MM), 600_000, 300_000, net=1))
    added.append(board.add_zone([(0, 0), (30 * MM, 0), (30 * MM, 20 * MM), (0, 20 * MM)], "B.Cu", nets[0]))
    added.append(board.add_zone([(0, 0), (30 * MM, 0), (15 * MM, 20 * MM)], "F.Cu", nets[1],
                                priority=3, name="hot", clearance=300_000))
    ours = board.save(tmp_path / "ours.kicad_pcb")
    theirs = tmp_path / "theirs.kicad_pcb"
    pcbnew_resave(pcbnew_python, ours, theirs)
    kicad = kicad_items(theirs)
    for item in added:
        assert item.uuid in kicad, f"KiCad dropped {item.kind} {item.uuid}"
        assert item.node.to_bytes() == kicad[item.uuid].to_bytes(), (
            f"{item.kind} {getattr(item, 'lib_id', '')} differs from KiCad's")


def test_new_schematic_items_match_eeschema_and_connect(tmp_path, kicad_cli):
    folder = need(DEMOS / "complex_hierarchy")
    for f in folder.glob("*.kicad_*"):
        shutil.copy(f, tmp_path / f.name)
    sub = tmp_path / "ampli_ht.kicad_sch"  # one file, two sheet instances
    sch = boardwire.open(sub)
    # a new wire from the end of an existing wire (on a pin's net) to a new label
    x, y = sch.wires[0].points[0]
    w = sch.add_wire([(x, y), (x, y - 5_080_000)])
    lab = sch.add_label("BW_NEW_NET", (x, y - 5_080_000))
    glob = sch.add_label("BW_GLOBAL", (20 * MM, 20 * MM), kind="global_label", shape="output")
    j = sch.add_junction((x, y))
    nc = sch.add_no_connect((40 * MM, 40 * MM))
    sch.save()

    kicad = SexprFile((folder / "complex_hierarchy.kicad_sch").read_bytes())
    kicad_sub = SexprFile((folder / "ampli_ht.kicad_sch").read_bytes())
    exemplars = {}
    for k in kicad.root.kids + kicad_sub.root.kids:
        if type(k) is SList:
            exemplars.setdefault(k.head, k)
    for item in (w, lab, j, nc):
        mine = [c.head for c in item.node.lists()]
        theirs = [c.head for c in exemplars[item.kind].lists()]
        assert mine == theirs, item.kind
        # each new list is indented the way KiCad 9 indents such a list
        assert item.node.to_bytes().count(b"\n\t\t") == exemplars[item.kind].to_bytes().count(b"\n\t\t")
    assert [c.head for c in glob.node.lists()] == ["shape", "at", "fields_autoplaced", "effects", "uuid"]

    net = tmp_path / "out.net"
    r = subprocess.run([kicad_cli, "sch", "export", "netlist", "--format", "kicadsexpr",
                        "-o", str(net), str(tmp_path / "complex_hierarchy.kicad_sch")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = net.read_text()
    # the label names the pin net of both instances of the reused sheet
    for inst in ("ampli_ht_horizontal", "ampli_ht_vertical"):
        start = text.index(f'(name "/{inst}/BW_NEW_NET")')
        assert "(node " in text[start:text.index("(net ", start + 1)]


def test_no_token_newer_than_the_file(tmp_path):
    """Into a KiCad 7 board a KiCad 9 library footprint is refused (it would bring
    KiCad 8+ tokens); tracks and vias are written with KiCad 7's tokens."""
    from boardwire.errors import UnsupportedFormat
    from tests.inputs import CORPUS

    src = CORPUS / "DangerousPrototypes__BusPirate5-hardware/bus_pirate_pcb/5-REV10A/REV10a.kicad_pcb"
    board = boardwire.open(need(src))
    assert board.version == 20221018
    lib = boardwire.open(need(FOOTPRINTS / "Resistor_SMD.pretty" / "R_0805_2012Metric.kicad_mod"))
    with pytest.raises(UnsupportedFormat) as e:
        board.add_footprint(lib, "Resistor_SMD:R_0805_2012Metric", (0, 0))
    assert "KiCad 9" in e.value.hint and board.edits == 0
    via = board.add_via((MM, MM), 600_000, 300_000, net=1)
    text = via.node.to_bytes()
    assert b"(tstamp " in text and b"(uuid" not in text and text.count(b"\n") == 0
    v5 = boardwire.open(CORPUS / "OLIMEX__ESP32-POE/HARDWARE/ESP32-PoE-hardware-revision-L1/ESP32-PoE_Rev_L1.kicad_pcb")
    assert v5.version == 20171130
    t = v5.add_track((0, 0), (MM, 0), 250_000, "F.Cu", 1).node.to_bytes()
    assert b"(layer F.Cu)" in t and b"(tstamp " in t and len(t.split(b"(tstamp ")[1].rstrip(b")")) == 8
