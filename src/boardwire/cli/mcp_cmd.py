"""``boardwire mcp``: serve MCP (stdio or Streamable HTTP), print the tool list,
manage HTTP keys, register boardwire with MCP clients.

The SDK is imported only when MCP is served (it costs about a second), so
``--tools`` and the key commands stay fast."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from ..errors import BoardwireError, InvalidArgs, NoDocument, NotFound, PolicyDenied
from .common import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    MAX_SESSIONS,
    SESSION_IDLE,
    fail,
    http_limits,
)

mcp_app = typer.Typer(add_completion=False, invoke_without_command=True, pretty_exceptions_enable=False,
                      help="Serve boardwire's commands as MCP tools (stdio by default).")
keys_app = typer.Typer(add_completion=False, no_args_is_help=True, help="Bearer keys for --http.")
mcp_app.add_typer(keys_app, name="keys")


def _toolsets(value: str | None) -> list[str] | None:
    return [t.strip() for t in value.split(",") if t.strip()] if value else None


def _quiet_logging() -> None:
    """Logs to stderr only: stdout carries the protocol."""
    import logging

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="boardwire: %(message)s")


@mcp_app.callback()
def mcp(ctx: typer.Context,
        tools: bool = typer.Option(False, "--tools", help="Print the tool list as JSON and exit."),
        toolset: str = typer.Option(None, "--toolset", help="Comma-separated toolsets: default, all, or families (core, board, schematic, library, project, firmware, ...); default: the designer's path."),
        http: bool = typer.Option(False, "--http", help="Serve Streamable HTTP instead of stdio."),
        host: str = typer.Option("127.0.0.1", "--host"),
        port: int = typer.Option(8765, "--port", min=1, max=65535),
        allow_origin: list[str] = typer.Option([], "--allow-origin", help="An extra allowed browser Origin (repeatable)."),
        root: str = typer.Option(".", "--root", help="Working directory (stdio), or the folder holding the keys file and key workspaces (HTTP)."),
        no_auth: bool = typer.Option(False, "--no-auth", help="HTTP without keys (only on 127.0.0.1; for local tests)."),
        attach: bool = typer.Option(False, "--attach", help="Serve the board open in KiCad's PCB editor, live (IPC API; docs/bridge.md)."),
        kicad_socket: str = typer.Option(None, "--kicad-socket", help="KiCad's API socket (default: KICAD_API_SOCKET, then $TMPDIR/kicad/api.sock)."),
        kicad_wait: float = typer.Option(10.0, "--kicad-wait", min=0, help="Seconds to wait for a starting KiCad (--attach)."),
        view: int = typer.Option(None, "--view", min=0, max=65535, help="Also serve the live view of this session on 127.0.0.1:PORT (0: any free port; stdio)."),
        queue: str = typer.Option(None, "--queue", help="--http: send heavy jobs to this work queue, redis://HOST:PORT/N, run by `boardwire worker` processes."),
        header_timeout: float = HEADER_TIMEOUT, body_timeout: float = BODY_TIMEOUT,
        session_idle: float = SESSION_IDLE, max_sessions: int = MAX_SESSIONS):
    """Serve MCP on stdio (or --http): the default tool set; every other family is one
    toolset_enable call (or --toolset) away."""
    if ctx.invoked_subcommand is not None:
        return
    from ..protocols.mcp.tools import measured_tokens
    from ..protocols.mcp.toolsets import DEFAULT_TOKEN_BUDGET, tool_list

    sets = _toolsets(toolset)
    if view is not None and sets is None:
        sets = ["default", "agent"]  # the view's chat box needs agent_chat / agent_reply
    try:
        listed = tool_list(sets)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--toolset")
    if tools:
        tokens, how = measured_tokens(listed)
        print(json.dumps({"tools": listed, "tokens": tokens, "counted_with": how, "default_budget": DEFAULT_TOKEN_BUDGET}, indent=1))
        return
    if not Path(root).is_dir():
        fail(NoDocument(f"the working directory {root} does not exist", hint="Give --root an existing folder."))
    _quiet_logging()
    import anyio

    if http and attach:
        raise typer.BadParameter("--attach serves one board over stdio; it does not combine with --http",
                                 param_hint="--attach")
    if http:
        from ..web.server import (
            serve,  # MCP at /mcp, the live view at /view behind the same keys
        )

        if no_auth and host not in ("127.0.0.1", "localhost", "::1"):
            fail(PolicyDenied("--no-auth is only allowed on a loopback host",
                              hint="Serve on 127.0.0.1, or use keys (boardwire mcp keys add NAME)."))
        try:
            serve(root, host=host, port=port, toolsets=sets, allow_origins=allow_origin, auth=not no_auth, queue=queue,
                  limits=http_limits(header_timeout, body_timeout, session_idle, max_sessions))
        except BoardwireError as e:
            fail(e)
        return
    if queue:
        fail(InvalidArgs("--queue serves many agents over --http; stdio runs jobs in-process",
                         hint="Add --http, or leave out --queue."))
    from ..protocols.mcp.server import serve_stdio
    from ..web.drawing import install_app_drawer

    install_app_drawer()  # the MCP Apps view draws boards as the live view does
    hook = None
    if attach:
        from ..commands import REGISTRY
        from ..session.live import attach_hook

        hook = _attach_or_exit(attach_hook(REGISTRY, kicad_socket, kicad_wait))
    if view is not None:
        hook = _with_view(hook, view)
    try:
        anyio.run(serve_stdio, root, sets, hook)
    except* (BrokenPipeError, ConnectionResetError, anyio.BrokenResourceError):
        pass  # the client went away mid-answer: nobody is left to tell


def _with_view(hook, port: int):
    """The attach hook, then the live view of the stdio server's session on ``port``."""
    from ..web.server import serve_in_thread

    def both(session):
        out = hook(session) if hook is not None else None
        serve_in_thread(session, port=port)
        return out

    return both


def _attach_or_exit(hook):
    """The attach hook, failing the start (exit status of the code) when KiCad cannot
    be reached: an agent's host shows the message and the hint."""
    from ..errors import BoardwireError

    def checked(session):
        try:
            return hook(session)
        except BoardwireError as e:
            typer.echo(f"error {e.code}: {e.message}\n  {e.hint}", err=True)
            raise SystemExit(e.exit_status)

    return checked


@keys_app.command("add")
def keys_add(name: str, root: str = typer.Option(".", "--root"),
             workspace: str = typer.Option(None, "--workspace", help="The key's working directory (default: ROOT/workspaces/NAME).")):
    """Create a key; prints it once (only its SHA-256 digest is stored)."""
    from ..protocols.mcp.keys import KeyStore

    try:
        key = KeyStore(root).add(name, workspace)
    except ValueError as e:
        fail(InvalidArgs(str(e)))
    print(key)


@keys_app.command("list")
def keys_list(root: str = typer.Option(".", "--root")):
    """Names, workspaces and creation times of the keys (never the keys)."""
    from ..protocols.mcp.keys import KeyStore

    print(json.dumps(KeyStore(root).list(), indent=1))


@keys_app.command("revoke")
def keys_revoke(name: str, root: str = typer.Option(".", "--root")):
    """Revoke a key: the next request with it is refused."""
    from ..protocols.mcp.keys import KeyStore

    if not KeyStore(root).revoke(name):
        fail(NotFound(f"no key named {name}", hint="boardwire mcp keys list shows the keys."))
    print(f"revoked {name}")


@mcp_app.command("install")
def install(client: str = typer.Option(..., "--client", help="claude-code, codex, cursor, vscode or claude-desktop"),
            print_only: bool = typer.Option(False, "--print", help="Show what would be written instead of writing it."),
            root: str = typer.Option(".", "--root", help="Working directory boardwire serves."),
            config: str = typer.Option(None, "--config", help="The client's config file (default: its usual place)."),
            via: str = typer.Option("local", "--via", help="local: this installation; uvx: the PyPI package of this "
                                                           "version, as the MCP registry entry runs it.")):
    """Register boardwire with an MCP client."""
    from ..protocols.mcp.install import install as do_install

    try:
        print(do_install(client, root=root, print_only=print_only, config=config, via=via))
    except ValueError as e:
        fail(InvalidArgs(str(e)))
