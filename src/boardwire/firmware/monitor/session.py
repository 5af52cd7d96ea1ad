"""Monitor sessions: a source's bytes as classified lines with cursors, boots and
panics, read with waits and patterns.

A read covers the lines from ``since`` (``new``: after the last read, ``boot``: the
current boot's first line, ``start``: everything kept) or from ``cursor`` (an earlier
read's ``next``). It waits up to ``wait_s`` for output: with no patterns it returns
once output has come and paused for a moment; ``until`` stops at the first line that
matches; ``expect`` is a list of patterns that must match in order (the read succeeds
when the last one has); ``reject`` fails the read (`ExpectFailed`) at the first line
or panic reason that matches. Unmet expectations when the wait ends fail it too.
Patterns are Python regular expressions, searched anywhere in a line.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from pathlib import Path

from ...errors import ExpectFailed, InvalidArgs, NotFound
from .boots import BootTracker, Panic, summary
from .lines import Line, classify
from .panic import decode
from .shape import render, shape

KEEP_LINES = 20000  # lines kept per session (the oldest go first)
SETTLE_S = 0.3  # a pause in the output that ends a read without patterns
_IDS = itertools.count(1)


def _compile(p: str | None, what: str) -> re.Pattern | None:
    if p is None:
        return None
    try:
        return re.compile(p)
    except re.error as e:
        raise InvalidArgs(f"{what}: {p!r} is not a regular expression ({e})") from None


class MonitorSession:
    def __init__(self, source, *, holder: str, elf: Path | None = None, chip: str | None = None,
                 root: Path | None = None, recorder=None) -> None:
        self.id = f"m{next(_IDS)}"
        self.source = source
        self.port = source.port
        self.holder = holder
        self.elf, self.chip, self.root = elf, chip, root
        self.recorder = recorder
        self.lines: list[Line] = []
        self.first_seq = 0
        self._partial = b""
        self._cond = threading.Condition()
        self.tracker = BootTracker(on_panic_closed=self._decode)
        self.read_pos = 0
        self.ended = False
        self.paused = False
        self.last_data = 0.0
        self.started = time.time()

    # -- input ---------------------------------------------------------------------
    def start(self, *, reset: bool) -> bool:
        return self.source.start(self._on_data, self._on_end, reset=reset)

    def _decode(self, p: Panic) -> None:
        try:
            p.frames = decode(p.lines, self.elf, self.chip, self.root)
        except Exception:  # noqa: BLE001 - a failed decode leaves the panic undecoded
            p.frames = []

    def _on_data(self, data: bytes, t: float) -> None:
        if self.recorder is not None:
            self.recorder.chunk(data, t)
        with self._cond:
            self._partial += data
            *complete, self._partial = self._partial.split(b"\n")
            for raw in complete:
                self._add(raw.decode("utf-8", "replace").rstrip("\r"), t)
            self.last_data = time.monotonic()
            self._cond.notify_all()

    def _add(self, text: str, t: float) -> None:
        seq = self.first_seq + len(self.lines)
        line = classify(seq, t, text)
        self.tracker.feed(line)
        self.lines.append(line)
        if len(self.lines) > KEEP_LINES:
            drop = len(self.lines) - KEEP_LINES
            del self.lines[:drop]
            self.first_seq += drop

    def _on_end(self) -> None:
        with self._cond:
            if self._partial:
                self._add(self._partial.decode("utf-8", "replace").rstrip("\r"), self.lines[-1].t if self.lines else 0)
                self._partial = b""
            if not self.paused:
                self.ended = True
                self.tracker.flush()
            self._cond.notify_all()

    @property
    def next_seq(self) -> int:
        return self.first_seq + len(self.lines)

    # -- control -------------------------------------------------------------------
    def write(self, data: bytes) -> int:
        return self.source.write(data)

    def pause(self) -> None:
        """Let go of the port (to flash it); `resume` opens it again."""
        self.paused = True
        self.source.close()

    def resume(self, source) -> None:
        self.source = source
        self.paused = False
        source.start(self._on_data, self._on_end, reset=False)

    def close(self) -> None:
        self.source.close()
        if self.recorder is not None:
            self.recorder.close()
        with self._cond:
            self.ended = True
            self.tracker.flush()
            self._cond.notify_all()

    def info(self) -> dict:
        return {"session": self.id, "port": self.port, "holder": self.holder, "lines": self.next_seq,
                "boots": len(self.tracker.boots) - 1, "ended": self.ended,
                **({"recording": str(self.recorder.path)} if self.recorder is not None else {})}

    # -- reading -------------------------------------------------------------------
    def read(self, *, since: str = "new", cursor: int | None = None, until: str | None = None,
             expect: list[str] | None = None, reject: list[str] | None = None, wait_s: float | None = None,
             max_events: int = 200, max_bytes: int = 16384, level: str | None = None,
             pattern: str | None = None) -> dict:
        until_re = _compile(until, "until")
        expect_re = [_compile(p, "expect") for p in expect or []]
        reject_re = [_compile(p, "reject") for p in reject or []]
        pattern_re = _compile(pattern, "pattern")
        patterns = bool(until_re or expect_re or reject_re)
        if wait_s is None:
            wait_s = 25.0 if patterns else 2.0
        deadline = time.monotonic() + wait_s
        with self._cond:
            start = self._start(since, cursor)
            scan, got, end, hit, rejected = start, 0, None, None, None
            while True:
                while scan < self.next_seq and end is None:
                    ln = self.lines[scan - self.first_seq]
                    scan += 1
                    r = next((r for r in reject_re if r.search(ln.text)), None)
                    if r is not None:
                        rejected, end = {"pattern": r.pattern, "seq": ln.seq, "text": ln.text}, scan
                    elif got < len(expect_re) and expect_re[got].search(ln.text):
                        got += 1
                        if got == len(expect_re) and not until_re:
                            end, hit = scan, {"expect": [p.pattern for p in expect_re], "seq": ln.seq}
                    if end is None and until_re is not None and until_re.search(ln.text):
                        end, hit = scan, {"until": until_re.pattern, "seq": ln.seq, "text": ln.text}
                if end is not None or self.ended:
                    break
                now = time.monotonic()
                if now >= deadline:
                    break
                if not patterns and scan > start and now - self.last_data >= SETTLE_S:
                    break
                self._cond.wait(min(deadline - now, SETTLE_S / 3))
            if end is None:
                end = scan
            if rejected is not None:
                end = self._finish_panic(end, deadline)
            lines = self.lines[max(0, start - self.first_seq): end - self.first_seq]
        return self._result(lines, start, end, hit, rejected, got, expect_re, level, pattern_re,
                            max_events, max_bytes)

    def _start(self, since: str, cursor: int | None) -> int:
        if cursor is not None:
            if cursor > self.next_seq:
                raise InvalidArgs(f"cursor {cursor} is past the end of the session ({self.next_seq})")
            return max(cursor, self.first_seq)
        if since == "new":
            return max(self.read_pos, self.first_seq)
        if since == "boot":
            return max(self.tracker.current.seq, self.first_seq)
        if since == "start":
            return self.first_seq
        raise InvalidArgs(f"since: {since!r} is not new, boot or start")

    def _finish_panic(self, end: int, deadline: float) -> int:
        """A read rejected at a panic also returns the panic's block (decoded), waiting
        a moment for it to end."""
        p = self.tracker.current.panic
        if p is None or p.last < end - 1 - 200:
            return end
        stop = min(deadline, time.monotonic() + 2.0)
        while not p.closed and not self.ended and time.monotonic() < stop:
            self._cond.wait(0.1)
        return max(end, p.last + 1) if p.closed else end

    def _result(self, lines, start, end, hit, rejected, got, expect_re, level, pattern_re,
                max_events, max_bytes) -> dict:
        panics = {b.panic.seq: b.panic for b in self.tracker.boots if b.panic is not None}
        events, cut = shape(lines, panics, level=level, pattern=pattern_re, max_events=max_events,
                            max_bytes=max_bytes)
        nxt = cut if cut is not None else end
        self.read_pos = nxt
        boots = [b for b in self.tracker.boots[1:] if start <= b.seq < end]
        loop = self.tracker.loop()
        text = summary(self.tracker.boots, loop)
        out = {"session": self.id, "events": events, "text": render(events), "next": nxt,
               "boots": [b.to_dict() for b in boots], "boot_summary": text,
               "ended": self.ended}
        if loop:
            out["reset_loop"] = loop
        if cut is not None:
            out["truncated"] = True
        if hit:
            out["matched"] = hit
        n = f"{len(events)} event{'s' if len(events) != 1 else ''} (lines {start}..{end - 1})"
        if rejected is not None:
            raise ExpectFailed(f"rejected pattern {rejected['pattern']!r} matched: {rejected['text'][:160]}",
                               rejected=rejected, **{k: out[k] for k in ("session", "events", "next", "boot_summary")})
        if expect_re and got < len(expect_re):
            raise ExpectFailed(f"expected {expect_re[got].pattern!r} (expectation {got + 1} of {len(expect_re)}) "
                               f"did not appear" + (" before the output ended" if self.ended else " in time"),
                               missing=[p.pattern for p in expect_re[got:]],
                               **{k: out[k] for k in ("session", "events", "next", "boot_summary")})
        out["summary"] = f"{n}; {text}" + (f"; matched {hit.get('until') or 'all expectations'}" if hit else "")
        return out


# -- the sessions of this process --------------------------------------------------

SESSIONS: dict[str, MonitorSession] = {}
_LOCK = threading.Lock()


def add(session: MonitorSession) -> None:
    with _LOCK:
        SESSIONS[session.id] = session


def get(session_id: str | None) -> MonitorSession:
    """The session ``session_id``, or the only open one; raises NotFound."""
    with _LOCK:
        if session_id is not None:
            s = SESSIONS.get(session_id)
            if s is None:
                raise NotFound(f"no monitor session {session_id!r}", hint="fw.devices lists the open sessions.")
            return s
        if len(SESSIONS) == 1:
            return next(iter(SESSIONS.values()))
        raise NotFound("no monitor session is open" if not SESSIONS else
                       f"{len(SESSIONS)} monitor sessions are open ({', '.join(SESSIONS)}); name one",
                       hint="Open one with fw.monitor.start." if not SESSIONS else "Pass session.")


def on_port(port: str) -> MonitorSession | None:
    with _LOCK:
        return next((s for s in SESSIONS.values() if s.port == port and not s.ended), None)


def remove(session_id: str) -> MonitorSession | None:
    with _LOCK:
        return SESSIONS.pop(session_id, None)
