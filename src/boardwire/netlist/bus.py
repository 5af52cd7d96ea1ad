"""Bus names and net names as KiCad reads them.

A bus is named by a vector (``D[0..7]``: D0..D7), a group (``USB{DP DM}``: USB.DP,
USB.DM; ``{A B}``), or a bus alias (``(bus_alias "NAME" (members ...))``, pooled over
every sheet of the design). Braces after ``~``, ``^`` or ``_`` are text markup
(overbar, superscript, subscript) and ``{slash}``-style words are KiCad's escapes, not
groups. Source: KiCad 9's ``NET_SETTINGS::ParseBusVector`` and ``ParseBusGroup``
(common/project/net_settings.cpp) and ``EscapeString(..., CTX_NETNAME)``
(common/string_utils.cpp); the rules are measured against kicad-cli's netlist in
tests/netlist.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..documents.schematic import Schematic

# "~{A}", "^{A}", "_{A}" are overbar, superscript and subscript markup, not groups; and
# "{slash}" and its kind are KiCad's escapes in names
_ESCAPE_WORDS = {"slash", "backslash", "lt", "gt", "colon", "dblquote", "quote", "tab",
                 "return", "space", "comma", "brl", "brr", "dollar", "tilde", "caret",
                 "pipe", "nbsp", "ast", "amp"}
_VECTOR = re.compile(r"^(.*?)\[(\d+)\.\.(\d+)\](.*)$")


# Schematic format from which overbars are written ~{...}; KiCad converts older text on
# load (sch_file_versions.h 20210606, "Convert overbar syntax")
OVERBAR_FORMAT = 20210606


def new_overbar(text: str) -> str:
    """KiCad's ConvertToNewOverbarNotation (common/string_utils.cpp): the ``~CS`` of
    files before `OVERBAR_FORMAT` as ``~{CS}`` (a ``~`` toggles the bar; a space, ``}``
    or ``)`` ends it; ``~~`` is a tilde; text already holding ``~{`` is left alone)."""
    if text == "~":
        return text
    out, bar, i = [], False, 0
    while i < len(text):
        c = text[i]
        if c == "~":
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt == "~":
                if text[i + 2:i + 3] == "{":
                    out.append("~~{}")
                    i += 2
                    continue
                out.append("~")
                i += 2
                continue
            if nxt == "{":
                return text  # already converted: KiCad bails out
            out.append("}" if bar else "~{")
            bar = not bar
            i += 1
            continue
        if c in " })" and bar:
            out.append("}")
            bar = False
        out.append(c)
        i += 1
    if bar:
        out.append("}")
    return "".join(out)


def escape_netname(text: str) -> str:
    """KiCad's EscapeString(CTX_NETNAME): a slash would read as a sheet separator."""
    return text.replace("/", "{slash}").replace("\n", "{return}").replace("\r", "")


def _group_brace(text: str) -> tuple[int, int] | None:
    """The outer ``{...}`` of a bus group (start, end index), skipping markup braces."""
    depth, start = 0, -1
    for i, c in enumerate(text):
        if c == "{":
            if depth == 0:
                if i > 0 and text[i - 1] in "~^_":
                    depth = -1  # markup: skip to its closing brace
                    continue
                start = i
            depth = depth + 1 if depth >= 0 else depth
        elif c == "}":
            if depth == -1:
                depth = 0
            elif depth > 0:
                depth -= 1
                if depth == 0 and start >= 0:
                    if text[start + 1:i].strip() in _ESCAPE_WORDS:
                        start = -1
                        continue
                    return start, i
    return None


def bus_members(text: str, aliases: dict[str, list[str]] | None = None) -> list[tuple[object, str]] | None:
    """The members of a bus name as (match key, member net name), or None when
    ``text`` names a net, not a bus. Vector ``D[0..7]`` gives D0..D7 keyed by position;
    group ``USB{DP DM}`` gives USB.DP, USB.DM keyed by member name (``("n", name)``;
    ``("m", name)`` for a member written with markup in the group itself, which KiCad
    links to no net); a bus alias (and an alias or a vector inside a group) expands to
    its members."""
    aliases = aliases or {}
    m = _VECTOR.match(text)
    if m and "{" not in text:
        # matched by position: KiCad joins IO[8..15] on a bus to a sheet pin IO[0..7]
        # member by member (IO10 with IO2)
        return [(("v", k), name) for k, (_, name) in enumerate(_vector(m))]
    if text in aliases:
        return [(("n", name), name) for name in _expand(text, aliases, 0)]
    brace = _group_brace(text)
    if brace is None:
        return None
    prefix = text[:brace[0]]
    out: list[tuple[object, str]] = []
    for member in _split_members(text[brace[0] + 1:brace[1]]):
        # A member written with markup in the group itself (SWD{~{RESET} SWDIO}) is
        # keyed "m": KiCad 9 links it to no net (the RoyalBlue54L demo); one that comes
        # from an alias (members "~{RESET}") links as any other (cynthion, 13 nets).
        kind = "m" if "{" in member and member not in aliases else "n"
        for short in _expand(member, aliases, 0):
            out.append(((kind, short), f"{prefix}.{short}" if prefix else short))
    return out


def _vector(m: re.Match) -> list[tuple[int, str]]:
    prefix, a, b, suffix = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
    step = 1 if b >= a else -1
    return [(n, f"{prefix}{n}{suffix}") for n in range(a, b + step, step)]


def _expand(member: str, aliases: dict[str, list[str]], depth: int) -> list[str]:
    """A group member as net names: a vector's members, an alias's members (again
    expanded), or the member itself."""
    if depth < 8 and member in aliases:
        return [n for sub in aliases[member] for n in _expand(sub, aliases, depth + 1)]
    vec = _VECTOR.match(member)
    if vec and "{" not in member:
        return [name for _, name in _vector(vec)]
    return [member]


def _split_members(body: str) -> list[str]:
    out, cur, depth = [], "", 0
    for c in body:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if depth == 0 and (c.isspace() or c == ","):
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += c
    if cur:
        out.append(cur)
    return out


def is_bus_name(text: str, aliases: dict[str, list[str]] | None = None) -> bool:
    """Vector (``D[0..7]``), group (``{A B}``, ``NAME{A B}``) and alias bus names."""
    return bus_members(text, aliases) is not None


def bus_aliases(docs: Iterable[Schematic]) -> dict[str, list[str]]:
    """The bus aliases of every sheet of a design, pooled (as KiCad pools them)."""
    out: dict[str, list[str]] = {}
    for doc in docs:
        out.update(doc.bus_aliases)
    return out
