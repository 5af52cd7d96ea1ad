"""Compiler messages as diagnostics: level, file, line, column, code, message.

Two formats, as the compilers print them:

* GCC (and clang, ld): ``FILE:LINE:COLUMN: LEVEL: MESSAGE [-Wflag]`` (GCC manual,
  "Diagnostic Message Formatting Options"; the ``[-Wflag]`` is the option that
  controls a warning, our ``code``), ``FILE:LINE: LEVEL: ...`` without a column, and
  the linker's ``FILE:(SECTION+OFFSET): undefined reference to ...``;
* rustc (and so cargo): ``LEVEL[CODE]: MESSAGE`` then `` --> FILE:LINE:COLUMN`` on a
  following line (rustc's human-readable emitter); the lines after it up to a blank
  line are the rendered snippet, kept as ``rendered``.

Levels are ``error``, ``warning`` and ``note`` (GCC's ``fatal error`` is an error;
rustc's ``help`` is a note).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from .monitor.lines import ANSI

_GCC = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)?\s*"
                  r"(?P<level>fatal error|error|warning|note):\s*(?P<msg>.*?)(?:\s+\[(?P<code>-W[^\]]+|-f[^\]]+)\])?$")
_LD = re.compile(r"^(?:\S*ld(?:\.\w+)?:\s*)?(?P<file>[^\s:][^:]*):\((?P<where>[^)]*)\):\s*(?P<msg>undefined reference to .*|multiple definition of .*)$")
_LD_REGION = re.compile(r"^\S*ld(?:\.\w+)?:\s*(?P<msg>.*(?:will not fit in region|region .* overflowed by).*)$")
_RUST_HEAD = re.compile(r"^(?P<level>error|warning|note|help)(?:\[(?P<code>[A-Za-z0-9_:-]+)\])?:\s*(?P<msg>.+)$")
_RUST_AT = re.compile(r"^\s*-->\s*(?P<file>.+?):(?P<line>\d+):(?P<col>\d+)$")


@dataclass
class Diagnostic:
    level: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    code: str | None = None
    rendered: str | None = None

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}


def _level(word: str) -> str:
    return {"fatal error": "error", "help": "note"}.get(word, word)


def parse(lines: list[str]) -> list[Diagnostic]:
    """The diagnostics in a build's output, in order; repeated ones (the same level,
    place and message, as make -j or a header included twice prints them) once."""
    out: list[Diagnostic] = []
    seen: set[tuple] = set()
    clean = [ANSI.sub("", raw) for raw in lines]
    i = 0
    while i < len(clean):
        line = clean[i]
        d = _gcc(line) or _rust(clean, i)
        if d is not None:
            key = (d.level, d.file, d.line, d.column, d.message)
            if key not in seen:
                seen.add(key)
                out.append(d)
        i += 1
    return out


def _gcc(line: str) -> Diagnostic | None:
    m = _GCC.match(line)
    if m:
        return Diagnostic(_level(m["level"]), m["msg"].strip(), m["file"], int(m["line"]),
                          int(m["col"]) if m["col"] else None, m["code"])
    m = _LD.match(line)
    if m:
        return Diagnostic("error", m["msg"].strip(), m["file"], code="ld")
    m = _LD_REGION.match(line)
    if m:
        return Diagnostic("error", m["msg"].strip(), code="ld")
    return None


def _rust(lines: list[str], i: int) -> Diagnostic | None:
    m = _RUST_HEAD.match(lines[i])
    if not m:
        return None
    msg = m["msg"].strip()
    if m["level"] == "warning" and re.match(r"`[^`]+` \(.*\) generated \d+ warnings?", msg):
        return None  # cargo's tally, not a message
    d = Diagnostic(_level(m["level"]), msg, code=m["code"])
    body = []
    for j in range(i + 1, min(len(lines), i + 60)):
        if not lines[j].strip():
            break
        at = _RUST_AT.match(lines[j])
        if at and d.file is None:
            d.file, d.line, d.column = at["file"], int(at["line"]), int(at["col"])
        body.append(lines[j])
    if d.file is None and m["level"] in ("note", "help"):
        return None  # a note attached to the message above
    if body:
        d.rendered = "\n".join([lines[i], *body])
    return d


def first_error(diags: list[Diagnostic]) -> Diagnostic | None:
    return next((d for d in diags if d.level == "error"), None)


def where(d: Diagnostic) -> str:
    """``file:line:column`` (what is known of it)."""
    parts = [d.file or "?"] + [str(x) for x in (d.line, d.column) if x is not None]
    return ":".join(parts)
