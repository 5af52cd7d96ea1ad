"""What the fw.* commands share: the project folder argument, the ``[agent]`` table,
the policy and lease around a board call, and pausing a monitor while a board is
flashed. Only translation: the work is in `boardwire.firmware`."""

from __future__ import annotations

import os
from contextlib import contextmanager

from pydantic import Field

from ...firmware import build as fwbuild
from ...firmware import devices, policy
from ...firmware.leases import hub
from ...firmware.monitor import session as monitors
from ...firmware.monitor.session import MonitorSession
from ...firmware.monitor.sources import Recorder, SerialSource
from ...firmware.project import FirmwareProject
from ...registry import Context
from ...registry.policy import agent_table as workspace_policy
from ..common import Args, InputPath, OutputPath

PERSON_ACTORS = ("cli",)  # the command line: a person's own commands are never checked


ProjectFolder = Field(".", min_length=1, max_length=4096, description="Firmware project folder")


class DirArgs(Args):
    dir: InputPath = ProjectFolder


class BuiltDirArgs(DirArgs):  # a project the call builds (into its folder)
    dir: OutputPath = ProjectFolder


class BoardArgs(DirArgs):
    port: str | None = Field(None, min_length=1, max_length=4096,
                             description="Port, URL or board id (default: the bound board)")


def project_of(ctx: Context, folder: str) -> FirmwareProject:
    return FirmwareProject.load(ctx.session.workspace.resolve(folder))


def agent_table(ctx: Context) -> dict:
    """The ``[agent]`` table of the server's boardwire.toml (the registry's policy,
    `boardwire.registry.policy`, reads the same table)."""
    return workspace_policy(ctx.session.workspace.root)


def board_of(port: str) -> dict:
    known = devices.known().get(port, {})
    return {"port": port, "id": known.get("id")}


def target(ctx: Context, project: FirmwareProject, port: str | None, action: str | None) -> str:
    """The port a board call acts on, checked against the policy for ``action``."""
    p = devices.resolve(port, project.board.to_dict())
    if action is not None:
        policy.check_board_action(action, agent_table(ctx), board=board_of(p), bound=project.board.to_dict(),
                                  person=ctx.actor in PERSON_ACTORS)
    return p


@contextmanager
def leased(ctx: Context, port: str):
    """The board's lease in the caller's name, and any monitor on its port paused."""
    with hub().lease(port, ctx.actor):
        session = monitors.on_port(port)
        if session is not None and not port.startswith("replay:"):
            session.pause()
        try:
            yield session
        finally:
            if session is not None and session.paused:
                session.resume(SerialSource(port, session.source.baud))


def run_build(ctx: Context, project, timeout_s: float = 1800) -> dict:
    """Build, raise BuildFailed / ImageTooLarge, or return the result's fields."""
    res = fwbuild.build(project, cancel=ctx.cancel, progress=lambda f, m: ctx.progress(f * 0.9, m),
                        timeout=timeout_s)
    if not res.ok:
        raise fwbuild.failure(res)
    size = fwbuild.check_fits(res)
    warnings = [d for d in res.diagnostics if d.level == "warning"]
    out = {"ok": True, "command": res.command, "seconds": res.seconds,
           "diagnostics": [d.to_dict() for d in res.diagnostics[:50]]}
    if size:
        out["size"] = size
    if res.artifacts.elf is not None:
        out["elf"] = os.path.relpath(res.artifacts.elf, project.root)
    room = (f"{size['bytes']} bytes, {size['used_percent']}% of {size['limit']} ({size['free']} free)"
            if size and size.get("limit") else f"{size['bytes']} bytes" if size else "no image found")
    out["summary"] = (f"built {project.root.name} in {res.seconds} s: {room}"
                      + (f"; {len(warnings)} warning{'s' if len(warnings) != 1 else ''}" if warnings else ""))
    return out


Pattern = str  # a regular expression (Python's re)


class MonitorPatterns(Args):
    until: Pattern | None = Field(None, min_length=1, max_length=1000, description="Stop at a line matching this regex")
    expect: list[Pattern] | None = Field(None, max_length=20, description="Regexes to match in order")
    reject: list[Pattern] | None = Field(None, max_length=20, description="Regexes that fail the call")


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


def read_session(s: MonitorSession, a, *, cursor: int | None = None, wait_s: float | None = None,
                 since: str = "new") -> dict:
    return s.read(since=getattr(a, "since", since), cursor=cursor if cursor is not None else getattr(a, "cursor", None),
                  until=a.until, expect=a.expect, reject=a.reject,
                  wait_s=wait_s if wait_s is not None else getattr(a, "wait_s", None),
                  max_events=getattr(a, "max_events", 200), max_bytes=getattr(a, "max_bytes", 16384),
                  level=getattr(a, "level", None), pattern=getattr(a, "pattern", None))
