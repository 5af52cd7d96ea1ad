"""What the fw.* commands share: the project folder argument, the ``[agent]`` table,
the policy and lease around a board call, and pausing a monitor while a board is
flashed. Only translation: the work is in `boardwire.firmware`."""

from __future__ import annotations

from contextlib import contextmanager

from pydantic import Field

from ...firmware import devices, policy
from ...firmware.leases import hub
from ...firmware.monitor import session as monitors
from ...firmware.monitor.sources import SerialSource
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


def needs_human_of(e) -> dict | None:
    return getattr(e, "data", {}).get("needs_human")
