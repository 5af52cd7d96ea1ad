"""KiCad 9's layout, regenerated: for every list of every file KiCad 9 wrote (the demos
and the corpus), laying the parsed list out again gives the bytes KiCad wrote."""

from __future__ import annotations

from collections import Counter

import pytest

from boardwire.sexpr.file import SexprFile
from boardwire.sexpr.node import SList
from boardwire.sexpr.pretty import kicad9_text, legacy_text, as_tree
from tests.inputs import DEMOS, corpus_files, kicad_files, need

KICAD9_MARK = b'(generator_version "9.0")'


def kicad9_files():
    files = kicad_files(need(DEMOS), (".kicad_pcb", ".kicad_sch", ".kicad_mod", ".kicad_sym"), ())
    files += corpus_files((".kicad_pcb", ".kicad_sch", ".kicad_mod", ".kicad_sym"), ())
    out = []
    for f in files:
        if f.stat().st_size > 20_000_000:
            continue
        with open(f, "rb") as fh:
            if KICAD9_MARK in fh.read(4000):
                out.append(f)
    return out


def has_teardrop_quirk(node: SList) -> bool:
    """Lists KiCad's own writer indented wrongly (a '(' missing in its output)."""
    return any(k.implicit or has_teardrop_quirk(k) for k in node.kids if type(k) is SList)


@pytest.mark.heavy(minutes=1.6)
def test_every_kicad9_list_is_laid_out_as_kicad_lays_it_out():
    files = kicad9_files()
    assert len(files) > 40
    kinds: Counter = Counter()
    checked = 0
    for path in files:
        data = path.read_bytes()
        f = SexprFile(data, str(path))
        quirky = False
        for ws, kid in zip(f.root.ws, f.root.kids):
            if type(kid) is bytes:
                continue
            if quirky or has_teardrop_quirk(kid):
                quirky = True  # indentation after a quirk is off by one in KiCad's file
                continue
            pre, text = kicad9_text(kid, 1)
            assert (pre, text) == (ws, kid.to_bytes()), f"{path}: {kid.head} differs"
            checked += 1
            stack = [kid]
            while stack:
                n = stack.pop()
                kinds[n.head] += 1
                stack.extend(k for k in n.kids if type(k) is SList)
        if not quirky:  # the whole file, root included, with its final newline
            assert kicad9_text(f.root, 0)[1] + b"\n" == data, path
    assert checked > 80000
    # the node kinds a board and a schematic are made of were all among them
    for kind in ("footprint", "pad", "segment", "via", "arc", "zone", "filled_polygon",
                 "gr_line", "gr_text", "property", "dimension", "group", "symbol", "wire",
                 "label", "global_label", "hierarchical_label", "junction", "no_connect",
                 "sheet", "lib_symbols", "instances", "bus", "pin"):
        assert kinds[kind] > 0, kind


def test_xy_runs_share_lines_until_column_99():
    node = as_tree(b"(pts " + b" ".join(b"(xy %d.123456 %d.654321)" % (i, i) for i in range(12)) + b")")
    _, text = kicad9_text(node, 3)
    lines = text.split(b"\n")
    assert lines[0] == b"(pts"
    assert all(line.startswith(b"\t\t\t\t(xy") for line in lines[1:-1])
    assert max(len(line.replace(b"\t", b" ")) for line in lines) < 99 + 30
    assert len(lines) > 3 and lines[-1] == b"\t\t\t)"


def test_long_atom_runs_wrap_after_column_72():
    node = as_tree(b"(members " + b" ".join(b'"%036d"' % i for i in range(4)) + b")")
    _, text = kicad9_text(node, 2)
    u = [b'"%036d"' % i for i in range(4)]
    # a space is kept while the line is short of column 72; past it, a new line
    assert text == (b"(members " + u[0] + b" " + u[1] + b"\n\t\t\t" + u[2] + b" " + u[3]
                    + b"\n\t\t)")


def test_legacy_layout_is_two_space_and_compact():
    node = as_tree(b"(segment (start 1 2) (end 3 4) (width 0.25) (layer F.Cu) (net 1) (tstamp 0))")
    pre, text = legacy_text(node, 1)
    assert pre == b"\n  " and text.count(b"\n") == 0
