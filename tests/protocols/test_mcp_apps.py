"""MCP Apps (``io.modelcontextprotocol/ui``, SEP-1865): the ``ui://boardwire/view``
resources, the ``_meta.ui`` of the tools that change a document, the app-only
``view_svg`` tool, and the page itself in Debian's chromium inside a host page written
here (an iframe and a postMessage bridge doing the host's side of the extension,
forwarding ``tools/call`` to a real ``boardwire mcp`` over stdio)."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.extension import advertise
from mcp.shared.exceptions import MCPError

from boardwire.protocols.mcp import apps
from tests.inputs import DEMOS, need
from tests.web.conftest import browser  # noqa: F401 - the fixture: Debian's chromium via Playwright

pytestmark = pytest.mark.kicad
BOARD = "b.kicad_pcb"
MODES = ["legacy", "auto"]  # the initialize handshake (2025-11-25) and 2026-07-28
APPS = [advertise(apps.EXTENSION_ID, {"mimeTypes": [apps.APP_MIME_TYPE]})]
# The CSP a host applies to a view that declares no domains (SEP-1865, "Host Behavior").
DEFAULT_CSP = ("default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; media-src 'self' data:; connect-src 'none'")


@pytest.fixture
def ws(tmp_path) -> Path:
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    (tmp_path / "notes.txt").write_text("not KiCad")
    return tmp_path


def stdio(ws: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "boardwire.cli.main", "mcp"],
                                 cwd=str(ws), env=dict(os.environ))


@pytest.mark.parametrize("mode", MODES)
def test_a_client_without_the_extension_sees_no_change(ws, mode):
    async def main():
        async with Client(stdio(ws), mode=mode) as c:
            listed = (await c.list_tools()).tools
            assert all(t.meta is None for t in listed)
            assert apps.VIEW_TOOL not in {t.name for t in listed}
            templates = (await c.list_resource_templates()).resource_templates
            assert not [t for t in templates if t.uri_template.startswith("ui://")]
            assert not [r for r in (await c.list_resources()).resources if str(r.uri).startswith("ui://")]
            with pytest.raises(MCPError) as e:  # the app's tool is no tool of theirs
                await c.call_tool(apps.VIEW_TOOL, {"path": BOARD})
            assert e.value.error.code == types.INVALID_PARAMS

    anyio.run(main)


@pytest.mark.parametrize("mode", MODES)
def test_an_apps_client_gets_the_view_template_and_tools_pointing_at_it(ws, mode):
    async def main():
        async with Client(stdio(ws), mode=mode, extensions=APPS) as c:
            templates = {t.uri_template: t for t in (await c.list_resource_templates()).resource_templates}
            assert templates["ui://boardwire/view/{path}"].mime_type == "text/html;profile=mcp-app"
            listed = {str(r.uri): r for r in (await c.list_resources()).resources}
            assert listed["ui://boardwire/view"].mime_type == "text/html;profile=mcp-app"
            tools = {t.name: t for t in (await c.list_tools()).tools}
            for name in ("pcb_move", "pcb_autoroute", "pcb_autoplace", "design_build", "sch_wire", "session_undo"):
                assert tools[name].meta == {"ui": {"resourceUri": "ui://boardwire/view"}}, name
            for name in ("query_describe", "check_drc", "render_png"):  # they change nothing
                assert tools[name].meta is None, name
            view = tools[apps.VIEW_TOOL]
            assert view.meta["ui"]["visibility"] == ["app"]  # hosts keep it from the model
            assert view.annotations.read_only_hint

    anyio.run(main)


def test_the_server_declares_the_extension():
    from boardwire.protocols.mcp import server

    built = server.build_server(lambda ctx: None)
    caps = built.get_capabilities(server.notification_options(), {})
    assert caps.extensions[apps.EXTENSION_ID] == {"mimeTypes": ["text/html;profile=mcp-app"]}


def test_reading_the_view_gives_self_contained_html(ws):
    async def main():
        async with Client(stdio(ws), extensions=APPS) as c:
            out = (await c.read_resource(apps.uri_of(BOARD))).contents
            bare = (await c.read_resource(apps.VIEW_URI)).contents
            errors = {}
            for u in (apps.uri_of("missing.kicad_pcb"), apps.uri_of("notes.txt")):
                with pytest.raises(MCPError) as e:
                    await c.read_resource(u)
                errors[u] = e.value.error.code
            return out, bare, errors

    out, bare, errors = anyio.run(main)
    assert len(out) == 1 and out[0].mime_type == "text/html;profile=mcp-app"
    assert str(out[0].uri) == "ui://boardwire/view/b.kicad_pcb"
    html = out[0].text
    assert html.startswith("<!DOCTYPE html>")
    config = json.loads(re.search(r'<script id="bw-config" type="application/json">(.*?)</script>', html).group(1))
    assert config["path"] == BOARD and config["kind"] == "board" and config["tool"] == apps.VIEW_TOOL
    # nothing from outside: no URL, no src/href attribute, no CSP domains declared
    assert not re.search(r"https?:|//[a-z]|\bsrc=|\bhref=|@import|url\(", html, re.IGNORECASE)
    assert "csp" not in (out[0].meta or {}).get("ui", {})
    assert json.loads(re.search(r'"application/json">(.*?)</script>', bare[0].text).group(1))["path"] is None
    assert errors == {apps.uri_of("missing.kicad_pcb"): -32002, apps.uri_of("notes.txt"): types.INVALID_PARAMS}


def test_view_svg_sends_a_picture_only_when_the_revision_changed(ws):
    async def main():
        async with Client(stdio(ws), extensions=APPS) as c:
            none_open = await c.call_tool(apps.VIEW_TOOL, {})
            first = (await c.call_tool(apps.VIEW_TOOL, {"path": BOARD})).structured_content
            default = (await c.call_tool(apps.VIEW_TOOL, {})).structured_content  # the open board
            same = (await c.call_tool(apps.VIEW_TOOL, {"path": BOARD, "since": first["revision"]})).structured_content
            moved = (await c.call_tool("pcb_move", {"path": BOARD, "reference": "U1", "by": [8, 0]})).structured_content
            after = (await c.call_tool(apps.VIEW_TOOL, {"path": BOARD, "since": first["revision"]})).structured_content
            bad = await c.call_tool(apps.VIEW_TOOL, {"path": BOARD, "side": "top"})
            return none_open, first, default, same, moved, after, bad

    none_open, first, default, same, moved, after, bad = anyio.run(main)
    assert none_open.is_error and none_open.structured_content["error"]["code"] == "no-document"
    assert default["path"] == BOARD
    assert first["path"] == BOARD and first["changed"] and first["svg"].startswith("<svg")
    assert f'data-revision="{first["revision"]}"' in first["svg"]
    assert same["changed"] is False and "svg" not in same
    assert after["changed"] and after["revision"] == moved["revision"] != first["revision"]
    assert after["svg"] != first["svg"]
    assert bad.is_error and bad.structured_content["error"]["code"] == "invalid-args"


# -- the page in a browser, inside a host ---------------------------------------------

HOST_PAGE = """<!DOCTYPE html><html><body>
<iframe id="app" sandbox="allow-scripts" style="width:900px;height:640px;border:0"></iframe>
<script>
// The host's side of MCP Apps: answer ui/initialize, forward tools/call to the MCP
// server (window.mcpCall, a Playwright binding), notify the view.
const frame = document.getElementById("app");
window.hostLog = [];
function toApp(message) { frame.contentWindow.postMessage(message, "*"); }
window.sendToApp = (method, params) => toApp({ jsonrpc: "2.0", method, params });
window.loadApp = (html) => { frame.srcdoc = html; };
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data;
  if (!m || m.jsonrpc !== "2.0") return;
  hostLog.push(m.method || "response");
  if (m.method === "ui/initialize") {
    toApp({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion,
      hostInfo: { name: "test-host", version: "1" }, hostCapabilities: { serverTools: {} },
      hostContext: { theme: "dark", displayMode: "inline", containerDimensions: { width: 900, height: 640 } } } });
  } else if (m.method === "tools/call") {
    const result = await window.mcpCall(m.params.name, m.params.arguments || {});
    toApp(result.error ? { jsonrpc: "2.0", id: m.id, error: result.error } : { jsonrpc: "2.0", id: m.id, result });
  } else if (m.method && m.id !== undefined) {
    toApp({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "not here" } });
  }
});
</script></body></html>"""


class AppsClient:
    """An MCP Apps host's MCP client (stdio) in a thread of its own, so the browser's
    calls and the test's edits go to one server session at the same time."""

    def __init__(self, params: StdioServerParameters):
        self.params = params

    def __enter__(self):
        from anyio.from_thread import start_blocking_portal

        self._portal_cm = start_blocking_portal()
        self.portal = self._portal_cm.__enter__()
        self._client = self.portal.wrap_async_context_manager(Client(self.params, extensions=APPS))
        self.c = self._client.__enter__()
        return self

    def __exit__(self, *exc):
        self._client.__exit__(*exc)
        self._portal_cm.__exit__(*exc)

    def call(self, tool: str, args: dict) -> types.CallToolResult:
        return self.portal.call(self.c.call_tool, tool, args)

    def read(self, uri: str) -> str:
        return self.portal.call(self.c.read_resource, uri).contents[0].text


def _u1_x(frame) -> float:
    return float(frame.locator('#drawing [data-layer="References"] text', has_text=re.compile(r"^U1$"))
                 .get_attribute("x"))


@pytest.mark.xdist_group("web")
def test_the_view_follows_an_mcp_edit_in_a_host(ws, browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1000, "height": 720})
    page = context.new_page()
    requests, console = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: console.append(m.text))
    with AppsClient(stdio(ws)) as host:
        calls: list[dict] = []  # what the view asked the server for, and got

        def mcp_call(name, arguments):
            r = host.call(name, arguments)
            out = r.model_dump(by_alias=True, mode="json", exclude_none=True)
            calls.append({"arguments": arguments, "changed": (r.structured_content or {}).get("changed"),
                          "svg": "svg" in (r.structured_content or {})})
            return out

        page.expose_function("mcpCall", mcp_call)
        page.set_content(HOST_PAGE)
        html = host.read(apps.uri_of(BOARD))
        page.evaluate("html => loadApp(html)",
                      html.replace("<head>", f'<head><meta http-equiv="Content-Security-Policy" content="{DEFAULT_CSP}">', 1))
        frame = page.frame_locator("#app")
        frame.locator('#drawing svg [data-ref="U1"]').first.wait_for(timeout=30_000)
        assert page.evaluate("hostLog.slice(0, 2)") == ["ui/initialize", "ui/notifications/initialized"]
        x0 = _u1_x(frame)
        # an edit through MCP; the host forwards its result to the view, which redraws
        moved = host.call("pcb_move", {"path": BOARD, "reference": "U1", "by": [8, 0]})
        revision = moved.structured_content["revision"]
        start = time.perf_counter()
        page.evaluate("r => sendToApp('ui/notifications/tool-result', r)",
                      moved.model_dump(by_alias=True, mode="json", exclude_none=True))
        frame.locator(f'#drawing[data-revision="{revision}"]').wait_for(timeout=10_000)
        followed = time.perf_counter() - start
        assert _u1_x(frame) == pytest.approx(x0 + 8, abs=1e-3)
        # an edit the host says nothing about: the view's poll (with since) finds it
        undone = host.call("session_undo", {"path": BOARD}).structured_content
        frame.locator(f'#drawing[data-revision="{undone["revision"]}"]').wait_for(
            timeout=apps.POLL_MS * 3)
        assert _u1_x(frame) == pytest.approx(x0, abs=1e-3)
        page.wait_for_timeout(apps.POLL_MS * 1.5)  # one unchanged poll at least (the page runs meanwhile)
    context.close()
    assert calls[0]["svg"] and all(c["arguments"]["path"] == BOARD for c in calls)
    unchanged = [c for c in calls if c["changed"] is False]
    assert unchanged and not any(c["svg"] for c in unchanged)  # an unchanged picture is not resent
    assert [u for u in requests if not u.startswith(("about:", "data:"))] == []  # nothing fetched
    assert not [m for m in console if "Content Security Policy" in m], console
    assert followed < 2.0, f"the view followed the edit after {followed:.2f} s"
