"""Ranking library symbols and footprints against a text query.

Text is cut into words the way library names are built: lower case, split at anything
that is not a letter, digit or decimal point between digits (``USB-C`` and ``USB_C``
are both ``usb c``); a name's words are also split where letters meet digits or a lower
case letter meets a capital (``1608Metric`` is ``1608metric``, ``1608`` and ``metric``).

Each query word is matched against each item's fields and scores its best match:

=============================  =====  ===================================
field                          word   start of a word / part of a word
=============================  =====  ===================================
name                           10     5 (4 anywhere inside, 3+ characters)
keywords (footprint: tags)     6      4
description                    5      3
library nickname               4      3
footprint filters / default    2      1
=============================  =====  ===================================

A word of one or two characters matches only whole words and name parts (``C`` matches
``C_0805``, not ``CD4148W``) and finds items only by their names; longer words also
match the start of a word. A word ending in ``s`` that matches nothing is tried without it (0.8 of the score).
Items are ranked by tier, then by how many query words they match, then by score, then
shortest name: tier 3 is an exact name (the whole query equals ``Name`` or
``Lib:Name`` with separators ignored), tier 2 has every word in the name, tier 1 every
word somewhere, tier 0 only some words. With both kinds, each kind is ranked on its own
and the two lists are merged by how far each row falls below the best of its kind, so
the best symbol and the best footprint both lead (a symbol says "resistor", never
"0603").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from .index import LibItem, Library

_RUN = re.compile(r"[a-z0-9]+(?:\.[0-9]+[a-z0-9]*)*")
_PART = re.compile(r"[a-z]+|[0-9]+(?:\.[0-9]+)*")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+(?:\.[0-9]+)*")
_SEP = re.compile(r"[^a-z0-9.]+")
_SHORT_RUN = re.compile(r"(?<![a-z])[a-z]{1,2}(?![a-z])|(?<![0-9.])[0-9]{1,2}(?![0-9.])")

NAME, KEYWORDS, DESCRIPTION, LIBRARY, FILTERS = range(5)
_EXACT = (10.0, 6.0, 5.0, 4.0, 2.0)
# name: the start of a name word (recept, LM35) or a part of one (0603 in 0603USB,
# metric in 1608Metric)
_PREFIX = (5.0, 4.0, 3.0, 3.0, 1.0)
_INSIDE_NAME = 4.0  # anywhere inside the name, separators ignored (3+ characters)
SHORT = 3  # shorter query words select an item only by a whole word or part of its name


def query_words(text: str) -> list[str]:
    """The words of a query, in order, without repeats."""
    seen: dict[str, None] = {}
    for w in _RUN.findall(text.lower()):
        seen.setdefault(w.strip("."), None)
    return [w for w in seen if w]


def _padded(words) -> str:
    return " " + " ".join(words) + " " if words else " "


def field_words(text: str) -> str:
    """The words of prose (descriptions, keywords, filters) as ``" w1 w2 ... "``
    for containment tests."""
    return _padded(_RUN.findall(text.lower()))


def name_words(name: str) -> tuple[str, str]:
    """(whole words, word parts) of a name, each as ``" w1 w2 ... "``: parts are where
    letters meet digits or a lower case letter meets a capital."""
    runs = _RUN.findall(name.lower())
    parts = set()
    for run in runs:
        parts.update(_PART.findall(run))
    parts.update(w.lower() for w in _CAMEL.findall(name))
    parts.difference_update(runs)
    return _padded(runs), _padded(sorted(parts))


def compact(text: str) -> str:
    return _SEP.sub("", text.lower())


@dataclass(slots=True)
class Prepared:
    """A library's search text: all its items' text, lower case, in one string with
    each item's start offset, so a word is found in C (`str.find`) rather than item
    by item; and each item's words, computed the first time it is a candidate."""

    text: str
    starts: list[int]
    names: str  # just the names, lower case, one a line
    name_starts: list[int]
    rows: list[tuple[str, ...] | None]
    short: dict[str, list[int]] | None = None  # name word parts under SHORT letters -> items

    def short_words(self) -> dict[str, list[int]]:
        """Items by each short letter or digit run of their names (built on first use)."""
        if self.short is None:
            short: dict[str, list[int]] = {}
            starts = self.name_starts
            for m in _SHORT_RUN.finditer(self.names):
                i = bisect_right(starts, m.start()) - 1
                ids = short.setdefault(m.group(), [])
                if not ids or ids[-1] != i:
                    ids.append(i)
            self.short = short
        return self.short

    def row(self, item: LibItem, i: int) -> tuple[str, ...]:
        """(name words, name parts, keywords, description, filters, compact name)."""
        row = self.rows[i]
        if row is None:
            runs, parts = name_words(item.name)
            row = (runs, parts, field_words(item.keywords), field_words(item.description),
                   field_words(f"{item.filters} {item.footprint}"), compact(item.name))
            self.rows[i] = row
        return row


def prepare(lib: Library) -> Prepared:
    if lib.search_data is None:
        chunks, starts, pos = [], [], 0
        names, name_starts, name_pos = [], [], 0
        for item in lib.items:
            chunk = "\x1f".join((item.name, compact(item.name), item.keywords, item.description,
                                 item.filters, item.footprint, "\n")).lower()
            starts.append(pos)
            chunks.append(chunk)
            pos += len(chunk)
            name_starts.append(name_pos)
            names.append(item.name.lower() + "\n")
            name_pos += len(names[-1])
        lib.search_data = Prepared("".join(chunks), starts, "".join(names), name_starts,
                                   [None] * len(starts))
    return lib.search_data


def _candidates(prep: Prepared, word: str, found: set[int]) -> None:
    """Add to ``found`` the items whose text holds ``word`` (a short word: whose name
    holds it as a whole word or word part)."""
    if len(word) >= SHORT:
        text, starts = prep.text, prep.starts
        pos = text.find(word)
        while pos >= 0:
            i = bisect_right(starts, pos) - 1
            found.add(i)
            if i + 1 >= len(starts):
                break
            pos = text.find(word, starts[i + 1])
        return
    found.update(prep.short_words().get(word, ()))


@dataclass(slots=True)
class Hit:
    kind: str
    lib: str
    item: LibItem
    tier: int
    matched: int
    score: float
    size: int  # words in the name: fewer is more generic

    @property
    def id(self) -> str:
        return f"{self.lib}:{self.item.name}"

    def key(self) -> tuple:
        return (-self.tier, -self.matched, -self.score, self.size, len(self.item.name), self.id)


def _word_score(word: str, row: tuple[str, ...], lib_words: str) -> tuple[float, bool]:
    """(best score of ``word`` over the fields, whether it matched in the name)."""
    runs, parts, kw, desc, filt, comp = row
    exact = f" {word} "
    prefix = f" {word}" if len(word) >= SHORT else exact  # no prefixes of a short word
    if exact in runs:
        return _EXACT[NAME], True
    if prefix in runs or exact in parts:
        best = _PREFIX[NAME]
    elif len(word) >= SHORT and word in comp:
        best = _INSIDE_NAME
    else:
        best = 0.0
    in_name = best > 0
    for i, text in ((KEYWORDS, kw), (DESCRIPTION, desc), (LIBRARY, lib_words), (FILTERS, filt)):
        if _EXACT[i] <= best:
            break
        if exact in text:
            best = _EXACT[i]
        elif prefix in text:
            best = max(best, _PREFIX[i])
    return best, in_name


def rank(query: str, libraries: list[tuple[str, Library]]) -> list[Hit]:
    """Items of ``libraries`` ((nickname, library), one kind or both) matching
    ``query``, best first; see the module docstring for the order."""
    words = query_words(query)
    if not words:
        return []
    whole = compact(query)
    by_kind: dict[str, list[Hit]] = {}
    for nick, lib in libraries:
        lib_words = field_words(nick)
        lib_comp = compact(nick)
        hits = by_kind.setdefault(lib.kind, [])
        prep = prepare(lib)
        if any(f" {w}" in lib_words for w in words if len(w) >= SHORT):
            found = set(range(len(lib.items)))
        else:
            found = set()
            for w in words:
                _candidates(prep, w, found)
        for i in sorted(found):
            item = lib.items[i]
            row = prep.row(item, i)
            score, matched, in_name = 0.0, 0, 0
            for w in words:
                s, n = _word_score(w, row, lib_words)
                if s == 0.0 and len(w) > SHORT and w.endswith("s"):
                    s, n = _word_score(w[:-1], row, lib_words)
                    s *= 0.8
                if s > 0:
                    matched += 1
                    score += s
                    in_name += n
            if not matched:
                continue
            if whole in (row[5], lib_comp + row[5]):
                tier = 3
            elif in_name == len(words):
                tier = 2
            else:
                tier = 1 if matched == len(words) else 0
            size = row[0].count(" ") - 1
            hits.append(Hit(lib.kind, nick, item, tier, matched, score, size))
    ranked = [sorted(h, key=Hit.key) for h in by_kind.values()]
    if len(ranked) == 1:
        return ranked[0]
    merged = []
    for hits in ranked:
        if not hits:
            continue
        top = hits[0]
        for pos, h in enumerate(hits):
            merged.append(((top.tier - h.tier, top.matched - h.matched,
                            -h.score / top.score, pos, -h.tier, -h.score, h.kind), h))
    merged.sort(key=lambda pair: pair[0])
    return [h for _, h in merged]
