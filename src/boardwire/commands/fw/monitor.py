"""fw.monitor.*: serial monitor sessions shaped for a model (`boardwire.firmware.monitor`):
start (or replay a recording), read, write, stop."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...firmware import esp
from ...firmware.leases import hub
from ...firmware.monitor import session as monitors
from ...firmware.monitor.sources import ReplaySource
from ...registry import Context, command
from ..common import Args, InputPath, OutputPath
from .common import BoardArgs, MonitorPatterns, open_session, project_of, read_session, target
from .results import MonitorInfo, MonitorRead, MonitorWritten



class StartArgs(BoardArgs):
    baud: int | None = Field(None, ge=300, le=5_000_000, description="Default 115200")
    reset: bool = Field(True, description="Reset so the log starts at boot")
    replay: InputPath | None = Field(None, min_length=1, max_length=4096,
                                     description="Play this recording instead")
    speed: float = Field(0.0, ge=0, le=100, description="Replay pace (0: at once)")
    record: OutputPath | None = Field(None, min_length=1, max_length=4096,
                                      description="Record to this file")


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
