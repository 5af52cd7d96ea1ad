"""A board of the session by path, and a footprint of it by reference."""

from __future__ import annotations

from ..documents.board import Board, Footprint
from ..errors import NotFound


def board_of(ctx, path: str) -> Board:
    return ctx.session.get(path, "board", ctx.actor).doc


def footprint_of(board: Board, reference: str) -> Footprint:
    fp = board.footprint(reference)
    if fp is None:
        raise NotFound(f"no footprint {reference!r} on the board")
    return fp
