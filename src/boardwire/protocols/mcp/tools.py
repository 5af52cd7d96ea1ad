"""Registry commands as MCP tools (no SDK import: plain dicts, so `--tools` and the
token benchmark stay fast).

A tool is a registry command (any kind); its name is the command id with
``_`` for ``.`` (MCP tool names allow ``[A-Za-z0-9_.-]``, but several clients reject
dots). Schemas are the registry's, compacted for the context window every agent pays
on every session (MCP spec 2025-11-25, "Tools": inputSchema, outputSchema,
annotations).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from ...commands import REGISTRY
from ...registry.command import Command

# Commands of the live view's page (over the bridge), never MCP tools.
PAGE_ONLY = ("agent.ask", "agent.requests")

# Result shape shared by every command: a one-line summary plus the command's fields.
OUTPUT_SCHEMA = {"type": "object", "properties": {"summary": {"type": "string"}}}


def tool_name(command_id: str) -> str:
    return command_id.replace(".", "_")


@lru_cache(maxsize=1)
def _by_name() -> dict[str, Command]:
    return {tool_name(c.id): c for c in REGISTRY.all() if c.id not in PAGE_ONLY}


def command_for(name: str) -> Command | None:
    """The registry command behind tool ``name`` (None if there is none)."""
    return _by_name().get(name)


def _compact(schema):
    """What a model needs from a pydantic schema, and nothing else: ``anyOf [X, null]``
    becomes X (optional is already said by ``required``), ``default: null`` goes, and
    bounds that only guard against absurd input (max lengths, the 32-bit coordinate
    limit, non-empty strings) and id patterns go; the registry still enforces them and
    answers invalid-args saying which rule failed."""
    if isinstance(schema, list):
        return [_compact(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):  # argument names, not keywords
            out[key] = {name: _compact(prop) for name, prop in value.items()}
            continue
        if key == "default" and value is None:
            continue
        if key in ("maxLength", "maxItems", "maxProperties") and isinstance(value, int) and value >= 500:
            continue
        if key == "minLength" and value == 1 or key == "pattern":
            continue
        if key in ("minimum", "maximum") and isinstance(value, (int, float)) and abs(value) >= 2000:
            continue
        out[key] = _compact(value)
    options = out.get("anyOf")
    if isinstance(options, list):
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1:
            del out["anyOf"]
            out = {**kept[0], **out}
    return out


# Said once in the server instructions instead of in every tool.
SHARED_ARGS = {
    "path": "a document path relative to the working directory",
    "revision": "optional; the call fails with stale-revision, changing nothing, if the document "
                "is no longer at that revision",
    "format": "how big row lists come: table (the default here: a line of column names, then one line per "
              "row, cells split by |, absent cells empty, lists and quoted strings as JSON) or json (row objects)",
}


def input_schema(cmd: Command) -> dict:
    schema = _compact(cmd.input_schema())
    for name in SHARED_ARGS:
        prop = schema.get("properties", {}).get(name)
        if prop is not None:
            prop.pop("description", None)
            prop.pop("minLength", None)
    return schema


def description(cmd: Command) -> str:
    """The command's summary, then its kind, units and first example when the example
    shows a structure (lists, objects) the schema alone leaves open; the rest are in
    docs/commands.md."""
    text = cmd.summary
    facts = [cmd.kind] + ([cmd.units] if cmd.units else [])
    text += f" [{'; '.join(facts)}]"
    example = cmd.examples[0] if cmd.examples else {}
    if any(isinstance(v, (list, dict)) for v in example.values()):
        text += " e.g. " + json.dumps(example, separators=(",", ":"))
    return text


def annotations(cmd: Command) -> dict:
    """MCP tool annotations from the declaration (hints, not guarantees). Only what
    differs from the spec's defaults (readOnly false, destructive true, idempotent
    false) is written; destructive and idempotent mean nothing for read-only tools."""
    if cmd.read_only:
        return {"readOnlyHint": True}
    out = {"destructiveHint": cmd.destructive}
    if cmd.idempotent:
        out["idempotentHint"] = True
    return out


_TOOLS: dict[str, dict] = {}


def tool_dict(cmd: Command) -> dict:
    """The MCP tool of ``cmd`` (cached by id: treat it as read-only)."""
    if cmd.id not in _TOOLS:
        _TOOLS[cmd.id] = _tool_dict(cmd)
    return _TOOLS[cmd.id]


def _tool_dict(cmd: Command) -> dict:
    return {"name": tool_name(cmd.id), "description": description(cmd), "inputSchema": input_schema(cmd),
            "outputSchema": OUTPUT_SCHEMA, "annotations": annotations(cmd)}


def _claude_tokenizer():
    """The Claude tokenizer Anthropic published with its Python SDK up to 0.38
    (``anthropic._tokenizers``; a test extra here), or None when not installed."""
    try:
        from anthropic._tokenizers import sync_get_tokenizer
    except ImportError:
        return None
    return sync_get_tokenizer()


def count_tokens(obj, method: str = "auto") -> int:
    """Tokens of the JSON a client sends to its model.

    ``method``: "claude" counts with the published Claude tokenizer (raises
    RuntimeError if it is not installed); "upper" counts word runs and single
    punctuation marks (``\\w+|[^\\w\\s]``), an upper bound for BPE tokenizers, which
    merge common punctuation and never split a short word further; "auto" is
    "claude" when available, else "upper"."""
    text = json.dumps(obj, separators=(",", ":"))
    if method in ("auto", "claude"):
        tokenizer = _claude_tokenizer()
        if tokenizer is not None:
            return len(tokenizer.encode(text).ids)
        if method == "claude":
            raise RuntimeError("the Claude tokenizer is not installed (pip install 'anthropic==0.34.2')")
    return len(re.findall(r"\w+|[^\w\s]", text))


def measured_tokens(obj) -> tuple[int, str]:
    """(tokens, how counted): the Claude tokenizer when installed, else the upper bound."""
    try:
        return count_tokens(obj, "claude"), "Claude tokenizer"
    except RuntimeError:  # the tokenizer is a test extra
        return count_tokens(obj, "upper"), "upper bound (word/punctuation count)"
