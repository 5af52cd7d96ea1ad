"""Where the bytes come from: stdio (one client) or a Unix socket (many clients).

stdio: only frames go to stdout. The protocol keeps a private copy of the stdout file
descriptor and file descriptor 1 is pointed at stderr, so a stray print (ours, a
library's, a child process's) lands among the diagnostics instead of corrupting a frame.

Unix socket: created with mode 0600 (only this user may connect); a socket file nobody
listens on (left by a killed server) is removed; one a server still answers on is
refused. The file is removed again when the server stops.
"""

from __future__ import annotations

import asyncio
import os
import socket
import stat
import sys
import threading
from pathlib import Path

from ...errors import IOFailure

CHUNK = 1 << 20


class StreamTransport:
    """A connection accepted by asyncio's Unix socket server."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    async def read(self) -> bytes:
        return await self.reader.read(CHUNK)

    async def write(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def close(self) -> None:
        try:
            self.writer.close()
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


class FdTransport:
    """Blocking file descriptors (stdin/stdout: pipes, files or a terminal alike), read
    by a daemon thread that hands chunks over with back-pressure, written from a
    worker thread."""

    def __init__(self, in_fd: int, out_fd: int):
        self.in_fd, self.out_fd = in_fd, out_fd
        self._chunks: asyncio.Queue[bytes] = asyncio.Queue(maxsize=8)
        self._loop = asyncio.get_running_loop()
        threading.Thread(target=self._pump, name="boardwire-stdin", daemon=True).start()

    def _pump(self) -> None:
        while True:
            try:
                data = os.read(self.in_fd, CHUNK)
            except OSError:
                data = b""
            try:
                asyncio.run_coroutine_threadsafe(self._chunks.put(data), self._loop).result()
            except RuntimeError:  # the loop is gone
                return
            if not data:
                return

    async def read(self) -> bytes:
        return await self._chunks.get()

    async def write(self, data: bytes) -> None:
        await asyncio.to_thread(_write_all, self.out_fd, data)

    async def close(self) -> None:
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def protect_stdout() -> int:
    """Keep stdout for frames only: returns a private descriptor for the protocol and
    sends whatever else writes to descriptor 1 to stderr."""
    sys.stdout.flush()
    proto = os.dup(1)
    os.dup2(2, 1)
    return proto


def claim_socket(path: Path) -> None:
    """Make ``path`` free for a new socket: remove a stale socket, refuse a live one
    (or anything that is not a socket)."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise IOFailure(f"{path} exists and is not a socket; refusing to replace it",
                        hint="Choose another --socket path, or remove the file yourself.")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(2)
    try:
        probe.connect(str(path))
    except (ConnectionRefusedError, FileNotFoundError):
        path.unlink(missing_ok=True)  # left by a server that died: nobody listens
        return
    except OSError as e:
        raise IOFailure(f"{path}: cannot tell whether a server listens there: {e}") from e
    finally:
        probe.close()
    raise IOFailure(f"{path}: another server is listening on this socket",
                    hint="Stop that server, connect to it instead, or choose another --socket path.")


async def listen(server, path: Path, stop: asyncio.Event, ready=None) -> None:
    """Serve ``server`` on the Unix socket ``path`` until ``stop`` is set."""
    claim_socket(path)
    # bound and listening under a temporary name, then renamed into place: a client
    # that sees the path can connect (bound at the path itself, a client between
    # bind and listen was refused: seen under load in tests/protocols/test_jsonrpc.py)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    old = os.umask(0o177)  # the socket is born 0600: no window where others may connect
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        try:
            sock.bind(str(tmp))
        except OSError:  # a name too long for AF_UNIX: bind at the path itself
            tmp = path
            sock.bind(str(path))
        sock.listen(100)
        if tmp != path:
            os.replace(tmp, path)
        listener = await asyncio.start_unix_server(lambda r, w: server.serve(StreamTransport(r, w)), sock=sock)
    except OSError as e:
        sock.close()
        if tmp != path:
            tmp.unlink(missing_ok=True)
        raise IOFailure(f"cannot listen on {path}: {e.strerror or e}") from e
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    ino = path.stat().st_ino
    if ready is not None:
        ready()
    try:
        await stop.wait()
    finally:
        listener.close()
        try:
            if path.stat().st_ino == ino:  # still ours, not a successor's
                path.unlink()
        except OSError:
            pass
