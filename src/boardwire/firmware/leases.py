"""Board leases, shared through a hub socket so two agents (or an agent and a
terminal) can share one board.

A lease names a board (its port) and a holder (the client's name). Flash, reset,
erase and board info take it for the length of the call; a second holder's call fails
with `BoardLeased` naming the first. The hub is a Unix socket speaking one JSON
object per line:

* ``{"op": "acquire", "board", "holder"}`` -> ``{"ok": true}`` or ``{"ok": false,
  "holder", "since"}``; the same holder may acquire again (counted);
* ``{"op": "release", "board", "holder"}``; ``{"op": "list"}`` -> ``{"leases":
  [...], "monitors": [...]}``; ``{"op": "monitor", "board", "holder", "session",
  "open"}`` records an open monitor session.

Leases belong to the connection that took them: when a process quits, its leases go.
The first process that finds no hub serves it (a stale socket file is removed); if
that process quits, the others reconnect and one of them serves it. The socket is
``$BOARDWIRE_FW_HUB`` or ``~/.boardwire/hub.sock`` (mode 0600).
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from ..errors import BoardLeased


def hub_path() -> Path:
    env = os.environ.get("BOARDWIRE_FW_HUB")
    return Path(env) if env else Path.home() / ".boardwire" / "hub.sock"


class _Table:
    """The hub's state: leases by board, each with its holder, count and connection."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.leases: dict[str, dict] = {}
        self.monitors: dict[str, dict] = {}

    def handle(self, req: dict, conn: int) -> dict:
        op, board, holder = req.get("op"), str(req.get("board", "")), str(req.get("holder", ""))
        with self.lock:
            if op == "acquire":
                cur = self.leases.get(board)
                if cur is not None and cur["holder"] != holder:
                    return {"ok": False, "holder": cur["holder"], "since": cur["since"]}
                if cur is None:
                    cur = self.leases[board] = {"board": board, "holder": holder, "since": time.time(),
                                                "count": 0, "conn": conn}
                cur["count"] += 1
                return {"ok": True}
            if op == "release":
                cur = self.leases.get(board)
                if cur is not None and cur["holder"] == holder:
                    cur["count"] -= 1
                    if cur["count"] <= 0:
                        del self.leases[board]
                return {"ok": True}
            if op == "monitor":
                key = f"{board}\0{req.get('session')}"
                if req.get("open"):
                    self.monitors[key] = {"board": board, "holder": holder, "session": req.get("session"),
                                          "conn": conn}
                else:
                    self.monitors.pop(key, None)
                return {"ok": True}
            if op == "list":
                strip = lambda d: {k: v for k, v in d.items() if k not in ("conn", "count")}  # noqa: E731
                return {"ok": True, "leases": [strip(x) for x in self.leases.values()],
                        "monitors": [strip(x) for x in self.monitors.values()]}
        return {"ok": False, "error": f"unknown op {op!r}"}

    def drop(self, conn: int) -> None:
        with self.lock:
            for table in (self.leases, self.monitors):
                for key in [k for k, v in table.items() if v["conn"] == conn]:
                    del table[key]


class HubServer:
    """Serves the hub on ``path`` in daemon threads until `close`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.table = _Table()
        path.parent.mkdir(parents=True, exist_ok=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            self.sock.bind(str(path))
        finally:
            os.umask(old)
        self.sock.listen(16)
        self._closed = False
        threading.Thread(target=self._accept, name="fw-hub", daemon=True).start()

    def _accept(self) -> None:
        n = 0
        while not self._closed:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            n += 1
            threading.Thread(target=self._serve, args=(conn, n), daemon=True).start()

    def _serve(self, conn: socket.socket, n: int) -> None:
        try:
            with conn, conn.makefile("rwb") as f:
                for raw in f:
                    try:
                        reply = self.table.handle(json.loads(raw), n)
                    except (ValueError, AttributeError):
                        reply = {"ok": False, "error": "bad request"}
                    f.write(json.dumps(reply).encode() + b"\n")
                    f.flush()
        except OSError:
            pass
        finally:
            self.table.drop(n)

    def close(self) -> None:
        self._closed = True
        try:
            self.sock.close()
        finally:
            try:
                self.path.unlink()
            except OSError:
                pass


class HubClient:
    """One connection to the hub; serves the hub itself when nobody does."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or hub_path()
        self.server: HubServer | None = None
        self._lock = threading.Lock()
        self._file = None
        self._sock: socket.socket | None = None

    def _connect(self):
        for _ in range(3):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(str(self.path))
                self._sock = s
                return s.makefile("rwb")
            except (FileNotFoundError, ConnectionRefusedError):
                s.close()
                try:
                    if self.path.exists():
                        self.path.unlink()  # nobody answers: a stale socket
                    self.server = HubServer(self.path)
                except OSError:
                    time.sleep(0.05)  # another process won the race; connect to it
        raise OSError(f"cannot reach or serve the board hub at {self.path}")

    def request(self, req: dict) -> dict:
        with self._lock:
            for attempt in range(2):
                try:
                    if self._file is None:
                        self._file = self._connect()
                    self._file.write(json.dumps(req).encode() + b"\n")
                    self._file.flush()
                    line = self._file.readline()
                    if line:
                        return json.loads(line)
                except OSError:
                    pass
                self._disconnect()  # the hub went away: reconnect (or serve it) once
            raise OSError(f"the board hub at {self.path} does not answer")

    def acquire(self, board: str, holder: str) -> None:
        """Raises BoardLeased when another holder has ``board``."""
        r = self.request({"op": "acquire", "board": board, "holder": holder})
        if not r.get("ok"):
            since = time.strftime("%H:%M:%S", time.localtime(r.get("since", 0)))
            raise BoardLeased(f"{board} is leased to {r.get('holder')} (since {since})",
                              board=board, holder=r.get("holder"), since=r.get("since"))

    def release(self, board: str, holder: str) -> None:
        self.request({"op": "release", "board": board, "holder": holder})

    @contextmanager
    def lease(self, board: str, holder: str):
        self.acquire(board, holder)
        try:
            yield
        finally:
            self.release(board, holder)

    def note_monitor(self, board: str, holder: str, session: str, open: bool) -> None:
        self.request({"op": "monitor", "board": board, "holder": holder, "session": session, "open": open})

    def listing(self) -> dict:
        return self.request({"op": "list"})

    def _disconnect(self) -> None:
        """Close the connection to the hub, if any (the caller holds the lock)."""
        for f in (self._file, self._sock):
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass
        self._file = self._sock = None

    def close(self) -> None:
        with self._lock:
            self._disconnect()
        if self.server is not None:
            self.server.close()
            self.server = None


_CLIENTS: dict[str, HubClient] = {}
_CLIENTS_LOCK = threading.Lock()


def hub() -> HubClient:
    """This process's client of the hub at `hub_path` (one per path)."""
    key = str(hub_path())
    with _CLIENTS_LOCK:
        c = _CLIENTS.get(key)
        if c is None:
            c = _CLIENTS[key] = HubClient(Path(key))
        return c
