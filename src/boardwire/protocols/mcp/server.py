"""The MCP server on the official SDK's low-level Server: registry commands as
tools (the default set, families added by --toolset or in-band, see toolsets.py),
open documents as resources, two prompts, and for MCP Apps hosts a view of the
documents (apps.py).

The same Server object serves stdio (one workspace) and Streamable HTTP (one
workspace per key, see http.py); ``backend_for`` picks the workspace of a request.
Only protocol goes to stdout; logs go to stderr.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Callable

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from ... import __version__
from ...errors import BoardwireError, InvalidArgs, InvalidJson, InvalidRequest
from ...registry import Context
from ...registry.context import CancelToken
from ...session import Session
from .. import stopping
from . import apps, completions, prompts, resources, tasks
from .calls import Backend, _run, call_tool, client_name, error_result, set_log_level
from .tools import command_for
from .toolsets import ENABLE_TOOL, Served, family_hint

log = logging.getLogger("boardwire.mcp")


# How long a client may cache tools/list (2026-07-28 `ttlMs`): the list changes only
# by toolset_enable, which also sends notifications/tools/list_changed.
TOOLS_TTL_MS = 600_000


class Workspace(Backend):
    """A backend with its resource notifier and the toolsets it serves.

    ``toolsets``: as for `toolsets.select` (None: the default set). Raises ValueError
    for an unknown toolset."""

    def __init__(self, root, bus, heavy_slots: int = 2, actor: str = "mcp",
                 toolsets: list[str] | None = None, max_image: int | None = None) -> None:
        super().__init__(Session(root), anyio.Semaphore(heavy_slots), actor, max_image)
        self.notifier = resources.Notifier(self.session, bus)
        self.served = Served(toolsets)
        self.tasks = tasks.TaskTable()


_TOOL_MODELS: dict[tuple[str, bool], types.Tool] = {}


def _tool_models(dicts: list[dict]) -> list[types.Tool]:
    """The SDK models of tool dicts, cached by name and whether they carry ``_meta``
    (MCP Apps clients get the viewed tools with it: `apps.with_ui`)."""
    for t in dicts:
        key = (t["name"], "_meta" in t)
        if key not in _TOOL_MODELS:
            _TOOL_MODELS[key] = types.Tool.model_validate(t)
    return [_TOOL_MODELS[(t["name"], "_meta" in t)] for t in dicts]


async def _enable(ws: Workspace, params: types.CallToolRequestParams) -> types.CallToolResult:
    """``toolset_enable``: add a family to the workspace's tools and tell every client."""
    toolset = (params.arguments or {}).get("toolset")
    try:
        if not isinstance(toolset, str):
            raise ValueError("toolset_enable needs {\"toolset\": NAME}")
        added = ws.served.enable(toolset)
    except ValueError as e:
        return error_result(InvalidArgs(str(e), hint="name one of the toolset enum's values"))
    if added:
        await ws.notifier.tools_changed()
    summary = (f"{len(added)} tools added from {toolset}: {', '.join(added)}" if added
               else f"every {toolset} tool is already served")
    return types.CallToolResult(content=[types.TextContent(text=summary)],
                                structured_content={"summary": summary, "added": added})


def build_server(backend_for: Callable[[object], Workspace], toolsets: list[str] | None = None,
                 bus=None) -> Server:
    """A Server whose handlers find their workspace with ``backend_for(ctx)``.

    ``toolsets``: checked here (each Workspace serves its own, starting from the same);
    raises ValueError for an unknown toolset."""
    all_tools = {t["name"]: t for t in Served(["all"]).tools}
    Served(toolsets)  # raises for an unknown toolset
    bus = bus or InMemorySubscriptionBus()

    async def on_list_tools(ctx, params):
        ws = backend_for(ctx)
        ws.notifier.seen(ctx.session)
        served = ws.served.tools
        if apps.supported(ctx):
            served = apps.with_ui(served, command_for)
        return types.ListToolsResult(tools=_tool_models(served), ttl_ms=TOOLS_TTL_MS)

    async def on_call_tool(ctx, params: types.CallToolRequestParams):
        ws = backend_for(ctx)
        ws.notifier.seen(ctx.session)
        if params.name == apps.VIEW_TOOL and apps.supported(ctx):
            return await apps.call(ctx, params, ws)
        if params.name not in ws.served.names:
            family = family_hint(params.name)
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}" + (
                f" (it is in the {family} toolset: call {ENABLE_TOOL} with toolset {family!r} first)"
                if family else ""))
        try:
            if params.name == ENABLE_TOOL:
                return await _enable(ws, params)
            if tasks.wanted(ctx, params.name):
                return await tasks.call_as_task(ctx, params, ws)
            return await call_tool(ctx, params, ws)
        finally:
            await ws.notifier.flush()

    async def on_list_resources(ctx, params):
        ws = backend_for(ctx)
        ws.notifier.seen(ctx.session)
        listed = resources.list_resources(ws.session)
        return types.ListResourcesResult(resources=listed + (apps.list_resources() if apps.supported(ctx) else []))

    async def on_list_templates(ctx, params):
        return types.ListResourceTemplatesResult(
            resource_templates=resources.templates() + (apps.templates() if apps.supported(ctx) else []))

    async def on_read_resource(ctx, params: types.ReadResourceRequestParams):
        ws = backend_for(ctx)
        if apps.ours(params.uri):
            try:
                return apps.read(ws.session, params.uri)
            finally:
                await ws.notifier.flush()
        cid, args, mime, u = resources.command_for(ws.session, params.uri)
        token = CancelToken()
        try:
            out = await _run(cid, args, Context(ws.session, actor=ws.actor, cancel=token, door="mcp",
                                                client=client_name(ctx)), token)
        except BoardwireError as e:  # resources have no isError: a JSON-RPC error with our code
            raise resources.error(e) from None
        finally:
            await ws.notifier.flush()
        return resources.contents(u, mime, out)

    async def on_subscribe(ctx, params: types.SubscribeRequestParams):
        backend_for(ctx).notifier.subscribe(ctx.session, str(params.uri))
        return types.EmptyResult()

    async def on_unsubscribe(ctx, params: types.UnsubscribeRequestParams):
        backend_for(ctx).notifier.unsubscribe(ctx.session, str(params.uri))
        return types.EmptyResult()

    async def on_list_prompts(ctx, params):
        return types.ListPromptsResult(prompts=prompts.list_prompts())

    async def on_get_prompt(ctx, params: types.GetPromptRequestParams):
        try:
            return prompts.get_prompt(params.name, params.arguments)
        except KeyError:
            raise MCPError(types.INVALID_PARAMS, f"Unknown prompt: {params.name}") from None
        except ValueError as e:
            raise MCPError(types.INVALID_PARAMS, str(e)) from None

    async def on_completion(ctx, params: types.CompleteRequestParams):
        ws = backend_for(ctx)
        return types.CompleteResult(completion=completions.complete(ws.session, params.ref, params.argument))

    async def on_set_log_level(ctx, params: types.SetLevelRequestParams):
        set_log_level(ctx.session, params.level)
        return types.EmptyResult()

    handlers = dict(
        get_tool_input_schema=lambda name: (all_tools.get(name) or {}).get("inputSchema"),
        on_list_tools=on_list_tools, on_call_tool=on_call_tool,
        on_list_resources=on_list_resources, on_list_resource_templates=on_list_templates,
        on_read_resource=on_read_resource, on_subscribe_resource=on_subscribe,
        on_unsubscribe_resource=on_unsubscribe, on_subscriptions_listen=tasks.listen_handler(bus, backend_for),
        on_list_prompts=on_list_prompts, on_get_prompt=on_get_prompt, on_completion=on_completion,
    )
    server = Server("boardwire", version=__version__, title="boardwire (KiCad 9)",
                    instructions=prompts.INSTRUCTIONS, **handlers)
    # Progress stages go out as log messages on handshake-era connections, and a server
    # that sends them must declare `logging` and take logging/setLevel (spec
    # 2025-11-25, "Logging"). Registered after construction: the constructor argument
    # warns that 2026-07-28 drops logging, which the SDK already handles per version.
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, on_set_log_level)
    tasks.add_handlers(server, backend_for)  # the Tasks extension (tasks.py)
    server.extensions[apps.EXTENSION_ID] = apps.SETTINGS  # MCP Apps (apps.py)
    server.middleware.append(explain_invalid_params)
    return server


async def explain_invalid_params(ctx, call_next):
    """Server middleware: a request whose params do not fit the method's schema (a
    tools/call without a name, arguments that are not an object) gets INVALID_PARAMS
    saying which field is wrong and why, instead of the SDK's bare "Invalid request
    parameters"; the dispatcher keeps the request's id."""
    try:
        return await call_next(ctx)
    except ValidationError as e:
        errors = [{"loc": ".".join(str(p) for p in err["loc"]) or "(params)", "msg": err["msg"]}
                  for err in e.errors()]
        first = errors[0] if errors else {"loc": "(params)", "msg": "invalid"}
        raise MCPError(types.INVALID_PARAMS, f"{ctx.method}: {first['loc']}: {first['msg']}"
                       + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""),
                       {"errors": errors[:20]}) from None


def notification_options():
    from mcp.server.lowlevel.server import NotificationOptions

    return NotificationOptions(resources_changed=True, tools_changed=True)


def _line_error(exc: Exception):
    """The JSON-RPC 2.0 error answering a stdin line the SDK could not read (id null,
    as the JSON-RPC spec section 5 asks when the id cannot be known): `InvalidJson`
    (-32700) for text that is not JSON, `InvalidRequest` (-32600) for JSON that is not
    a JSON-RPC message, their stable code and hint in ``data``."""
    from mcp.shared.message import SessionMessage

    not_json = any(e.get("type") == "json_invalid" for e in getattr(exc, "errors", lambda: [])())
    e = InvalidJson("Parse error: the line is not JSON") if not_json else \
        InvalidRequest("Invalid Request: the line is not a JSON-RPC 2.0 message")
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=None, error=types.ErrorData(**e.rpc_error())))


async def _answer_bad_lines(read, write, forward) -> None:
    """Pass the transport's messages on; answer the lines it could not read. The SDK
    only logs those, so a client that sent one would wait for a reply forever."""
    async with forward:
        async for item in read:
            if isinstance(item, Exception):
                await write.send(_line_error(item))
            else:
                await forward.send(item)


async def serve_stdio(root: str, toolsets: list[str] | None = None, attach=None) -> None:
    """Serve MCP on stdin/stdout until the client closes stdin. ``attach``: called
    with the session before serving (``--attach``: the board open in KiCad)."""
    from mcp.server.stdio import stdio_server
    from mcp.shared.memory import create_context_streams
    from mcp.shared.message import SessionMessage

    bus = InMemorySubscriptionBus()
    ws = Workspace(root, bus, toolsets=toolsets)
    if attach is not None:
        attach(ws.session)
    server = build_server(lambda ctx: ws, toolsets, bus)
    async with stdio_server() as (read, write):
        forward, messages = create_context_streams[SessionMessage | Exception](0)
        async with anyio.create_task_group() as tg:
            if threading.current_thread() is threading.main_thread():
                stopping.install(ws.session, tg.cancel_scope.cancel, "boardwire mcp", asyncio.get_running_loop())
            tg.start_soon(_answer_bad_lines, read, write, forward)
            await server.run(messages, write, server.create_initialization_options(notification_options()))
