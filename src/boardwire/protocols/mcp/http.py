"""``boardwire mcp --http``: Streamable HTTP on the SDK, with bearer keys.

Each key works in its own workspace (its own session, documents and undo history);
an MCP session id opened with one key is refused to any other key. MCP sessions idle
for ``session_idle`` seconds are closed by the SDK's session manager (their id then
answers 404); at ``max_sessions`` open sessions a new one is refused with 503 and
`TooManySessions`. Browser Origins
are checked by the SDK's transport security (localhost origins plus
``--allow-origin``). (MCP spec 2025-11-25, "Transports / Streamable HTTP", "Security
warning"; RFC 6750 for bearer tokens.)
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.server.transport_security import TransportSecuritySettings

from ...errors import BoardwireError, KeyRequired, PolicyDenied, TooManySessions
from ...jobs import jobs_of
from .keys import SCOPE_KEY, KeyStore
from .server import Workspace, build_server

log = logging.getLogger("boardwire.mcp")
# The SDK's Streamable HTTP client refuses a server-sent event over 1 MiB (the whole
# JSON-RPC message); an image bigger than this, in base64, goes to a file instead.
MAX_IMAGE = 900_000
LOCAL_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]


def _deny(e: BoardwireError):
    """An ASGI response refusing a request: ``e.http_status`` (a 401 with the Bearer
    challenge, RFC 6750 section 3) and a JSON-RPC response, id null, with
    ``e.rpc_error()``."""
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": e.rpc_error()}).encode()
    headers = [(b"content-type", b"application/json")]
    if e.http_status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="boardwire"'))

    async def respond(scope, receive, send):
        await send({"type": "http.response.start", "status": e.http_status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return respond


class KeyAuth:
    """ASGI middleware: a valid ``Authorization: Bearer KEY`` (keys file re-read on
    every request) or 401; the key's name goes into the ASGI scope for the handlers,
    and a session id is bound to the key that opened it. ``live()``: the ids of the
    sessions still open (the bindings of the others are dropped once they outnumber
    ``max_sessions``); the SDK's refusal of a session over its limit (503) is answered
    with `TooManySessions`."""

    def __init__(self, app, store: KeyStore | None, live=lambda: None, max_sessions: int = 1000) -> None:
        self.app = app
        self.store = store
        self.live = live
        self.max_sessions = max_sessions
        self.owners: dict[str, str] = {}  # mcp-session-id -> key name
        self._lock = threading.Lock()

    def _bind(self, sid: str, name: str) -> None:
        with self._lock:
            self.owners.setdefault(sid, name)
            if len(self.owners) > 2 * self.max_sessions and (live := self.live()) is not None:
                self.owners = {s: n for s, n in self.owners.items() if s in live}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if self.store is None:
            name, workspace = "local", None
        else:
            auth = headers.get("authorization", "")
            if not auth.lower().startswith("bearer "):
                return await _deny(KeyRequired("a bearer key is required (boardwire mcp keys add NAME)"))(
                    scope, receive, send)
            found = self.store.lookup(auth[7:].strip())
            if found is None:
                return await _deny(KeyRequired("unknown or revoked key"))(scope, receive, send)
            name, workspace = found
        sid = headers.get("mcp-session-id")
        with self._lock:
            owner = self.owners.get(sid) if sid else None
        if owner is not None and owner != name:
            return await _deny(PolicyDenied("this MCP session belongs to another key"))(scope, receive, send)
        scope.setdefault("state", {})[SCOPE_KEY] = (name, workspace)

        full = False  # the SDK refused to open one more session

        async def send_and_bind(message):
            nonlocal full
            if message["type"] == "http.response.start":
                if message["status"] == 503 and sid is None:
                    full = True
                    return await _deny(TooManySessions(
                        f"the server holds its limit of {self.max_sessions} MCP sessions"))(scope, receive, send)
                for k, v in message.get("headers", []):
                    if k.decode("latin-1").lower() == "mcp-session-id":
                        self._bind(v.decode("latin-1"), name)
            if not full:
                await send(message)

        return await self.app(scope, receive, send_and_bind)


class Workspaces:
    """One Workspace (session) per key, created on the key's first request.
    ``queue``: a `boardwire.jobs.queue.QueueRunner` every workspace sends its heavy
    jobs to (None: they run in this process)."""

    def __init__(self, root: Path, bus, toolsets=None, queue=None) -> None:
        self.root = root
        self.bus = bus
        self.toolsets = toolsets
        self.queue = queue
        self._by_name: dict[str, Workspace] = {}
        self._lock = threading.Lock()

    def for_request(self, ctx) -> Workspace:
        request = ctx.request
        state = getattr(request, "scope", {}).get("state", {}) if request is not None else {}
        return self.get(*state.get(SCOPE_KEY, ("local", None)))

    def get(self, name: str, workspace: Path | None = None) -> Workspace:
        """The workspace of key ``name`` (``workspace``: its folder; None: the root)."""
        with self._lock:
            ws = self._by_name.get(name)
            if ws is None:
                folder = Path(workspace) if workspace else self.root
                folder.mkdir(parents=True, exist_ok=True)
                ws = self._by_name[name] = Workspace(folder, self.bus, actor=f"mcp:{name}",
                                                    toolsets=self.toolsets, max_image=MAX_IMAGE)
                jobs_of(ws.session).queue = self.queue
            return ws


def build_app(root: str, *, host: str = "127.0.0.1", toolsets=None, allow_origins=(), auth: bool = True,
              spaces: Workspaces | None = None, session_idle: float | None = 1800.0, max_sessions: int = 1000):
    """(the ASGI app: the SDK's Streamable HTTP app behind KeyAuth, the SDK's app for
    its lifespan). ``spaces``: the workspaces to serve (shared with the live view,
    `boardwire.web`); default new ones. ``session_idle``: seconds an MCP session may
    sit idle before it is closed (None: never); ``max_sessions``: sessions open at
    once."""
    bus = spaces.bus if spaces is not None else InMemorySubscriptionBus()
    spaces = spaces or Workspaces(Path(root).resolve(), bus, toolsets)
    server = build_server(spaces.for_request, toolsets, bus)
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*", f"{host}:*", host],
        allowed_origins=[*LOCAL_ORIGINS, *allow_origins])
    app = server.streamable_http_app(host=host, transport_security=security, session_idle_timeout=session_idle,
                                     max_sessions=max_sessions)
    manager = server.session_manager

    def live():  # the SDK lists no open sessions publicly: its table (None if that ever moves)
        return getattr(manager, "_server_instances", None)

    return KeyAuth(app, KeyStore(root) if auth else None, live, max_sessions), app
