"""A vectorised scan that finds the top-level lists of a file without tokenising it.

Tokenising a 70 MB board in Python takes seconds; finding where each top-level item
(footprint, segment, zone...) starts and ends takes one pass of NumPy over the bytes:
mask the quoted strings, count parentheses outside them, and cut where the depth
returns to one. Each item then stays a lazy `SList` until something reads it.

The scan answers ``None`` whenever the file has anything it does not model exactly
(comment lines, ``;``, a quote inside a symbol, a ``|...|`` token holding quotes or
parentheses, unbalanced or trailing text). The exact reader in parse.py then takes
over, so the fast path is never a second, looser grammar. KiCad's teardrop leniency
(``(curved_edges no)filter_ratio 0.9)``: a keyword whose ``(`` is missing, see parse.py)
is modelled: each ``(teardrops`` list is walked with the exact tokenizer and every
implicit list counts as an opening parenthesis where its keyword starts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .lexer import _PAIR, MAX_DEPTH, tokens

# Lists nested deeper than this are refused (ParseError). Files KiCad writes nest at
# most 9 deep (measured on every file of the corpus and KiCad's demos); KiCad's
# recursive parser fails on absurd depths (200,000) rather than reading them.

_SEP = np.zeros(256, dtype=bool)
for _c in b" \t\r\n\x00()":
    _SEP[_c] = True

_PAREN = np.zeros(256, dtype=np.int8)
_PAREN[40] = 1
_PAREN[41] = -1


@dataclass
class TopLevel:
    """Where the root list and its child lists lie in the buffer (byte offsets)."""

    root_start: int
    root_end: int  # one past the root's ')'
    starts: np.ndarray  # child list starts ('(' offsets)
    ends: np.ndarray  # one past each child's ')'
    second_starts: np.ndarray  # starts of lists nested one level deeper (grandchildren)
    second_parent: np.ndarray  # index into starts/ends of each grandchild's parent
    too_deep: int = -1  # offset of the first '(' nested deeper than MAX_DEPTH, or -1

    def heads(self, buf: bytes, width: int = 32, chunk: int = 1 << 16,
              allowed: frozenset[bytes] | None = None) -> dict[bytes, int]:
        """The keyword of each child list -> the offset of the first child with it
        (with ``allowed``: stop after the first chunk that holds another keyword).

        Vectorised: the ``width`` bytes after each '(' are cut at the first separator
        and the distinct rows kept, ``chunk`` children at a time (bounded memory), so a
        million children cost a few NumPy passes. A child whose keyword does not start
        right after its '(' (or is ``width`` bytes or longer) is read with the exact
        tokenizer."""
        a = np.frombuffer(buf, dtype=np.uint8)
        cols = np.arange(width, dtype=np.int64)
        out: dict[bytes, int] = {}
        for lo in range(0, self.starts.size, chunk):
            starts = self.starts[lo:lo + chunk]
            rows = a[np.minimum(starts[:, None] + 1 + cols, a.size - 1)]
            stop = _SEP[rows] | (rows == 34)
            first = np.where(stop.any(axis=1), stop.argmax(axis=1), width)
            rows[cols[None, :] >= first[:, None]] = 0
            keys = np.ascontiguousarray(rows).view(f"S{width}").ravel()
            uniq, where = np.unique(keys, return_index=True)
            for key, i in zip(uniq.tolist(), where.tolist()):
                start = int(starts[i])
                if not key or first[i] == width:  # '( head' or a very long keyword
                    key = self._head_exactly(buf, start, int(self.ends[lo + i]))
                if key not in out:
                    out[key] = start
            if allowed is not None and not allowed.issuperset(out):
                break
        return out

    @staticmethod
    def _head_exactly(buf: bytes, start: int, end: int) -> bytes:
        toks = [t for t in tokens(buf, start + 1, end - 1) if t[0] not in b" \t\r\n\x00"]
        return toks[0] if toks and toks[0] not in (b"(", b")") else b""


def _inside(sorted_bounds: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """True where ``pos`` lies between an opening and a closing delimiter."""
    return (np.searchsorted(sorted_bounds, pos, side="right") & 1).astype(bool)


def scan(buf: bytes) -> TopLevel | None:
    """Index the top-level lists of ``buf``, or None if only the exact reader may."""
    a = np.frombuffer(buf, dtype=np.uint8)
    if a.size < 2:
        return None

    quotes = np.flatnonzero(a == 34)
    if quotes.size:
        esc = quotes[(quotes > 0) & (a[np.maximum(quotes - 1, 0)] == 92)]
        if esc.size:
            drop = []
            for q in esc.tolist():  # count the run of backslashes: odd means escaped
                k = q - 1
                while k >= 0 and buf[k] == 92:
                    k -= 1
                if (q - 1 - k) & 1:
                    drop.append(q)
            if drop:
                keep = np.ones(quotes.size, dtype=bool)
                keep[np.searchsorted(quotes, drop)] = False
                quotes = quotes[keep]
        if quotes.size & 1:
            return None
        openers = quotes[0::2]
        # A quote that follows a non-separator is inside a symbol (10"): exact reader.
        if np.any(~_SEP[a[np.maximum(openers - 1, 0)]] & (openers > 0)):
            return None

    newlines = np.flatnonzero(a == 10)
    if quotes.size and newlines.size and np.any(_inside(quotes, newlines)):
        return None  # a raw line break inside a string: the exact reader reports it

    for special in (59, 35):  # ';' anywhere outside strings, '#' starting a line
        hits = np.flatnonzero(a == special)
        if hits.size and quotes.size:
            hits = hits[~_inside(quotes, hits)]
        if special == 59 and hits.size:
            return None
        for h in hits.tolist():
            line_start = buf.rfind(b"\n", 0, h) + 1
            if not buf[line_start:h].strip(b" \t\r\x00"):
                return None

    d = _PAREN[a]
    p = np.flatnonzero(d)
    if quotes.size:
        p = p[~_inside(quotes, p)]
    if p.size == 0:
        return None

    bars = np.flatnonzero(a == 124)
    if bars.size:
        if quotes.size:
            bars = bars[~_inside(quotes, bars)]
        # '|' blobs start after a separator; their content must hold no ( ) or ".
        openers = bars[_SEP[a[np.maximum(bars - 1, 0)]]]
        for o in openers.tolist():
            close = buf.find(b"|", o + 1)
            if close < 0:
                return None
            lo, hi = np.searchsorted(p, [o, close])
            if hi > lo:
                return None
            if quotes.size:
                lo, hi = np.searchsorted(quotes, [o, close])
                if hi > lo:
                    return None

    delta = d[p].astype(np.int32)
    implicit = _implicit_opens(buf, quotes)
    if implicit is None:
        return None
    if implicit:  # count each implicit list's keyword as a '(' (see the module docstring)
        extra = np.asarray(implicit, dtype=p.dtype)
        order = np.argsort(np.concatenate([p, extra]), kind="stable")
        p = np.concatenate([p, extra])[order]
        delta = np.concatenate([delta, np.ones(extra.size, np.int32)])[order]
        virtual = np.concatenate([np.zeros(order.size - extra.size, bool),
                                  np.ones(extra.size, bool)])[order]
    depth = np.cumsum(delta, dtype=np.int32)
    if depth[-1] != 0 or depth.min() < 0 or a[p[0]] != 40:
        return None
    if implicit and np.any(virtual & (depth <= 2)):
        return None  # an implicit list at the root or top level: the exact reader builds it
    if np.count_nonzero(depth == 0) != 1:
        return None  # text after the root list, or several roots
    # Before the root and after it: only whitespace, or the exact reader decides.
    if buf[: p[0]].strip(b" \t\r\n\x00") or buf[p[-1] + 1:].strip(b" \t\r\n\x00"):
        return None

    child_open = (delta == 1) & (depth == 2)
    child_close = (delta == -1) & (depth == 1)
    starts = p[child_open]
    ends = p[child_close] + 1
    if starts.size != ends.size:
        return None
    grand_open = (delta == 1) & (depth == 3)
    if implicit:
        grand_open &= ~virtual  # grandchildren are read from the byte after their '('
    grand = p[grand_open]
    parent = np.searchsorted(starts, grand, side="right") - 1
    deep = np.flatnonzero(depth > MAX_DEPTH)
    return TopLevel(int(p[0]), int(p[-1]) + 1, starts, ends, grand, parent,
                    int(p[deep[0]]) if deep.size else -1)


_TEARDROPS_TOKEN = b"teardrops"


def _implicit_opens(buf: bytes, quotes: np.ndarray) -> list[int] | None:
    """Offsets of the keywords of KiCad's implicit teardrop lists (``filter_ratio`` in
    ``(teardrops ... (curved_edges no)filter_ratio 0.9)``), found as the exact reader
    finds them (parse.py: an atom directly inside a list whose first atom is
    ``teardrops`` opens an implicit list that the next ``)`` closes). None: a
    ``teardrops`` outside strings that does not directly follow ``(``, which only the
    exact reader may judge."""
    out: list[int] = []
    walked = -1  # end of the last list walked: a teardrops nested in it is done
    pos = buf.find(_TEARDROPS_TOKEN)
    while pos >= 0:
        end = pos + len(_TEARDROPS_TOKEN)
        whole = (pos == 0 or _SEP[buf[pos - 1]]) and (end == len(buf) or _SEP[buf[end]])
        if whole and pos > walked and not (quotes.size and _inside(quotes, np.array([pos]))[0]):
            if pos == 0 or buf[pos - 1] != 40 or buf[end] == 40:
                return None
            found, walked = _walk_teardrops(buf, pos - 1, _PAIR)
            out.extend(found)
        pos = buf.find(_TEARDROPS_TOKEN, pos + 1)
    return out


def _walk_teardrops(buf: bytes, start: int, pattern) -> tuple[list[int], int]:
    """The implicit-list keyword offsets inside the teardrops list opening at ``start``,
    and the offset where that list ends (the end of the file if it never closes)."""
    found: list[int] = []
    stack: list[list] = []  # per open list: [first atom or None, has kids]
    for m in pattern.finditer(buf, start):
        t = m.group(2)
        if t == b"(":
            if stack:
                stack[-1][1] = True
            stack.append([None, False])
        elif t == b")":
            stack.pop()
            if not stack:
                return found, m.end()
        else:
            top = stack[-1]
            if top[1] and top[0] == _TEARDROPS_TOKEN:
                found.append(m.start(2))
                stack.append([t, True])
            else:
                if not top[1]:
                    top[0] = t
                top[1] = True
    return found, len(buf)
