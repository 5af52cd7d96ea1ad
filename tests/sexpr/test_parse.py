"""The exact reader: what KiCad accepts is read, what it refuses is refused with a
position, and every byte survives."""

from __future__ import annotations

import pytest

from boardwire.errors import ParseError
from boardwire.sexpr.file import SexprFile
from boardwire.sexpr.node import SList
from boardwire.sexpr.parse import parse_bytes, tokens
from tests.inputs import DEMOS, need


def roundtrip(text: bytes) -> SexprFile:
    f = SexprFile(text, "t.kicad_pcb")
    assert f.to_bytes() == text
    for kid in f.root.kids:  # reading every child must not change a byte either
        if type(kid) is SList:
            kid.kids
    assert f.to_bytes() == text
    return f


def test_tokens_cover_every_byte():
    text = b'(a "b \\" c" |x y\n z| 70\xc2\xb5m ~ 10,000uF 1e-05)\n'
    toks = tokens(text)
    assert b"".join(toks) == text
    assert b'"b \\" c"' in toks and b"|x y\n z|" in toks and b"70\xc2\xb5m" in toks


@pytest.mark.parametrize("text", [
    b"(kicad_pcb (version 3) (net 1 /Control/~TRST~) (value .1uF))\n",
    b"(kicad_pcb\r\n\t(a 1)\r\n\t(b 2)\r\n)\r\n",  # CRLF stays CRLF
    b'(kicad_pcb (descr ab"c) (x 10"))\n',  # a quote inside a symbol is part of it
    b"(kicad_pcb\n# a comment line KiCad skips (\n  (a 1))\n",
    b"(kicad_pcb (data |KLUv/aBn\n\t\t\tggYATDMC+|))\n",
])
def test_odd_but_valid_files_roundtrip(text):
    roundtrip(text)


def test_teardrop_missing_paren_is_kept_and_structured():
    text = (b"(kicad_pcb\n\t(pad \"1\" smd\n\t\t(teardrops\n\t\t\t(max_width 2)\n"
            b"\t\t\t(curved_edges no)filter_ratio 0.9)\n\t\t(enabled yes)\n\t)\n)\n)\n")
    f = roundtrip(text)
    pad = f.root.find("pad")
    td = pad.find("teardrops")
    assert [k.head for k in td.lists()] == ["max_width", "curved_edges", "filter_ratio", "enabled"]
    assert td.find("filter_ratio").implicit
    # the pad still owns what KiCad gives it, and the root closes where KiCad closes it
    assert f.root.kids[-1] is pad
    assert f.fast  # the fast scan models the leniency: no whole-file exact parse


def exact_shape(node: SList):
    """Children, whitespace and the implicit flag of every list, recursively."""
    return ([exact_shape(k) if type(k) is SList else k for k in node.kids],
            list(node.ws), node.tail, node.implicit)


@pytest.mark.parametrize("text, fast", [
    # nested deeper, two implicit lists, a teardrops list inside an implicit one
    (b"(kicad_pcb\n\t(footprint \"R\"\n\t\t(pad \"1\" smd\n\t\t\t(teardrops (a 1)b 2)c"
     b" 3)\n\t\t\t(x \"(teardrops y)\"))))\n\t(legacy_teardrops no)\n)\n", True),
    (b"(kicad_pcb\n\t(via\n\t\t(teardrops (a 1)teardrops x 2)(b 1))) e)\n)\n", True),
    # forms only the exact reader judges: the fast scan declines them
    (b"(kicad_pcb\n\t(via\n\t\t( teardrops (a 1)b 2)))\n)\n", False),
    (b"(kicad_pcb\n\t(teardrops (a 1)b 2))\n)\n", True),
    (b"(teardrops\n\t(a 1)b 2)\n)\n", False),  # an implicit list at the top level
])
def test_teardrop_leniency_fast_scan_equals_exact_reader(text, fast):
    f = roundtrip(text)
    assert f.fast is fast
    _, exact, _ = parse_bytes(text)
    assert exact_shape(f.root) == exact_shape(exact)


def test_royalblue_teardrops_read_by_the_fast_scan_as_the_exact_reader_reads_them():
    path = need(DEMOS / "royalblue54L_feather" / "RoyalBlue54L-Feather.kicad_pcb")
    data = path.read_bytes()
    f = SexprFile(data, str(path))
    assert f.fast
    shape = exact_shape(f.root)
    assert f.to_bytes() == data
    _, exact, _ = parse_bytes(data, str(path))
    assert shape == exact_shape(exact)


@pytest.mark.parametrize("text, line, col, words", [
    (b"(kicad_pcb\n  ; comment\n  (a 1))\n", 2, 3, "comment"),
    (b"(kicad_pcb\n  (a 1)\n  (b 2\n", 1, 1, "still open"),
    # an extra ')' ends the root early. KiCad ignores text after a complete root, but in
    # practice it means the rest of the file's structure fell outside it (KiCad then
    # fails on that structure): refused where the root closed, never half-read.
    (b"(kicad_pcb (a 1)))\n(b)", 1, 17, "extra ')'"),
    (b'(kicad_pcb\n  (a "no end\n  ))\n', 2, 6, "string"),
    (b"(kicad_pcb (a |unterminated))\n", 1, 15, "|...|"),
    (b"  \n", 2, 1, "empty"),
    (b"kicad_pcb (a 1)\n", 1, 1, "expected '('"),
])
def test_refusals_say_where(text, line, col, words):
    if words is None:  # not an error: documents the behaviour next to the errors
        assert SexprFile(text).to_bytes() == text
        return
    with pytest.raises(ParseError) as e:
        parse_bytes(text, "bad.kicad_pcb")
    assert (e.value.line, e.value.col) == (line, col)
    assert words in e.value.message
    assert "bad.kicad_pcb" in e.value.message
    # the fast path must refuse the same way, never half-load
    with pytest.raises(ParseError):
        SexprFile(text, "bad.kicad_pcb")


def test_error_column_counts_characters_not_bytes():
    with pytest.raises(ParseError) as e:
        parse_bytes('(a "µµ" ;x)'.encode())
    assert e.value.col == 9


def test_lazy_children_keep_their_bytes_and_parse_on_demand():
    text = b"(kicad_pcb\n\t(version 20241229)\n\t(footprint \"R\"\n\t\t(at 1 2)\n\t)\n)\n"
    f = SexprFile(text)
    assert f.fast
    fp = f.root.kids[2]
    assert fp.is_lazy and fp.head == "footprint"
    assert fp.find("at").atoms() == [b"1", b"2"]
    assert not fp.is_lazy
    assert f.to_bytes() == text
