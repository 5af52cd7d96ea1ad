"""Open documents as MCP resources, and change notifications for them.

URIs are ``boardwire://doc/{path}/{view}`` with the workspace-relative path
percent-encoded (``/`` included) so a path is one template variable. Each view is a
registry query, check or export: reading a resource is running that command. (MCP
spec 2025-11-25, "Resources": list, templates, read, subscribe, list_changed; on
2026-07-28 connections the same changes travel on ``subscriptions/listen``.)
"""

from __future__ import annotations

import base64
import json
import logging
import threading
import warnings
from urllib.parse import quote, unquote

import mcp_types as types
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import (
    ResourcesListChanged,
    ResourceUpdated,
    ToolsListChanged,
)

from ...commands import REGISTRY
from ...errors import BoardwireError

log = logging.getLogger("boardwire.mcp")
PREFIX = "boardwire://doc/"

# view -> (command, extra arguments, mime type); by document kind.
VIEWS: dict[str, dict[str, tuple[str, dict, str]]] = {
    "board": {
        "describe": ("query.describe", {}, "application/json"),
        "items": ("query.items", {"limit": 500}, "application/json"),
        "nets": ("query.nets", {}, "application/json"),
        "drc": ("check.drc", {}, "application/json"),
        "render.png": ("render.png", {}, "image/png"),
    },
    "schematic": {
        "describe": ("query.describe", {}, "application/json"),
        "sheets": ("query.sheetTree", {}, "application/json"),
        "erc": ("check.erc", {}, "application/json"),
        "render.png": ("render.png", {}, "image/png"),
    },
}
CHANGES = ("edit", "undo", "redo", "revert", "save")


def uri(path: str, view: str) -> str:
    return f"{PREFIX}{quote(path, safe='')}/{view}"


def parse(u: str) -> tuple[str, str]:
    """(path, view) of a resource URI; MCPError (INVALID_PARAMS) if it is not ours."""
    rest = str(u)[len(PREFIX):] if str(u).startswith(PREFIX) else None
    if not rest or "/" not in rest:
        raise MCPError(types.INVALID_PARAMS, f"not a boardwire resource: {u}")
    path, view = rest.split("/", 1)
    return unquote(path), view


def _views(kind: str) -> dict[str, tuple[str, dict, str]]:
    known = {c.id for c in REGISTRY.all()}
    return {v: spec for v, spec in VIEWS.get(kind, {}).items() if spec[0] in known}


def list_resources(session) -> list[types.Resource]:
    out = []
    for od in list(session.documents.values()):
        for view, (cid, _, mime) in _views(od.kind).items():
            out.append(types.Resource(uri=uri(od.path, view), name=f"{od.path} {view}", mime_type=mime,
                                      description=f"{REGISTRY.get(cid).summary.split('.')[0]} ({cid})"))
    return out


def templates() -> list[types.ResourceTemplate]:
    seen = {}
    for kind, views in VIEWS.items():
        for view, (cid, _, mime) in views.items():
            seen.setdefault(view, (kind, cid, mime))
    return [types.ResourceTemplate(uri_template=f"{PREFIX}{{path}}/{view}", name=view, mime_type=mime,
                                   description=f"{cid} of the document at path (percent-encoded), "
                                               f"for a {kind}")
            for view, (kind, cid, mime) in seen.items()]


def error(e: BoardwireError, otherwise: int = types.INTERNAL_ERROR) -> MCPError:
    """A failed resource read as the SDK's MCPError (`BoardwireError.resource_error`:
    -32002 for an error that names something missing, ``otherwise`` for the others)."""
    return MCPError(**e.resource_error(otherwise))


def command_for(session, u: str) -> tuple[str, dict, str, str]:
    """(command id, arguments, mime, uri) a resource read runs. MCPError: -32002 when
    the document does not exist, INVALID_PARAMS when it cannot be opened otherwise (a
    path outside the workspace, not a KiCad file) or has no such view."""
    path, view = parse(u)
    try:
        od = session.open(path, "mcp")
    except BoardwireError as e:
        raise error(e, types.INVALID_PARAMS) from None
    spec = _views(od.kind).get(view)
    if spec is None:
        raise MCPError(types.INVALID_PARAMS, f"no view {view!r} of a {od.kind}; "
                                             f"known: {', '.join(_views(od.kind)) or 'none'}")
    cid, extra, mime = spec
    return cid, {"path": od.path, **extra}, mime, str(u)


def contents(u: str, mime: str, out: dict) -> types.ReadResourceResult:
    if mime == "image/png":
        data = out.get("image", {}).get("data") or base64.b64encode(b"").decode()
        return types.ReadResourceResult(contents=[types.BlobResourceContents(uri=u, mime_type=mime, blob=data)])
    return types.ReadResourceResult(contents=[types.TextResourceContents(
        uri=u, mime_type=mime, text=json.dumps(out, ensure_ascii=False))])


def connection_of(peer):
    """The client connection a request's ServerSession belongs to.

    The SDK (2.3) builds a new ServerSession for every request and keeps its
    connection private; whatever must outlive one request (subscriptions, the peers
    told about list changes, the log level) is keyed by the connection, or an
    unsubscribe from a later request would never match its subscribe and every past
    request would get its own copy of each notification."""
    return getattr(peer, "_connection", peer)


class Notifier:
    """Turns session events into resource notifications.

    Events arrive on worker threads (commands run there); they are queued and sent
    from the event loop after each request by `flush`: ``notifications/resources/
    updated`` to connections subscribed to a changed document's resources and
    ``list_changed`` to every connection when a document is opened or closed
    (handshake era), and the same as events on the subscription bus (2026-07-28).
    Connections are tracked by `connection_of`, each with the latest ServerSession
    seen on it (any of them sends on the connection's own stream)."""

    def __init__(self, session, bus) -> None:
        self.session = session
        self.bus = bus
        self.subscriptions: dict[str, dict] = {}  # uri -> {connection: server session}
        self.peers: dict = {}  # connection -> server session (for list_changed)
        self._pending: list = []
        self._lock = threading.Lock()
        session.subscribe(self._on_event)

    def _on_event(self, event) -> None:
        with self._lock:
            self._pending.append((event.path, event.reason))

    def seen(self, peer) -> None:
        if peer is not None:
            self.peers[connection_of(peer)] = peer

    def subscribe(self, peer, u: str) -> None:
        parse(u)
        self.subscriptions.setdefault(str(u), {})[connection_of(peer)] = peer

    def unsubscribe(self, peer, u: str) -> None:
        self.subscriptions.get(str(u), {}).pop(connection_of(peer), None)

    async def flush(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
        if not pending:
            return
        changed = {path for path, reason in pending if reason in CHANGES}
        listed = any(reason in ("open", "close") for _, reason in pending)
        for path in changed:
            od = self.session.documents.get(path)
            for view in _views(od.kind) if od is not None else ():
                await self.bus.publish(ResourceUpdated(uri=uri(path, view)))  # the bus filters by listener
        for u, peers in list(self.subscriptions.items()):
            if parse(u)[0] in changed:
                for peer in list(peers.values()):
                    await self._send(peer, "send_resource_updated", u)
        if listed:
            await self.bus.publish(ResourcesListChanged())
            for peer in list(self.peers.values()):
                await self._send(peer, "send_resource_list_changed")

    async def tools_changed(self) -> None:
        """``notifications/tools/list_changed`` to every connection (and the bus)."""
        await self.bus.publish(ToolsListChanged())
        for peer in list(self.peers.values()):
            await self._send(peer, "send_tool_list_changed")

    async def _send(self, peer, method: str, *args) -> None:
        if getattr(peer, "protocol_version", "") >= "2026-07-28":
            return  # modern connections hear it on their listen stream
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                await getattr(peer, method)(*args)
        except Exception as e:  # noqa: BLE001 - a gone client: forget it
            log.debug("dropping a peer that cannot be notified: %s", e)
            gone = connection_of(peer)
            self.peers.pop(gone, None)
            for peers in self.subscriptions.values():
                peers.pop(gone, None)
