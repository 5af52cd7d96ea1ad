"""Optional pairing: a client proves it holds the pairing token, then gets a session token.

With a pairing token configured (``boardwire bridge --pair`` prints a new one;
``BOARDWIRE_BRIDGE_TOKEN`` sets one), the server keeps only SHA-256 digests:

1. server -> ``{"type": "challenge", "nonce": <64 hex>, "method": "hmac-sha256"}``
2. client -> ``{"type": "pair", "proof": HMAC-SHA256(key=SHA-256(token), msg=nonce)}``
   (RFC 2104; the nonce as its ASCII hex text, the proof as lower-case hex), so the
   token itself never crosses the wire;
3. the hello carries a fresh ``sessionToken``; a handshake that presents it later
   (a reconnect) skips the challenge. Session tokens live as long as the server.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def proof(token: str, nonce: str) -> str:
    """What a client sends for ``nonce`` (the reference computation, for clients)."""
    return hmac.new(digest(token), nonce.encode(), hashlib.sha256).hexdigest()


class Pairing:
    """The pairing token's digest and the digests of the session tokens issued."""

    def __init__(self, token: str | None = None):
        self._key = digest(token) if token else None
        self._sessions: set[bytes] = set()

    @property
    def required(self) -> bool:
        return self._key is not None

    def knows(self, session_token: str | None) -> bool:
        return bool(session_token) and digest(session_token) in self._sessions

    def challenge(self) -> dict:
        return {"type": "challenge", "nonce": secrets.token_hex(32), "method": "hmac-sha256"}

    def verify(self, nonce: str, answer: object) -> bool:
        if self._key is None or not isinstance(answer, dict) or answer.get("type") != "pair":
            return False
        got = answer.get("proof")
        want = hmac.new(self._key, nonce.encode(), hashlib.sha256).hexdigest()
        return isinstance(got, str) and hmac.compare_digest(got.lower(), want)

    def issue(self) -> str:
        token = secrets.token_urlsafe(32)
        self._sessions.add(digest(token))
        return token
