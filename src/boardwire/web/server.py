"""One HTTP server for the live view and MCP: ``boardwire view`` and ``boardwire mcp --http``.

The view (`app.View`, under ``/view``) and MCP's Streamable HTTP (``/mcp``) share the
workspaces (`protocols.mcp.http.Workspaces`), so an agent's edit over MCP is a
``document.changed`` on the page and the page's chat box reaches the agent's
``agent_chat``. Without keys the server only binds a loopback address. Every door
keeps `limits.Limits`: request header and body deadlines, MCP session idle time and
count.
"""

from __future__ import annotations

import logging
from pathlib import Path

from ..protocols.mcp.http import Workspaces, build_app
from ..protocols.mcp.keys import KeyStore
from .app import View
from .drawing import install_app_drawer
from .limits import DEFAULT_LIMITS, Limits, protocol

log = logging.getLogger("boardwire.view")


def build(root: str, *, host: str = "127.0.0.1", toolsets=None, allow_origins=(), auth: bool = True,
          open_paths=(), agent_command: str | None = None, queue: str | None = None, limits: Limits = DEFAULT_LIMITS):
    """(the ASGI app, the MCP app for its lifespan, the View). ``limits``: the MCP
    sessions' idle time and count (`limits.Limits`). ``open_paths``: documents
    opened in the unkeyed workspace at start. ``agent_command``: started for chat
    requests no agent takes (`runner.AgentCommand`). ``queue``: redis://HOST:PORT/N,
    the work queue for heavy jobs (`boardwire.jobs.queue`). Raises BoardwireError when
    a document cannot be opened or the queue does not answer."""
    from mcp.server.subscriptions import InMemorySubscriptionBus

    runner = None
    if queue:
        from ..jobs.queue import QueueRunner

        runner = QueueRunner(queue)
        runner.ping()
    install_app_drawer()  # the MCP Apps view draws boards as the live view does
    spaces = Workspaces(Path(root).resolve(), InMemorySubscriptionBus(), toolsets, queue=runner)
    mcp_app, inner = build_app(root, host=host, toolsets=toolsets, allow_origins=allow_origins, auth=auth,
                               spaces=spaces, session_idle=limits.session_idle, max_sessions=limits.max_sessions)
    runners = []

    def on_session(session):
        if agent_command:
            from .runner import AgentCommand

            runners.append(AgentCommand(session, agent_command))

    view = View(lambda name, folder: spaces.get(name, folder).session, keys=KeyStore(root) if auth else None,
                host=host, allow_origins=allow_origins, on_session=on_session)
    if open_paths:
        local = spaces.get("local").session
        for path in open_paths:
            local.open(path, actor="view")

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":  # Starlette's lifespan runs the MCP session manager
            return await inner(scope, receive, send)
        if scope.get("path", "").startswith("/view") or scope.get("path") == "/":
            return await view(scope, receive, send)
        return await mcp_app(scope, receive, send)

    return app, inner, view


def serve(root: str, *, host: str = "127.0.0.1", port: int = 8767, toolsets=None, allow_origins=(),
          auth: bool = True, open_paths=(), agent_command: str | None = None, announce=None,
          queue: str | None = None, limits: Limits = DEFAULT_LIMITS) -> None:
    """Serve until interrupted. ``announce(url)`` is called once the port is bound;
    ``limits``: the deadlines and session limits (`limits.Limits`)."""
    import uvicorn

    app, _, _ = build(root, host=host, toolsets=toolsets, allow_origins=allow_origins, auth=auth,
                      open_paths=open_paths, agent_command=agent_command, queue=queue, limits=limits)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws="websockets-sansio",
                            http=protocol(limits))
    server = uvicorn.Server(config)
    original = server.startup

    async def startup(sockets=None):
        await original(sockets)
        bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
        url = f"http://{host if ':' not in host else f'[{host}]'}:{bound}"
        log.warning("boardwire MCP on %s/mcp, live view on %s/view/ (%s)", url, url,
                    "keys required" if auth else "no keys")
        if announce is not None:
            announce(url)

    server.startup = startup
    server.run()


def serve_in_thread(session, *, host: str = "127.0.0.1", port: int = 8767, allow_origins=(),
                    agent_command: str | None = None, limits: Limits = DEFAULT_LIMITS):
    """The live view of one session (``boardwire mcp --view``: the stdio server's) on a
    loopback address, served by a daemon thread; returns the uvicorn Server (its
    ``servers`` hold the bound port once ``started``). Raises ValueError for a host
    that is not loopback (no keys here)."""
    import threading

    import uvicorn

    if host not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError("the view of a stdio server is served on a loopback address only")
    runners = []

    def on_session(s):
        if agent_command:
            from .runner import AgentCommand

            runners.append(AgentCommand(s, agent_command))

    view = View(lambda name, folder: session, host=host, allow_origins=allow_origins, on_session=on_session)
    server = uvicorn.Server(uvicorn.Config(view, host=host, port=port, log_level="warning",
                                           ws="websockets-sansio", lifespan="off", http=protocol(limits)))
    original = server.startup

    async def startup(sockets=None):
        await original(sockets)
        bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
        log.warning("boardwire live view on http://%s:%d/view/", host, bound)

    server.startup = startup
    server.install_signal_handlers = lambda: None  # the stdio server owns the signals
    threading.Thread(target=server.run, daemon=True, name="boardwire-view").start()
    return server
