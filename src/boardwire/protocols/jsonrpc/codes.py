"""boardwire's stable error codes as JSON-RPC 2.0 error numbers.

JSON-RPC 2.0 section 5.1 ("Error object") fixes -32700 (parse error), -32600 (invalid
request), -32601 (method not found), -32602 (invalid params), -32603 (internal error)
and reserves -32000..-32099 for implementation-defined server errors; the LSP base
protocol adds -32800 (request cancelled). Every other stable code has a fixed number
from -32001 on, never reused once published; each error class in `boardwire.errors`
carries its number (``rpc_code``) and builds its error object (``rpc_error``), and
the tables here are read from them (the same table is in docs/jsonrpc.md; a test holds
them together). The stable code string is always in ``error.data.code``, with
``data.hint`` saying what to do next.
"""

from __future__ import annotations

from ...errors import ALL_CODES, DOOR_CODES, SERVER_ERROR

# Stable code -> JSON-RPC number, from the error classes (`boardwire.errors`).
WIRE_CODES: dict[str, int] = {code: cls.rpc_code for code, cls in ALL_CODES.items()}

# Protocol-level failures (the doors' codes a JSON-RPC error carries): no registry code.
PROTOCOL_CODES: dict[str, tuple[int, str]] = {code: (cls.rpc_code, cls.hint) for code, cls in DOOR_CODES.items()
                                              if cls.rpc_code is not None}


def markdown_table() -> str:
    """The table docs/jsonrpc.md shows (a test compares them): each code's JSON-RPC
    number, and the HTTP status the live view (or, for a door's code that has one,
    the MCP HTTP door) answers it with (``http_status``)."""
    rows = ["| JSON-RPC code | `data.code` | HTTP status (live view) |", "|---|---|---|"]
    rows += [f"| {n} | `{c}` | {ALL_CODES[c].http_status} |"
             for c, n in sorted(WIRE_CODES.items(), key=lambda kv: -kv[1])]
    rows += [f"| {n} | `{c}` | {DOOR_CODES[c].__dict__.get('http_status', '-')} |"  # the MCP HTTP door's
             for c, (n, _) in PROTOCOL_CODES.items()]
    rows.append(f"| {SERVER_ERROR} | any newer code (named in `data.code`) | |")
    return "\n".join(rows)
