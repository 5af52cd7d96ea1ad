"""Numbers and strings as KiCad reads and writes them."""

from __future__ import annotations

import pytest

from boardwire.sexpr import atoms
from boardwire.sexpr.file import SexprFile
from boardwire.sexpr.node import SList
from tests.inputs import DEMOS, need

COORD_HEADS = {b"at", b"xy", b"start", b"end", b"mid", b"center", b"size", b"width",
               b"thickness", b"drill", b"clearance", b"min_thickness"}


@pytest.mark.parametrize("nm, text", [
    (0, "0"), (1, "0.000001"), (-1, "-0.000001"), (100, "0.0001"), (1_500_000, "1.5"),
    (203_179_680, "203.17968"), (204_179_680, "204.17968"), (-45_720_000, "-45.72"),
    (1_234_567_891, "1234.567891"), (150, "0.00015"),
])
def test_mm_spelling(nm, text):
    assert atoms.mm(nm) == text.encode()
    assert atoms.to_nm(text.encode()) == nm


@pytest.mark.parametrize("text, nm", [
    (b"1e-05", 10), (b"1.5E+01", 15_000_000), (b"-0", 0), (b".5", 500_000),
    (b"0.0000005", 1),  # KiCad rounds half away from zero
    (b"-0.0000005", -1),
])
def test_reading_exponents_and_rounding(text, nm):
    assert atoms.to_nm(text) == nm


def test_every_coordinate_in_the_kicad9_demos_is_spelled_as_we_spell_it():
    seen = 0
    for name in ("video/video.kicad_pcb", "pic_programmer/pic_programmer.kicad_pcb",
                 "complex_hierarchy/complex_hierarchy.kicad_sch",
                 "tiny_tapeout/tinytapeout-demo.kicad_pcb"):
        f = SexprFile(need(DEMOS / name).read_bytes())
        stack = [f.root]
        while stack:
            n = stack.pop()
            kids = n.kids
            if kids and kids[0] in COORD_HEADS:
                for a in kids[1:]:
                    if type(a) is bytes and a[:1] in b"-0123456789.":
                        assert atoms.mm(atoms.to_nm(a)) == a, (name, n)
                        seen += 1
            stack.extend(k for k in kids if type(k) is SList)
    assert seen > 100_000


@pytest.mark.parametrize("value, token", [
    ("plain", b'"plain"'), ('say "hi"', b'"say \\"hi\\""'), ("a\\b", b'"a\\\\b"'),
    ("two\nlines", b'"two\\nlines"'), ("tab\there", b'"tab\there"'), ("µ Ω", '"µ Ω"'.encode()),
])
def test_quote_and_unquote(value, token):
    assert atoms.quote(value) == token
    assert atoms.text(token) == value
    assert b"\n" not in atoms.quote(value)  # never a raw line break in a string


def test_unquote_kicad_escapes_and_old_atoms():
    assert atoms.text(b'"\\x41\\101\\t"') == "AA\t"
    assert atoms.text(b"|+S-|") == "+S-"
    assert atoms.text("70µm".encode()) == "70µm"
