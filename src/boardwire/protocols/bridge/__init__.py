"""The bridge (C4): a WebSocket door for editor extensions and the live view.

`contract` holds the versioned handshake, hello and close codes, `pairing` the
optional pairing, `server` the WebSocket side, which hands every message after the
hello to `protocols.jsonrpc` (one dispatch for both doors). See docs/bridge.md.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sys
from pathlib import Path

from .. import stopping
from .server import Bridge

__all__ = ["Bridge", "run"]


def run(*, root: str = ".", host: str = "127.0.0.1", port: int = 8766, open_paths: tuple[str, ...] = (),
        pair: bool = False, max_payload: int | None = None, allow_origins: tuple[str, ...] = (),
        auto_save: bool = False, dev_mode: bool = False, attach=None) -> None:
    """Open the session and serve the bridge until SIGINT or SIGTERM.

    ``pair``: print a new pairing token (only its digest is kept); otherwise
    ``BOARDWIRE_BRIDGE_TOKEN``, when set, is the token. ``attach``: a function called
    with the session before serving (the live KiCad board, `boardwire.session.live`);
    it returns the capabilities it adds and a function that stops it.
    Raises BoardwireError before serving when a document cannot be had."""
    from ...errors import NoDocument
    from ...session import Session
    from . import contract

    if not Path(root).is_dir():
        raise NoDocument(f"the working directory {root} does not exist")
    session = Session(root)
    for path in open_paths:
        session.open(path, actor="bridge")
    token = os.environ.get("BOARDWIRE_BRIDGE_TOKEN") or None
    if pair:
        token = secrets.token_urlsafe(24)
        print(f"boardwire bridge: pairing token (shown once): {token}", file=sys.stderr, flush=True)
    extra, stop_attach = attach(session) if attach else ((), None)
    bridge = Bridge(session, token=token, max_payload=max_payload or contract.MAX_PAYLOAD,
                    allow_origins=allow_origins, auto_save=auto_save, dev_mode=dev_mode, capabilities=extra)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        stopping.install(session, stop.set, "boardwire bridge", loop)
        server = await bridge.listen(host, port)
        bound = server.sockets[0].getsockname()[1]
        print(f"boardwire bridge: ws://{host}:{bound} (root {session.workspace.root})", file=sys.stderr, flush=True)
        try:
            await stop.wait()
        finally:
            server.close()
            await bridge.close()
            if stop_attach:
                stop_attach()

    asyncio.run(main())
