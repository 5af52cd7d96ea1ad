"""A whole S-expression file: the root list plus the bytes around it."""

from __future__ import annotations

from .index import scan
from .node import SList
from .parse import _WS_BYTES, _error, check_trail, parse_bytes, parse_forest, tokens, too_deep


class SexprFile:
    """The lossless tree of one file.

    ``lead`` is what precedes the root list (whitespace), ``trail`` what follows it
    (whitespace: normally one newline). Anything else after the root is refused
    (ParseError where the root closed). KiCad itself ignores text after a complete
    root, but no file KiCad writes has any (none of the 1,477 corpus and demo files),
    and in practice it means an extra ``)`` closed the root early, leaving the rest
    of the structure outside: reading half a board would mislead the caller.
    ``to_bytes()`` of an unedited file returns the original bytes.

    ``heads``: the keywords a child of the root may have; a child with any other is
    refused (ParseError at it) before the tree is built, so a file of millions of
    unknown lists costs one scan, not a tree. Lists nested deeper than ``MAX_DEPTH``
    are refused likewise.
    """

    __slots__ = ("src", "lead", "root", "trail", "fast", "index")

    def __init__(self, src: bytes, path: str | None = None, forest: bool = False,
                 heads: frozenset[bytes] | None = None):
        self.src = src
        self.index = None
        if forest:  # several top-level lists (.kicad_dru): small files, exact reader
            self.fast = False
            self.lead, self.root, self.trail = b"", parse_forest(src, path), b""
            return
        top = scan(src)
        self.fast = top is not None
        self.index = top
        if top is None:
            self.lead, self.root, self.trail = parse_bytes(src, path)
            if heads is not None:
                found = {}
                for kid in self.root.kids:
                    if type(kid) is SList:
                        found.setdefault(kid.head_bytes(), kid)
                for head, kid in found.items():
                    if head not in heads:
                        raise _unknown(head, src, src.find(kid.to_bytes()), path)
        else:
            if top.too_deep >= 0:
                raise too_deep(src, top.too_deep, path)
            if heads is not None:
                for head, pos in sorted(top.heads(src, allowed=heads).items(), key=lambda kv: kv[1]):
                    if head not in heads:
                        raise _unknown(head, src, pos, path)
            self.lead = src[: top.root_start]
            self.trail = src[top.root_end:]
            self.root = _lazy_root(src, top, path)
            check_trail(src, self.trail, path)

    def to_bytes(self) -> bytes:
        return self.root.to_bytes(self.lead, self.trail, len(self.src))

    @property
    def newline(self) -> bytes:
        """The file's line ending: KiCad keeps CRLF files CRLF."""
        i = self.src.find(b"\n")
        return b"\r\n" if i > 0 and self.src[i - 1] == 13 else b"\n"


def _unknown(head: bytes, src: bytes, pos: int, path: str | None):
    return _error(src, max(pos, 0), f"unknown token {head.decode(errors='replace')!r} "
                  "(KiCad refuses a file with it: \"Unknown token\")", path)


def _lazy_root(src: bytes, top, path: str | None) -> SList:
    """The root list whose children are lazy spans found by the fast scan."""
    root = SList.__new__(SList)
    root._src, root._start, root._end = src, top.root_start, top.root_end
    root.parent = None
    root.implicit = False
    kids: list = []
    ws: list = []
    starts = top.starts.tolist()
    ends = top.ends.tolist()
    lazy = SList.lazy
    pos = top.root_start + 1
    pending = b""

    def gap(a: int, b: int) -> None:
        nonlocal pending
        text = src[a:b]
        if not text.strip(_WS_BYTES):
            pending += text
            return
        for t in tokens(src, a, b, path):  # atoms at the root level: the head keyword
            if t[0] in _WS_BYTES:
                pending += t
            else:
                kids.append(t)
                ws.append(pending)
                pending = b""

    for s, e in zip(starts, ends):
        if s != pos:
            gap(pos, s)
        kids.append(lazy(src, s, e, root))
        ws.append(pending)
        pending = b""
        pos = e
    gap(pos, top.root_end - 1)
    root._kids, root._ws, root._tail = kids, ws, pending
    return root
