"""What a running command receives besides its arguments."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

from ..errors import Cancelled


class CancelToken:
    """Set by a client's cancel request; long commands call `check` between steps and
    pass the token to child processes (which are then killed)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._callbacks: list[Callable[[], None]] = []

    def cancel(self) -> None:
        self._event.set()
        for cb in list(self._callbacks):
            cb()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise Cancelled("the call was cancelled")

    def on_cancel(self, cb: Callable[[], None]) -> Callable[[], None]:
        """Run ``cb`` when cancelled (at once if already); returns the remover."""
        self._callbacks.append(cb)
        if self.cancelled:
            cb()
        return lambda: self._callbacks.remove(cb) if cb in self._callbacks else None


ProgressFn = Callable[[float, str], None]

# The doors a call comes through. Agents' doors are checked against the workspace's
# policy and get jobs for long work; the command line is a person's.
DOORS = ("mcp", "jsonrpc", "bridge", "script", "cli")
AGENT_DOORS = ("mcp", "jsonrpc", "bridge", "script")


@dataclass
class Context:
    """A command's view of the call: the session, who is calling, progress reporting
    (fraction 0..1 and a message), cancellation, and the ids of items it creates.
    ``tables``: how results' row tables come when the call gives no ``format``
    ("table" over MCP, where a model reads them; "json" for programs).
    ``door``: the way the call came in (`DOORS`; "local" for calls boardwire makes
    itself, which are neither audited nor turned into jobs), ``client``: the client's
    name as it gave it (MCP clientInfo, rpc.hello), for the audit log."""

    session: object
    actor: str = "local"
    progress_fn: ProgressFn | None = None
    cancel: CancelToken = field(default_factory=CancelToken)
    new_ids: list[str] = field(default_factory=list)
    tables: str = "json"
    door: str = "local"
    client: str = ""

    def progress(self, fraction: float, message: str = "") -> None:
        self.cancel.check()
        if self.progress_fn is not None:
            self.progress_fn(max(0.0, min(1.0, fraction)), message)

    def created(self, *ids: str | None) -> None:
        self.new_ids.extend(i for i in ids if i)
