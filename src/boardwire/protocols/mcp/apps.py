"""The MCP Apps extension (``io.modelcontextprotocol/ui``, SEP-1865, stable
2026-01-26): a view of the open board or schematic that a host renders in a sandboxed
iframe beside the conversation.

* Resources: ``ui://boardwire/view/{path}`` (a template: the document at the
  percent-encoded workspace path) and ``ui://boardwire/view`` (the document the tool
  call that opened it names: its ``path``, ``board`` or ``schematic`` argument, else the
  first open board). Both are one self-contained HTML page (``app.html``: inline script
  and style, nothing fetched), ``text/html;profile=mcp-app``, declaring no CSP domains,
  so the host applies the extension's restrictive default CSP.
* Tools: for a client that declares the extension (``capabilities.extensions``
  with the profile in ``mimeTypes``), the tools that change a document (kind ``edit``,
  undo/redo/batch, design.build) carry ``_meta.ui.resourceUri`` = ``ui://boardwire/view``,
  and ``view_svg`` (``_meta.ui.visibility: ["app"]``: hosts keep it from the model) is
  served: the page's only source of pictures, called through the host (``tools/call``
  over postMessage). Other clients see the tools, resources and templates unchanged.
* The page: ``ui/initialize``, ``ui/notifications/initialized``, then ``view_svg``;
  again on every ``ui/notifications/tool-result`` the host forwards, and every few
  seconds with ``since`` (the revision shown), so an unchanged picture is not resent.

Boards are drawn by the live view's renderer (`web.board_svg`), which this layer cannot
import: `web.drawing.install_app_drawer` puts it in `DRAWERS` (the ``boardwire mcp``
command and the HTTP server do). Without it a board is KiCad's plot (render.svg), as a
schematic always is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from importlib import resources as package_files
from urllib.parse import quote, unquote

import anyio
import mcp_types as types
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID, client_supports_apps
from mcp.shared.exceptions import MCPError

from ...commands import REGISTRY
from ...errors import BoardwireError, InvalidArgs, NoDocument
from ...registry import Context
from .calls import Backend, error_result

VIEW_URI = "ui://boardwire/view"
TEMPLATE = VIEW_URI + "/{path}"
VIEW_TOOL = "view_svg"
PROTOCOL_VERSION = "2026-01-26"  # the extension's stable revision the page speaks
POLL_MS = 3000  # how often the page asks whether the document changed
SETTINGS = {"mimeTypes": [APP_MIME_TYPE]}  # capabilities.extensions[EXTENSION_ID]
# Commands besides kind "edit" whose calls change what the view shows.
ALSO_VIEWED = ("session.undo", "session.redo", "session.revert", "session.batch", "design.build")
KINDS = ("board", "schematic")

# kind -> draw(session, path, side) -> (svg, revision, workspace path); see the module text.
DRAWERS: dict[str, Callable] = {}

VIEW_TOOL_DICT = {
    "name": VIEW_TOOL,
    "description": "The app view's picture of an open board or schematic (SVG) and its revision; "
                   "for the ui://boardwire/view page, not the model.",
    "inputSchema": {"type": "object", "properties": {
        "path": {"type": "string", "description": "the document; default: the first open board, else schematic"},
        "side": {"type": "string", "enum": ["front", "back"], "description": "a board's side (default front)"},
        "page": {"type": "string", "description": "a schematic sheet's page number (default the root)"},
        "since": {"type": "integer", "description": "the revision shown: unchanged, no svg is sent"}}},
    "outputSchema": {"type": "object", "properties": {
        "summary": {"type": "string"}, "path": {"type": "string"}, "kind": {"type": "string"},
        "revision": {"type": "integer"}, "changed": {"type": "boolean"}, "svg": {"type": "string"}}},
    "annotations": {"readOnlyHint": True},
    "_meta": {"ui": {"resourceUri": VIEW_URI, "visibility": ["app"]}},
}


def supported(ctx) -> bool:
    """Whether the request's client declared the extension with our MIME type."""
    try:
        return client_supports_apps(ctx)
    except AttributeError:  # no session (a test's bare context)
        return False


def viewed(cmd) -> bool:
    """Whether the command's calls change the document the view shows."""
    return cmd.kind == "edit" or cmd.id in ALSO_VIEWED


_WITH_UI: dict[str, dict] = {}


def with_ui(tools: list[dict], command_of: Callable[[str], object]) -> list[dict]:
    """``tools`` as an apps client gets them: the viewed ones with ``_meta.ui``
    pointing at the view, then `VIEW_TOOL_DICT`. ``command_of``: tool name -> command
    (None for a tool that is no command). Cached by name: treat the dicts as read-only."""
    out = []
    for t in tools:
        cmd = command_of(t["name"])
        if cmd is None or not viewed(cmd):
            out.append(t)
            continue
        if t["name"] not in _WITH_UI:
            _WITH_UI[t["name"]] = {**t, "_meta": {"ui": {"resourceUri": VIEW_URI}}}
        out.append(_WITH_UI[t["name"]])
    return out + [VIEW_TOOL_DICT]


def templates() -> list[types.ResourceTemplate]:
    return [types.ResourceTemplate(
        uri_template=TEMPLATE, name="view", title="boardwire view", mime_type=APP_MIME_TYPE,
        description="MCP Apps view (HTML) of the board or schematic at path (percent-encoded), "
                    "redrawn as it changes")]


def list_resources() -> list[types.Resource]:
    return [types.Resource(
        uri=VIEW_URI, name="view", title="boardwire view", mime_type=APP_MIME_TYPE,
        description="MCP Apps view (HTML) of the document the calling tool names, redrawn as it changes")]


def ours(u: str) -> bool:
    return str(u) == VIEW_URI or str(u).startswith(VIEW_URI + "/")


def page(path: str | None, kind: str | None) -> str:
    """The view's HTML: ``app.html`` with its settings (the document, the tool, the
    poll interval) as JSON in the page, ``</`` escaped so no text closes the script."""
    config = {"path": path, "kind": kind, "tool": VIEW_TOOL, "poll_ms": POLL_MS,
              "protocol_version": PROTOCOL_VERSION}
    text = json.dumps(config).replace("</", "<\\/")
    html = package_files.files(__package__).joinpath("app.html").read_text(encoding="utf-8")
    return html.replace("/*CONFIG*/null", text, 1)


def read(session, u: str) -> types.ReadResourceResult:
    """The view's page for resource ``u``. MCPError: -32002 when the document does not
    exist, INVALID_PARAMS when it is not a board or schematic or cannot be opened."""
    from .resources import error  # resources.py: the shared resource error form

    rest = str(u)[len(VIEW_URI):].lstrip("/")
    path = kind = None
    if rest:
        try:
            od = session.open(unquote(rest), "mcp")
        except BoardwireError as e:
            raise error(e, types.INVALID_PARAMS) from None
        if od.kind not in KINDS:
            raise MCPError(types.INVALID_PARAMS, f"the view shows a board or a schematic, not a {od.kind}")
        path, kind = od.path, od.kind
    meta = {"ui": {"prefersBorder": True}}
    return types.ReadResourceResult(contents=[types.TextResourceContents.model_validate(
        {"uri": str(u), "mimeType": APP_MIME_TYPE, "text": page(path, kind), "_meta": meta})])


def uri_of(path: str) -> str:
    """The view's resource URI for a workspace path."""
    return f"{VIEW_URI}/{quote(path, safe='')}"


def _default_path(session) -> str:
    docs = list(session.documents.values())
    for kind in KINDS:
        for od in docs:
            if od.kind == kind:
                return od.path
    raise NoDocument("no board or schematic is open to view", hint="Open one (session.open) or pass path.")


def _picture(session, args: dict, actor: str) -> dict:
    """``view_svg``'s result (see `VIEW_TOOL_DICT`); runs in a worker thread."""
    unknown = set(args) - set(VIEW_TOOL_DICT["inputSchema"]["properties"])
    side, since, sheet = args.get("side") or "front", args.get("since"), args.get("page")
    if unknown or side not in ("front", "back") or not (since is None or isinstance(since, int)):
        raise InvalidArgs(f"view_svg takes path, side (front or back), page and since (an integer); "
                          f"got {sorted(args)}")
    od = session.get(args.get("path") or _default_path(session), KINDS, actor)
    if since is not None and since == od.revision:
        return {"summary": f"{od.path} unchanged at revision {od.revision}", "path": od.path,
                "kind": od.kind, "revision": od.revision, "changed": False}
    drawer = DRAWERS.get(od.kind)
    if drawer is not None:
        svg, revision, path = drawer(session, od.path, side)
    else:
        render = {"path": od.path, **({"page": sheet} if sheet and od.kind == "schematic" else {})}
        revision = od.revision
        svg = REGISTRY.call("render.svg", render, Context(session, actor=actor))["svg"]
        svg, path = re.sub(r"<\?xml[^>]*>\s*", "", svg, count=1), od.path
    return {"summary": f"{path} at revision {revision}, {len(svg)} bytes of SVG", "path": path,
            "kind": od.kind, "revision": revision, "changed": True, "svg": svg}


async def call(ctx, params: types.CallToolRequestParams, backend: Backend) -> types.CallToolResult:
    """``view_svg`` for the page: the picture and revision of the document, or only
    the revision when it is still ``since``. A failure is a tool error result."""
    actor = backend.actor
    try:
        async with backend.slots:  # the drawing runs the built-in DRC, or KiCad's plotter
            out = await anyio.to_thread.run_sync(_picture, backend.session, dict(params.arguments or {}), actor)
    except BoardwireError as e:
        return error_result(e)
    text = types.TextContent(text=out["summary"])
    return types.CallToolResult(content=[text], structured_content=out)


__all__ = ["APP_MIME_TYPE", "DRAWERS", "EXTENSION_ID", "SETTINGS", "TEMPLATE", "VIEW_TOOL", "VIEW_URI",
           "call", "list_resources", "ours", "page", "read", "supported", "templates", "uri_of", "with_ui"]
