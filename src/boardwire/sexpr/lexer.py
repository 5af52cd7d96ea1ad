"""KiCad's S-expression tokens: (whitespace, token) pairs, raw tokens, and the errors
that name a byte's line and column. The rules follow KiCad's own lexer
(``common/dsnlexer.cpp``); the module docstring of `parse` lists them. Used by the exact
reader (`parse`) and the fast scan (`index`).
"""

from __future__ import annotations

import itertools
import re

from ..errors import ParseError

MAX_DEPTH = 100  # KiCad refuses deeper nesting; so do the reader and the fast scan

_WS_BYTES = b" \t\r\n\x00"

# A token with the whitespace before it: (whitespace, token). Tokens are told apart by
# their first byte. The reader works on these pairs: half the loop turns of a
# token-by-token reader, which is what makes it fast enough for whole boards.
_WS = rb"[ \t\r\n\x00]*"
_WS_WITH_COMMENTS = rb"(?:(?<=\n)[ \t\r\x00]*\#[^\n]*|[ \t\r\n\x00])*"  # and '#' lines
_TOK = (rb"[()]"
        rb'''|"(?:[^"\\\n]|\\[^\n])*"'''  # quoted string: escapes, no raw line break
        rb"|\|[^|]*\|"  # |...| blob
        rb'''|[^ \t\r\n\x00()"|][^ \t\r\n\x00()]*''')  # symbol or number
_PAIR = re.compile(b"(" + _WS + b")(" + _TOK + b")")
_PAIR_WITH_COMMENTS = re.compile(b"(" + _WS_WITH_COMMENTS + b")(" + _TOK + b")")
_COMMENT_LINE = re.compile(rb"\n[ \t\r\x00]*#")
_TRAILING_WITH_COMMENTS = re.compile(_WS_WITH_COMMENTS)

def line_col(src: bytes | memoryview, pos: int) -> tuple[int, int]:
    """1-based line and character column of byte offset ``pos``."""
    data = bytes(src[: pos])
    line = data.count(b"\n") + 1
    start = data.rfind(b"\n") + 1
    return line, len(data[start:].decode("utf-8", "replace")) + 1


def _error(src, pos: int, message: str, path: str | None) -> ParseError:
    line, col = line_col(src, pos)
    return ParseError(message, path=path, line=line, col=col)


def too_deep(src, pos: int, path: str | None) -> ParseError:
    """The error for a list nested deeper than `MAX_DEPTH` (at byte ``pos``)."""
    return _error(src, pos, f"lists nested more than {MAX_DEPTH} deep: no KiCad file nests "
                  "like this (KiCad refuses it too)", path)


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


def pairs(src: bytes | memoryview, start: int = 0, end: int | None = None,
          path: str | None = None, trusted: bool = False) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """``src[start:end]`` as (whitespace, token) pairs plus the whitespace after the
    last token; joined back together they are exactly that text.

    ``trusted``: the text is a span the fast scan already validated (strings closed,
    no comment lines), so the check that every byte was matched is skipped."""
    end = len(src) if end is None else end
    data = bytes(src[start:end]) if (start or end != len(src) or type(src) is not bytes) else src
    pattern = _PAIR_WITH_COMMENTS if _COMMENT_LINE.search(data) else _PAIR
    found = pattern.findall(data)
    if trusted:
        last = data.rfind(found[-1][1]) + len(found[-1][1]) if found else 0
        return found, data[last:]
    used = sum(map(len, itertools.chain.from_iterable(found)))
    rest = data[used:]
    if pattern is _PAIR_WITH_COMMENTS:
        bad = rest and _TRAILING_WITH_COMMENTS.fullmatch(data, used) is None
    else:
        bad = bool(rest.strip(_WS_BYTES))
    if bad:
        # a byte no token kind matched (or text after a gap): find the first one
        pos = 0
        for m in pattern.finditer(data):
            if m.start() != pos:
                break
            pos = m.end()
        while pos < len(data) and data[pos] in _WS_BYTES:
            pos += 1
        raise _unmatched(src, start + pos, path)
    return found, rest


def tokens(src: bytes | memoryview, start: int = 0, end: int | None = None,
           path: str | None = None) -> list[bytes]:
    """The raw tokens of ``src[start:end]``, whitespace runs included as tokens."""
    found, rest = pairs(src, start, end, path)
    out = []
    for w, t in found:
        if w:
            out.append(w)
        out.append(t)
    if rest:
        out.append(rest)
    return out
