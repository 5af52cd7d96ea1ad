"""JSON-RPC 2.0 over stdio or a Unix socket (C4): ``boardwire serve``.

`server` is the protocol (requests, batches, notifications, cancellation, error
codes), `framing` the LSP base protocol and newline-delimited JSON, `transports` where
the bytes come from, `codes` the fixed table of error numbers, `discover` the method
list. See docs/jsonrpc.md.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from .. import stopping
from .server import Server

__all__ = ["Server", "run"]


def run(*, root: str = ".", socket_path: str | None = None, open_paths: tuple[str, ...] = (),
        auto_save: bool = False, attach=None) -> None:
    """Open the session, serve until stdin ends (stdio) or a signal (socket).
    ``attach``: called with the session before serving (``--attach``, see
    `boardwire.session.live.attach_hook`); returns (capabilities, stop).

    Raises BoardwireError before serving when a document or the socket cannot be had."""
    from ...errors import NoDocument
    from ...session import Session
    from .transports import FdTransport, claim_socket, listen, protect_stdout

    if not Path(root).is_dir():
        raise NoDocument(f"the working directory {root} does not exist")
    session = Session(root)
    for path in open_paths:
        session.open(path, actor="serve")
    if socket_path is not None:
        claim_socket(Path(socket_path))  # fail before anything else starts
    stop_attach = attach(session)[1] if attach else None
    server = Server(session, auto_save=auto_save)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        stopping.install(session, stop.set, "boardwire serve", loop)
        await server.start()
        try:
            if socket_path is not None:
                await listen(server, Path(socket_path), stop, ready=lambda: print(
                    f"boardwire serve: JSON-RPC 2.0 on {socket_path} (root {session.workspace.root})",
                    file=sys.stderr, flush=True))
            else:
                conn = asyncio.create_task(server.serve(FdTransport(0, protect_stdout())))
                stopped = asyncio.create_task(stop.wait())
                await asyncio.wait({conn, stopped}, return_when=asyncio.FIRST_COMPLETED)
                stopped.cancel()
        finally:
            await server.close()
            if stop_attach:
                stop_attach()

    asyncio.run(main())
