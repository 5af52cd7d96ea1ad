"""The compiled reader and writer (sexpr/_sexpr.c) build the tree the Python reader
builds and write the bytes the Python writer writes; without them the Python code
still reads and writes every file exactly."""

from __future__ import annotations

import pytest

from boardwire.sexpr import node as node_module
from boardwire.sexpr.file import SexprFile
from boardwire.sexpr.node import SList
from boardwire.sexpr.parse import parse_bytes
from tests.inputs import DEMOS, need

compiled = node_module._compiled

BOARDS = ["video/video.kicad_pcb", "royalblue54L_feather/RoyalBlue54L-Feather.kicad_pcb",
          "pic_programmer/pic_programmer.kicad_pcb", "stickhub/StickHub.kicad_pcb"]

TEXTS = [
    b"(kicad_pcb\n\t(a \"q \\\" (x) \\\\\" |blob\n with+| 1e-05 70\xc2\xb5m ~)\n)\n",
    b"(kicad_pcb\r\n\t(a 1)\r\n\t(b\r\n\t\t(c 2)\r\n\t)\r\n)\r\n",
    b"(kicad_pcb\x00(a\x00 1 )\t(b (c)(d ( e ) ) )\n)\n",
    b"(kicad_pcb\n\t(via\n\t\t(teardrops (a 1)teardrops x 2)(b 1))) e)\n)\n",
    b"(kicad_pcb\n\t(pad \"1\" smd\n\t\t(teardrops\n\t\t\t(max_width 2)\n"
    b"\t\t\t(curved_edges no)filter_ratio 0.9)\n\t\t(enabled yes)\n\t)\n)\n)\n",
]


def shape(node: SList, parent=None):
    """Children, whitespace, tail, implicit flag and parent links, recursively."""
    assert node.parent is parent or parent is None
    return ([shape(k, node) if type(k) is SList else k for k in node.kids],
            list(node._ws), node._tail, node.implicit)


def read(data: bytes, with_compiled: bool):
    saved = node_module._compiled
    node_module._compiled = compiled if with_compiled else None
    try:
        f = SexprFile(data, "t.kicad_pcb")
        return f, shape(f.root), f.to_bytes()
    finally:
        node_module._compiled = saved


def test_the_extension_is_built():
    # `pip install -e .` builds it (setup.py); CI and every developer have it.
    assert compiled is not None, "boardwire.sexpr._sexpr is not built: run pip install -e ."


@pytest.mark.parametrize("data", TEXTS + [pytest.param(name, id=name) for name in BOARDS])
def test_compiled_reader_and_writer_equal_the_python_ones(data):
    if isinstance(data, str):
        data = need(DEMOS / data).read_bytes()
    fast, fast_shape, fast_bytes = read(data, True)
    assert fast.fast
    slow, slow_shape, slow_bytes = read(data, False)
    assert fast_shape == slow_shape
    assert fast_bytes == slow_bytes == data
    if len(data) < 1_000_000:
        _, exact, _ = parse_bytes(data)
        assert shape(exact) == fast_shape


def test_shared_whitespace_becomes_the_lists_own_on_edit():
    data = b"(kicad_pcb\n\t(at 1 2)\n\t(at 3 4)\n)\n"
    f = SexprFile(data)
    a, b = f.root.lists("at")
    a.kids, b.kids
    assert a._ws is b._ws  # one tuple for both
    a.ws[1] = b"  "  # the ws property hands out this list's own copy
    b.insert_kid(3, b"5", b"\t")
    assert f.to_bytes() == b"(kicad_pcb\n\t(at  1 2)\n\t(at 3 4\t5)\n)\n"
    assert type(a._ws) is list and type(b._ws) is list


def test_a_span_the_compiled_reader_declines_stays_lazy():
    for text in (b'(a "open)', b"(a (b)", b"(a) x", b"(a |x)", b"(a ;c)"):
        node = SList.lazy(text, 0, len(text), None)
        with pytest.raises(ValueError):
            compiled.materialize(node, text, 0, len(text))
        assert node.is_lazy and node.to_bytes() == text


def test_a_piece_that_is_not_bytes_is_refused_by_both_writers(monkeypatch):
    node = SList([b"a", "text"], [b"", b" "])
    with pytest.raises(TypeError):
        node.to_bytes()
    monkeypatch.setattr(node_module, "_compiled", None)
    with pytest.raises(AttributeError):  # the Python writer: 'str' has no 'emit'
        node.to_bytes()
