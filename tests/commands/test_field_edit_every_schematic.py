"""A field edit on every KiCad 6, 7, 8, 9 and 10 schematic of KiCad's demos and
../shared/corpus, judged by KiCad 9 where it loads the file.

For each file (alone in a temporary folder, so it is its own root): sch.setField gives
one placed symbol (not a power symbol; its reference unique on the sheet) a new Value;
the saved file keeps its format version and changes only on the lines holding that
value (KiCad 6 files also hold it in ``symbol_instances``, which KiCad reads); and,
where KiCad 9 loads the original, ``kicad-cli sch export netlist`` of the edited file
differs from the original's by exactly that value (one component, same nets).

184 files (KiCad 6: 11, 7: 35, 8: 27, 9: 99, 10 and its nightlies: 12 when written;
KiCad 9 loads 171: the KiCad 10 ones are checked on their own text); two kicad-cli calls each,
the original's netlist kept in pytest's cache between runs, the files spread over the
xdist workers.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from boardwire.errors import ParseError
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from boardwire.sexpr import atoms
from boardwire.sexpr.file import SexprFile
from tests.inputs import CORPUS, DEMOS, need
from tests.oracle import netlist_nets

pytestmark = [pytest.mark.kicad, pytest.mark.heavy(minutes=4)]

FIRST, LAST = 20211123, 20260306  # KiCad 6's first schematic format .. KiCad 10's
_VERSION = re.compile(rb"\(version (\d+)\)")


def _schematics() -> list[tuple[str, Path]]:
    out = []
    for base, root in (("demos", DEMOS), ("corpus", CORPUS)):
        for p in sorted(root.rglob("*.kicad_sch")) if root.is_dir() else []:
            m = _VERSION.search(p.read_bytes()[:4000])
            if m and FIRST <= int(m.group(1)) <= LAST:
                out.append((f"{base}/{p.relative_to(root)}", p))
    return out


FILES = _schematics()


def _netlist(kicad_cli: str, sch: Path, out: Path) -> Path | None:
    r = subprocess.run([kicad_cli, "sch", "export", "netlist", "--format", "kicadsexpr",
                        "-o", str(out), str(sch)], capture_output=True, text=True, timeout=600)
    return out if r.returncode == 0 and out.exists() else None


def _original_netlist(kicad_cli: str, src: Path, work: Path, cache) -> Path | None:
    """The original's netlist, kept in pytest's cache (keyed by the file's bytes)."""
    key = hashlib.sha256(src.read_bytes()).hexdigest()[:32]
    folder = Path(cache.mkdir("kicad9-netlists"))
    hit, refused = folder / f"{key}.net", folder / f"{key}.refused"
    if hit.exists():
        return hit
    if refused.exists():
        return None
    alone = work / "orig"
    alone.mkdir()
    shutil.copy(src, alone / src.name)
    made = _netlist(kicad_cli, alone / src.name, alone / "orig.net")
    if made is None:
        refused.write_text("KiCad 9 did not load it")
        return None
    shutil.copy(made, hit)
    return hit


def _components(netlist: Path) -> Counter:
    tree = SexprFile(netlist.read_bytes()).root
    return Counter((atoms.text(c.find("ref").atoms()[0]), atoms.text(c.find("value").atoms()[0]))
                   for c in tree.find("components").lists("comp"))


@pytest.mark.parametrize("src", [p for _, p in FILES], ids=[i for i, _ in FILES])
def test_a_value_edit_is_exactly_that_for_kicad(src, tmp_path, kicad_cli, request):
    work = tmp_path / "edit"
    work.mkdir()
    target = work / src.name
    shutil.copy(src, target)
    target.chmod(0o644)
    before = target.read_bytes()
    original = _original_netlist(kicad_cli, src, tmp_path, request.config.cache)
    session = Session(work)
    ctx = Context(session)
    try:
        listed = REGISTRY.call("query.symbols", {"path": src.name, "power": False, "limit": 5000}, ctx)
    except ParseError:
        assert original is None, "boardwire refuses a file KiCad 9 loads"
        return  # refused by both (a ';' comment: corpus/bugs)
    rows = listed.get("symbols") or listed.get("items") or []
    counts = Counter(r["reference"] for r in rows)
    # a part of the netlist (on the board), named once (not one unit of several), whose
    # value is plain text (KiCad expands ${SIM.PARAMS} and other variables in netlists)
    fit = [r for r in rows if counts[r["reference"]] == 1 and r.get("value")
           and r.get("on_board", True) and "${" not in r["value"] and not r["reference"].endswith("?")]
    # KiCad shows a sub-sheet alone with "R?" for symbols whose instances name another
    # root: prefer one KiCad's netlist names as boardwire does, so it can be told apart
    named = {ref for ref, _ in _components(original)} if original is not None else None
    pick = next((r for r in fit if named is None or r["reference"] in named), fit[0] if fit else None)
    if pick is None:  # nothing to edit: sheets, labels, power symbols or multi-unit parts only
        theirs = {ref for ref, _ in _components(original)} if original is not None else set()
        assert all(counts[ref] > 1 or ref.endswith("?") for ref in theirs), \
            "KiCad lists parts boardwire did not"
        return
    new = f"{pick['value']}-bw"
    REGISTRY.call("sch.setField", {"path": src.name, "reference": pick["reference"], "field": "Value",
                                   "value": new}, ctx)
    session.save(src.name)
    after = target.read_bytes()
    assert _VERSION.search(after[:4000]).group(1) == _VERSION.search(before[:4000]).group(1)
    old_lines, new_lines = before.splitlines(), after.splitlines()
    assert len(old_lines) == len(new_lines)
    changed = [(a, b) for a, b in zip(old_lines, new_lines) if a != b]
    assert changed and all(b == a.replace(atoms.quote(pick["value"]), atoms.quote(new))
                           for a, b in changed), changed[:3]
    if original is None:
        return  # KiCad 9 refuses the original too: the edit itself is what is checked
    edited = _netlist(kicad_cli, target, work / "edited.net")
    assert edited is not None, "KiCad 9 loads the original but not the edited file"
    if pick["reference"] not in named:
        return  # KiCad names every part of this sheet alone "R?": loading it is the check
    # parts left unannotated ("R?") are told apart by nothing: KiCad merges them
    was, now = (Counter({k: n for k, n in _components(x).items() if not k[0].endswith("?")})
                for x in (original, edited))
    gone, came = was - now, now - was
    assert len(gone) == len(came) == 1, (gone, came)
    (ref_a, val_a), (ref_b, val_b) = next(iter(gone)), next(iter(came))
    assert ref_a == ref_b and val_a == pick["value"] and val_b == new
    assert netlist_nets(original) == netlist_nets(edited)


def _copy_project(src_dir: Path, dst: Path) -> Path:
    dst.mkdir()
    for p in src_dir.iterdir():
        if p.suffix in (".kicad_sch", ".kicad_pro") or p.name == "sym-lib-table":
            shutil.copy(p, dst / p.name)
            (dst / p.name).chmod(0o644)
    return dst


def test_kicad_6_references_and_sub_sheet_values_go_where_kicad_reads_them(tmp_path, kicad_cli):
    """In a KiCad 6 hierarchy the root's ``symbol_instances`` hold each instance's
    reference, value and footprint (KiCad 9 reads those): a Reference edit on the root
    and a Value edit on a sub-sheet (hackrf-one's mcu sheet) land there, in KiCad 6's
    own tokens (no ``instances`` list, which KiCad 6 files do not have)."""
    src = need(CORPUS / "greatscottgadgets__hackrf/hardware/hackrf-one")
    work = _copy_project(src, tmp_path / "hackrf")
    before = _netlist(kicad_cli, work / "hackrf-one.kicad_sch", tmp_path / "before.net")
    session = Session(work)
    ctx = Context(session)
    rows = REGISTRY.call("query.symbols", {"path": "hackrf-one.kicad_sch", "power": False,
                                           "limit": 5000}, ctx)["symbols"]
    counts = Counter(r["reference"] for r in rows)
    sub = next(r for r in rows if r["sheet"] != "/" and counts[r["reference"]] == 1
               and r.get("on_board", True) and r.get("value"))
    other = next(r for r in rows if r["reference"] != sub["reference"] and counts[r["reference"]] == 1
                 and r.get("on_board", True) and not r["reference"].endswith("?"))
    REGISTRY.call("sch.setField", {"path": "hackrf-one.kicad_sch", "reference": sub["reference"],
                                   "field": "Value", "value": sub["value"] + "-bw"}, ctx)
    REGISTRY.call("sch.setField", {"path": "hackrf-one.kicad_sch", "reference": other["reference"],
                                   "field": "Reference", "value": other["reference"] + "0"}, ctx)
    for od in list(session.documents.values()):
        if od.modified:
            session.save(od.path)
    assert not any(b"(instances" in p.read_bytes() for p in work.glob("*.kicad_sch"))
    after = _netlist(kicad_cli, work / "hackrf-one.kicad_sch", tmp_path / "after.net")
    was, now = _components(before), _components(after)
    assert was - now == Counter({(sub["reference"], sub["value"]): 1,
                                 (other["reference"], other["value"]): 1})
    assert now - was == Counter({(sub["reference"], sub["value"] + "-bw"): 1,
                                 (other["reference"] + "0", other["value"]): 1})
