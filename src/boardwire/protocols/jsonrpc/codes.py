"""boardwire's stable error codes as JSON-RPC 2.0 error objects.

JSON-RPC 2.0 section 5.1 ("Error object") fixes -32700 (parse error), -32600 (invalid
request), -32601 (method not found), -32602 (invalid params), -32603 (internal error)
and reserves -32000..-32099 for implementation-defined server errors; the LSP base
protocol adds -32800 (request cancelled). Every other stable code has a fixed number
from -32001 on, never reused once published; each error class in `boardwire.errors`
carries its number (``rpc_code``), and `WIRE_CODES` is read from them (the same table
is in docs/jsonrpc.md; a test holds them together). The stable code string is always
in ``error.data.code``, with ``data.hint`` saying what to do next.
"""

from __future__ import annotations

from typing import Any

from ...errors import ALL_CODES, INVALID_REQUEST, PARSE_ERROR, SERVER_ERROR, BoardwireError

# Stable code -> JSON-RPC number, from the error classes (`boardwire.errors`).
WIRE_CODES: dict[str, int] = {code: cls.rpc_code for code, cls in ALL_CODES.items()}

# Protocol-level failures: they have no registry code, so data.code names them here.
PROTOCOL_CODES: dict[str, tuple[int, str]] = {
    "invalid-json": (PARSE_ERROR, "Send one JSON value per frame: UTF-8, no NaN or Infinity."),
    "bad-frame": (PARSE_ERROR, "Frame messages with 'Content-Length: N\\r\\n\\r\\n' (LSP) or one JSON value per line."),
    "frame-too-large": (INVALID_REQUEST, "Split the work into smaller calls (session.batch steps, paged queries)."),
    "payload-too-large": (INVALID_REQUEST, "Send less per message: the hello's maxPayloadSize is the limit "
                                           "(split the work into smaller calls); the connection stays open."),
    "invalid-request": (INVALID_REQUEST, "A request is an object with \"jsonrpc\": \"2.0\", a string \"method\", "
                                         "optional \"params\" (an object) and an optional string or number \"id\"."),
}


def error_object(e: BoardwireError) -> dict[str, Any]:
    """The JSON-RPC error object of a registry failure."""
    data: dict[str, Any] = {"code": e.code}
    if e.hint:
        data["hint"] = e.hint
    data.update({k: v for k, v in e.data.items() if k not in ("code", "hint")})
    return {"code": e.rpc_code, "message": e.message, "data": data}


def protocol_error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    number, hint = PROTOCOL_CODES[code]
    return {"code": number, "message": message, "data": {"code": code, "hint": hint, **extra}}


def markdown_table() -> str:
    """The table docs/jsonrpc.md shows (a test compares them)."""
    rows = ["| JSON-RPC code | `data.code` |", "|---|---|"]
    rows += [f"| {n} | `{c}` |" for c, n in sorted(WIRE_CODES.items(), key=lambda kv: -kv[1])]
    rows += [f"| {n} | `{c}` |" for c, (n, _) in PROTOCOL_CODES.items()]
    rows.append(f"| {SERVER_ERROR} | any newer code (named in `data.code`) |")
    return "\n".join(rows)
