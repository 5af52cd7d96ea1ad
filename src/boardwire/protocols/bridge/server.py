"""The bridge's WebSocket door: handshake, pairing, then JSON-RPC 2.0 on every command.

One WebSocket connection (RFC 6455, served by the ``websockets`` library):

1. The opening HTTP request: a browser ``Origin`` other than a loopback one (or an
   ``--allow-origin``) is refused with 403 before any message; clients without an
   Origin (editor extensions, scripts) are let in.
2. The client's handshake (contract.py), checked at the schema boundary; refused ones
   get ``{"type": "refused", ...}`` and a close code.
3. Pairing when a token is configured (pairing.py).
4. The hello. From then on every message is one JSON-RPC 2.0 message (a request, a
   notification or a batch), served by `protocols.jsonrpc.Server`: the same methods,
   queue, cancellation, error objects and ``document.changed`` notifications as
   ``boardwire serve``. A message over ``maxPayloadSize`` is answered with a
   ``payload-too-large`` error for that call (its id read from the message's first
   bytes) and the connection stays open; past four times the limit the library closes
   the connection with 1009 (message too big) without reading it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Callable, Iterable

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from ...errors import BadHandshake, BridgeRefused, HandshakeTimeout, PairingFailed, PairingRequired
from ..jsonrpc.server import BUILTINS, Server
from . import contract
from .pairing import Pairing

log = logging.getLogger("boardwire.bridge")

# Browser pages served from this machine; a port is optional (RFC 6454 serialisation).
LOCAL_ORIGIN = re.compile(r"https?://(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?")


class WebSocketTransport:
    """A WebSocket as a jsonrpc `Transport` whose chunks are whole messages.

    ``check``: called for every message received, before it is served; when it raises
    a `BridgeRefused` (the live view's `KeyRevoked`) the message is dropped, the client
    gets the refusal and the close code, and the input ends."""

    framing = "message"

    def __init__(self, ws: ServerConnection, check: Callable[[], None] | None = None):
        self.ws = ws
        self.check = check

    async def read(self) -> bytes:
        try:
            msg = await self.ws.recv()
        except ConnectionClosed:
            return b""
        if self.check is not None:
            try:
                self.check()
            except BridgeRefused as e:
                log.warning("bridge: %s", e.message)
                await refuse(self.ws, e)
                return b""
        data = msg.encode() if isinstance(msg, str) else bytes(msg)
        return data or b" "  # an empty message is not the end of input: it answers -32700

    async def write(self, data: bytes) -> None:
        try:
            await self.ws.send(data.decode())
        except ConnectionClosed as e:
            raise ConnectionError(str(e)) from None

    async def close(self) -> None:
        await self.ws.close()


class Bridge:
    """Serves one `Session` to WebSocket clients through a jsonrpc `Server`.

    ``token``: the pairing token (None: no pairing). ``capabilities``: extra names for
    the hello (an attached editor adds ``kicad.live``)."""

    def __init__(self, session, *, token: str | None = None, max_payload: int = contract.MAX_PAYLOAD,
                 allow_origins: Iterable[str] = (), dev_mode: bool = False, auto_save: bool = False,
                 capabilities: Iterable[str] = (), registry=None):
        self.rpc = Server(session, registry=registry, auto_save=auto_save, max_frame=max_payload, door="bridge")
        self.pairing = Pairing(token)
        self.max_payload = max_payload
        self.origins = [None, LOCAL_ORIGIN, *allow_origins]
        self.dev_mode = dev_mode
        self.extra_capabilities = list(capabilities)

    def methods(self) -> list[str]:
        """The bridge's methods: every registry command and the server's own."""
        return [c.id for c in self.rpc.registry.all()] + list(BUILTINS)

    def capabilities(self) -> list[str]:
        return ["jsonrpc-2.0", "batch", "cancel", "document.changed", "command.progress",
                *(["pairing"] if self.pairing.required else []), *self.extra_capabilities]

    async def start(self) -> None:
        await self.rpc.start()

    async def close(self) -> None:
        await self.rpc.close()

    async def listen(self, host: str, port: int):
        """Start listening; returns the websockets server (``.sockets`` has the port)."""
        await self.start()
        return await serve(self.handle, host, port, origins=self.origins,
                           max_size=self.max_payload * contract.HARD_LIMIT_FACTOR, compression=None)

    async def handle(self, ws: ServerConnection, principal: str | None = None,
                     check: Callable[[], None] | None = None) -> None:
        """Serve one connection: handshake, pairing, hello, then JSON-RPC. ``principal``
        and ``check`` come from a door that admitted the connection with a key (the
        live view): the calls' actor (`jsonrpc.Server.serve`), and the key's check run
        on every message (`WebSocketTransport`)."""
        try:
            hs, session_token = await asyncio.wait_for(self._admit(ws), contract.HANDSHAKE_TIMEOUT)
        except BridgeRefused as e:
            await self._refuse(ws, e)
            return
        except asyncio.TimeoutError:
            await self._refuse(ws, HandshakeTimeout("no handshake in time"))
            return
        except ConnectionClosed:
            return
        greeting = contract.hello(hs, methods=self.methods(), capabilities=self.capabilities(),
                                  max_payload=self.max_payload, dev_mode=self.dev_mode,
                                  session_token=session_token)
        for warning in greeting["warnings"]:
            log.warning("bridge: %s: %s", hs.client_name, warning)
        try:
            await ws.send(json.dumps(greeting))
        except ConnectionClosed:
            return
        await self.rpc.serve(WebSocketTransport(ws, check), actor=hs.client_name, principal=principal)

    async def _admit(self, ws: ServerConnection) -> tuple[contract.Handshake, str | None]:
        hs = contract.check_handshake(await self._json(ws))
        if not self.pairing.required or self.pairing.knows(hs.session_token):
            return hs, None
        challenge = self.pairing.challenge()
        await ws.send(json.dumps(challenge))
        answer = await self._json(ws)
        if not isinstance(answer, dict) or answer.get("type") != "pair":
            raise PairingRequired("this server needs pairing: answer the challenge "
                                  "with {\"type\": \"pair\", \"proof\": ...} (docs/bridge.md)")
        if not self.pairing.verify(challenge["nonce"], answer):
            raise PairingFailed("the pairing proof does not match the server's token")
        return hs, self.pairing.issue()

    async def _json(self, ws: ServerConnection) -> object:
        msg = await ws.recv()
        if len(msg) > 65536:
            raise BadHandshake("a handshake message is a few hundred bytes, not this")
        try:
            return json.loads(msg)
        except ValueError:
            raise BadHandshake("the message is not JSON") from None

    async def _refuse(self, ws: ServerConnection, e: BridgeRefused) -> None:
        await refuse(ws, e)


async def refuse(ws: ServerConnection, e: BridgeRefused) -> None:
    """Send ``e``'s refusal and close with its close code (the stable code as reason)."""
    try:
        await ws.send(json.dumps(e.refusal()))
        await ws.close(e.close_code, e.code)
    except ConnectionClosed:
        pass
