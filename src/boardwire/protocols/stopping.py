"""SIGTERM and SIGINT stop a server within `GRACE_S`, even while a command spins
(issue 36: ``boardwire serve`` removed its socket on SIGTERM and ran on until kill -9).

The first signal logs which documents have unsaved edits (discarded: nothing is saved
that the user did not ask for), cancels the session's running jobs (their child
processes are killed through their tokens), and asks the server to stop (``stop``,
called thread-safely on its event loop). If the process is still there `GRACE_S`
later (a command that does not stop, or threads the interpreter waits for at exit), it
exits with ``128 + signal`` without further ado; a second signal exits at once."""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from typing import Callable

from ..jobs import jobs_of

GRACE_S = 1.5  # s between the signal and the forced exit


def unsaved(session) -> list[str]:
    """Paths of the session's documents with unsaved edits."""
    return sorted(od.path for od in list(session.documents.values()) if od.modified)


def install(session, stop: Callable[[], None], name: str, loop=None) -> None:
    """Handle SIGINT and SIGTERM for the server of ``session`` (in the main thread):
    ``stop()`` (through ``loop.call_soon_threadsafe`` when a loop is given), then the
    forced exit after `GRACE_S`. ``name``: the server's name in the log line."""
    fired = threading.Event()

    def handler(signum, _frame) -> None:
        code = 128 + signum
        if fired.is_set():
            os._exit(code)
        fired.set()
        lost = unsaved(session)
        print(f"{name}: {signal.Signals(signum).name}: stopping"
              + (f"; unsaved edits discarded (not saved): {', '.join(lost)}" if lost else ""),
              file=sys.stderr, flush=True)
        threading.Thread(target=_force_exit, args=(code,), name="boardwire-exit", daemon=True).start()
        _cancel_jobs(session)
        if loop is not None:
            loop.call_soon_threadsafe(stop)
        else:
            stop()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, handler)


def _cancel_jobs(session) -> None:
    for job in jobs_of(session).all():
        if job.state == "running":
            threading.Thread(target=job.cancel, args=(0,), daemon=True).start()


_EXITING = threading.Event()  # set when the interpreter's normal exit reaches its atexit handlers
atexit.register(_EXITING.set)


def _force_exit(code: int) -> None:
    """Exit with ``code`` after `GRACE_S` unless the normal exit got as far as atexit
    by then (the threads joined). It touches no stream: a daemon thread writing to
    stderr while the interpreter finalizes aborts the process (SIGABRT)."""
    if not _EXITING.wait(GRACE_S):
        os._exit(code)
