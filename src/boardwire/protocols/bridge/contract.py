"""The bridge contract: constants, the client's handshake, the server's hello, close codes.

The contract is checked before any command is sent: the client's first message is a
handshake validated at the schema boundary (pydantic); a wrong protocol, client name
or an unsupported protocol version closes the connection with a close code of its own
(RFC 6455 section 7.4.2 leaves 4000-4999 to applications) and a reason: the errors
are `boardwire.errors.BridgeRefused`'s subclasses, which carry both. The server's
hello carries what a client needs to check compatibility and to limit itself.
docs/bridge.md has the same tables (a test holds them together).
"""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ... import __version__
from ...errors import DOOR_CODES, BadHandshake, BridgeRefused, UnsupportedVersion, WrongClient, WrongProtocol

PROTOCOL = "boardwire.bridge"
CONTRACT_VERSION = 1
PROTOCOL_VERSIONS = ("1.0.0",)  # supported, newest last
# Clients the contract knows: the KiCad extension, the browser live view, any other tool.
CLIENT_NAMES = ("boardwire-kicad", "boardwire-web", "boardwire-client")
MAX_PAYLOAD = 16 * 1024 * 1024  # bytes of one incoming message (the hello's maxPayloadSize)
HARD_LIMIT_FACTOR = 4  # past this multiple of maxPayloadSize the library closes with 1009
HANDSHAKE_TIMEOUT = 10.0  # seconds for the handshake (and pairing) before closing

# Close codes (RFC 6455 section 7.4) by reason (the stable code), from the error classes.
CLOSE_CODES: dict[str, int] = {code: cls.close_code for code, cls in DOOR_CODES.items()
                               if issubclass(cls, BridgeRefused)}


class Handshake(BaseModel):
    """The client's first message."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    type: Literal["handshake"]
    protocol: str
    protocol_version: str = Field(alias="protocolVersion")
    contract_version: int = Field(alias="contractVersion")
    client_name: str = Field(alias="clientName")
    client_version: str = Field(alias="clientVersion")
    editor_version: str | None = Field(None, alias="editorVersion")
    dev_mode: bool = Field(False, alias="devMode")
    session_token: str | None = Field(None, alias="sessionToken")


def check_handshake(raw: object) -> Handshake:
    """Validate the client's first message; raises a `BridgeRefused` (BadHandshake,
    WrongProtocol, WrongClient, UnsupportedVersion) that carries the close code."""
    try:
        hs = Handshake.model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(message)"
        raise BadHandshake(f"handshake: {where}: {first['msg']}") from None
    if hs.protocol != PROTOCOL:
        raise WrongProtocol(f"protocol {hs.protocol!r} is not {PROTOCOL!r}")
    if hs.client_name not in CLIENT_NAMES:
        raise WrongClient(f"client {hs.client_name!r} is not one of {', '.join(CLIENT_NAMES)}")
    if hs.protocol_version not in PROTOCOL_VERSIONS:
        raise UnsupportedVersion(f"protocol version {hs.protocol_version!r} is not supported "
                                 f"(supported: {', '.join(PROTOCOL_VERSIONS)})")
    return hs


def method_registry_hash(methods: list[str]) -> str:
    """The first 16 hex digits of SHA-256 over the sorted method names, one per line
    (UTF-8): a changed hash means a method was added, removed or renamed."""
    return hashlib.sha256("\n".join(sorted(set(methods))).encode()).hexdigest()[:16]


def warnings_for(hs: Handshake) -> list[str]:
    """Version mismatches worth telling the client (and the server's log) about."""
    out = []
    if hs.contract_version != CONTRACT_VERSION:
        out.append(f"contract version {hs.contract_version} differs from the server's {CONTRACT_VERSION}")
    if hs.client_version != __version__:
        out.append(f"client version {hs.client_version} differs from the server's {__version__}")
    return out


def hello(hs: Handshake, *, methods: list[str], capabilities: list[str], max_payload: int,
          dev_mode: bool, session_token: str | None = None) -> dict:
    """The server's hello, sent once the handshake (and any pairing) is accepted."""
    out = {"type": "hello", "bridgeVersion": __version__, "contractVersion": CONTRACT_VERSION,
           "protocolVersion": hs.protocol_version, "supportedProtocolVersions": list(PROTOCOL_VERSIONS),
           "editorVersion": hs.editor_version, "capabilities": capabilities,
           "methodRegistryHash": method_registry_hash(methods), "devMode": dev_mode,
           "maxPayloadSize": max_payload, "warnings": warnings_for(hs)}
    if session_token is not None:
        out["sessionToken"] = session_token
    return out
