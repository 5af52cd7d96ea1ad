"""The HTTP server's limits: how long a request may take to arrive, how long an MCP
session may sit idle, how many sessions may be open.

* ``header_timeout`` (seconds): from the moment a connection is ready for a request
  (accepted, or its previous response sent) until the request's headers are complete.
  A client slower than that is dropped (the connection closed, no response).
* ``body_timeout`` (seconds): from the end of the headers until the end of the body.
  A slower client is dropped; the application sees the client disconnect.
* ``session_idle`` (seconds): an MCP session with no request in flight (and no open
  event stream) for this long is closed and forgotten (the SDK's
  ``session_idle_timeout``); its id then answers 404, as the MCP spec says for a
  session that ended. None: sessions live until the client deletes them.
* ``max_sessions``: MCP sessions open at once; a request that would open one more is
  answered 503 with the ``too-many-sessions`` JSON-RPC error (`errors.TooManySessions`).

uvicorn (0.55) has a keep-alive timeout but no deadline for a request's headers or
body, so the two timeouts live in `DeadlineProtocol`, a subclass of uvicorn's h11
protocol: one timer per connection, armed for the phase h11 says the client is in.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("boardwire.http")


@dataclass(frozen=True)
class Limits:
    """The limits of one HTTP server (see the module); the defaults are the CLI's."""

    header_timeout: float = 10.0
    body_timeout: float = 30.0
    session_idle: float | None = 1800.0
    max_sessions: int = 1000


DEFAULT_LIMITS = Limits()


class DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and a body deadline (seconds,
    class attributes: `protocol` makes a subclass with the server's values)."""

    header_timeout: float = Limits.header_timeout
    body_timeout: float = Limits.body_timeout

    def connection_made(self, transport) -> None:  # type: ignore[override]
        self._phase: str | None = None
        self._timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._track()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._track()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._track()

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _track(self) -> None:
        """(Re)arm the timer when the client moved to another phase: waiting for
        headers (h11 IDLE), sending a body (SEND_BODY), or neither (request complete,
        connection closing, or handed over to the WebSocket protocol)."""
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            phase = None
        else:
            state = self.conn.their_state
            phase = "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if phase == self._phase:
            return
        self._disarm()
        self._phase = phase
        if phase is not None:
            delay = self.header_timeout if phase == "headers" else self.body_timeout
            self._timer = self.loop.call_later(delay, self._expire, phase)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._phase = None

    def _expire(self, phase: str) -> None:
        self._timer = None
        if not self.transport.is_closing():
            log.info("dropping %s: request %s not received in time", self.client, phase)
            self.transport.close()


def protocol(limits: Limits) -> type[DeadlineProtocol]:
    """The uvicorn ``http`` protocol class enforcing ``limits``' two timeouts."""
    return type("DeadlineProtocol", (DeadlineProtocol,),
                {"header_timeout": limits.header_timeout, "body_timeout": limits.body_timeout})
