"""Numbers beyond a range: the first atom that reads as a number whose magnitude
exceeds a limit (or that is not finite), in a list whose keyword is one of a set.

One pass over the bytes in C (`_sexpr.beyond`: strings and ``|...|`` blobs skipped,
only atoms that are not plain decimals of at most three integer digits parsed), so a
70 MB board costs a small part of its load; the same walk in Python when the compiled
module is missing."""

from __future__ import annotations

import math

from .lexer import pairs
from .node import _compiled


def beyond(src: bytes, limit: float, heads: frozenset[bytes] | set[bytes],
           start: int = 0, end: int | None = None) -> tuple[int, int, int] | None:
    """(offset of the number, offset of its list's keyword, offset of the root's child
    holding it: -1 at the root) of the first number of ``src[start:end]`` in a list whose
    keyword is in ``heads`` that is NaN or beyond +-``limit``; None if there is none."""
    end = len(src) if end is None else end
    if _compiled is not None and hasattr(_compiled, "beyond"):
        return _compiled.beyond(src, start, end, float(limit), frozenset(heads))
    return _beyond_py(src, limit, heads, start, end)


def _beyond_py(src: bytes, limit: float, heads, start: int, end: int):
    found, _ = pairs(src, start, end)
    stack: list[int] = []  # offset of each open list's keyword (-1: none yet)
    pos, item, first = start, -1, False
    for w, t in found:
        pos += len(w)
        if t == b"(":
            if len(stack) == 1:
                item = pos
            stack.append(-1)
            first = True
        elif t == b")":
            if stack:
                stack.pop()
            first = False
        elif first:
            stack[-1] = pos
            first = False
        elif stack and stack[-1] >= 0 and t[:1] not in (b'"', b"|"):
            try:
                v = float(t)
            except ValueError:
                v = 0.0
            if (math.isnan(v) or abs(v) > limit) and _head(src, stack[-1]) in heads:
                return pos, stack[-1], item
        pos += len(t)
    return None


def _head(src: bytes, at: int) -> bytes:
    stop = at
    while stop < len(src) and src[stop] not in b" \t\r\n\x00()":
        stop += 1
    return src[at:stop]
