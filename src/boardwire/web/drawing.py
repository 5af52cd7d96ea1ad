"""The board drawing of a session's board at its current revision, cached: what the
live view's ``/view/board.svg`` and the MCP Apps view (`install_app_drawer`) show.

The drawing is `board_svg` of the in-memory board with the ratsnest of query.unrouted
and the markers of the built-in DRC; one revision per board and side is kept."""

from __future__ import annotations

import threading

from ..commands import REGISTRY
from ..registry import Context
from .board_svg import board_svg

RATSNEST_LIMIT = 5000  # query.unrouted's page size limit


class BoardDrawings:
    """Board drawings cached per (session, board, revision, side). Thread-safe."""

    def __init__(self, actor: str = "view") -> None:
        self.actor = actor
        self._cache: dict[tuple, str] = {}
        self._lock = threading.Lock()

    def draw(self, session, path: str, side: str = "front") -> tuple[str, int, str]:
        """(SVG text, revision, workspace-relative path) of the board at ``path``.
        Raises NoDocument / InvalidArgs (BoardwireError) as ``session.get`` does, and
        ValueError for a side other than front or back."""
        ctx = Context(session, actor=self.actor)
        od = session.get(path, "board", self.actor)
        key = (id(session), od.path, od.revision, od.content_hash, side)
        with self._lock:
            if key in self._cache:
                return self._cache[key], key[2], od.path
        links = REGISTRY.call("query.unrouted", {"path": od.path, "limit": RATSNEST_LIMIT}, ctx)["links"]
        drc = REGISTRY.call("check.drc", {"path": od.path, "engine": "builtin"}, ctx)
        with session.lock:
            revision = od.revision
            svg = board_svg(od.doc, side=side, unrouted=links, markers=drc.get("violations", []),
                            path=od.path, revision=revision)
        with self._lock:
            self._cache = {k: v for k, v in self._cache.items() if k[:2] != key[:2]}  # one revision kept
            self._cache[(*key[:2], revision, *key[3:])] = svg
        return svg, revision, od.path


def install_app_drawer() -> None:
    """Let the MCP server's app view (`protocols.mcp.apps`) draw boards with
    `board_svg`: the door below the web layer cannot import it, so the `boardwire
    mcp` command and the HTTP server install it here."""
    from ..protocols.mcp import apps

    apps.DRAWERS["board"] = BoardDrawings(actor="mcp-app").draw
