"""Boots, panics and what ended each boot, from the classified lines (`lines`).

A boot starts at the ROM's banner or its ``rst:`` line (whichever comes first) and
takes its reset reason from the ``rst:`` line. What ended the previous boot is its
cause: a panic (with the panic handler's reason), a brownout, the task watchdog, else
the reset's own kind (`lines.reset_category`). Three or more boots in a row with the
same cause, other than a power-on, a person's reset or a tool's reset over USB, are a
reset loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .lines import ABORT, ASSERT, GURU, PANIC_END, RST, Line, reset_category

BENIGN = ("power_on", "usb", "external", "unknown")
LOOP_MIN = 3
_PANIC_MAX_LINES = 80


@dataclass
class Panic:
    seq: int
    reason: str
    kind: str  # exception, abort, assert, stack, heap
    core: int | None = None
    lines: list[str] = field(default_factory=list)
    closed: bool = False
    last: int = 0  # seq of its last line
    frames: list[dict] | None = None  # decoded once closed

    def to_dict(self) -> dict:
        out = {"seq": self.seq, "reason": self.reason, "kind": self.kind}
        if self.core is not None:
            out["core"] = self.core
        if self.frames:
            out["frames"] = self.frames
        return out


@dataclass
class Boot:
    n: int
    seq: int
    t: float
    reason: str | None = None
    code: int | None = None
    rom: str | None = None
    cause: str = "unknown"
    panic: Panic | None = None
    brownout: bool = False
    task_wdt: bool = False

    @property
    def category(self) -> str:
        return reset_category(self.reason) if self.reason else "unknown"

    def to_dict(self) -> dict:
        out = {"boot": self.n, "seq": self.seq, "t": round(self.t, 3), "cause": self.cause}
        if self.reason:
            out.update(reason=self.reason, reset=self.category)
        if self.rom:
            out["rom"] = self.rom
        if self.panic is not None:
            out["panic"] = self.panic.reason
        return out


class BootTracker:
    """Feed it lines in order; it numbers boots (0 = what came before the first boot
    seen) and collects panics. ``on_panic_closed(panic)`` is called when a panic's
    block ends (to decode it)."""

    def __init__(self, on_panic_closed=None) -> None:
        self.boots: list[Boot] = [Boot(0, 0, 0.0, cause="joined")]
        self.on_panic_closed = on_panic_closed
        self._since_rom: int | None = None

    @property
    def current(self) -> Boot:
        return self.boots[-1]

    def _close_panic(self) -> None:
        p = self.current.panic
        if p is not None and not p.closed:
            p.closed = True
            if self.on_panic_closed is not None:
                self.on_panic_closed(p)

    def _new_boot(self, line: Line) -> Boot:
        self._close_panic()
        prev = self.current
        b = Boot(len(self.boots), line.seq, line.t)
        if prev.panic is not None:
            b.cause = f"panic ({prev.panic.reason})"
        elif prev.brownout:
            b.cause = "brownout"
        elif prev.task_wdt:
            b.cause = "task watchdog"
        self.boots.append(b)
        return b

    def feed(self, line: Line) -> None:
        if line.kind == "rom":
            self._new_boot(line)
            self._since_rom = 0
        elif line.kind == "boot":
            fresh = self._since_rom is not None and self._since_rom <= 3 and self.current.reason is None
            b = self.current if fresh else self._new_boot(line)
            m = RST.match(line.text)
            b.reason, b.code, b.rom = m["reason"], int(m["code"], 16), line.text
            if b.cause == "unknown":
                cat = b.category
                b.cause = {"brownout": "brownout", "watchdog": f"watchdog ({b.reason})"}.get(cat, cat)
            self._since_rom = None
        elif self._since_rom is not None:
            self._since_rom += 1
        line.boot = self.current.n
        b = self.current
        p = b.panic
        if line.kind == "panic":
            if p is None or p.closed:
                p = b.panic = _start_panic(line)
            elif p.kind != "exception" and GURU.search(line.text):  # the cause after an assert's text
                q = _start_panic(line)
                p.reason, p.kind, p.core = q.reason, q.kind, q.core
            p.lines.append(line.text)
            p.last = line.seq
        elif p is not None and not p.closed:
            p.lines.append(line.text)
            p.last = line.seq
            if PANIC_END.match(line.text) or len(p.lines) >= _PANIC_MAX_LINES:
                self._close_panic()
        elif line.kind == "brownout":
            b.brownout = True
        elif line.kind == "watchdog":
            b.task_wdt = True

    def flush(self) -> None:
        """Close an open panic (the source ended)."""
        self._close_panic()

    def loop(self) -> dict | None:
        """{cause, boots} when the last boots are a reset loop, else None."""
        real = self.boots[1:]
        if len(real) < LOOP_MIN:
            return None
        # The boot still running has no known end: judge by the boots' causes so far.
        last = real[-1].cause
        run = 0
        for b in reversed(real):
            if b.cause != last:
                break
            run += 1
        if run >= LOOP_MIN and last.split(" ")[0] not in BENIGN:
            return {"cause": last, "boots": run}
        return None


def _start_panic(line: Line) -> Panic:
    text = line.text
    m = GURU.search(text)
    if m:
        return Panic(line.seq, m["reason"], "exception", int(m["core"]))
    m = ABORT.search(text)
    if m:
        return Panic(line.seq, f"abort() at {m['pc']}", "abort", int(m["core"]) if m["core"] else None)
    if ASSERT.match(text):
        return Panic(line.seq, text[:160], "assert")
    if text.startswith("Stack smashing"):
        return Panic(line.seq, "stack smashing", "stack")
    if text.startswith("CORRUPT HEAP"):
        return Panic(line.seq, text[:160], "heap")
    return Panic(line.seq, text[:160], "exception")


def summary(boots: list[Boot], loop: dict | None) -> str:
    """A line for the model: boots, their causes, and a named problem."""
    real = boots[1:]
    if not real:
        return "no boot seen"
    causes: dict[str, int] = {}
    for b in real:
        causes[b.cause] = causes.get(b.cause, 0) + 1
    text = f"{len(real)} boot{'s' if len(real) != 1 else ''}: " + ", ".join(
        f"{c} x{n}" if n > 1 else c for c, n in causes.items())
    last = real[-1]
    if loop:
        text += f"; RESET LOOP: {loop['boots']} boots in a row ended by {loop['cause']}"
    elif last.panic is not None:
        text += f"; the last boot panicked ({last.panic.reason})"
    elif last.cause.startswith(("panic", "watchdog", "brownout", "task watchdog")):
        text += f"; the last boot followed a {last.cause.split(' (')[0]} reset"
    return text
