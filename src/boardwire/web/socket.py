"""A Starlette WebSocket with the few methods of a ``websockets`` connection the bridge
uses (``recv``, ``send``, ``close``), so `protocols.bridge.Bridge.handle` serves the
page over the view's own HTTP server: the same handshake, pairing, hello and JSON-RPC
as ``boardwire bridge``."""

from __future__ import annotations

from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.exceptions import ConnectionClosed


class StarletteSocket:
    def __init__(self, ws: WebSocket):
        self.ws = ws

    async def recv(self) -> str | bytes:
        """The next message; raises ConnectionClosed when the page went away."""
        try:
            msg = await self.ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            raise ConnectionClosed(None, None) from None
        if msg["type"] == "websocket.disconnect":
            raise ConnectionClosed(None, None)
        return msg.get("text") if msg.get("text") is not None else (msg.get("bytes") or b"")

    async def send(self, data: str) -> None:
        try:
            await self.ws.send_text(data)
        except (WebSocketDisconnect, RuntimeError, OSError):
            raise ConnectionClosed(None, None) from None

    async def close(self, code: int = 1000, reason: str = "") -> None:
        try:
            await self.ws.close(code, reason)
        except (RuntimeError, OSError):  # already closed
            pass
