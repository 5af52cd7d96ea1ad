"""MCP Tasks: a long tool call answered with a task the client polls (the Tasks
extension ``io.modelcontextprotocol/tasks`` of MCP 2026-07-28, SEP-2663; spec
https://modelcontextprotocol.github.io/ext-tasks/specification/2026-07-28/tasks.html).

The SDK (mcp 2.3) does not implement the extension, so this module speaks it on the
wire: plain dicts in the extension's field names. A task is a boardwire job
(`boardwire.jobs`): a long command (``Command.long``) called by a client that puts
the extension in the request's ``_meta`` client capabilities runs with ``wait_s`` 0
(unless the call gives one) and the `jobs.Running` handle it answers becomes a task
(``resultType: "task"``). ``tasks/get`` reads the job (state, progress, the final
CallToolResult once done), ``tasks/cancel`` cancels it as ``job.cancel`` does (its
child processes are killed), ``tasks/update`` is acknowledged (no boardwire command
asks for input), and ``subscriptions/listen`` naming ``taskIds`` streams
``notifications/tasks`` at each status change. Clients that do not declare the
extension get today's answers.

Task ids are `secrets.token_urlsafe` strings, kept in the workspace (one per HTTP
key) and bound to the caller (`owner_of`): another caller's id answers as a made-up
one does, INVALID_PARAMS "Task not found".
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.subscriptions import ListenHandler
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import (
    SUBSCRIPTION_ID_META_KEY,
    event_matches,
    event_to_notification,
)
from pydantic import BaseModel, Field

from ...errors import BoardwireError, Internal, MissingCapability, NotFound
from ...jobs import Job, Running, jobs_of
from ...registry import Context
from ...registry.context import CancelToken
from .calls import Backend, _run, client_name, error_result, run_tool, tool_result
from .keys import SCOPE_KEY
from .tools import command_for

EXTENSION = "io.modelcontextprotocol/tasks"
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"  # the request's _meta key
MODERN = "2026-07-28"  # per-request capabilities exist from this revision on
POLL_INTERVAL_MS = 1000  # what a client is asked to wait between two tasks/get
TTL_MS = 3_600_000  # an ended task is kept this long after its creation (a running one until it ends)
KEEP = 256  # tasks kept per workspace at most (the oldest ended ones go first)
CANCEL_WAIT_S = 10.0  # how long tasks/cancel waits for the job to stop (as job.cancel does)
WATCH_INTERVAL_S = 0.2  # how often a subscriptions/listen stream looks at its tasks
TERMINAL = ("completed", "failed", "cancelled")
PROGRESS_META = "boardwire/job"  # _meta of a task: the job's id, progress and last lines


class TaskParams(types.RequestParams):
    """``tasks/get`` and ``tasks/cancel`` params: ``taskId``."""

    task_id: str


class UpdateTaskParams(TaskParams):
    """``tasks/update`` params: ``taskId`` and ``inputResponses`` (ignored: no task asks for input)."""

    input_responses: dict = Field(default_factory=dict)


def declares(ctx) -> bool:
    """Whether the request's ``_meta`` client capabilities name the extension
    (2026-07-28 requests only: the handshake era has no per-request capabilities)."""
    if (ctx.protocol_version or "") < MODERN:
        return False
    meta = (ctx.params or {}).get("_meta")
    caps = meta.get(CLIENT_CAPABILITIES) if isinstance(meta, dict) else None
    extensions = caps.get("extensions") if isinstance(caps, dict) else None
    return isinstance(extensions, dict) and EXTENSION in extensions


def require(ctx) -> None:
    """Raise the extension's Missing Required Client Capability error (-32021)
    unless the request declares the extension."""
    if not declares(ctx):
        raise MCPError(MissingCapability.rpc_code, "Missing required client capability",
                       {"requiredCapabilities": {"extensions": {EXTENSION: {}}}})


def owner_of(ctx) -> str:
    """Who a task belongs to: over HTTP the bearer key (and the MCP session id, on a
    connection that has one); over stdio the one client of the process."""
    request = ctx.request
    if request is None:
        return "stdio"
    state = getattr(request, "scope", {}).get("state", {})
    key = state.get(SCOPE_KEY, ("local", None))[0]
    session = request.headers.get("mcp-session-id") if hasattr(request, "headers") else None
    return f"key:{key}" + (f"/session:{session}" if session else "")


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Task:
    """One tool call's task: its id, owner, job and tool; ``final``: the wire answer
    of the ended call, made once (an image written to a file is written once)."""

    id: str
    owner: str
    job: Job
    tool: str
    created: float = field(default_factory=time.time)
    final: dict | None = None

    def wire(self, backend: Backend) -> dict:
        """The task as the extension's DetailedTask: taskId, status (working,
        completed, cancelled, failed), statusMessage, createdAt, lastUpdatedAt,
        ttlMs, pollIntervalMs, and the result (completed) or error (failed)."""
        job = self.job
        out = {"taskId": self.id, "createdAt": _iso(self.created), "lastUpdatedAt": _iso(max(job.updated, self.created)),
               "ttlMs": TTL_MS, "pollIntervalMs": POLL_INTERVAL_MS}
        state = job.state
        progress = 1.0 if state == "done" else round(job.progress, 4)
        out["_meta"] = {PROGRESS_META: {"job": job.id, "progress": progress, "tail": list(job.tail)}}
        if state == "running":
            last = f": {job.tail[-1]}" if job.tail else ""
            return {**out, "status": "working", "statusMessage": f"{job.command} running, {progress:.0%}{last}"}
        result, error = job.outcome
        if state == "cancelled":
            why = error.message if isinstance(error, BoardwireError) else f"{job.command} was cancelled"
            return {**out, "status": "cancelled", "statusMessage": why}
        if self.final is None:
            self.final = _final(result, error, backend, self.tool)
        if "error" in self.final:
            return {**out, "status": "failed", "statusMessage": self.final["error"]["message"], **self.final}
        summary = (self.final["result"].get("structuredContent") or {}).get("summary")
        return {**out, "status": "completed", **({"statusMessage": summary} if summary else {}), **self.final}


def _final(result, error, backend: Backend, tool: str) -> dict:
    """``{"result": CallToolResult}`` as the direct call would have answered (a
    command's error is a result with isError, like the call's), or ``{"error":
    JSON-RPC error}`` if the answer could not be made."""
    try:
        if isinstance(error, BoardwireError):
            r = error_result(error)
        elif error is not None:
            r = error_result(Internal(f"{tool} failed: {type(error).__name__}: {error}"))
        else:
            r = tool_result(result, backend, tool)
    except Exception as e:  # noqa: BLE001 - a failed task, not a dead connection
        return {"error": {"code": types.INTERNAL_ERROR, "message": f"{tool}: {type(e).__name__}: {e}"}}
    return {"result": {**r.model_dump(by_alias=True, exclude_none=True, mode="json"), "resultType": "complete"}}


class TaskTable:
    """The tasks of one workspace, by id. Ended tasks go `TTL_MS` after their
    creation; past `KEEP` tasks, the oldest ended ones go."""

    def __init__(self) -> None:
        self._tasks: OrderedDict[str, Task] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, owner: str, job: Job, tool: str) -> Task:
        task = Task(secrets.token_urlsafe(32), owner, job, tool)
        with self._lock:
            self._tasks[task.id] = task
            self._prune()
        return task

    def _prune(self) -> None:
        now = time.time()
        ended = [t for t in self._tasks.values() if t.job.state != "running"]
        for t in ended:
            if now - t.created > TTL_MS / 1000:
                del self._tasks[t.id]
        for t in ended:
            if len(self._tasks) <= KEEP:
                break
            self._tasks.pop(t.id, None)

    def find(self, task_id: str, owner: str) -> Task:
        """The task ``task_id`` of ``owner``; raises INVALID_PARAMS "Task not found"
        when there is none, or it is another caller's (the same answer)."""
        task = self.lookup(task_id, owner)
        if task is None:
            raise MCPError(types.INVALID_PARAMS, "Failed to retrieve task: Task not found")
        return task

    def lookup(self, task_id: str, owner: str) -> Task | None:
        """The task ``task_id`` of ``owner``, or None."""
        with self._lock:
            self._prune()
            task = self._tasks.get(task_id) if isinstance(task_id, str) else None
        return task if task is not None and secrets.compare_digest(task.owner, owner) else None


def wanted(ctx, tool: str) -> bool:
    """Whether a tools/call of ``tool`` may be answered with a task: a long command
    called by a client that declares the extension."""
    cmd = command_for(tool)
    return cmd is not None and cmd.long and declares(ctx)


async def call_as_task(ctx, params: types.CallToolRequestParams, backend) -> types.CallToolResult | dict:
    """Start tool ``params.name`` as a task: its CreateTaskResult (``resultType:
    "task"``), or the plain CallToolResult when the call ended within its ``wait_s``
    (0 unless given) or failed before starting. ``backend``: a workspace with ``tasks``."""
    args = dict(params.arguments or {})
    args.setdefault("wait_s", 0)
    try:
        out = await run_tool(ctx, params.model_copy(update={"arguments": args}), backend)
    except BoardwireError as e:
        return error_result(e)
    if not Running.is_handle(out):
        return tool_result(out, backend, params.name)
    task = backend.tasks.add(owner_of(ctx), jobs_of(backend.session).get(out["job"]), params.name)
    return {"resultType": "task", **task.wire(backend)}


class TaskNotification(BaseModel):
    """``notifications/tasks``: a DetailedTask, as ``tasks/get`` would answer it."""

    method: str = "notifications/tasks"
    params: dict


def listen_handler(bus, backend_for):
    """The ``subscriptions/listen`` handler: the SDK's (`ListenHandler`) for the
    core kinds; a request naming ``notifications.taskIds`` gets a stream of its own
    that sends the core kinds it asked for too (the SDK's handler cannot be told of
    task events), see `_listen`."""
    core = ListenHandler(bus)

    async def on_listen(ctx, params: types.SubscriptionsListenRequestParams):
        ids = (params.notifications.model_extra or {}).get("taskIds")
        if ids is None:
            return await core(ctx, params)
        require(ctx)
        if not isinstance(ids, list):
            raise MCPError(types.INVALID_PARAMS, "subscriptions/listen: notifications.taskIds must be a list")
        return await _listen(ctx, params.notifications, ids, bus, backend_for(ctx))

    return on_listen


async def _listen(ctx, wanted: types.SubscriptionFilter, ids: list, bus, backend) -> types.SubscriptionsListenResult:
    """One listen stream with tasks: the acknowledgement names the caller's tasks
    among ``ids`` (others are left out, as unknown ones); then ``notifications/tasks``
    with each task's state at once and at every status change, and the core events
    asked for. It ends when its tasks have ended and no core kind was asked for."""
    sid = ctx.request_id
    meta = {SUBSCRIPTION_ID_META_KEY: sid}
    owner = owner_of(ctx)
    watched = {i: t for i in dict.fromkeys(ids) if (t := backend.tasks.lookup(i, owner)) is not None}
    honored = types.SubscriptionFilter(
        tools_list_changed=True if wanted.tools_list_changed else None,
        prompts_list_changed=True if wanted.prompts_list_changed else None,
        resources_list_changed=True if wanted.resources_list_changed else None,
        resource_subscriptions=list(wanted.resource_subscriptions) if wanted.resource_subscriptions else None,
        taskIds=list(watched))
    uris = frozenset(honored.resource_subscriptions or ())
    core = any((honored.tools_list_changed, honored.prompts_list_changed, honored.resources_list_changed, uris))
    send, recv = anyio.create_memory_object_stream(1024)

    def deliver(event) -> None:
        if event_matches(honored, uris, event):
            try:
                send.send_nowait(event)
            except (anyio.WouldBlock, anyio.ClosedResourceError):
                pass

    unsubscribe = bus.subscribe(deliver)
    try:
        await ctx.session.send_notification(types.SubscriptionsAcknowledgedNotification(
            params=types.SubscriptionsAcknowledgedNotificationParams(notifications=honored, _meta=meta)),
            related_request_id=sid)
        said: dict[str, str] = {}
        while True:
            for task_id, task in list(watched.items()):
                state = task.wire(backend)
                if said.get(task_id) != state["status"]:
                    said[task_id] = state["status"]
                    params = {**state, "_meta": {**state["_meta"], **meta}}
                    await ctx.session.send_notification(TaskNotification(params=params), related_request_id=sid)
                if state["status"] in TERMINAL:
                    del watched[task_id]
            if not (watched or core):
                break
            with anyio.move_on_after(WATCH_INTERVAL_S if watched else None):
                event = await recv.receive()
                await ctx.session.send_notification(event_to_notification(event, meta), related_request_id=sid)
    finally:
        unsubscribe()
        send.close()
        recv.close()
    return types.SubscriptionsListenResult(_meta=meta)


def add_handlers(server, backend_for) -> None:
    """Serve ``tasks/get``, ``tasks/update`` and ``tasks/cancel`` on ``server`` and
    declare the extension in its capabilities (server/discover)."""

    async def on_get(ctx, params: TaskParams) -> dict:
        require(ctx)
        ws = backend_for(ctx)
        return ws.tasks.find(params.task_id, owner_of(ctx)).wire(ws)

    async def on_update(ctx, params: UpdateTaskParams) -> dict:
        require(ctx)
        backend_for(ctx).tasks.find(params.task_id, owner_of(ctx))
        return {}

    async def on_cancel(ctx, params: TaskParams) -> dict:
        """Cancel through the registry's ``job.cancel`` (policy-checked, audited); a
        job the job table no longer keeps (the newest 64) is cancelled directly."""
        require(ctx)
        ws = backend_for(ctx)
        task = ws.tasks.find(params.task_id, owner_of(ctx))
        if task.job.state != "running":
            return {}
        token = CancelToken()
        context = Context(ws.session, actor=ws.actor, cancel=token, door="mcp", client=client_name(ctx))
        try:
            await _run("job.cancel", {"job": task.job.id}, context, token)
        except NotFound:
            await anyio.to_thread.run_sync(task.job.cancel, CANCEL_WAIT_S)
        except BoardwireError as e:  # policy-denied, say: a JSON-RPC error with our code
            raise MCPError(**e.rpc_error()) from None
        return {}

    server.add_request_handler("tasks/get", TaskParams, on_get)
    server.add_request_handler("tasks/update", UpdateTaskParams, on_update)
    server.add_request_handler("tasks/cancel", TaskParams, on_cancel)
    server.extensions[EXTENSION] = {}


__all__ = ["EXTENSION", "TaskTable", "add_handlers", "call_as_task", "declares", "wanted"]
