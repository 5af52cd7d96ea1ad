"""`boardwire mcp` driven by the official SDK client, as an agent's host would: over
stdio in both protocol eras the SDK negotiates (the 2025 handshake and 2026-07-28),
and over Streamable HTTP with keys."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from boardwire.errors import PolicyDenied
from boardwire.protocols.mcp import prompts, server, tools, toolsets
from boardwire.registry import REGISTRY
from tests.inputs import DEMOS, need

BOARD = "b.kicad_pcb"
MODES = ["legacy", "auto"]  # the initialize handshake (2025-11-25) and 2026-07-28


@pytest.fixture
def ws(tmp_path) -> Path:
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    return tmp_path


def stdio(ws: Path, *extra: str, env: dict | None = None) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "boardwire.cli.main", "mcp", *extra],
                                 cwd=str(ws), env={**os.environ, **(env or {})})


def run(fn, *args):
    return anyio.run(fn, *args)


@pytest.mark.parametrize("mode", MODES)
def test_tools_query_edit_error_over_stdio(ws, mode):
    log = ws / "calls.jsonl"

    async def main():
        async with Client(stdio(ws, env={"BOARDWIRE_MCP_LOG": str(log)}), mode=mode) as c:
            listed = (await c.list_tools()).tools
            assert {t.name for t in listed} == {t["name"] for t in toolsets.tool_list()}  # the default set
            assert "boardwire" in (c.instructions or "")
            r = await c.call_tool("query_describe", {"path": BOARD})
            assert not r.is_error and "15 footprints" in r.structured_content["summary"]
            r = await c.call_tool("pcb_move", {"path": BOARD, "reference": "C1", "by": [1, 0]})
            assert not r.is_error and r.structured_content["revision"] == 1
            r = await c.call_tool("pcb_addVia", {"path": BOARD, "at": [float("nan"), 1]})
            assert r.is_error and r.structured_content["error"]["code"] == "invalid-args"
            r = await c.call_tool("pcb_move", {"path": BOARD, "reference": "NOPE9", "by": [1, 0]})
            assert r.is_error and r.structured_content["error"]["code"] == "not-found"
            assert r.structured_content["error"]["hint"]
            r = await c.call_tool("query_describe", {"path": "../outside.kicad_pcb"})
            assert r.structured_content["error"]["code"] == "path-outside-workspace"
            with pytest.raises(MCPError) as e:  # an unknown tool is a protocol error
                await c.call_tool("pcb_teleport", {})
            assert e.value.error.code == types.INVALID_PARAMS
            r = await c.call_tool("session_undo", {"path": BOARD})
            assert not r.is_error
            # Many items created: a count for the model, not a list of ids (query.items lists them).
            vias = [{"command": "pcb.addVia", "args": {"path": BOARD, "at": [100 + i, 100]}} for i in range(9)]
            r = await c.call_tool("session_batch", {"steps": vias})
            assert not r.is_error and r.structured_content.get("new_count") == 9
            assert "new_ids" not in r.structured_content
            r = await c.call_tool("pcb_addVia", {"path": BOARD, "at": [90, 90]})
            assert len(r.structured_content["new_ids"]) == 1  # a few are listed
            # design.brief: a client that shows only text content still gets the schema.
            r = await c.call_tool("design_brief", {})
            text = r.content[0].text
            assert "Component:" in text and "ref: string" in text and "nets: object of array of string" in text
            assert "text" not in r.structured_content and "schema" in r.structured_content

    run(main)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert [x["tool"] for x in lines][:3] == ["query_describe", "pcb_move", "pcb_addVia"]
    assert lines[2]["error"] == "invalid-args" and lines[1]["error"] is None and lines[1]["seconds"] >= 0


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")  # still the 2025 era's way
@pytest.mark.parametrize("mode", MODES)
def test_resources_prompts_and_change_notifications(ws, mode):
    updated: list[str] = []

    async def on_message(message):
        if isinstance(message, types.ResourceUpdatedNotification):
            updated.append(str(message.params.uri))

    async def main():
        async with Client(stdio(ws), mode=mode, message_handler=on_message) as c:
            await c.call_tool("session_open", {"path": BOARD})
            uris = [str(r.uri) for r in (await c.list_resources()).resources]
            nets = next(u for u in uris if u.endswith("/nets"))
            assert nets == "boardwire://doc/b.kicad_pcb/nets"
            body = json.loads((await c.read_resource(nets)).contents[0].text)
            assert body["summary"]
            templates = (await c.list_resource_templates()).resource_templates
            assert any(t.uri_template.endswith("/drc") for t in templates)
            if mode == "legacy":
                await c.subscribe_resource(nets)
                await c.call_tool("pcb_addVia", {"path": BOARD, "at": [5, 5]})
                with anyio.fail_after(10):
                    while nets not in updated:
                        await anyio.sleep(0.05)
            else:
                async with c.listen(resource_subscriptions=[nets]) as sub:
                    await c.call_tool("pcb_addVia", {"path": BOARD, "at": [5, 5]})
                    with anyio.fail_after(10):
                        event = await sub.__anext__()
                    assert str(event.uri) == nets
            names = [p.name for p in (await c.list_prompts()).prompts]
            assert names == ["design-workflow", "design-pipeline", "fix-drc", "editor-chat"]
            text = (await c.get_prompt("fix-drc", {"board": BOARD})).messages[0].content.text
            assert BOARD in text and "check_drc" in text

    run(main)


@pytest.mark.parametrize("mode", MODES)
def test_a_resource_of_a_missing_file_is_not_found(ws, mode):
    """MCP's "Resource not found" (-32002) with the stable code in data, for a document
    that does not exist, whether it fails to open or its view fails; a path outside the
    working directory stays invalid params."""
    async def main():
        async with Client(stdio(ws), mode=mode) as c:
            for uri in ("boardwire://doc/missing.kicad_pcb/nets", "boardwire://doc/sub%2Fgone.kicad_sch/sheets"):
                with pytest.raises(MCPError) as e:
                    await c.read_resource(uri)
                assert e.value.error.code == -32002, uri
                assert e.value.error.data["code"] == "no-document" and e.value.error.data["hint"]
            with pytest.raises(MCPError) as e:
                await c.read_resource("boardwire://doc/..%2Fb.kicad_pcb/nets")
            assert e.value.error.code == types.INVALID_PARAMS

    run(main)


def test_prompts_name_only_existing_tools():
    import re

    names = {tools.tool_name(c.id) for c in REGISTRY.all()} | {toolsets.ENABLE_TOOL}
    texts = prompts.INSTRUCTIONS + "".join(t for _, _, t in prompts.PROMPTS.values())
    mentioned = set(re.findall(r"\b(?:session|query|pcb|check|render|sch|lib|project|fab|parts|design|agent|toolset)_[A-Za-z]+", texts))
    assert not mentioned - names, mentioned - names
    assert all(f in prompts.INSTRUCTIONS for f in toolsets.families())  # the instructions name every family


def test_tool_list_parity_and_size():
    """The full list mirrors the registry; the default set (what `boardwire mcp` serves)
    keeps within DEFAULT_MAX_TOOLS and DEFAULT_TOKEN_BUDGET, counted with the published
    Claude tokenizer (a test extra), whatever families are added later."""
    listed = toolsets.tool_list(["all"])
    by_name = {t["name"]: t for t in listed}
    assert set(by_name) == {tools.tool_name(c.id) for c in REGISTRY.all() if c.id not in tools.PAGE_ONLY}
    for cmd in REGISTRY.all():
        if cmd.id in tools.PAGE_ONLY:  # the live view's own commands (over the bridge)
            assert tools.tool_name(cmd.id) not in by_name
            continue
        t = by_name[tools.tool_name(cmd.id)]
        registry_schema = cmd.input_schema()
        assert set(t["inputSchema"]["properties"]) == set(registry_schema["properties"]), cmd.id
        assert t["inputSchema"].get("required", []) == registry_schema.get("required", []), cmd.id
        assert t["annotations"].get("readOnlyHint", False) == cmd.read_only
        assert "/work" not in json.dumps(t) and "/tmp" not in json.dumps(t)  # no absolute paths
    ids = {c.id for c in REGISTRY.all()}
    assert not set(toolsets.DEFAULT_TOOLS) - ids, set(toolsets.DEFAULT_TOOLS) - ids  # no stale names
    default = toolsets.tool_list()
    assert default[-1]["name"] == toolsets.ENABLE_TOOL
    assert {t["name"] for t in default[:-1]} == {tools.tool_name(i) for i in toolsets.DEFAULT_TOOLS}
    assert len(default) <= toolsets.DEFAULT_MAX_TOOLS
    assert tools.count_tokens(default, "claude") <= toolsets.DEFAULT_TOKEN_BUDGET


def test_every_command_is_in_a_family():
    """A scope no family names is a family of its own, so a new command is reachable."""
    fams = toolsets.families()
    for cmd in REGISTRY.all():
        assert cmd.scope in fams[toolsets.family_of(cmd)]
    served = set()
    for f in fams:
        served |= {t["name"] for t in toolsets.tool_list([f])}
    assert served - {toolsets.ENABLE_TOOL} == {tools.tool_name(c.id) for c in REGISTRY.all() if c.id not in tools.PAGE_ONLY}
    enum = toolsets.enable_tool()["inputSchema"]["properties"]["toolset"]["enum"]
    default = {tools.tool_name(i) for i in toolsets.DEFAULT_TOOLS}
    partly = {f for f in fams if {t["name"] for t in toolsets.tool_list([f])} - default - {toolsets.ENABLE_TOOL}}
    assert set(enum) == partly | {"all"}  # the families with tools left out of the default set


@pytest.mark.parametrize("mode", MODES)
def test_toolset_enable_adds_a_family_and_says_so(ws, mode):
    """A tool outside the default set is refused, naming its family; toolset_enable
    adds the family, tells the client (tools/list_changed, or the listen stream on
    2026-07-28), and the tool then works."""
    changed: list[str] = []

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            changed.append("tools")

    async def main():
        async with Client(stdio(ws), mode=mode, message_handler=on_message) as c:
            listed = await c.list_tools()
            before = {t.name for t in listed.tools}
            assert "session_documents" not in before and toolsets.ENABLE_TOOL in before
            if mode == "auto":  # 2026-07-28 results carry a cache lifetime
                assert listed.ttl_ms == server.TOOLS_TTL_MS
            with pytest.raises(MCPError) as e:
                await c.call_tool("session_documents", {})
            assert "core" in e.value.error.message and toolsets.ENABLE_TOOL in e.value.error.message
            r = await c.call_tool(toolsets.ENABLE_TOOL, {"toolset": "nope"})
            assert r.is_error and r.structured_content["error"]["code"] == "invalid-args"
            if mode == "legacy":
                r = await c.call_tool(toolsets.ENABLE_TOOL, {"toolset": "core"})
                with anyio.fail_after(10):
                    while not changed:
                        await anyio.sleep(0.05)
            else:
                async with c.listen(tools_list_changed=True) as sub:
                    r = await c.call_tool(toolsets.ENABLE_TOOL, {"toolset": "core"})
                    with anyio.fail_after(10):
                        await sub.__anext__()
            assert not r.is_error and "session_documents" in r.structured_content["added"]
            after = {t.name for t in (await c.list_tools()).tools}
            assert after == before | set(r.structured_content["added"])
            r = await c.call_tool("session_documents", {})
            assert not r.is_error
            r = await c.call_tool(toolsets.ENABLE_TOOL, {"toolset": "core"})
            assert r.structured_content["added"] == []

    run(main)


def test_tools_flag_prints_the_list(ws):
    r = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "mcp", "--tools", "--toolset", "core"],
                       cwd=ws, capture_output=True, text=True, timeout=60)
    out = json.loads(r.stdout)
    names = [t["name"] for t in out["tools"]]
    assert names[-1] == toolsets.ENABLE_TOOL
    assert names[:-1] and all(n.split("_")[0] in ("session", "query", "check", "render") for n in names[:-1])
    r = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "mcp", "--tools"],
                       cwd=ws, capture_output=True, text=True, timeout=60)
    out = json.loads(r.stdout)
    assert len(out["tools"]) == len(toolsets.tool_list()) and out["tokens"] <= out["default_budget"]
    r = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "mcp", "--toolset", "nope"],
                       cwd=ws, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "unknown toolset" in r.stderr


def test_lines_that_are_not_messages_get_an_error_reply(ws):
    """The SDK only logs an unreadable stdin line; the client would wait forever. Each gets
    a JSON-RPC error with id null, and the server goes on answering."""
    deep = "[" * 100_000 + "]" * 100_000
    lines = ["not json", '{"foo": 1}', deep, "x" * 5_000_000, '{"jsonrpc":"2.0","id":7,"method":"ping"}']
    p = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "mcp"], cwd=ws, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()
    replies = [json.loads(p.stdout.readline()) for _ in lines]  # stdin stays open until all are answered
    p.stdin.close()
    r = subprocess.CompletedProcess(p.args, p.wait(timeout=60), "", p.stderr.read())
    assert [m["error"]["code"] for m in replies[:4]] == [-32700, -32600, -32700, -32700], replies  # too deep: not JSON to the parser
    assert [m["error"]["data"]["code"] for m in replies[:2]] == ["invalid-json", "invalid-request"]
    assert all(m["error"]["data"]["hint"] for m in replies[:4])
    assert all(m["id"] is None for m in replies[:4]) and replies[4] == {"jsonrpc": "2.0", "id": 7, "result": {}}
    assert r.returncode == 0, r.stderr[-2000:]


def test_a_malformed_tools_call_says_what_is_wrong_and_keeps_its_id(ws):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    bad = [({"name": 5}, "params.name", "string"), ({"name": "query_describe", "arguments": [1]},
                                                     "params.arguments", "dictionary"),
           (None, "params", "required"), ({"arguments": {}}, "params.name", "required")]
    lines = [init, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [{"jsonrpc": "2.0", "id": f"r{i}", "method": "tools/call", **({"params": p} if p else {})}
              for i, (p, _, _) in enumerate(bad)]
    p = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "mcp"], cwd=ws, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    p.stdin.write("".join(json.dumps(m) + "\n" for m in lines))
    p.stdin.flush()
    replies = [json.loads(p.stdout.readline()) for _ in range(1 + len(bad))][1:]
    p.stdin.close()
    p.wait(timeout=60)
    for i, ((_, loc, word), r) in enumerate(zip(bad, replies)):
        assert r["id"] == f"r{i}" and r["error"]["code"] == types.INVALID_PARAMS
        assert loc in r["error"]["message"] and word in r["error"]["message"].lower(), r
        assert r["error"]["data"]["errors"][0]["loc"] == loc


def _kicad_children(server_cwd: Path) -> list[int]:
    """Pids of kicad-cli processes whose parent runs in ``server_cwd``."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"kicad-cli" not in cmd:
                continue
            ppid = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
            if Path(os.readlink(f"/proc/{ppid}/cwd")) == server_cwd:
                out.append(int(pid))
        except (OSError, IndexError):
            continue
    return out


@pytest.mark.kicad
@pytest.mark.parametrize("mode", MODES)
def test_progress_and_cancellation_of_drc(tmp_path, mode, kicad_cli):
    shutil.copy(need(DEMOS / "video" / "video.kicad_pcb"), tmp_path / BOARD)
    progress: list[str] = []

    async def on_progress(p, total, message):
        progress.append(message or "")

    async def main():
        async with Client(stdio(tmp_path), mode=mode) as c:
            r = await c.call_tool("check_drc", {"path": BOARD}, progress_callback=on_progress)
            assert not r.is_error and "DRC" in r.structured_content["summary"]
            assert any("KiCad DRC" in m for m in progress)
            with anyio.move_on_after(60):
                async with anyio.create_task_group() as tg:
                    async def slow():
                        await c.call_tool("check_drc", {"path": BOARD})
                    tg.start_soon(slow)
                    with anyio.fail_after(30):
                        while not _kicad_children(tmp_path):
                            await anyio.sleep(0.05)
                    tg.cancel_scope.cancel()  # the SDK sends notifications/cancelled
            with anyio.fail_after(10):
                while _kicad_children(tmp_path):
                    await anyio.sleep(0.05)
            r = await c.call_tool("query_describe", {"path": BOARD})  # still serving
            assert not r.is_error

    run(main)


# -- Streamable HTTP -------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_server(tmp_path):
    """A `boardwire mcp --http` with two keys (alice, bob), alice's workspace holding
    the board."""
    cli = [sys.executable, "-m", "boardwire.cli.main", "mcp"]
    keys = {name: subprocess.run([*cli, "keys", "add", name], cwd=tmp_path, capture_output=True,
                                 text=True, check=True).stdout.strip() for name in ("alice", "bob")}
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / "workspaces" / "alice" / BOARD)
    port = _free_port()
    proc = subprocess.Popen([*cli, "--http", "--port", str(port)], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield url, keys, tmp_path
    proc.terminate()
    proc.wait(timeout=10)


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _post(url, headers):
    return httpx2.post(url, json=INIT, headers={**ACCEPT, **headers}, timeout=20)


async def _describe(url, key, mode):
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}) as hc:
        async with Client(streamable_http_client(url, http_client=hc), mode=mode) as c:
            return await c.call_tool("query_describe", {"path": BOARD})


async def _session_over_http(url, key, mode):
    """tools/list, a query, an edit, an error, a prompt and a resource update over HTTP."""
    updated: list[str] = []

    async def on_message(message):
        if isinstance(message, types.ResourceUpdatedNotification):
            updated.append(str(message.params.uri))

    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}) as hc:
        async with Client(streamable_http_client(url, http_client=hc), mode=mode, message_handler=on_message) as c:
            assert len((await c.list_tools()).tools) == len(toolsets.tool_list())
            r = await c.call_tool("query_describe", {"path": BOARD})
            assert not r.is_error and "footprints" in r.structured_content["summary"]
            nets = "boardwire://doc/b.kicad_pcb/nets"
            if mode == "legacy":
                await c.subscribe_resource(nets)
            r = await c.call_tool("pcb_move", {"path": BOARD, "reference": "C1", "by": [0.5, 0]})
            assert not r.is_error and r.structured_content["revision"] >= 1
            if mode == "legacy":
                with anyio.fail_after(10):
                    while nets not in updated:
                        await anyio.sleep(0.05)
            r = await c.call_tool("pcb_move", {"path": BOARD, "reference": "NOPE9", "by": [1, 0]})
            assert r.is_error and r.structured_content["error"]["code"] == "not-found"
            assert BOARD in (await c.get_prompt("fix-drc", {"board": BOARD})).messages[0].content.text


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
@pytest.mark.parametrize("mode", MODES)
def test_http_with_keys(http_server, mode):
    url, keys, root = http_server
    run(_session_over_http, url, keys["alice"], mode)
    # bob works in his own workspace: alice's board does not exist there
    r = run(_describe, url, keys["bob"], mode)
    assert r.is_error and r.structured_content["error"]["code"] == "no-document"


@pytest.mark.kicad
@pytest.mark.heavy(minutes=1.6)
def test_an_image_too_big_for_the_event_stream_comes_as_a_link(tmp_path, kicad_cli):
    """render_png at 4096 px of the video board is over the SDK client's 1 MiB event
    limit: over HTTP it is written to a file in the workspace and linked."""
    shutil.copy(need(DEMOS / "video" / "video.kicad_pcb"), tmp_path)
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "mcp", "--http", "--no-auth",
                             "--port", str(port)], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    async def main():
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                await anyio.sleep(0.1)
        async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as c:
            r = await c.call_tool("render_png", {"path": "video.kicad_pcb", "width": 4096})
            assert not r.is_error, r.content
            link = next(x for x in r.content if x.type == "resource_link")
            saved = tmp_path / r.structured_content["output"]
            assert saved.read_bytes()[:4] == b"\x89PNG" and link.size == saved.stat().st_size > 900_000 * 3 // 4
            assert str(link.uri) == saved.resolve().as_uri() and "written to" in r.structured_content["summary"]
            r = await c.call_tool("render_png", {"path": "video.kicad_pcb", "width": 512})  # small: inline
            assert any(x.type == "image" for x in r.content)

    try:
        run(main)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _refused(r, status: int) -> dict:
    """The JSON-RPC error of an HTTP refusal by boardwire's key check: ``status``, the
    policy-denied code with its own number (-32008, not no-document's -32001) and
    hint, and a Bearer challenge with every 401 (RFC 9110 section 15.5.2)."""
    assert r.status_code == status, r.text
    body = r.json()
    assert body["jsonrpc"] == "2.0" and body["id"] is None
    error = body["error"]
    assert error["code"] == PolicyDenied.rpc_code == -32008, error
    assert error["data"]["code"] == "policy-denied" and error["data"]["hint"] and error["message"]
    assert (r.headers.get("www-authenticate") == 'Bearer realm="boardwire"') == (status == 401)
    return error


def test_http_refusals(http_server):
    url, keys, root = http_server
    assert "bearer key is required" in _refused(_post(url, {}), 401)["message"]
    assert "unknown or revoked key" in _refused(_post(url, {"Authorization": "Bearer bw_wrong"}), 401)["message"]
    ok = _post(url, {"Authorization": f"Bearer {keys['alice']}"})
    assert ok.status_code == 200
    assert _post(url, {"Authorization": f"Bearer {keys['alice']}", "Origin": "http://evil.example"}).status_code == 403
    # a session opened by alice is refused to bob
    sid = ok.headers["mcp-session-id"]
    stolen = httpx2.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                         headers={**ACCEPT, "Authorization": f"Bearer {keys['bob']}", "mcp-session-id": sid,
                                  "mcp-protocol-version": "2025-11-25"}, timeout=20)
    assert "another key" in _refused(stolen, 403)["message"]
    subprocess.run([sys.executable, "-m", "boardwire.cli.main", "mcp", "keys", "revoke", "alice"],
                   cwd=root, check=True, capture_output=True)
    _refused(_post(url, {"Authorization": f"Bearer {keys['alice']}"}), 401)
    keyfile = root / ".boardwire" / "mcp-keys.json"
    assert keys["bob"] not in keyfile.read_text() and keyfile.stat().st_mode & 0o777 == 0o600


# -- install and the main job -------------------------------------------------------------

@pytest.mark.kicad
def test_demo_runs_the_main_job(tmp_path, kicad_cli):
    r = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "demo", "--out", str(tmp_path / "out"), "--json"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    rows = json.loads(r.stdout)
    calls = [row["call"] for row in rows]
    for needed in ("tools/list", "query_describe", "query_nets", "query_unrouted", "pcb_move", "pcb_route",
                   "check_drc", "render_png", "session_undo", "session_save"):
        assert needed in calls
    assert all(row["ok"] for row in rows), [row for row in rows if not row["ok"]]
    unrouted = [row["result"] for row in rows if row["call"] == "query_unrouted"]
    assert unrouted[0].startswith("0 ") and not unrouted[1].startswith("0 ") and unrouted[2].startswith("0 ")
    drc = next(row["result"] for row in rows if row["call"] == "check_drc")
    assert drc.startswith("DRC: 0 errors") and ", 0 unconnected" in drc  # the demo leaves a clean board
    saved = (tmp_path / "out" / "ecc83-pp.kicad_pcb").read_text()
    original = (Path(__file__).resolve().parents[2] / "src/boardwire/examples/ecc83/ecc83-pp.kicad_pcb").read_text()
    assert saved != original and (tmp_path / "out" / "ecc83-pp.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.kicad
def test_heavy_commands_wait_for_a_slot(ws, kicad_cli):
    """Three DRCs at once on one workspace: two run, the third says it is waiting."""
    messages: list[list[str]] = [[], [], []]

    async def main():
        async with Client(stdio(ws), mode="legacy") as c:
            async def drc(i):
                async def on_progress(p, total, message):
                    messages[i].append(message or "")
                r = await c.call_tool("check_drc", {"path": BOARD}, progress_callback=on_progress)
                assert not r.is_error
            async with anyio.create_task_group() as tg:
                for i in range(3):
                    tg.start_soon(drc, i)

    run(main)
    waited = [m for m in messages if any("waiting for a free slot" in x for x in m)]
    assert len(waited) >= 1 and all(any("KiCad DRC" in x for x in m) for m in messages)
