"""Words of part descriptions and queries, with component values in one spelling.

Catalogues write values many ways ("10kΩ", "10K", "10000Ω"; "100nF", "0.1uF", "0.1µF");
queries too ("10k", "100nF", "4k7"). Each is reduced to one canonical word so that a
query finds a row however either spells it: resistance in ohms as ``10k``, ``4.7k``,
``470r``, ``1m`` (mega); capacitance as ``100n``, ``10u``, ``22p`` (farads, the largest
of p/n/u that keeps the number at least 1). Words are cut as library names are (see
documents/library/search.query_words: lower case, dots kept between digits).
"""

from __future__ import annotations

import re

from ..documents.library.search import query_words

_R = re.compile(r"^(\d+(?:\.\d+)?)([kmr]?)(?:ohms?|ω|Ω)?$")
_RKM = re.compile(r"^(\d+)([kmr])(\d+)$")          # 4k7, 1r5: the letter is the decimal point
_C = re.compile(r"^(\d+(?:\.\d+)?)([pnuµμ])f?$")
_OHM_IN_TEXT = re.compile(r"(\d+(?:\.\d+)?)\s*([kKmMR]?)\s*(?:Ω|ohms?\b)", re.IGNORECASE)
_FARAD_IN_TEXT = re.compile(r"(\d+(?:\.\d+)?)\s*([pnuµμ])F", re.IGNORECASE)
_R_MULT = {"": 1.0, "r": 1.0, "k": 1e3, "m": 1e6}
_C_MULT = {"p": 1.0, "n": 1e3, "u": 1e6, "µ": 1e6, "μ": 1e6}


def _num(x: float) -> str:
    text = f"{x:.3g}"
    return text[:-2] if text.endswith(".0") else text


def ohms_word(ohms: float) -> str:
    """``10000`` -> ``10k``; ``470`` -> ``470r``; ``2.2e6`` -> ``2.2m``."""
    if ohms >= 1e6:
        return _num(ohms / 1e6) + "m"
    if ohms >= 1e3:
        return _num(ohms / 1e3) + "k"
    return _num(ohms) + "r"


def farads_word(pf: float) -> str:
    """Picofarads to ``22p``, ``100n``, ``4.7u``."""
    if pf >= 1e6:
        return _num(pf / 1e6) + "u"
    if pf >= 1e3:
        return _num(pf / 1e3) + "n"
    return _num(pf) + "p"


def value_word(word: str) -> str | None:
    """The canonical spelling of a query word that is a value, else None.

    ``10k``, ``10kohm``, ``4k7``, ``470r`` are resistances; ``100nf``, ``100n``,
    ``0.1uf`` capacitances. A bare number is not a value (it may be a package)."""
    m = _RKM.match(word)
    if m:
        return ohms_word(float(f"{m.group(1)}.{m.group(3)}") * _R_MULT[m.group(2)])
    m = _C.match(word)
    if m:
        return farads_word(float(m.group(1)) * _C_MULT[m.group(2)])
    m = _R.match(word)
    if m and (m.group(2) or word != m.group(1)):
        return ohms_word(float(m.group(1)) * _R_MULT[m.group(2)])
    return None


def stem(word: str) -> str:
    """Plural to singular for words of letters (resistors -> resistor, capacitors)."""
    if len(word) > 3 and word.isalpha() and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def text_values(text: str) -> list[str]:
    """Canonical value words found in free text ("10kΩ 1% 0402" -> ["10k"])."""
    out = [ohms_word(float(n) * _R_MULT[u.lower()]) for n, u in _OHM_IN_TEXT.findall(text)]
    out += [farads_word(float(n) * _C_MULT[u.lower()]) for n, u in _FARAD_IN_TEXT.findall(text)]
    return out


def terms(*texts: str) -> str:
    """The search words of a catalogue row: its words, their singulars, its values."""
    words: dict[str, None] = {}
    for text in texts:
        for w in query_words(text):
            words.setdefault(w, None)
            words.setdefault(stem(w), None)
        for w in text_values(text):
            words.setdefault(w, None)
    return " ".join(words)


def query_terms(query: str) -> list[str]:
    """The words a query must match, in order, each in its canonical spelling."""
    out: dict[str, None] = {}
    for w in query_words(query):
        out.setdefault(value_word(w) or stem(w), None)
    return list(out)
