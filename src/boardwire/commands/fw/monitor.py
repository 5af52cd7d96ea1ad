"""fw.monitor.*: serial monitor sessions shaped for a model (`boardwire.firmware.monitor`):
start (or replay a recording), read, write, stop."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...firmware import esp
from ...firmware.leases import hub
from ...firmware.monitor import session as monitors
from ...firmware.monitor.session import MonitorSession
from ...firmware.monitor.sources import Recorder, ReplaySource, SerialSource
from ...registry import Context, command
from ..common import Args
from .common import BoardArgs, project_of, target
from .results import MonitorInfo, MonitorRead, MonitorWritten

Pattern = str


class MonitorPatterns(Args):
    until: Pattern | None = Field(None, min_length=1, max_length=1000, description="Stop at a line matching this regex")
    expect: list[Pattern] | None = Field(None, max_length=20, description="Regexes to match in order")
    reject: list[Pattern] | None = Field(None, max_length=20, description="Regexes that fail the call")


class StartArgs(BoardArgs):
    baud: int | None = Field(None, ge=300, le=5_000_000, description="Default 115200")
    reset: bool = Field(True, description="Reset so the log starts at boot")
    replay: str | None = Field(None, min_length=1, max_length=4096,
                               description="Play this recording instead")
    speed: float = Field(0.0, ge=0, le=100, description="Replay pace (0: at once)")
    record: str | None = Field(None, min_length=1, max_length=4096,
                               description="Record to this file")


def open_session(ctx: Context, project, port: str, baud: int, *, reset: bool, record: str | None = None,
                 replay=None) -> MonitorSession:
    ws = ctx.session.workspace
    art = project.artifacts() if project is not None else None
    recorder = Recorder(ws.resolve(record), port, baud) if record else None
    source = replay if replay is not None else SerialSource(port, baud)
    session = MonitorSession(source, holder=ctx.actor, elf=art.elf if art else None,
                             chip=project.chip if project else None, root=project.root if project else None,
                             recorder=recorder)
    try:
        session.did_reset = session.start(reset=reset)
    except Exception:
        if recorder is not None:
            recorder.close()
        raise
    monitors.add(session)
    hub().note_monitor(session.port, ctx.actor, session.id, True)
    return session


@command("fw.monitor.start", kind="session", args=StartArgs, result=MonitorInfo,
         examples=({"dir": "blinky"}, {"replay": "boot.jsonl"}, {"dir": "blinky", "record": "logs/run1.jsonl"}))
def start(ctx: Context, a: StartArgs) -> dict:
    """Open (or return) a monitor session on a board, or replay a recording; record writes one."""
    project = project_of(ctx, a.dir)
    if a.replay:
        src = ReplaySource(ctx.session.workspace.resolve(a.replay), a.speed)
        s = open_session(ctx, project, src.port, src.baud, reset=False, record=a.record, replay=src)
        return {"summary": f"session {s.id} replaying {a.replay} ({len(src.chunks)} chunks)", **s.info()}
    port = target(ctx, project, a.port, None)
    existing = monitors.on_port(port)
    if existing is not None:
        return {"summary": f"session {existing.id} is already open on {port}", **existing.info()}
    if not esp.port_exists(port):
        raise esp.unreachable_port(port)
    s = open_session(ctx, project, port, a.baud or project.board.baud or 115200, reset=a.reset, record=a.record)
    return {"summary": f"session {s.id} on {port}" + (", board reset" if s.did_reset else ""), **s.info(),
            "reset": s.did_reset}


class ReadArgs(MonitorPatterns):
    session: str | None = Field(None, min_length=1, max_length=64, description="Default: the only one")
    since: Literal["new", "boot", "start"] = Field("new", description="new: since last read")
    cursor: int | None = Field(None, ge=0, description="An earlier read's next")
    wait_s: float | None = Field(None, ge=0, le=120, description="25 with patterns, else 2")
    max_events: int = Field(200, ge=1, le=5000)
    max_bytes: int = Field(16384, ge=256, le=1_000_000)
    level: Literal["trace", "debug", "info", "warn", "error"] | None = Field(
        None, description="Drop lines below")
    pattern: str | None = Field(None, min_length=1, max_length=1000, description="Keep matching lines")


def read_session(s: MonitorSession, a, *, cursor: int | None = None, wait_s: float | None = None,
                 since: str = "new") -> dict:
    return s.read(since=getattr(a, "since", since), cursor=cursor if cursor is not None else getattr(a, "cursor", None),
                  until=a.until, expect=a.expect, reject=a.reject,
                  wait_s=wait_s if wait_s is not None else getattr(a, "wait_s", None),
                  max_events=getattr(a, "max_events", 200), max_bytes=getattr(a, "max_bytes", 16384),
                  level=getattr(a, "level", None), pattern=getattr(a, "pattern", None))


@command("fw.monitor.read", kind="session", args=ReadArgs, result=MonitorRead, idempotent=True,
         examples=({"since": "boot"}, {"expect": ["WiFi connected", "got ip"], "reject": ["Guru Meditation"]}))
def read(ctx: Context, a: ReadArgs) -> dict:
    """Read a monitor session: repeats collapsed xN, boots with reset reasons, panics decoded with source lines, watchdog/brown-out/reset loops named; until/expect/reject wait up to wait_s."""
    return read_session(monitors.get(a.session), a)


class WriteArgs(Args):
    session: str | None = Field(None, min_length=1, max_length=64)
    text: str = Field(max_length=65536, description="Text to send (control characters too: Ctrl-C is \\u0003)",
                      json_schema_extra={"control_characters": True})
    newline: bool = Field(True, description="Append \\n")


@command("fw.monitor.write", kind="session", args=WriteArgs, result=MonitorWritten)
def write(ctx: Context, a: WriteArgs) -> dict:
    """Send text to the board's serial input."""
    s = monitors.get(a.session)
    n = s.write((a.text + ("\n" if a.newline else "")).encode())
    return {"summary": f"wrote {n} bytes to {s.port}", "session": s.id, "bytes": n}


class StopArgs(Args):
    session: str | None = Field(None, min_length=1, max_length=64)


@command("fw.monitor.stop", kind="session", args=StopArgs, result=MonitorInfo)
def stop(ctx: Context, a: StopArgs) -> dict:
    """Close a monitor session and its recording."""
    s = monitors.get(a.session)
    s.close()
    monitors.remove(s.id)
    hub().note_monitor(s.port, s.holder, s.id, False)
    from ...firmware.monitor.boots import summary
    return {"summary": f"closed {s.id} on {s.port}: {summary(s.tracker.boots, s.tracker.loop())}", **s.info()}
