"""Every code and every wire-form number lives in ``boardwire/errors.py``.

The error classes build their wire forms (JSON-RPC error object, MCP tool result and
resource-read error, bridge refusal and close code, HTTP status, exit status); the doors
only call them. So no other module of the package may write, outside its docstrings:

* a dict literal ``{"code": "<a string>"}`` (an error object or dict built by hand);
* a JSON-RPC error number (-32768..-32000, JSON-RPC 2.0 section 5.1 and the LSP's
  -32800);
* a WebSocket close number: an int literal given to a ``close(...)`` call, or any int
  in 4000..4999 (RFC 6455 section 7.4.2) in the doors (protocols/, web/);
* one of the doors' own codes (`DOOR_CODES`: framing, bridge refusals, script ends).

Comparisons of a caught error's code with a registry code (``e.code == "cancelled"``)
read a code rather than mint one, and the registry's code strings double as words
elsewhere (a job's state "cancelled", a command flag "read-only"), so those are not
checked here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import mcp_types as types
import pytest

import boardwire
from boardwire import errors
from boardwire.errors import ALL_CODES, DOOR_CODES, BridgeRefused, KeyRequired, PolicyDenied

PACKAGE = Path(boardwire.__file__).parent
ERRORS = PACKAGE / "errors.py"
DOORS = ("protocols", "web")


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def minted(source: str, in_door: bool = False) -> list[tuple[int, str]]:
    """(line, what) for every code or wire number ``source`` writes (see the module)."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if (isinstance(key, ast.Constant) and key.value == "code" and isinstance(value, ast.Constant)
                        and isinstance(value.value, str)):
                    out.append((node.lineno, f'"code": {value.value!r}'))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            n = node.operand.value
            if isinstance(n, int) and 32000 <= n <= 32768:
                out.append((node.lineno, f"JSON-RPC number -{n}"))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "close":
            given = node.args[:1] + [k.value for k in node.keywords if k.arg == "code"]
            out += [(node.lineno, f"close code {a.value}") for a in given
                    if isinstance(a, ast.Constant) and isinstance(a.value, int)]
        elif isinstance(node, ast.Constant) and id(node) not in docs:
            if isinstance(node.value, str) and node.value in DOOR_CODES:
                out.append((node.lineno, f"door code {node.value!r}"))
            elif in_door and isinstance(node.value, int) and 4000 <= node.value <= 4999:
                out.append((node.lineno, f"close code {node.value}"))
    return sorted(set(out))


def offenders() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == ERRORS:
            continue
        rel = path.relative_to(PACKAGE)
        found = minted(path.read_text(encoding="utf-8"), in_door=rel.parts[0] in DOORS)
        out += [f"{rel}:{line} {what}" for line, what in found]
    return out


def test_no_module_but_errors_writes_a_code_or_a_wire_number():
    assert offenders() == []


@pytest.mark.parametrize("source, in_door", [
    # the forms this task removed, as they were written
    ('body = {"error": {"code": -32001, "message": m, "data": {"code": code}}}', False),
    ('out["error"] = {"code": "internal", "message": f"{e}"}', False),
    ('code, what = (-32700, "Parse error") if not_json else (-32600, "Invalid Request")', False),
    ("RESOURCE_NOT_FOUND = -32002", False),
    ("await ws.close(code=1008)", True),
    ("await ws.close(4000, 'bad-handshake')", True),
    ('CLOSE_CODES = {"bad-handshake": 4000}', True),
    ('raise Refused("pairing-failed", "the proof does not match")', True),
    ('error = protocol_error("invalid-json", "parse error")', False),
    ('return 130, {"code": "interrupted", "message": "interrupted"}', False),
])
def test_every_form_of_minting_is_seen(source, in_door):
    assert minted(source, in_door)


@pytest.mark.parametrize("source", [
    '"""A docstring may name -32001, "bad-frame" and close code 4000."""',
    'if e.code == "cancelled":\n    pass',  # reading a registry code
    "limit = 4096\nLIMIT = 5000",  # outside the close range, or outside the doors
    "await ws.close(code=e.close_code)",
    'return {"code": e.code, "message": e.message}',
])
def test_what_is_not_minting_is_left_alone(source):
    assert minted(source, in_door=False) == []


def test_errors_imports_nothing_above_it():
    """errors.py is the bottom layer: it builds the MCP forms as plain dicts, without
    the SDK or any other module of boardwire."""
    tree = ast.parse(ERRORS.read_text(encoding="utf-8"))
    imported = [n.module if isinstance(n, ast.ImportFrom) else a.name
                for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                for a in (n.names if isinstance(n, ast.Import) else [None])]
    assert imported == ["__future__"]


# -- the wire forms, one class at a time --------------------------------------------------

REGISTRY_ERRORS = sorted(ALL_CODES.values(), key=lambda c: c.code)


@pytest.mark.parametrize("cls", REGISTRY_ERRORS, ids=lambda c: c.code)
def test_each_error_gives_its_wire_forms(cls):
    e = cls("something went wrong", detail=7) if cls is not errors.ParseError else cls("bad", path="x", line=2)
    rpc = e.rpc_error()
    assert rpc["code"] == cls.rpc_code and rpc["message"] == e.message
    assert rpc["data"]["code"] == cls.code and rpc["data"]["hint"] == cls.hint
    assert {k: v for k, v in rpc["data"].items() if k not in ("code", "hint")} == e.data
    result = types.CallToolResult.model_validate(e.tool_result())  # what the MCP layer sends
    assert result.is_error and result.structured_content == {"error": e.to_dict()}
    assert result.content[0].text == f"{cls.code}: {e.message} ({cls.hint})"
    read = e.resource_error()
    assert read["code"] == (errors.RESOURCE_NOT_FOUND if cls.not_found else errors.INTERNAL_ERROR)
    assert read["data"]["code"] == cls.code and read["data"]["hint"] == cls.hint
    assert e.resource_error(errors.INVALID_PARAMS)["code"] == (-32002 if cls.not_found else -32602)
    assert e.http_status == (404 if cls.not_found else 403 if cls is PolicyDenied else 400)
    assert e.close_code == (1008 if cls is PolicyDenied else None)


def test_a_tool_result_says_when_only_a_person_can_help():
    e = errors.BoardUnreachable("no answer", needs_human=errors.needs_human("replug", "Unplug it and plug it in."))
    text = types.CallToolResult.model_validate(e.tool_result()).content[0].text
    assert text.endswith("NEEDS A PERSON: Unplug it and plug it in.")
    assert e.tool_result()["structuredContent"]["error"]["needs_human"]["action"] == "replug"


def test_a_request_without_a_key_is_policy_denied_with_401():
    e = KeyRequired("unknown or revoked key")
    assert e.code == "policy-denied" and "policy-denied" not in DOOR_CODES
    assert e.rpc_error()["code"] == PolicyDenied.rpc_code == -32008
    assert e.http_status == 401 and PolicyDenied("x").http_status == 403
    assert ALL_CODES["policy-denied"] is PolicyDenied  # a subclass, not a second code


def test_the_doors_codes_are_apart_from_the_registrys():
    assert not set(DOOR_CODES) & set(ALL_CODES)
    for code, cls in DOOR_CODES.items():
        assert cls.code == code and cls.hint, code
        # the JSON-RPC spec's own numbers, or an MCP extension's (MCP Tasks: -32021)
        assert cls.rpc_code in (None, errors.PARSE_ERROR, errors.INVALID_REQUEST, errors.SERVER_ERROR,
                                errors.MissingCapability.rpc_code), code
    assert errors.MissingCapability.rpc_code == -32021  # io.modelcontextprotocol/tasks, "Error Handling"
    refusals = {code: cls for code, cls in DOOR_CODES.items() if issubclass(cls, BridgeRefused)}
    closes = [cls.close_code for cls in refusals.values()]
    assert len(set(closes)) == len(closes) and all(4000 <= n <= 4999 for n in closes)
    e = errors.WrongClient("client 'x' is not known")
    assert e.refusal() == {"type": "refused", "code": 4002, "reason": "wrong-client", "message": e.message}


def test_exit_statuses_of_a_script_s_end():
    assert errors.Interrupted().exit_status == errors.EXIT_INTERRUPTED == 130
    assert errors.ScriptError("ValueError: x").exit_status == errors.EXIT_BUG == 1
    assert errors.ScriptExit(5).exit_status == 5 and errors.ScriptExit("bye").exit_status == 1
    assert errors.ScriptExit(5).message == "the script exited with status 5"
