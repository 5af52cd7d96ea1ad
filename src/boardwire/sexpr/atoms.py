"""Atoms: strings, symbols and numbers as KiCad writes and reads them.

Units: coordinates are integer nanometres (KiCad's internal unit, 1 mm = 1,000,000 nm)
inside boardwire and millimetres in the file. Reading rounds like KiCad
(``KiROUND(strtod(text) * 1e6)``, half away from zero) so a value read here equals the
one pcbnew holds; writing follows KiCad's ``FormatDouble2Str`` (``%.10g``, or fixed
notation with trailing zeros stripped for magnitudes up to 1e-4), so a value written
here is spelled as KiCad 9 spells it.
"""

from __future__ import annotations

import math
import re

IU_PER_MM = 1_000_000

_ESCAPES = {ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", ord("\r"): "\\r"}

_UNESCAPE = {
    "\\": "\\", '"': '"', "a": "\x07", "b": "\x08", "f": "\x0c", "n": "\n", "r": "\r",
    "t": "\t", "v": "\x0b",
}
_ESCAPE_RE = re.compile(r"\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)", re.S)


def quote(text: str) -> bytes:
    """A quoted string token as KiCad's OUTPUTFORMATTER::Quotew writes it.

    Backslash, double quote, line feed and carriage return are escaped; a tab stays a
    tab. Raw line breaks never reach the file (KiCad refuses them)."""
    return b'"' + text.translate(_ESCAPES).encode("utf-8") + b'"'


def _unescape_one(m: re.Match) -> str:
    seq = m.group(1)
    if seq[0] == "x" and len(seq) > 1:
        return chr(int(seq[1:], 16))
    if seq[0] in "01234567":
        return chr(int(seq, 8))
    return _UNESCAPE.get(seq, seq)  # KiCad keeps an unknown escape's character


def text(atom: bytes) -> str:
    """The value of an atom: a quoted string unescaped, a symbol as is."""
    s = atom.decode("utf-8", "surrogateescape")
    if s[:1] == '"' and s[-1:] == '"' and len(s) >= 2:
        body = s[1:-1]
        return _ESCAPE_RE.sub(_unescape_one, body) if "\\" in body else body
    if s[:1] == "|" and s[-1:] == "|" and len(s) >= 2:
        return s[1:-1]
    return s


def symbol(value: str) -> bytes:
    """An unquoted token (keywords, layer names in old files, numbers)."""
    return value.encode("utf-8")


def is_quoted(atom: bytes) -> bool:
    return atom[:1] == b'"'


def kiround(x: float) -> int:
    """KiCad's KiROUND: round half away from zero."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def to_nm(atom: bytes | str) -> int:
    """Millimetres in the file to integer nanometres, rounded as KiCad rounds."""
    return kiround(float(atom) * IU_PER_MM)


def format_double(value: float) -> str:
    """KiCad's FormatDouble2Str: ``%.10g``, or fixed with zeros stripped near zero."""
    if value != 0.0 and abs(value) <= 0.0001:
        s = f"{value:.16f}".rstrip("0")
        return s[:-1] if s.endswith(".") else s
    s = f"{value:.10g}"
    return "0" if s == "-0" else s


MAX_IU = 2**31 - 1  # KiCad coordinates are 32-bit nanometres


def mm(nm: int) -> bytes:
    """Integer nanometres as KiCad 9 writes millimetres (``1.5``, ``0.000001``).
    Raises ValueError for a value KiCad cannot hold (not finite, beyond +-2147 mm)."""
    if not math.isfinite(nm) or abs(nm) > MAX_IU:
        raise ValueError(f"{nm} nm is outside KiCad's coordinate range (+-2147 mm)")
    return format_double(nm / IU_PER_MM).encode()


def num(value: float) -> bytes:
    """A plain number (angle in degrees, ratio) as KiCad 9 writes it; ValueError if it
    is not finite."""
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{value} is not a number KiCad can store")
    return format_double(value).encode()
