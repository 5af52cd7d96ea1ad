"""docs/commands.md, generated from a registry's commands (tests fail when it is stale;
`python -m boardwire.commands.docs` writes it from every command)."""

from __future__ import annotations

import json

from ..documents.board.tables import MAX_NET_NAME
from ..errors import EXIT_CHECK_ERRORS

HEADER = """# Commands

Generated from the registry by `python -m boardwire.commands.docs > docs/commands.md`;
do not edit by hand. Every command is reachable from every door: `boardwire call ID
'{json}'`, MCP tools (`boardwire mcp`; `.` becomes `_`), JSON-RPC methods
(`boardwire serve`, docs/jsonrpc.md) and the script API (`boardwire.api`). Units: millimetres and degrees, KiCad's axes (x right, y down). Every
document path is relative to the working directory. A net name (`net`, `nets`, `power`,
label text) is at most {max_net} characters: KiCad sets no limit, boardwire does (invalid-args
beyond it); a label's text is one line, as in KiCad.
""".replace("{max_net}", str(MAX_NET_NAME))


def _type(prop: dict) -> str:
    if "anyOf" in prop:
        return " | ".join(_type(p) for p in prop["anyOf"] if p.get("type") != "null")
    if "enum" in prop:
        return " | ".join(json.dumps(v) for v in prop["enum"])
    if prop.get("type") == "array":
        return f"array of {_type(prop.get('items', {}))}"
    if "$ref" in prop:
        return prop["$ref"].rsplit("/", 1)[-1]
    return prop.get("type", "any")


def _object_lines(name: str, schema: dict) -> list[str]:
    required = set(schema.get("required", []))
    lines = [f"{name}:"]
    for key, prop in schema.get("properties", {}).items():
        desc = prop.get("description", "")
        if "default" in prop and prop["default"] not in (None, [], {}):
            desc = (desc + f" (default {json.dumps(prop['default'])})").strip()
        kind = _type(prop)
        if prop.get("type") == "object" and "additionalProperties" in prop:
            kind = f"object of {_type(prop['additionalProperties'])}"
        lines.append(f"  {key}{'' if key in required else '?'}: {kind}" + (f" - {desc}" if desc and desc[0] != "(" else f" {desc}" if desc else ""))
    return lines


def schema_text(schema: dict, name: str = "document") -> str:
    """A JSON Schema (pydantic's, with ``$defs``) as compact text for a model that
    sees only text: one line per property, ``key?`` when optional, its type (a
    definition's name for a ``$ref``), description and default; each definition
    after the top object. About a third of the schema's JSON."""
    lines = _object_lines(name, schema)
    for def_name, sub in schema.get("$defs", {}).items():
        if sub.get("properties"):
            lines += _object_lines(def_name, sub)
        elif "enum" in sub:
            lines.append(f"{def_name}: {_type(sub)}")
    return "\n".join(lines)


def _errors(registry) -> str:
    """The stable error codes with the exit status `boardwire call` gives each."""
    from ..errors import ALL_CODES

    checks = ", ".join(f"`{c.id}`" for c in registry.all() if c.finds_errors is not None)
    rows = ["\n## Errors\n",
            "A failed call answers `{\"error\": {\"code\", \"message\", \"hint\"}}`; the code is stable; "
            "JSON-RPC numbers are in docs/jsonrpc.md. Every `boardwire` verb (`call`, `info`, `drc`, `build`, "
            "`parts`, `run`, `mcp`...) exits by one rule: **0** the command ran and any check it ran found "
            "no errors; **1** a crash outside any command (a Python traceback; a bug inside a command is `internal`, 21); **2** the command line itself is wrong (an unknown "
            f"option, a missing argument, options that do not combine); **{EXIT_CHECK_ERRORS}** a check ran "
            "and found errors: the result is printed as on success (the commands marked *exit "
            f"{EXIT_CHECK_ERRORS} on errors*: {checks}; and `boardwire drc`, `boardwire build`); "
            "**10 and up** the command failed with the code below (printed on stderr, and as JSON on "
            "stdout where the verb prints JSON).\n",
            "| code | exit status | what to do |", "|---|---:|---|"]
    for code, cls in sorted(ALL_CODES.items(), key=lambda kv: kv[1].exit_status):
        rows.append(f"| `{code}` | {cls.exit_status} | {cls.hint} |")
    return "\n".join(rows) + "\n"


def render(registry) -> str:
    """The page for every command of ``registry`` (a `Registry`)."""
    commands = registry.all()
    out = [HEADER, _errors(registry)]
    scopes: dict[str, list] = {}
    for c in commands:
        scopes.setdefault(c.scope, []).append(c)
    for scope, cmds in scopes.items():
        out.append(f"\n## {scope}\n")
        for c in cmds:
            flags = [c.kind] + [f for f, on in (("read-only", c.read_only), ("destructive", c.destructive),
                                               ("idempotent", c.idempotent), ("long", c.long),
                                               (f"exit {EXIT_CHECK_ERRORS} on errors", c.finds_errors is not None)) if on]
            out.append(f"### `{c.id}`\n\n{c.summary}\n\n*{', '.join(flags)}*"
                       + (f" · units: {c.units}" if c.units else "") + "\n")
            schema = c.input_schema()
            props = schema.get("properties", {})
            required = set(schema.get("required", []))
            if props:
                out.append("| argument | type | | description |\n|---|---|---|---|")
                for name, prop in props.items():
                    desc = prop.get("description", "")
                    if "default" in prop and prop["default"] is not None:
                        desc = (desc + f" (default {json.dumps(prop['default'])})").strip()
                    out.append(f"| `{name}` | {_type(prop).replace('|', '/')} | {'required' if name in required else ''} | {desc} |")
                out.append("")
            for ex in c.examples:
                out.append(f"```sh\nboardwire call {c.id} '{json.dumps(ex)}'\n```\n")
    return "\n".join(out).rstrip() + "\n"

