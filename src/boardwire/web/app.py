"""The live view's server side: the page, its assets, the drawings and the bridge.

Routes (an ASGI app, Starlette), all under ``/view``:

* ``/view/`` the page, ``/view/static/NAME`` its script and style (served from this
  package: nothing is fetched from outside the machine);
* ``/view/board.svg?path=P&side=front|back`` the board as it is in memory
  (`board_svg`: copper, drawings, texts, edge, courtyards, the ratsnest of
  query.unrouted and the markers of the built-in DRC), cached per revision; with
  ``&from=R`` (the revision the page shows) a JSON ``{"revision", "delta"}`` of only
  the items changed since (`board_delta`) when revision R's drawing is still kept,
  else the whole SVG;
* ``/view/sheet.svg?path=P&page=N`` one schematic sheet, KiCad's plot of the in-memory
  hierarchy (render.svg);
* ``/view/bridge`` the bridge over WebSocket (`protocols.bridge`: handshake, hello,
  then JSON-RPC 2.0 on every registry command with ``document.changed`` and
  ``agent.chatEvent`` notifications).

Safety: without keys, a request whose ``Host`` is not a loopback name (or the served
host) is refused (DNS rebinding); a browser ``Origin`` other than the view's own (the
scheme, host and port it was reached by: its ``Host`` header, or the served address)
or an ``--allow-origin`` is refused (403, before a WebSocket opens): a page on another
port of this machine is another origin, though browsers count it as the same site.
With keys (the HTTP server's `KeyStore`), every route needs one: ``Authorization:
Bearer KEY``, or ``?key=KEY`` once, which sets an HttpOnly, SameSite=Strict cookie
holding a random login token (never the key; the server maps it to the key, for as
long as it runs) and redirects to the page without it; each key sees its own
workspace's session. A bridge connection acts as ``view:NAME`` (the key's name) and
re-checks its key on every message: a revoked key's connection is closed with
`KeyRevoked` at its next message.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from importlib import resources
from typing import Callable, NamedTuple

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from .. import __version__
from ..commands import REGISTRY
from ..errors import BoardwireError, InvalidArgs, KeyRevoked, NotFound, PolicyDenied
from ..protocols.bridge import Bridge
from ..registry import Context
from .drawing import BoardDrawings
from .socket import StarletteSocket

COOKIE = "boardwire_view"
STATIC = {"view.js": "text/javascript", "view.css": "text/css"}
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
ACTOR = "view"
HOST_NAME = re.compile(r"(\[[^\]]*\]|[^:]*)")  # a Host header without its port
MAX_LOGINS = 1000  # login tokens kept (the oldest is forgotten past this)


class Admitted(NamedTuple):
    """Who a request is: the session it sees, its key's name ("local" without keys)
    and the key (None without keys)."""

    session: object
    name: str
    key: str | None


class View:
    """The live view of the sessions ``session_for(name, folder)`` returns.

    ``keys``: the HTTP server's KeyStore (None: no keys, loopback only);
    ``host``: the address served (also allowed as a Host header);
    ``allow_origins``: extra browser Origins; ``on_session``: called once per new
    session (the agent command hooks in there)."""

    def __init__(self, session_for: Callable, *, keys=None, host: str = "127.0.0.1",
                 allow_origins=(), on_session: Callable | None = None):
        self.session_for = session_for
        self.keys = keys
        self.hosts = {*LOOPBACK_HOSTS, host}
        self.origins = {o.lower() for o in allow_origins}
        self._logins: dict[str, str] = {}  # login token (the cookie) -> key
        self.on_session = on_session
        self._bridges: dict[int, Bridge] = {}
        self._seen: set[int] = set()
        self._drawings = BoardDrawings(ACTOR)
        self.app = Starlette(routes=[
            Route("/", lambda r: RedirectResponse("/view/")),
            Route("/view", lambda r: RedirectResponse("/view/")),
            Route("/view/", self.page),
            Route("/view/static/{name}", self.static),
            Route("/view/board.svg", self.board),
            Route("/view/sheet.svg", self.sheet),
            WebSocketRoute("/view/bridge", self.bridge),
        ])

    async def __call__(self, scope, receive, send):
        await self.app(scope, receive, send)

    # -- admission --------------------------------------------------------------------

    def _own_origins(self, conn: HTTPConnection) -> set[str]:
        """The view's own origins for this request: http(s) with the ``Host`` header it
        came with, and the address and port served."""
        out = set()
        host = (conn.headers.get("host") or "").lower()
        if host:
            out |= {f"http://{host}", f"https://{host}"}
        server = conn.scope.get("server")
        if server and server[1] is not None:
            name = f"[{server[0]}]" if ":" in server[0] else server[0]
            out |= {f"http://{name}:{server[1]}", f"https://{name}:{server[1]}"}
        return out

    def _admit(self, conn: HTTPConnection) -> Admitted:
        """Who this request is (`Admitted`); raises PolicyDenied."""
        host = HOST_NAME.match(conn.headers.get("host") or "").group(1)
        if self.keys is None and host not in self.hosts:  # with keys, a rebound name still needs one
            raise PolicyDenied(f"host {host!r} is not served here (DNS rebinding protection)")
        origin = conn.headers.get("origin")
        if origin is not None and origin.lower() not in self.origins | self._own_origins(conn):
            raise PolicyDenied(f"origin {origin} is not allowed", hint="open the page from this server, "
                                                                      "or start it with --allow-origin")
        name, folder, key = "local", None, None
        if self.keys is not None:
            auth = conn.headers.get("authorization", "")
            key = auth[7:].strip() if auth.lower().startswith("bearer ") else \
                conn.query_params.get("key") or self._logins.get(conn.cookies.get(COOKIE, ""))
            found = self.keys.lookup(key) if key else None
            if found is None:
                raise PolicyDenied("this view needs a key" if not key else "unknown or revoked key",
                                   hint="open /view/?key=KEY with a key of `boardwire mcp keys add NAME`")
            name, folder = found
        session = self.session_for(name, folder)
        if id(session) not in self._seen:
            self._seen.add(id(session))
            if self.on_session is not None:
                self.on_session(session)
        return Admitted(session, name, key)

    def _login(self, key: str) -> str:
        """A new login token for ``key`` (the cookie's value)."""
        token = secrets.token_urlsafe(32)
        self._logins[token] = key
        while len(self._logins) > MAX_LOGINS:
            del self._logins[next(iter(self._logins))]
        return token

    def _key_check(self, admitted: Admitted) -> Callable[[], None] | None:
        """What a bridge connection runs on every message: raises KeyRevoked once its
        key no longer opens its workspace (None without keys). One stat of the keys
        file while it is unchanged (`KeyStore`)."""
        if self.keys is None:
            return None

        def check() -> None:
            found = self.keys.lookup(admitted.key)
            if found is None or found[0] != admitted.name:
                raise KeyRevoked(f"key {admitted.name} was revoked")
        return check

    def _deny(self, e: BoardwireError) -> Response:
        return JSONResponse({"error": e.to_dict()}, status_code=e.http_status)

    # -- the page ---------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        try:
            self._admit(request)
        except BoardwireError as e:
            return self._deny(e)
        if "key" in request.query_params:  # keep the key out of the address bar and history
            rest = "&".join(f"{k}={v}" for k, v in request.query_params.multi_items() if k != "key")
            out = RedirectResponse("/view/" + (f"?{rest}" if rest else ""), status_code=303)
            if self.keys is not None:
                out.set_cookie(COOKIE, self._login(request.query_params["key"]), httponly=True,
                               samesite="strict", path="/view")
            return out
        html = resources.files(__package__).joinpath("static/index.html").read_text(encoding="utf-8")
        return HTMLResponse(html.replace("{{version}}", __version__),
                            headers={"content-security-policy": "default-src 'self'; img-src 'self' data:; "
                                                                "style-src 'self' 'unsafe-inline'; connect-src 'self'"})

    async def static(self, request: Request) -> Response:
        try:
            self._admit(request)
        except BoardwireError as e:
            return self._deny(e)
        name = request.path_params["name"]
        if name not in STATIC:
            return self._deny(NotFound(f"no asset {name}", hint=""))
        body = resources.files(__package__).joinpath(f"static/{name}").read_bytes()
        return Response(body, media_type=STATIC[name], headers={"cache-control": "no-cache"})

    # -- drawings ---------------------------------------------------------------------

    async def board(self, request: Request) -> Response:
        try:
            session = self._admit(request).session
            path, side = request.query_params.get("path", ""), request.query_params.get("side", "front")
            if side not in ("front", "back"):
                raise InvalidArgs("side is front or back", errors=[{"loc": "side", "msg": "front or back", "type": "value"}])
            since = request.query_params.get("from")
            if since is not None and since.isdigit():
                out = await run_in_threadpool(self.board_delta, session, path, side, int(since))
                if out is not None:
                    return JSONResponse(out, headers={"cache-control": "no-store"})
            svg = await run_in_threadpool(self.board_svg, session, path, side)
        except BoardwireError as e:
            return self._deny(e)
        return Response(svg, media_type="image/svg+xml", headers={"cache-control": "no-store"})

    def board_svg(self, session, path: str, side: str) -> str:
        """The board drawing at its current revision (`drawing.BoardDrawings`)."""
        return self._drawings.draw(session, path, side)[0]

    def board_delta(self, session, path: str, side: str, since: int) -> dict | None:
        """What changed in the drawing since revision ``since`` (`BoardDrawings.delta`)."""
        return self._drawings.delta(session, path, side, since)

    async def sheet(self, request: Request) -> Response:
        try:
            session = self._admit(request).session
            args = {"path": request.query_params.get("path", "")}
            if request.query_params.get("page"):
                args["page"] = request.query_params["page"]
            out = await run_in_threadpool(REGISTRY.call, "render.svg", args, Context(session, actor=ACTOR))
        except BoardwireError as e:
            return self._deny(e)
        svg = re.sub(r"<\?xml[^>]*>\s*", "", out["svg"], count=1)
        return Response(svg, media_type="image/svg+xml", headers={"cache-control": "no-store"})

    # -- the bridge -------------------------------------------------------------------

    async def bridge(self, ws: WebSocket) -> None:
        try:
            admitted = self._admit(ws)
        except BoardwireError:
            await ws.close(code=PolicyDenied.close_code)  # 1008, before accept: the browser sees 403
            return
        session = admitted.session
        bridge = self._bridges.get(id(session))
        if bridge is None:
            bridge = self._bridges[id(session)] = Bridge(session)
            await bridge.start()
        await ws.accept()
        await bridge.handle(StarletteSocket(ws), principal=f"{ACTOR}:{admitted.name}",
                            check=self._key_check(admitted))

    async def close(self) -> None:
        await asyncio.gather(*(b.close() for b in self._bridges.values()), return_exceptions=True)
