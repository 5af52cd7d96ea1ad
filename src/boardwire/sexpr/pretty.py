"""Formatting new and edited lists the way KiCad writes them.

KiCad 8 and 9 write every file through one pretty-printer (``KICAD_FORMAT::Prettify``
in ``common/io/kicad/kicad_io_utils.cpp``). Its rules, as measured against every KiCad 9
demo file by ``tests/sexpr/test_pretty.py``:

* each list starts on a new line, indented one tab per depth;
* atoms follow on the same line, one space apart; once the line reaches column 72 the
  next atom starts a new line one level deeper, and the list then closes on a line of
  its own;
* runs of ``(xy ...)`` points share a line until column 99;
* a list closes on its own line when its last child is a list, else right after its
  last atom.

KiCad 6 and 7 wrote each item with hand-placed line breaks and two-space indentation;
for those files `legacy_text` writes a new item on one line (tracks, vias) or one child
list per line (larger items), which is how those versions laid out the common items.
"""

from __future__ import annotations

from .node import SList
from .parse import parse_list_span

_WRAP_COLUMN = 72
_XY_COLUMN = 99


class _Printer:
    __slots__ = ("out", "depth", "column", "last", "in_xy", "multi")

    def __init__(self, depth: int):
        self.out: list[bytes] = []
        self.depth = depth
        self.column = 0
        self.last = 0
        self.in_xy = False
        self.multi = False

    def open(self, node: SList, first: bool) -> None:
        is_xy = node.head_bytes() == b"xy" and len(node.kids) > 1
        if first:
            self.out.append(b"(")
            self.column += 1
        elif self.in_xy and is_xy and self.column < _XY_COLUMN:
            self.out.append(b" (")
            self.column += 2
        else:
            self.out.append(b"\n" + b"\t" * self.depth + b"(")
            self.column = self.depth + 1
        self.in_xy = is_xy
        self.depth += 1
        self.last = 40

    def space(self) -> None:  # whitespace before an atom that follows something
        if self.in_xy or self.column < _WRAP_COLUMN:
            self.out.append(b" ")
            self.column += 1
        else:
            self.out.append(b"\n" + b"\t" * self.depth)
            self.column = self.depth
            self.multi = True

    def atom(self, token: bytes) -> None:
        self.out.append(token)
        nl = token.rfind(b"\n")
        if nl < 0:
            self.column += len(token)
        else:  # a |...| blob KiCad already broke into lines: the list closes below it
            self.column = len(token) - nl - 1
            self.multi = True
        self.last = token[-1]

    def close(self) -> None:
        self.depth -= 1
        if self.last == 41 or self.multi:
            self.out.append(b"\n" + b"\t" * self.depth + b")")
            self.column = self.depth + 1
            self.multi = False
        else:
            self.out.append(b")")
            self.column += 1
        self.last = 41

    def walk(self, node: SList, first: bool = False) -> None:
        self.open(node, first)
        for i, kid in enumerate(node.kids):
            if type(kid) is bytes:
                if i:
                    self.space()
                self.atom(kid)
            else:
                self.walk(kid)
        self.close()


def kicad9_text(node: SList, depth: int) -> tuple[bytes, bytes]:
    """(whitespace before the node, the node's text) as KiCad 9 writes a list at
    ``depth`` (the file's root list is depth 0). Existing whitespace is ignored."""
    printer = _Printer(depth)
    printer.walk(node, first=depth == 0)
    text = b"".join(printer.out)
    if depth == 0:
        return b"", text
    cut = text.index(b"(")
    return text[:cut], text[cut:]


def legacy_text(node: SList, depth: int, indent: bytes = b"  ") -> tuple[bytes, bytes]:
    """(whitespace before, text) in the KiCad 6/7 layout: two-space indentation; a list
    whose children hold no lists of lists goes on one line."""

    def height(n: SList) -> int:
        return 1 + max((height(k) for k in n.kids if type(k) is SList), default=0)

    def one_line(n: SList) -> bytes:
        parts = [k if type(k) is bytes else one_line(k) for k in n.kids]
        return b"(" + b" ".join(parts) + b")"

    def block(n: SList, d: int) -> bytes:
        if height(n) <= 3:
            return one_line(n)
        head = [k for k in n.kids if type(k) is bytes]
        lines = [b"(" + b" ".join(head)]
        for k in n.kids:
            if type(k) is SList:
                lines.append(b"\n" + indent * (d + 1) + block(k, d + 1))
        lines.append(b"\n" + indent * d + b")")
        return b"".join(lines)

    return b"\n" + indent * depth, block(node, depth)


def as_tree(text: bytes) -> SList:
    """Parse formatter output back into a node that carries its whitespace."""
    return parse_list_span(text, 0, len(text))


def tail_for(node: SList, depth: int, kicad9: bool, indent: bytes = b"\t") -> bytes:
    """The whitespace before ``node``'s ')' after its children changed."""
    kids = node.kids
    if kicad9:
        ends_with_list = bool(kids) and type(kids[-1]) is SList
        wrapped = any(b"\n" in w for k, w in zip(kids, node.ws) if type(k) is bytes)
        return b"\n" + indent * depth if ends_with_list or wrapped else b""
    return node.tail
