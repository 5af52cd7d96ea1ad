"""One MCP tool call: validate, run the registry command off the event loop, report
progress, honour cancellation, and turn every outcome into a CallToolResult.

The SDK neither validates arguments against the input schema nor turns exceptions
into tool errors, so this module does both (MCP spec 2025-11-25, "Tools / Error
handling": failures of a tool are results with ``isError``; an unknown tool is a
protocol error).
"""

from __future__ import annotations

import base64
import json
import logging
import os
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import anyio.from_thread
import anyio.to_thread
import mcp_types as types
from mcp.shared.exceptions import MCPError

from ...commands import REGISTRY
from ...errors import BoardwireError, Cancelled, Internal
from ...registry import Context
from ...registry.context import CancelToken
from .resources import connection_of
from .tools import command_for

log = logging.getLogger("boardwire.mcp")
HEAVY_KINDS = ("check", "export")
# notifications/message levels, least severe first (MCP spec 2025-11-25, "Logging").
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
LOG_LEVEL_KEY = "boardwire.log_level"  # in the connection's state, set by logging/setLevel


@dataclass
class Backend:
    """What one workspace serves: its session and a bounded pool of slots for heavy
    commands (DRC, renders, fills, fabrication), so one client cannot starve the rest;
    ``max_image``: the largest image sent inline (Streamable HTTP clients refuse an
    event over 1 MiB, the SDK's SSE limit), a bigger one goes to a file."""

    session: object
    slots: anyio.Semaphore = field(default_factory=lambda: anyio.Semaphore(2))
    actor: str = "mcp"
    max_image: int | None = None  # bytes of base64 an image may have inline (None: any)


def _heavy(cmd) -> bool:
    return cmd.long or cmd.kind in HEAVY_KINDS


def _content(out: dict) -> list:
    """A short text summary for clients that ignore structuredContent, followed by
    the result's ``text`` where it has one (what such a client needs in full, e.g.
    design.brief's schema); images as image content, or a resource link for one
    written to a file (`_image_to_file`)."""
    text = str(out.get("summary", "")) or json.dumps(out)[:500]
    if isinstance(out.get("text"), str):
        text = f"{text}\n{out['text']}"
    content: list = [types.TextContent(text=text)]
    image = out.get("image")
    if isinstance(image, dict) and "data" in image:
        content.append(types.ImageContent(data=image["data"], mime_type=image.get("mime_type", "image/png")))
    elif isinstance(image, dict) and "uri" in image:
        content.append(types.ResourceLink(uri=image["uri"], name=image["file"], mime_type=image["mime_type"],
                                          size=image["bytes"]))
    return content


def _image_to_file(out: dict, backend: Backend, tool: str) -> dict:
    """``out`` with an image bigger than ``backend.max_image`` written to a file in
    the workspace (boardwire-renders/) and named by a resource link instead."""
    image = out.get("image")
    if backend.max_image is None or not isinstance(image, dict) or len(image.get("data", "")) <= backend.max_image:
        return out
    root = backend.session.workspace.root
    folder = root / "boardwire-renders"
    folder.mkdir(exist_ok=True)
    data = base64.b64decode(image["data"])
    suffix = ".png" if image.get("mime_type", "image/png") == "image/png" else ".img"
    fd, name = tempfile.mkstemp(dir=folder, prefix=f"{tool}-", suffix=suffix)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    path = Path(name)
    rel = path.relative_to(root).as_posix()
    return {**out, "summary": f"{out.get('summary', '')}; too big to send inline, written to {rel}",
            "output": rel, "image": {"mime_type": image.get("mime_type", "image/png"), "file": rel,
                                     "uri": path.as_uri(), "bytes": len(data)}}


def error_result(e: BoardwireError) -> types.CallToolResult:
    """The SDK's CallToolResult of a failed call (`BoardwireError.tool_result`)."""
    return types.CallToolResult.model_validate(e.tool_result())


def _call_log(tool: str, args, out: dict | None, error: str | None, seconds: float) -> None:
    """BOARDWIRE_MCP_LOG=file.jsonl: one line per tool call."""
    target = os.environ.get("BOARDWIRE_MCP_LOG")
    if not target:
        return
    line = {"time": time.time(), "tool": tool, "arguments": args, "seconds": round(seconds, 4),
            "summary": (out or {}).get("summary"), "error": error}
    try:
        with open(target, "a", encoding="utf-8") as f:
            f.write(json.dumps(line, default=str) + "\n")
    except OSError as e:  # the log must never fail a call
        log.warning("cannot write BOARDWIRE_MCP_LOG %s: %s", target, e)


async def call_tool(ctx, params: types.CallToolRequestParams, backend: Backend) -> types.CallToolResult:
    """Run tool ``params.name``; the protocol context ``ctx`` carries progress and
    cancellation. Raises MCPError (INVALID_PARAMS) only for an unknown tool."""
    try:
        out = await run_tool(ctx, params, backend)
    except BoardwireError as e:
        return error_result(e)
    return tool_result(out, backend, params.name)


async def run_tool(ctx, params: types.CallToolRequestParams, backend: Backend) -> dict:
    """The registry's JSON result of tool ``params.name`` (a long command's job
    handle, `jobs.Running`, when it outlives its ``wait_s``). Raises BoardwireError
    for a failed call (a bug as ``internal``), MCPError (INVALID_PARAMS) for an
    unknown tool; a cancelled request cancels the command."""
    cmd = command_for(params.name)
    if cmd is None:
        raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
    started = time.perf_counter()
    token = CancelToken()
    report = _progress_reporter(ctx, cmd.id) if _heavy(cmd) else None
    context = Context(backend.session, actor=backend.actor, progress_fn=report, cancel=token, tables="table",
                      door="mcp", client=client_name(ctx))
    out = error = None
    try:
        if _heavy(cmd):
            if backend.slots.value == 0 and report is not None:
                await _send_progress(ctx, 0.0, "waiting for a free slot (other heavy commands are running)")
            async with backend.slots:
                out = await _run(cmd.id, params.arguments, context, token)
        else:
            out = await _run(cmd.id, params.arguments, context, token)
    except BoardwireError as e:
        error = e.code
        raise
    except anyio.get_cancelled_exc_class():
        error = Cancelled.code
        raise
    except Exception as e:  # noqa: BLE001 - never let a bug kill the connection
        log.exception("tool %s failed", params.name)
        error = Internal.code
        raise Internal(f"{cmd.id} failed: {type(e).__name__}: {e}") from e
    finally:
        _call_log(params.name, params.arguments, out, error, time.perf_counter() - started)
    return out


def tool_result(out: dict, backend: Backend, tool: str) -> types.CallToolResult:
    """The CallToolResult of a command's JSON result ``out``: a text summary, images
    as content (or a file, `_image_to_file`), the rest as structuredContent."""
    out = _image_to_file(out, backend, tool)
    structured = {k: v for k, v in out.items() if k not in ("image", "text")}
    if "image" in out:
        structured["image"] = {"mime_type": out["image"].get("mime_type"), "in": "content"}
    return types.CallToolResult(content=_content(out), structured_content=structured)


async def _run(command_id: str, args, context: Context, token: CancelToken) -> dict:
    """The registry call in a worker thread. If the client cancels, the command's
    token is set at once (killing any kicad-cli child) and the SDK drops the reply."""
    try:
        return await anyio.to_thread.run_sync(REGISTRY.call, command_id, args, context,
                                              abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        token.cancel()
        raise


def client_name(ctx) -> str:
    """The name the MCP client gave (clientInfo, in the handshake or the request's
    envelope), for the audit log; "" when it gave none."""
    params = getattr(connection_of(ctx.session), "client_params", None)
    info = getattr(params, "client_info", None)
    return str(getattr(info, "name", "") or "")


def set_log_level(session, level: str) -> None:
    """Remember a connection's ``logging/setLevel``."""
    connection_of(session).state[LOG_LEVEL_KEY] = level


async def send_log(ctx, level: str, message: str) -> None:
    """A ``notifications/message`` on the request's stream, handshake era only (on
    2026-07-28 the client opts in per request and the SDK filters), and only at or
    above the level the connection asked for with ``logging/setLevel``."""
    if ctx.protocol_version >= "2026-07-28":
        return
    state = getattr(connection_of(ctx.session), "state", {})
    if LOG_LEVELS.index(level) < LOG_LEVELS.index(state.get(LOG_LEVEL_KEY, "debug")):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        await ctx.session.send_log_message(level, message, logger="boardwire", related_request_id=ctx.request_id)


async def _send_progress(ctx, fraction: float, message: str) -> None:
    await ctx.session.report_progress(fraction, 1.0, message)
    await send_log(ctx, "info", message)  # one log line per stage


def _progress_reporter(ctx, command_id: str):
    """A progress callback for the worker thread: hops to the event loop to send
    ``notifications/progress`` (only when the call carried a progress token)."""
    last = [-1.0]

    def report(fraction: float, message: str) -> None:
        if fraction <= last[0] and not message:
            return
        last[0] = fraction
        try:
            anyio.from_thread.run(_send_progress, ctx, fraction, message or command_id)
        except Exception as e:  # noqa: BLE001 - a lost progress note must not fail the call
            log.debug("progress not sent: %s", e)

    return report
