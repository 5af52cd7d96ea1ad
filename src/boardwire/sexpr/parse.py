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

import contextlib
import gc

from .lexer import _WS_BYTES, MAX_DEPTH, _error, pairs, tokens, too_deep  # noqa: F401  (tokens: the reader's API)
from .node import SList, use_reader

_TEARDROPS = b"teardrops"


def build(found: list[tuple[bytes, bytes]], src, base: int, path: str | None,
          allow_trailing: bool = False) -> tuple[bytes, SList, int]:
    """Build the tree of the first list in ``found`` (pairs from `pairs`).

    Returns (whitespace before it, the list, index of the first pair after it).
    ``base`` is the byte offset of the text in ``src`` (for error positions).
    """
    with gc_paused():
        return _build(found, src, base, path, allow_trailing)


@contextlib.contextmanager
def gc_paused():
    """Pause the cyclic garbage collector inside the block. Building hundreds of
    thousands of nodes (or index records over them) triggers it over and over for
    nothing: what is being built has no garbage yet."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _offset(found, i: int, base: int) -> int:
    """Byte offset of the token of pair ``i`` (errors only: it walks the pairs)."""
    return base + sum(len(w) + len(t) for w, t in found[:i]) + len(found[i][0])


def _build(found, src, base: int, path: str | None, allow_trailing: bool):
    if not found:
        raise _error(src, base, "empty file: expected '('", path)
    lead, first = found[0]
    if first != b"(":
        raise _error(src, _offset(found, 0, base), f"expected '(' but found {bytes(first[:20]).decode('utf-8', 'replace')!r}", path)
    new = SList.__new__
    stack: list = []
    push, pop = stack.append, stack.pop
    opened: list[int] = []  # pair index of each list still open
    cur: SList | None = None
    kids: list = []
    ws: list = []
    root: SList | None = None
    i = -1
    for i, (w, t) in enumerate(found):
        if t == b"(":
            node = new(SList)
            nk: list = []
            nw: list = []
            node._kids, node._ws, node._tail, node._src = nk, nw, b"", None
            node.implicit = False
            node.parent = cur
            if cur is not None:
                kids.append(node)
                ws.append(w)
            push((cur, kids, ws))
            opened.append(i)
            if len(opened) > MAX_DEPTH:
                raise too_deep(src, _offset(found, i, base), path)
            cur, kids, ws = node, nk, nw
        elif t == b")":
            cur._tail = w
            opened.pop()
            done = cur
            cur, kids, ws = pop()
            if cur is None:
                root = done
                break
        elif t[0] == 59:  # ;
            raise _error(src, _offset(found, i, base), "';' comment: KiCad files have no comments",
                         path)
        elif kids and kids[0] == _TEARDROPS:
            # KiCad's teardrop parser accepts a keyword without its '('.
            node = new(SList)
            nk, nw = [t], [b""]
            node._kids, node._ws, node._tail, node._src = nk, nw, b"", None
            node.implicit = True
            node.parent = cur
            kids.append(node)
            ws.append(w)
            push((cur, kids, ws))
            opened.append(i)
            cur, kids, ws = node, nk, nw
        else:
            kids.append(t)
            ws.append(w)
    if root is None:
        where = _offset(found, opened[0], base) if opened else base
        raise _error(src, where,
                     f"file ends with {len(opened)} list(s) still open: a ')' is missing or the "
                     f"file is truncated; the outermost open list starts here", path)
    if not allow_trailing and i + 1 < len(found):
        raise _error(src, _offset(found, i + 1, base), "text after the end of the top-level list",
                     path)
    return lead, root, i + 1


def parse_list_span(src, start: int, end: int, path: str | None = None,
                    trusted: bool = False) -> SList:
    """Parse exactly one list occupying ``src[start:end]`` (``trusted``: see `pairs`)."""
    found, rest = pairs(src, start, end, path, trusted)
    lead, node, used = build(found, src, start, path)
    if lead or rest or used != len(found):
        raise _error(src, start, "span is not exactly one list", path)
    return node


def parse_bytes(src: bytes, path: str | None = None) -> tuple[bytes, SList, bytes]:
    """Parse a whole file: (whitespace before the root, the root list, what follows it).

    Only whitespace may follow the root (ParseError otherwise: see SexprFile).
    """
    found, rest = pairs(src, 0, len(src), path)
    if not found:
        raise _error(src, len(src), "empty file: expected '('", path)
    lead, root, used = build(found, src, 0, path, allow_trailing=True)
    trail = b"".join(w + t for w, t in found[used:]) + rest
    check_trail(src, trail, path)
    return lead, root, trail


def check_trail(src, trail: bytes, path: str | None) -> None:
    """Refuse anything but whitespace after the root list (see SexprFile)."""
    if trail.strip(_WS_BYTES):
        raise _error(src, len(src) - len(trail) - 1,
                     "the file's outer list closes here but more follows: an extra ')' "
                     "at or before this point?", path)


class Forest(SList):
    """The top of a file that is a sequence of lists rather than one list
    (``.kicad_dru``: ``(version 1) (rule ...) ...``). Written without parentheses."""

    __slots__ = ()

    def emit(self, out: list) -> None:
        self.emit_children(out)


def parse_forest(src: bytes, path: str | None = None) -> Forest:
    """Parse a file made of several top-level lists (a design-rules file)."""
    found, rest = pairs(src, 0, len(src), path)
    # Reuse the list builder by wrapping the sequence in a virtual list.
    _, wrapper, _ = build([(b"", b"(")] + found + [(rest, b")")], src, -1, path)
    forest = Forest.__new__(Forest)
    forest._kids, forest._ws, forest._tail = wrapper._kids, wrapper._ws, wrapper._tail
    forest._src, forest.parent, forest.implicit = None, None, False
    for kid in forest._kids:
        if type(kid) is SList:
            kid.parent = forest
    return forest


use_reader(parse_list_span)  # lazy nodes are read with this reader (node cannot import it)
