"""Items added to KiCad 6 and 7 schematics are written as those versions wrote them:
their tokens (bare uuids, bare ``hide`` and ``fields_autoplaced``, a stroke colour in
KiCad 6 only) and their layout, checked against items of real KiCad 6/7 files of
../shared/corpus; KiCad 9 loads the result and its netlist is unchanged (the items
stand apart). Symbols and sheets stay refused there."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

import boardwire
from boardwire.errors import UnsupportedFormat
from boardwire.sexpr.file import SexprFile
from boardwire.sexpr.node import SList
from tests.inputs import CORPUS, need
from tests.oracle import netlist_nets

MM = 1_000_000
K6 = "Sleepdealr__RP2040-designguide/PCB/RP2040-Guide.kicad_sch"  # 20211123
K7 = "DangerousPrototypes__BusPirate5-hardware/bus_pirate_pcb/5-REV10A/leds.kicad_sch"  # 20230121
# more real items of each version to learn shapes from: KiCad 7 labels and no-connects,
# KiCad 7 bus entries
MORE = {20211123: [], 20230121: ["foostan__crkbd/pcbs/common/left.kicad_sch",
                                 "OLIMEX__RVPC/HARDWARE/RVPC_Rev.B/RVPC_Rev_B.kicad_sch"]}
UUID = rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def _shape(text: bytes) -> bytes:
    """An item's text with numbers, names and uuids masked: its shape."""
    text = re.sub(UUID, b"U", text)
    text = re.sub(rb'"[^"]*"', b'"S"', text)
    return re.sub(rb"-?\d+(\.\d+)?", b"N", text)


def _real_shapes(data: bytes, head: bytes) -> set[bytes]:
    """The shapes of the ``head`` items at the top of a real file, as written there."""
    root = SexprFile(data).root
    return {_shape(b"  " + kid.to_bytes()) for kid in root.kids
            if type(kid) is SList and kid.head_bytes() == head}


def _add_all(doc):
    return {b"wire": doc.add_wire([(10 * MM, 10 * MM), (20 * MM, 10 * MM)]),
            b"label": doc.add_label("BW_NET", (20 * MM, 10 * MM)),
            b"global_label": doc.add_label("BW_G", (20 * MM, 20 * MM), 180, kind="global_label"),
            b"junction": doc.add_junction((10 * MM, 10 * MM)),
            b"no_connect": doc.add_no_connect((30 * MM, 30 * MM)),
            b"bus_entry": doc.add_bus_entry((40 * MM, 40 * MM), (2_540_000, 2_540_000))}


@pytest.mark.parametrize("rel,version", [(K6, 20211123), (K7, 20230121)])
def test_new_items_take_the_files_own_tokens_and_layout(rel, version):
    src = need(CORPUS / rel)
    doc = boardwire.open(src)
    assert doc.version == version
    added = _add_all(doc)
    out = doc.to_bytes()
    references = [src.read_bytes()] + [need(CORPUS / m).read_bytes() for m in MORE[version]]
    kicad7 = [need(CORPUS / MORE[20230121][1]).read_bytes()]
    for head, item in added.items():
        text = b"  " + item.node.to_bytes()
        assert text in out
        assert b'(uuid "' not in text and b"(hide yes)" not in text and b"autoplaced yes" not in text
        coloured = head == b"junction" or (head in (b"wire", b"bus_entry") and version < 20230121)
        assert (b"(color 0 0 0 0)" in text) == coloured, text
        real = set().union(*(_real_shapes(data, head)
                             for data in (kicad7 if head == b"bus_entry" else references)))
        shape = _shape(text)
        if head in (b"label", b"global_label"):  # (fields_autoplaced): once autoplaced
            real = {r.replace(b" (fields_autoplaced)", b"") for r in real}
            shape = shape.replace(b" (fields_autoplaced)", b"")
        if head == b"global_label":  # real ones carry their Intersheet-references field
            real = {re.sub(rb"\n    \(property .*(?=\n  \))", b"", r, flags=re.S) for r in real}
        if head == b"bus_entry" and version < 20230121:  # KiCad 6's stroke colour (the RVPC file is 7's)
            real = {r.replace(b"(type default))", b"(type default) (color N N N N))") for r in real}
        assert shape in real, (text, sorted(real)[:3])
    assert doc.version == version


@pytest.mark.kicad
@pytest.mark.parametrize("rel", [K6, K7])
def test_kicad_loads_them_and_the_nets_stay(rel, tmp_path, kicad_cli):
    src = need(CORPUS / rel)
    shutil.copy(src, tmp_path / "orig.kicad_sch")
    doc = boardwire.open(tmp_path / "orig.kicad_sch")
    _add_all(doc)
    doc.save(tmp_path / "edited.kicad_sch")
    nets = {}
    for name in ("orig", "edited"):
        r = subprocess.run([kicad_cli, "sch", "export", "netlist", "--format", "kicadsexpr", "-o",
                            str(tmp_path / f"{name}.net"), str(tmp_path / f"{name}.kicad_sch")],
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        nets[name] = netlist_nets(tmp_path / f"{name}.net")
    assert nets["orig"] == nets["edited"]


def test_symbols_stay_refused_in_kicad_6_and_7():
    doc = boardwire.open(need(CORPUS / K7))
    lib = doc.symbols[0]
    with pytest.raises(UnsupportedFormat, match="KiCad 6 and 7 files take wire"):
        doc._place(lib.node, ("symbol",))


def test_kicad_10_schematics_change_values_and_take_new_items_newer_stay_read_only():
    """KiCad 10 (20260306) schematics are edited: a field value changes in place and a
    new wire is written (its KiCad 10 shape: tests/documents/test_kicad10.py); a
    nightly's newer format (20260326) is read but not changed."""
    src = need(CORPUS / "KiCad__kicad-source-mirror/qa/data/pcbnew/diff_pair_uncoupled_tuning_drc.kicad_sch")
    doc = boardwire.open(src)
    assert doc.version == 20260306
    sym = next(s for s in doc.symbols if s.field("Value"))
    sym.set_field("Value", "changed")
    out = doc.to_bytes()
    assert len(out.splitlines()) == len(src.read_bytes().splitlines())
    assert sum(a != b for a, b in zip(out.splitlines(), src.read_bytes().splitlines())) == 1
    doc.add_wire([(0, 0), (MM, 0)])
    assert doc.version == 20260306 and len(doc.wires) == 7
    nightly = boardwire.open(need(CORPUS / "KiCad__kicad-source-mirror/qa/data/eeschema/api_kitchen_sink.kicad_sch"))
    assert nightly.version == 20260326
    with pytest.raises(UnsupportedFormat, match="reads newer ones"):
        nightly.add_wire([(0, 0), (MM, 0)])
