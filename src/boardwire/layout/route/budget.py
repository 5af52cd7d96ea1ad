"""A deadline and a cancel poll for the router's inner loops (issue 36: loops that
scale with a board's geometry must stop when the time limit passes or the caller
cancels, not only between nets)."""

from __future__ import annotations

import time
from typing import Callable

POLL_S = 0.2  # how often `Budget.spent` calls its poll (which may raise to cancel)


class Budget:
    """``deadline`` (time.monotonic seconds; None: none) and ``poll()``: called at most
    every `POLL_S` by `spent`, it raises to cancel (a command's progress callback does:
    ``Cancelled``)."""

    def __init__(self, deadline: float | None, poll: Callable[[], None] | None = None):
        self.deadline = deadline
        self.poll = poll
        self._next = 0.0

    def spent(self) -> bool:
        """True once the deadline has passed; raises what ``poll`` raises."""
        now = time.monotonic()
        if self.poll is not None and now >= self._next:
            self._next = now + POLL_S
            self.poll()
        return self.deadline is not None and now > self.deadline
