"""The command line's one rule for output and exit status (docs/commands.md, "Errors"):

* 0: the command ran, and any check it ran found no errors;
* `EXIT_BUG` (1): a bug (an uncaught Python exception; the traceback goes to stderr);
* `EXIT_USAGE` (2): the command line itself is wrong (click's usage errors: an unknown
  option, a missing argument, options that do not combine);
* `EXIT_CHECK_ERRORS` (3): the command ran a check that found errors; the result is
  printed as on success (`Command.finds_errors` says which results these are);
* 10 and up: the command failed; the status is its error code's (errors.py), and
  ``{"error": {code, message, hint}}`` is printed where the verb prints JSON;
* `EXIT_INTERRUPTED` (130): Ctrl-C outside a command (inside one it is ``cancelled``).

The numbers are `boardwire.errors`' (`EXIT_CODES` for the codes).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from ..errors import EXIT_CHECK_ERRORS, BoardwireError, FileChangedOnDisk, NoDocument


def console(stderr: bool = False):
    """A rich Console (rich loads on the first line printed for people: a process that
    prints only JSON never pays for it)."""
    from rich.console import Console

    return Console(stderr=True, soft_wrap=True, highlight=False) if stderr else Console()


def print_json(obj) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


def fail(e: BoardwireError, as_json: bool = False) -> None:
    """Print ``e`` (JSON on stdout when ``as_json``; a line with its code and hint on
    stderr always) and exit with its code's status."""
    if as_json:
        print_json({"error": e.to_dict()})
    from rich.markup import escape

    console(stderr=True).print(f"[red]error[/red] {e.code}: {escape(e.message)}"
                               + (f"\n  {escape(e.hint)}" if e.hint else ""))
    raise typer.Exit(e.exit_status)


def exit_for(command_id: str, result: dict) -> None:
    """Exit with `EXIT_CHECK_ERRORS` when ``result`` of ``command_id`` is a check that
    found errors; return otherwise."""
    from ..commands import REGISTRY

    found = REGISTRY.get(command_id).finds_errors
    if found is not None and found(result):
        raise typer.Exit(EXIT_CHECK_ERRORS)


CHANGED_DURING_CALL = ("Another program (KiCad, an editor, another boardwire call) wrote the file while this "
                       "call ran, so boardwire did not write it (documents listed before it in path order "
                       "were saved). Run the call again: each call reads the files as they are then.")


def run_command(command_id: str, args: dict, *, save: bool, root: str) -> dict:
    """Run one registry command in a fresh session rooted at ``root``; save what changed."""
    from ..commands import REGISTRY
    from ..registry import Context
    from ..session import Session

    if not Path(root).is_dir():
        raise NoDocument(f"the working directory {root} does not exist")
    session = Session(root)
    cmd = REGISTRY.get(command_id)
    progress = None
    if cmd.long and sys.stderr.isatty():
        from rich.progress import Progress

        progress = Progress(console=console(stderr=True), transient=True)
        task = progress.add_task(cmd.id, total=1.0)
        progress.start()

        def report(fraction: float, message: str) -> None:
            progress.update(task, completed=fraction, description=message or cmd.id)
    else:
        report = None
    try:
        result = REGISTRY.call(command_id, args, Context(session, actor="cli", progress_fn=report, door="cli"))
    finally:
        if progress is not None:
            progress.stop()
    if save:
        try:
            saved = session.save_modified(actor="cli")
        except FileChangedOnDisk as e:  # the session's hint (reload, or force) means nothing here
            e.hint = CHANGED_DURING_CALL
            raise
        if saved:
            result.setdefault("saved", saved)
    return result


# The HTTP server's limits (`boardwire.web.limits`), options of `boardwire mcp --http`
# and `boardwire view` alike (docs/agent-ops.md, "HTTP limits").
HEADER_TIMEOUT = typer.Option(10.0, "--header-timeout", min=0.1, help="HTTP: seconds a client may take to send a request's headers before it is dropped.")
BODY_TIMEOUT = typer.Option(30.0, "--body-timeout", min=0.1, help="HTTP: seconds a client may take to send a request's body (after its headers) before it is dropped.")
SESSION_IDLE = typer.Option(1800.0, "--session-idle", min=0, help="HTTP: seconds an MCP session may sit idle before it is closed (0: never).")
MAX_SESSIONS = typer.Option(1000, "--max-sessions", min=1, help="HTTP: MCP sessions open at once; one more is refused (503, too-many-sessions).")


def http_limits(header_timeout: float, body_timeout: float, session_idle: float, max_sessions: int):
    """The `boardwire.web.limits.Limits` of the four options above."""
    from ..web.limits import Limits

    return Limits(header_timeout=header_timeout, body_timeout=body_timeout,
                  session_idle=session_idle or None, max_sessions=max_sessions)
