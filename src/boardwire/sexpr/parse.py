"""Exact reader for KiCad's S-expression files.

It follows KiCad's own lexer (``common/dsnlexer.cpp``) rather than a generic Lisp
reader, and what KiCad 9.0.8 was measured to accept or refuse:

* whitespace is space, tab, CR, LF and NUL;
* a line whose first non-blank character is ``#`` is skipped by KiCad: we keep it as
  whitespace, byte for byte;
* a quoted string may hold backslash escapes but no raw line break (KiCad refuses one);
* ``|...|`` is one token even across lines (KiCad 9 embedded-file blobs);
* any other run of non-separator bytes is a symbol, ``"`` included after its first byte
  (old files hold ``10"``, ``70µm``, ``~``...);
* ``;`` is not a comment in KiCad; a token that starts with it is refused so a file with
  a ``;`` comment never half-loads;
* inside ``(teardrops ...)`` KiCad accepts a keyword whose ``(`` is missing
  (``(curved_edges no)filter_ratio 0.9)``, 349 times in the RoyalBlue54L demo); such a
  list is kept with ``implicit=True`` so it is written back unchanged.
"""

from __future__ import annotations

import gc
import re

from ..errors import ParseError
from .node import SList

_WS_BYTES = b" \t\r\n\x00"

# One alternative per token kind; tokens are told apart by their first byte.
_TOKEN = re.compile(
    rb"""(?:(?<=\n)[ \t\r\x00]*\#[^\n]*|[ \t\r\n\x00])+"""  # whitespace and '#' lines
    rb"""|[()]"""
    rb'''|"(?:[^"\\\n]|\\[^\n])*"'''  # quoted string
    rb"""|\|[^|]*\|"""  # |...| blob
    rb'''|[^ \t\r\n\x00()"|][^ \t\r\n\x00()]*'''  # symbol or number
)

# The same without '#' comment lines: a third faster, used when the text has none.
_TOKEN_PLAIN = re.compile(
    rb"""[ \t\r\n\x00]+|[()]"""
    rb'''|"(?:[^"\\\n]|\\[^\n])*"'''
    rb"""|\|[^|]*\|"""
    rb'''|[^ \t\r\n\x00()"|][^ \t\r\n\x00()]*'''
)
_COMMENT_LINE = re.compile(rb"\n[ \t\r\x00]*#")

_TEARDROPS = b"teardrops"


def line_col(src: bytes | memoryview, pos: int) -> tuple[int, int]:
    """1-based line and character column of byte offset ``pos``."""
    data = bytes(src[: pos])
    line = data.count(b"\n") + 1
    start = data.rfind(b"\n") + 1
    return line, len(data[start:].decode("utf-8", "replace")) + 1


def _error(src, pos: int, message: str, path: str | None) -> ParseError:
    line, col = line_col(src, pos)
    return ParseError(message, path=path, line=line, col=col)


def _unmatched(src, pos: int, path: str | None) -> ParseError:
    c = src[pos:pos + 1]
    if c == b'"':
        nl = bytes(src[pos:pos + 200]).find(b"\n")
        msg = ("unterminated string (KiCad refuses a line break inside a string)"
               if nl >= 0 else "unterminated string at end of file")
        return _error(src, pos, msg, path)
    if c == b"|":
        return _error(src, pos, "unterminated |...| token", path)
    return _error(src, pos, f"unexpected byte {c!r}", path)


def tokens(src: bytes | memoryview, start: int = 0, end: int | None = None,
           path: str | None = None) -> list[bytes]:
    """The raw tokens of ``src[start:end]``; their concatenation is exactly that text."""
    end = len(src) if end is None else end
    data = bytes(src[start:end]) if (start or end != len(src) or type(src) is not bytes) else src
    pattern = _TOKEN if _COMMENT_LINE.search(data) else _TOKEN_PLAIN
    toks = pattern.findall(data)
    if sum(map(len, toks)) != len(data):  # some byte matched no token kind: locate it
        pos = 0
        for m in pattern.finditer(data):
            if m.start() != pos:
                break
            pos = m.end()
        raise _unmatched(src, start + pos, path)
    return toks


def build(toks: list[bytes], src, base: int, path: str | None,
          allow_trailing: bool = False) -> tuple[bytes, SList, int]:
    """Build the tree of the first list in ``toks``.

    Returns (whitespace before it, the list, index of the first token after it).
    ``base`` is the byte offset of ``toks[0]`` in ``src`` (for error positions).
    """
    # Building hundreds of thousands of nodes triggers the cyclic collector over and
    # over for nothing (the tree has no garbage yet): pause it.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _build(toks, src, base, path, allow_trailing)
    finally:
        if enabled:
            gc.enable()


def _build(toks: list[bytes], src, base: int, path: str | None,
          allow_trailing: bool = False) -> tuple[bytes, SList, int]:
    """Build the tree of the first list in ``toks``.

    Returns (whitespace before it, the list, index of the first token after it).
    ``base`` is the byte offset of ``toks[0]`` in ``src`` (for error positions).
    """
    lead = b""
    i = 0
    n = len(toks)
    pos = base
    while i < n and toks[i][0] in _WS_BYTES:
        lead += toks[i]
        pos += len(toks[i])
        i += 1
    if i == n:
        raise _error(src, pos, "empty file: expected '('", path)
    if toks[i] != b"(":
        raise _error(src, pos, f"expected '(' but found {toks[i][:20]!r}", path)

    new = SList.__new__
    stack: list = []
    push, pop = stack.append, stack.pop
    open_pos: list[int] = []
    cur: SList | None = None
    kids: list = []
    ws: list = []
    pending = b""
    root: SList | None = None
    while i < n:
        t = toks[i]
        if t == b"(":
            node = new(SList)
            nk: list = []
            nw: list = []
            node._kids, node._ws, node._tail, node._src = nk, nw, b"", None
            node.implicit = False
            node.parent = cur
            if cur is not None:
                kids.append(node)
                ws.append(pending)
            push((cur, kids, ws))
            open_pos.append(pos)
            cur, kids, ws = node, nk, nw
            pending = b""
        elif t == b")":
            if cur is None:
                raise _error(src, pos, "unbalanced ')': nothing is open here", path)
            cur._tail = pending
            pending = b""
            open_pos.pop()
            done = cur
            cur, kids, ws = pop()
            if cur is None:
                root = done
                i += 1
                break
        elif t[0] in _WS_BYTES:
            pending = t
        else:
            if t[0] == 59:  # ;
                raise _error(src, pos, "';' comment: KiCad files have no comments", path)
            if cur is None:
                raise _error(src, pos, "text outside any list", path)
            if kids and kids[0] == _TEARDROPS:
                # KiCad's teardrop parser accepts a keyword without its '('.
                node = new(SList)
                nk, nw = [t], [b""]
                node._kids, node._ws, node._tail, node._src = nk, nw, b"", None
                node.implicit = True
                node.parent = cur
                kids.append(node)
                ws.append(pending)
                push((cur, kids, ws))
                open_pos.append(pos)
                cur, kids, ws = node, nk, nw
            else:
                kids.append(t)
                ws.append(pending)
            pending = b""
        pos += len(t)
        i += 1
    if root is None:
        where = open_pos[0] if open_pos else pos
        raise _error(src, where,
                     f"file ends with {len(open_pos)} list(s) still open "
                     f"(truncated file?); the outermost starts here", path)
    if not allow_trailing:
        for t in toks[i:]:
            if t[0] not in _WS_BYTES:
                raise _error(src, pos, "text after the end of the top-level list", path)
    return lead, root, i


def parse_list_span(src, start: int, end: int, path: str | None = None) -> SList:
    """Parse exactly one list occupying ``src[start:end]``."""
    toks = tokens(src, start, end, path)
    lead, node, used = build(toks, src, start, path)
    if lead or used != len(toks):
        raise _error(src, start, "span is not exactly one list", path)
    return node


def parse_bytes(src: bytes, path: str | None = None) -> tuple[bytes, SList, bytes]:
    """Parse a whole file: (whitespace before the root, the root list, what follows it).

    KiCad stops reading at the root's closing parenthesis, so text after it is kept
    verbatim (and reported by the document) rather than refused.
    """
    toks = tokens(src, 0, len(src), path)
    lead, root, used = build(toks, src, 0, path, allow_trailing=True)
    trail = b"".join(toks[used:])
    return lead, root, trail


class Forest(SList):
    """The top of a file that is a sequence of lists rather than one list
    (``.kicad_dru``: ``(version 1) (rule ...) ...``). Written without parentheses."""

    __slots__ = ()

    def emit(self, out: list) -> None:
        for w, kid in zip(self._ws, self._kids):
            if w:
                out.append(w)
            if type(kid) is bytes:
                out.append(kid)
            else:
                kid.emit(out)
        if self._tail:
            out.append(self._tail)


def parse_forest(src: bytes, path: str | None = None) -> Forest:
    """Parse a file made of several top-level lists (a design-rules file)."""
    toks = tokens(src, 0, len(src), path)
    # Reuse the list builder by wrapping the sequence in a virtual list.
    _, wrapper, _ = build([b"("] + toks + [b")"], src, -1, path)
    forest = Forest.__new__(Forest)
    forest._kids, forest._ws, forest._tail = wrapper._kids, wrapper._ws, wrapper._tail
    forest._src, forest.parent, forest.implicit = None, None, False
    for kid in forest._kids:
        if type(kid) is SList:
            kid.parent = forest
    return forest
