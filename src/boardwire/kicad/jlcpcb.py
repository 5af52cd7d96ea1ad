"""JLCPCB's assembly files from kicad-cli's: pure text rewrites, no KiCad needed.

Sources: JLCPCB's help center, "How to generate BOM and Centroid files from KiCAD 8?"
(jlcpcb.com/help/article/how-to-generate-bom-and-centroid-files-from-kicad-8: BOM
columns Comment, Designator, Footprint and the LCSC part number; CPL linked to the BOM
by designator) and "How to generate Gerber and Drill files in KiCad 7" (article 362,
as read in yaqwsx/KiKit#650 and #688 and bennymeg/Fabrication-Toolkit#140: Protel
extensions, absolute origin, Excellon in mm, PTH and NPTH in separate files); the CPL
column names Designator, Mid X, Mid Y, Layer, Rotation as KiBot's JLCPCB notes
(kibot.readthedocs.io, notes_position) and JLC's EasyEDA write them.

- BOM: Comment (the value), Designator (every reference, comma-separated, no ranges),
  Footprint (without the library name), "LCSC Part #" (a field named like LCSC, "LCSC
  Part", "JLCPCB Part #"; empty when there is none); one row per KiCad group.
- CPL: KiCad's position rows with JLC's column names, Layer Top/Bottom; positions and
  rotations as KiCad wrote them (mm, degrees; no per-footprint rotation corrections).

`bom` reads the CSV ``kicad-cli sch export bom`` writes (or `board_bom.to_csv`):
Reference, Value, Footprint, Qty, then any part-number fields; `cpl` reads
``kicad-cli pcb export pos --format csv`` (Ref, Val, Package, PosX, PosY, Rot, Side).
"""

from __future__ import annotations

import csv
import io
import re

BOM_HEADER = ("Comment", "Designator", "Footprint", "LCSC Part #")
CPL_HEADER = ("Designator", "Mid X", "Mid Y", "Layer", "Rotation")
# Field names people give the LCSC/JLCPCB part number, compared lower-case without
# spaces and punctuation: LCSC, "LCSC Part #", LCSC#, "JLCPCB Part #", ...
PART_FIELD_KEYS = {"lcsc", "lcscpart", "lcscpartnumber", "lcscpartno", "lcscpn", "jlcpcbpart",
                   "jlcpcbpartnumber", "jlcpcbpartno", "jlcpart", "jlcpcbpn"}
_LAYERS = {"top": "Top", "bottom": "Bottom"}
_RANGE = re.compile(r"^(.*?)(\d+)-\1(\d+)$")


def is_part_field(name: str) -> bool:
    return re.sub(r"[^a-z0-9]", "", name.lower()) in PART_FIELD_KEYS


def expand_refs(refs: str) -> list[str]:
    """``"C1,R1-R3"`` -> ``["C1", "R1", "R2", "R3"]`` (KiCad's range shorthand undone)."""
    out = []
    for part in (p.strip() for p in refs.split(",")):
        m = _RANGE.match(part)
        if m and int(m.group(2)) < int(m.group(3)):
            out += [f"{m.group(1)}{n}" for n in range(int(m.group(2)), int(m.group(3)) + 1)]
        elif part:
            out.append(part)
    return out


def _write(header, rows) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def bom(kicad_csv: str) -> str:
    """JLCPCB's BOM of a grouped KiCad BOM: one row per input row; the footprint
    without its library name; the first non-empty part-number field, else empty."""
    reader = csv.DictReader(io.StringIO(kicad_csv))
    parts = [f for f in reader.fieldnames or () if is_part_field(f)]
    rows = []
    for r in reader:
        footprint = r["Footprint"].split(":", 1)[-1]
        part = next((r[f].strip() for f in parts if r[f].strip()), "")
        rows.append((r["Value"], ",".join(expand_refs(r["Reference"])), footprint, part))
    return _write(BOM_HEADER, rows)


def cpl(kicad_pos_csv: str) -> str:
    """JLCPCB's CPL of a KiCad position file: the same rows, JLC's columns."""
    rows = [(r["Ref"], r["PosX"], r["PosY"], _LAYERS.get(r["Side"], r["Side"]), r["Rot"])
            for r in csv.DictReader(io.StringIO(kicad_pos_csv))]
    return _write(CPL_HEADER, rows)
