"""``rpc.discover``: the method list, generated from the registry.

JSON-RPC 2.0 section 4 reserves ``rpc.`` names for extensions; the name follows
OpenRPC's service discovery method, but the document is boardwire's own compact form
(each method's params are the command's JSON Schema as one object, since params are
always passed by name), not an OpenRPC document.
"""

from __future__ import annotations

from ... import __version__
from .codes import PROTOCOL_CODES, SERVER_ERROR, WIRE_CODES

OBJECT = {"type": "object", "properties": {}, "additionalProperties": False}

BUILTIN_METHODS = [
    {"name": "rpc.discover", "kind": "rpc", "summary": "This list: methods with their params, notifications, error codes.",
     "params": OBJECT, "readOnly": True},
    {"name": "rpc.hello", "kind": "rpc",
     "summary": "Name this client: its name becomes the actor of its changes in document.changed events.",
     "params": {"type": "object", "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 100}},
                "additionalProperties": False}},
    {"name": "$/cancel", "kind": "rpc",
     "summary": "Cancel a request of this client (also $/cancelRequest): a queued one fails with -32800 "
                "without running, a running one is asked to stop.",
     "params": {"type": "object", "properties": {"id": {"type": ["string", "number"]}}, "required": ["id"]}},
]

NOTIFICATIONS = [
    {"name": "document.changed", "to": "every client",
     "params": {"path": "string", "reason": "open|close|edit|undo|redo|save|revert", "revision": "integer",
                "hash": "string|null (SHA-256 of the document at this revision)", "label": "string",
                "actor": "string (the client that made the change)", "new_ids": "array of string",
                "time": "number (Unix seconds)"}},
    {"name": "command.progress", "to": "the caller",
     "params": {"id": "the request's id", "fraction": "number 0..1", "message": "string"}},
    {"name": "session.log", "to": "every client",
     "params": {"level": "info|warning|error", "message": "string", "actor": "string (optional)"}},
    {"name": "agent.chatEvent", "to": "every client",
     "params": {"chatId": "string", "kind": "request|taken|progress|text|edit|done|error",
                "text": "string (progress, text, done, error)", "percent": "number 0..100 (progress)",
                "request": "object (request)", "edit": "{path, revision, label, actor} (edit)",
                "actor": "string (taken)"}},
]


def discover(registry) -> dict:
    methods = []
    for c in registry.all():
        m = {"name": c.id, "kind": c.kind, "summary": c.summary, "params": c.input_schema()}
        for flag, on in (("readOnly", c.read_only), ("destructive", c.destructive), ("long", c.long)):
            if on:
                m[flag] = True
        if c.units:
            m["units"] = c.units
        methods.append(m)
    errors = {code: number for code, number in WIRE_CODES.items()}
    errors.update({code: number for code, (number, _) in PROTOCOL_CODES.items()})
    errors["(other)"] = SERVER_ERROR
    return {"server": {"name": "boardwire", "version": __version__}, "protocol": "JSON-RPC 2.0",
            "methods": methods + BUILTIN_METHODS, "notifications": NOTIFICATIONS, "errors": errors}
