"""What an agent may do in a workspace: the ``[agent]`` table of its ``boardwire.toml``.

Checked by the registry for every call through an agent's door (MCP, JSON-RPC, the
bridge, the script API; `context.AGENT_DOORS`), nested calls included (a batch's steps,
a design build's stages); a person's command line is never checked. Keys, all
optional (the defaults are safe and do not get in the way of designing):

* ``paths`` (list of globs, default ``["**"]``: anywhere in the workspace): where a
  call may change something. Every path a call edits or writes, by its arguments'
  roles (`roles`: a `roles.EditPath`, a `roles.OutputPath`, the document of a true
  `roles.Destroys` flag), resolved as the command resolves it (a child sheet's file
  beside its parent sheet, project.new's folder NAME), must match one glob, matched
  against the workspace-relative path (``fnmatch``: ``*`` also crosses folders; a
  folder also matches the globs of its contents, ``out/**``). What a call only reads
  is not checked.
* ``destructive`` (default false): calls that cannot be undone and throw away work: a
  call whose argument model has a `roles.Destroys` flag set true (closing with discard,
  saving over a file changed on disk: session.save force), and a command declared
  destructive that is no edit (session.revert; fw.* are the firmware keys' business).
  Deleting items is an edit with an undo step and is not refused.
* ``exports`` (default true): export commands (renders, netlists, Specctra files,
  firmware projects...); ``fabrication`` (default true): the fab.* commands.
* ``boards``, ``allowed_boards``, ``erase``: which boards fw.flash, fw.run, fw.reset
  and fw.erase may touch (`boardwire.firmware.policy`).

A refused call raises ``policy-denied`` whose message and ``data.key`` name the key.
"""

from __future__ import annotations

import fnmatch
import threading
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from ..documents.fileio import STATE_FOLDER
from ..errors import PolicyDenied, needs_human
from . import roles
from .command import Command

CONFIG = "boardwire.toml"


class AgentTable(BaseModel):
    """The ``[agent]`` keys and their types; any other key, or a wrong type, makes the
    table invalid (a typo must not silently allow what it meant to forbid)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    paths: list[str] | str = ["**"]
    destructive: bool = False
    exports: bool = True
    fabrication: bool = True
    boards: Literal["bound", "any", "none"] = "bound"
    allowed_boards: list[str] = []
    erase: bool = False


# What an absent key means for the keys checked here (the firmware keys are read by
# boardwire.firmware.policy with the same defaults).
DEFAULTS = AgentTable().model_dump(include={"paths", "destructive", "exports", "fabrication"})
_cache: dict[Path, tuple[float, dict]] = {}
_lock = threading.Lock()


def agent_table(root: str | Path) -> dict:
    """The ``[agent]`` table of ``root``/boardwire.toml with `DEFAULTS` filled in
    (read again when the file changes). Raises ``policy-denied`` (key ``agent``, with
    needs_human) for a file that is not TOML or an ``[agent]`` that is not `AgentTable`:
    a broken policy refuses every agent call until a person fixes it."""
    path = Path(root) / CONFIG
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return dict(DEFAULTS)
    with _lock:
        hit = _cache.get(path)
        if hit is not None and hit[0] == mtime:
            return hit[1]
    try:
        with open(path, "rb") as f:
            table = tomllib.load(f).get("agent", {})
        if not isinstance(table, dict):
            raise ValueError("[agent] must be a table")
        AgentTable.model_validate(table)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise _broken(f"[agent] {where}: {first['msg']}") from None
    except (OSError, ValueError) as e:  # TOMLDecodeError and UnicodeDecodeError are ValueErrors
        raise _broken(str(e)) from None
    out = {**DEFAULTS, **table}
    with _lock:
        _cache[path] = (mtime, out)
    return out


def _broken(why: str) -> PolicyDenied:
    return PolicyDenied(
        f"{CONFIG} is not a valid policy ({why}): agent calls are refused until a person fixes it",
        hint=f"Ask the person who runs boardwire to fix {CONFIG}; their own command line still works.",
        key="agent", needs_human=needs_human("fix_policy", f"Fix the [agent] table of {CONFIG}: {why}"))


def _deny(message: str, key: str, value) -> PolicyDenied:
    return PolicyDenied(f"{message}: refused by [agent] {key} in {CONFIG}",
                        hint=f"A person can set [agent] {key} = {value} in the workspace's {CONFIG}.",
                        key=f"agent.{key}")


def destructive(cmd: Command, args) -> bool:
    """True for a call that throws work away beyond undo (see the module): by its
    `roles.Destroys` flags when its arguments have any, else by its declaration."""
    flagged = roles.destroys(args)
    if flagged is not None:
        return flagged
    return cmd.destructive and cmd.kind != "edit" and cmd.scope != "fw"


def written_paths(args, workspace) -> list[str]:
    """The workspace-relative paths (``"."``: the workspace) a call edits or writes,
    by its arguments' roles (`roles.named`), resolved as the command resolves them.
    Raises ``path-outside-workspace`` for one that leaves the workspace."""
    return list(dict.fromkeys(n.path for n in roles.named(args, workspace) if n.role.writes))


def check(cmd: Command, args, session) -> None:
    """Raise ``policy-denied`` unless the workspace's policy allows the call."""
    if cmd.scope == "job":
        return
    table = agent_table(session.workspace.root)
    if cmd.scope == "fab" and table.get("fabrication") is False:
        raise _deny(f"{cmd.id} makes fabrication files", "fabrication", "true")
    if cmd.kind == "export" and cmd.scope != "fab" and table.get("exports") is False:
        raise _deny(f"{cmd.id} exports", "exports", "true")
    if table.get("destructive") is not True and destructive(cmd, args):
        raise _deny(f"{cmd.id} cannot be undone", "destructive", "true")
    globs = table.get("paths")
    if isinstance(globs, str):
        globs = [globs]
    for rel in written_paths(args, session.workspace):
        if STATE_FOLDER in rel.split("/"):
            raise PolicyDenied(f"{cmd.id} writes {rel}, inside boardwire's own {STATE_FOLDER} folder "
                               "(locks, backups, the audit log, keys)",
                               hint="Write outputs to a folder of the project's, e.g. fab/ or out/.",
                               key="agent.paths")
        # a folder a call writes into matches the globs of its contents too ("out/**")
        if not any(fnmatch.fnmatchcase(rel, g) or fnmatch.fnmatchcase(rel + "/", g) for g in globs):
            raise _deny(f"{cmd.id} writes {rel}, which no glob of [agent] paths ({', '.join(globs)}) matches",
                        "paths", f'[..., "{rel}"]')
