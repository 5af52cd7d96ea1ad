"""The JSON-RPC 2.0 server core: one session, many connections, one FIFO of calls.

A thin adapter over the registry: every command id is a method, its arguments are the
params object, its result the result, its stable error code the error (codes.py).
Nothing about a command is written here.

* Requests (JSON-RPC 2.0 section 4) and notifications (4.1, no ``id``: run, never
  answered); params by name only (4.2: an array is invalid params); batches (section
  6): every element answered on its own in one array, an empty array is one invalid
  request, a batch of notifications gets no reply at all.
* Calls from every connection go through one queue, run one at a time in a worker
  thread, in arrival order; the event loop keeps reading meanwhile, so ``$/cancel``
  (LSP ``$/cancelRequest``) reaches a queued call (answered -32800 without running) or
  a running one (its CancelToken is set).
* Notifications from the server: ``document.changed`` (every session event),
  ``agent.chatEvent`` (the live view's chat box, `session.chat`) and ``session.log``
  to every client, ``command.progress`` to the caller only.
* A client that goes away does not take its calls with it: what it sent still runs
  and lands in the session; only the replies are dropped.
"""

from __future__ import annotations

import asyncio
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from ... import __version__
from ...commands import REGISTRY
from ...errors import (
    BoardwireError,
    Cancelled,
    FileChangedOnDisk,
    Internal,
    InvalidArgs,
    InvalidJson,
    InvalidRequest,
    IOFailure,
    ReadOnlyFile,
)
from ...registry import Context, Registry
from ...session.chat import chat_box
from .discover import discover
from .framing import MAX_FRAME, FrameError, FrameReader, encode

NOTIFY = object()  # the id of a call that has none (a notification)
EARLY_LIMIT = 1000  # messages kept for a client that has not spoken yet (its framing is unknown)
LOGGED = {c.code for c in (Internal, IOFailure, ReadOnlyFile, FileChangedOnDisk)}  # failures every client hears of


class Transport(Protocol):
    async def read(self) -> bytes: ...  # b"" at end of input
    async def write(self, data: bytes) -> None: ...
    async def close(self) -> None: ...


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _loads(frame: bytes) -> Any:
    return json.loads(frame.decode("utf-8"), parse_constant=_no_constant)


def _ok(id: Any, result: bytes) -> bytes:
    return b'{"jsonrpc":"2.0","id":' + _dumps(id) + b',"result":' + result + b"}"


def _err(id: Any, error: dict) -> bytes:
    return _dumps({"jsonrpc": "2.0", "id": id, "error": error})


def _valid_id(id: Any) -> bool:
    return id is None or isinstance(id, str) or (isinstance(id, (int, float)) and not isinstance(id, bool))


def _key(id: Any) -> str:
    return json.dumps(id)


@dataclass(eq=False)
class Call:
    conn: Connection
    id: Any  # NOTIFY for a notification
    method: str
    params: dict
    ctx: Context
    future: asyncio.Future
    running: bool = False

    def reply(self, body: bytes | None) -> None:
        if not self.future.done():
            self.future.set_result(None if self.id is NOTIFY else body)


class Connection:
    """One client: its framing (fixed by its first byte), actor name, calls in flight
    and an output queue drained by one writer task (so frames never interleave)."""

    def __init__(self, server: Server, transport: Transport, actor: str, client: str | None = None,
                 fixed: bool = False):
        self.server = server
        self.transport = transport
        self.actor = actor
        self.client = client or actor  # the name the client gave (the audit log's client)
        self.fixed = fixed  # the actor was set by the door (a key): rpc.hello renames only the client
        self.frames = FrameReader(server.max_frame, getattr(transport, "framing", None))
        self.calls: dict[str, list[Call]] = {}
        self.closed = False
        self._out: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._early: list[bytes] = []
        self._pending: set[asyncio.Task] = set()

    def send(self, body: bytes) -> None:
        """Queue one JSON message (already encoded) in the client's framing."""
        if self.closed:
            return
        if self.frames.mode is None:
            if len(self._early) < EARLY_LIMIT:
                self._early.append(body)
            return
        self._out.put_nowait(encode(body, self.frames.mode))

    def notify(self, method: str, params: dict) -> None:
        self.send(_dumps({"jsonrpc": "2.0", "method": method, "params": params}))

    def forget(self, call: Call) -> None:
        if call.id is NOTIFY:
            return
        calls = self.calls.get(_key(call.id))
        if calls and call in calls:
            calls.remove(call)
            if not calls:
                del self.calls[_key(call.id)]

    async def run(self) -> None:
        writer = asyncio.create_task(self._write_loop())
        try:
            while True:
                try:
                    chunk = await self.transport.read()
                except (ConnectionError, OSError):
                    chunk = b""
                items = self.frames.feed(chunk) if chunk else self.frames.eof()
                if self._early and self.frames.mode is not None:
                    early, self._early = self._early, []
                    for body in early:
                        self.send(body)
                fatal = False
                for item in items:
                    if isinstance(item, FrameError):
                        self.send(_err(item.id, item.error.rpc_error()))
                        fatal = fatal or item.fatal
                    else:
                        self.server.dispatch_frame(self, item)
                if not chunk or fatal:
                    break
            while self._pending:  # end of input: what was asked is still answered
                await asyncio.gather(*list(self._pending), return_exceptions=True)
        finally:
            self._out.put_nowait(None)
            await writer
            self.closed = True
            await self.transport.close()

    def later(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _write_loop(self) -> None:
        while (data := await self._out.get()) is not None:
            if self.closed:
                continue
            try:
                await self.transport.write(data)
            except (ConnectionError, OSError):
                self.closed = True  # the client left; its calls still run


class Server:
    """Serves one `Session` to any number of connections."""

    def __init__(self, session, *, registry: Registry | None = None, auto_save: bool = False,
                 max_frame: int = MAX_FRAME, log_stream=None, door: str = "jsonrpc"):
        self.session = session
        self.door = door  # in the audit log: jsonrpc, or bridge for the live view's bridge
        self.registry = registry or REGISTRY
        self.auto_save = auto_save
        self.max_frame = max_frame
        self.connections: set[Connection] = set()
        self._log_stream = log_stream or sys.stderr
        self._count = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[Call] | None = None
        self._worker: asyncio.Task | None = None
        self._running: Call | None = None
        # One thread: calls are serialised here, in arrival order, whatever the client.
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="boardwire-rpc")
        self._unsubscribe = session.subscribe(self._on_event)
        self._unsubscribe_chat = chat_box(session).subscribe(self._on_chat)
        self._discover: bytes | None = None

    # -- lifetime --------------------------------------------------------------------

    async def start(self) -> None:
        self.registry.all()  # import the command modules now, not in the first call
        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        self._worker = self._loop.create_task(self._work())

    async def close(self) -> None:
        """Stop: a running call is cancelled (a long one stops its child processes)."""
        if self._running is not None:
            self._running.ctx.cancel.cancel()
        if self._worker is not None:
            self._worker.cancel()
        self._unsubscribe()
        self._unsubscribe_chat()
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def serve(self, transport: Transport, actor: str | None = None, principal: str | None = None) -> None:
        """Serve one connection until its input ends and its calls are answered.
        ``actor`` names the client (``actor-N``, default ``client-N``; ``rpc.hello`` may
        rename it): its changes' actor and the audit log's client. ``principal``: whom
        the door admitted the connection for (a key: ``view:NAME``); then that is every
        call's actor and the client's name, however it renames itself, is only the
        audit log's ``client``."""
        self._count += 1
        name = f"{actor or 'client'}-{self._count}"
        conn = Connection(self, transport, principal or name, client=name, fixed=principal is not None)
        self.connections.add(conn)
        try:
            await conn.run()
        except asyncio.CancelledError:  # the server is stopping: not an error to report
            pass
        finally:
            self.connections.discard(conn)

    # -- incoming --------------------------------------------------------------------

    def dispatch_frame(self, conn: Connection, frame: bytes) -> None:
        """Handle one frame. Synchronous up to the queue, so calls are queued in the
        order they arrived, batch elements included."""
        try:
            msg = _loads(frame)
        except (ValueError, RecursionError) as e:  # UnicodeDecodeError is a ValueError
            conn.send(_err(None, InvalidJson(f"parse error: {str(e)[:200]}").rpc_error()))
            return
        if isinstance(msg, list):
            if not msg:
                conn.send(_err(None, InvalidRequest("an empty batch").rpc_error()))
                return
            parts = [self._dispatch(conn, m) for m in msg]
        else:
            parts = [self._dispatch(conn, msg)]
        batch = isinstance(msg, list)

        def send(bodies: list) -> None:
            bodies = [b for b in bodies if b is not None]
            if bodies:
                conn.send(b"[" + b",".join(bodies) + b"]" if batch else bodies[0])

        if not any(isinstance(p, asyncio.Future) for p in parts):
            send(parts)
            return

        async def finish() -> None:
            send([await p if isinstance(p, asyncio.Future) else p for p in parts])

        conn.later(finish())

    def _dispatch(self, conn: Connection, msg: Any) -> bytes | asyncio.Future | None:
        """One request: its reply now (bytes), later (a future), or never (None)."""
        if not isinstance(msg, dict):
            return _err(None, InvalidRequest(f"a request is an object, not {type(msg).__name__}").rpc_error())
        has_id = "id" in msg
        rid = msg.get("id")
        if has_id and not _valid_id(rid):
            return _err(None, InvalidRequest("id must be a string, a number or null").rpc_error())
        method, params = msg.get("method"), msg.get("params")
        problem = ('"jsonrpc" must be "2.0"' if msg.get("jsonrpc") != "2.0" else
                   '"method" must be a string' if not isinstance(method, str) else
                   '"params" must be an object (or an array)'
                   if params is not None and not isinstance(params, (dict, list)) else None)
        if problem:
            return _err(rid, InvalidRequest(problem).rpc_error())
        try:
            builtin = BUILTINS.get(method)
            if builtin is not None:
                result = builtin(self, conn, params)
                return _ok(rid, result if isinstance(result, bytes) else _dumps(result)) if has_id else None
            if method.startswith("$/"):  # LSP: optional protocol notifications may be ignored
                if not has_id:
                    return None
            if isinstance(params, list):
                raise InvalidArgs(f"{method}: params must be an object of named arguments, not an array",
                                  errors=[{"loc": "(arguments)", "msg": "expected an object", "type": "type"}])
            self.registry.get(method)
        except BoardwireError as e:
            return _err(rid, e.rpc_error()) if has_id else None
        call = Call(conn, rid if has_id else NOTIFY, method, params or {},
                    Context(self.session, actor=conn.actor, door=self.door, client=conn.client),
                    self._loop.create_future())
        if has_id:
            call.ctx.progress_fn = self._progress(conn, rid)
            conn.calls.setdefault(_key(rid), []).append(call)
        self._queue.put_nowait(call)
        return call.future

    def _progress(self, conn: Connection, rid: Any):
        def report(fraction: float, message: str) -> None:  # runs in the worker thread
            self._call_soon(conn.notify, "command.progress",
                            {"id": rid, "fraction": round(fraction, 4), "message": message})
        return report

    def cancel(self, conn: Connection, rid: Any) -> bool:
        """``$/cancel``: a queued call is answered -32800 and never runs; a running one
        has its token set (it stops at its next check, or runs to the end)."""
        found = False
        for call in list(conn.calls.get(_key(rid), [])):
            found = True
            if call.running:
                call.ctx.cancel.cancel()
            else:
                conn.forget(call)
                call.reply(_err(call.id, Cancelled(f"{call.method}: cancelled before it ran").rpc_error()))
        return found

    # -- running ---------------------------------------------------------------------

    async def _work(self) -> None:
        while True:
            call = await self._queue.get()
            if call.future.done():  # cancelled while queued
                continue
            call.running = True
            self._running = call
            try:
                body = await self._loop.run_in_executor(self._executor, self._run, call)
            except Exception as e:  # the executor itself failed (shutting down)
                body = _err(None if call.id is NOTIFY else call.id,
                            Internal(f"{call.method}: {e}").rpc_error())
            finally:
                call.running = False
                self._running = None
                call.conn.forget(call)
            call.reply(body)

    def _run(self, call: Call) -> bytes | None:
        """In the worker thread: run the command, save if asked, encode the reply."""
        rid = None if call.id is NOTIFY else call.id
        if call.ctx.cancel.cancelled:
            return _err(rid, Cancelled(f"{call.method}: cancelled before it ran").rpc_error())
        try:
            result = self.registry.call(call.method, call.params, call.ctx)
            if self.auto_save:
                actor = call.ctx.actor
                saved = self.session.save_modified(
                    actor, on_error=lambda path, e: self.log("error", f"auto-save of {path} failed: {e}", actor))
                if saved:
                    result.setdefault("saved", saved)
            return _ok(rid, _dumps(result)) if call.id is not NOTIFY else None
        except BoardwireError as e:
            if e.code in LOGGED:
                self.log("error", f"{call.method}: {e.code}: {e.message}", call.ctx.actor)
            return _err(rid, e.rpc_error())
        except Exception as e:  # a result JSON cannot carry, or a bug outside the registry
            self.log("error", f"{call.method}: {type(e).__name__}: {e}", call.ctx.actor)
            return _err(rid, Internal(f"{call.method} failed: {type(e).__name__}: {e}").rpc_error())

    # -- outgoing --------------------------------------------------------------------

    def _on_event(self, event) -> None:
        """Session listener (any thread, under the session lock, so the hash is the
        event's): every client hears of every change."""
        if self._loop is None or not self.connections:
            return
        params = event.to_dict()
        self._call_soon(self._broadcast, "document.changed", params)
        if event.reason == "save":
            self.log("info", f"saved {event.path} at revision {event.revision}", event.actor)

    def _on_chat(self, event: dict) -> None:
        """Chat box listener (any thread): ``agent.chatEvent`` to every client."""
        if self._loop is not None and self.connections:
            self._call_soon(self._broadcast, "agent.chatEvent", event)

    def log(self, level: str, message: str, actor: str | None = None) -> None:
        """A line for the person (stderr) and a ``session.log`` for every client."""
        print(f"boardwire serve: {level}: {message}" + (f" ({actor})" if actor else ""),
              file=self._log_stream, flush=True)
        params = {"level": level, "message": message}
        if actor:
            params["actor"] = actor
        self._call_soon(self._broadcast, "session.log", params)

    def _broadcast(self, method: str, params: dict) -> None:
        for conn in list(self.connections):
            conn.notify(method, params)

    def _call_soon(self, fn, *args) -> None:
        if self._loop is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:  # the loop closed meanwhile
                pass

    def discovery(self) -> bytes:
        if self._discover is None:
            self._discover = _dumps(discover(self.registry))
        return self._discover


# -- methods of the server itself (JSON-RPC 2.0 section 4: "rpc." names are reserved) ---

def _rpc_discover(server: Server, conn: Connection, params: Any) -> bytes:
    return server.discovery()


def _rpc_hello(server: Server, conn: Connection, params: Any) -> dict:
    name = params.get("name") if isinstance(params, dict) else None
    if name is not None:
        if not isinstance(name, str) or not 0 < len(name) <= 100 or not name.isprintable():
            raise InvalidArgs("rpc.hello: name must be 1 to 100 printable characters",
                              errors=[{"loc": "name", "msg": "1 to 100 printable characters", "type": "value"}])
        conn.client = name
        if not conn.fixed:
            conn.actor = name
    return {"server": "boardwire", "version": __version__, "actor": conn.actor, "client": conn.client,
            "framing": conn.frames.mode, "root": str(server.session.workspace.root)}


def _cancel(server: Server, conn: Connection, params: Any) -> dict:
    if not isinstance(params, dict) or "id" not in params or not _valid_id(params["id"]):
        raise InvalidArgs("$/cancel: params must be {\"id\": <the request's id>}",
                          errors=[{"loc": "id", "msg": "field required", "type": "missing"}])
    return {"cancelled": server.cancel(conn, params["id"])}


BUILTINS = {"rpc.discover": _rpc_discover, "rpc.hello": _rpc_hello,
            "$/cancel": _cancel, "$/cancelRequest": _cancel}
