"""The board drawing of a session's board at its current revision, cached: what the
live view's ``/view/board.svg`` (whole, or patched from a kept revision) and the MCP
Apps view (`install_app_drawer`) show.

The drawing is `board_parts` of the in-memory board (one SVG group per item) with the
ratsnest of query.unrouted and the markers of the built-in DRC; the last
`KEPT_REVISIONS` revisions per board and side are kept, so a page can be patched
from one of them (`board_delta.delta`)."""

from __future__ import annotations

import threading

from ..commands import REGISTRY
from ..registry import Context
from .board_delta import delta
from .board_svg import board_parts

RATSNEST_LIMIT = 5000  # query.unrouted's page size limit
KEPT_REVISIONS = 3  # drawings kept per board and side (a page patches from one of these)


class BoardDrawings:
    """Board drawings cached per (session, board, revision, side). Thread-safe."""

    def __init__(self, actor: str = "view") -> None:
        self.actor = actor
        self._cache: dict[tuple, tuple] = {}  # (session, path, revision, hash, side) -> (revision, parts, svg)
        self._lock = threading.Lock()

    def _drawing(self, session, path: str, side: str) -> tuple[int, list, str, str]:
        ctx = Context(session, actor=self.actor)
        od = session.get(path, "board", self.actor)
        key = (id(session), od.path, od.revision, od.content_hash, side)
        with self._lock:
            if key in self._cache:
                return (*self._cache[key], od.path)
        links = REGISTRY.call("query.unrouted", {"path": od.path, "limit": RATSNEST_LIMIT}, ctx)["links"]
        drc = REGISTRY.call("check.drc", {"path": od.path, "engine": "builtin"}, ctx)
        with session.lock:
            revision = od.revision
            parts = board_parts(od.doc, side=side, unrouted=links, markers=drc.get("violations", []),
                                path=od.path, revision=revision)
        got = (revision, parts, "".join(p if isinstance(p, str) else p.text() for p in parts))
        key = (*key[:2], revision, *key[3:])
        with self._lock:
            same = [k for k in self._cache if k[:2] == key[:2] and k[4] == side]
            for k in same[:max(0, len(same) - KEPT_REVISIONS + 1)]:  # the last few revisions kept
                del self._cache[k]
            self._cache[key] = got
        return (*got, od.path)

    def draw(self, session, path: str, side: str = "front") -> tuple[str, int, str]:
        """(SVG text, revision, workspace-relative path) of the board at ``path``.
        Raises NoDocument / InvalidArgs (BoardwireError) as ``session.get`` does, and
        ValueError for a side other than front or back."""
        revision, _, svg, where = self._drawing(session, path, side)
        return svg, revision, where

    def delta(self, session, path: str, side: str, since: int) -> dict | None:
        """What changed in the drawing since revision ``since`` (`board_delta.delta`),
        as ``{"revision", "delta"}``; None when that revision's drawing is not kept
        or cannot be patched (the page then takes the whole drawing)."""
        revision, parts, _, where = self._drawing(session, path, side)
        with self._lock:
            old = next((v for k, v in self._cache.items()
                        if k[:2] == (id(session), where) and k[2] == since and k[4] == side), None)
        if old is None:
            return None
        change = delta(old[1], parts)
        return None if change is None else {"revision": revision, "delta": change}


def install_app_drawer() -> None:
    """Let the MCP server's app view (`protocols.mcp.apps`) draw boards with
    `board_parts`: the door below the web layer cannot import it, so the `boardwire
    mcp` command and the HTTP server install it here."""
    from ..protocols.mcp import apps

    apps.DRAWERS["board"] = BoardDrawings(actor="mcp-app").draw
