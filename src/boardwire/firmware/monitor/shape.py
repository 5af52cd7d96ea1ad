"""Lines into events a model can read: filtered, panic blocks folded into their
panic (decoded frames instead of register dumps), runs of identical lines collapsed
into one with a count (ESP-IDF's millisecond stamps ignored when comparing), within
``max_events`` and ``max_bytes``."""

from __future__ import annotations

import re

from .boots import Panic
from .lines import LEVEL_RANK, Line

_STAMP = re.compile(r"^([EWIDV]) \(\d+\) ")
ALWAYS = ("boot", "rom", "panic", "brownout", "watchdog")


def _key(line: Line) -> str:
    return _STAMP.sub(r"\1 (*) ", line.text)


def shape(lines: list[Line], panics: dict[int, Panic], *, level: str | None = None,
          pattern: re.Pattern | None = None, max_events: int = 200,
          max_bytes: int = 16384) -> tuple[list[dict], int | None]:
    """(events, the seq of the first line left out for the limits, or None).

    ``panics`` by the seq of their first line; their other lines are folded in
    (``Backtrace:`` and ``abort()`` lines stay)."""
    floor = LEVEL_RANK.get(level, 0) if level else 0
    folded: set[int] = set()
    for p in panics.values():
        folded.update(range(p.seq + 1, p.last + 1))
    events: list[dict] = []
    last_key = None
    size = 0
    for ln in lines:
        if ln.seq in folded and ln.kind != "panic" and not ln.text.startswith(("Backtrace:", "abort() was called")):
            continue
        if ln.kind not in ALWAYS:  # boots and panics always pass; warnings pass the level
            if floor and ln.level not in ("warn", "error") and LEVEL_RANK.get(ln.level or "info", 2) < floor:
                continue
            if pattern is not None and not pattern.search(ln.text):
                continue
        key = _key(ln)
        if events and key == last_key and ln.kind == "line":
            ev = events[-1]
            ev["count"] = ev.get("count", 1) + 1
            ev["t_last"] = round(ln.t, 3)
            continue
        if len(events) >= max_events or size + len(ln.text) > max_bytes:
            return events, ln.seq
        ev = ln.to_dict()
        if ln.kind == "panic" and ln.seq in panics:
            p = panics[ln.seq]
            ev["panic"] = p.to_dict()
            ev["panic"]["lines"] = len(p.lines)
        events.append(ev)
        size += len(ln.text) + (sum(len(s) for f in ev.get("panic", {}).get("frames", []) for s in f.get("source", [])))
        last_key = key
    return events, None


def render(events: list[dict]) -> str:
    """The events as text: one line each, repeats as ``xN``, frames indented with
    their source lines."""
    out = []
    for ev in events:
        text = ev["text"] + (f"  x{ev['count']}" if ev.get("count", 1) > 1 else "")
        out.append(text)
        for f in ev.get("panic", {}).get("frames", []):
            out.append(f"  {f['address']}: {f['function']} at {f['file']}:{f.get('line') or '?'}")
            out.extend("    " + s for s in f.get("source", []))
    return "\n".join(out)
