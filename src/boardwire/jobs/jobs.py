"""Long work as jobs: a call that outlives its ``wait_s`` goes on in a thread and
the caller gets a handle to ask for it later (issue 16; the espx reference's jobs).

A `Job` runs one function in its own thread. `Job.wait` returns the function's result
if it ends within ``wait_s`` seconds (or raises what it raised), else `Running`: the
job's id, state, progress and the last lines it reported. `JobTable` keeps the newest
`KEEP` jobs of a session in memory; the rest are forgotten (their threads run on).
At most `RUNNING` jobs of a session run at once (over MCP HTTP a session is a key's:
the "two heavy commands per key" however they were started, tasks included); a job
started beyond that waits for a slot, saying so in its progress, and can be cancelled
while it waits.

Cancellation goes through the job's token (a `boardwire.registry.CancelToken`-like
object with ``cancel`` and ``cancelled``): commands pass it to their child processes,
whose whole process group is killed (`boardwire.kicad.cli`, `boardwire.firmware.process`).
When the process exits (a server stopped mid-job), every running job is cancelled and
given `EXIT_WAIT_S` to end, so its end (state cancelled) reaches the audit log.
"""

from __future__ import annotations

import atexit
import itertools
import threading
import time
import weakref
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import BoardwireError, Cancelled, Internal, NotFound

KEEP = 64  # jobs remembered per session, newest first
TAIL = 8  # progress lines kept per job
HISTORY = 1000  # progress reports kept per job for waiters
STATES = ("running", "done", "failed", "cancelled")
RUNNING = 2  # jobs of one session that run at once; the others wait for a slot, in order
SLOT_POLL_S = 0.2  # how often a waiting job looks at its cancel flag
EXIT_WAIT_S = 5.0  # at process exit, how long running jobs get to stop once cancelled
CANCEL_WAIT_S = 1.0  # job.cancel: how long the work gets to stop before it is abandoned
_TABLES: weakref.WeakSet = weakref.WeakSet()  # every JobTable of this process


@dataclass
class Running:
    """What a call answers while its job goes on."""

    job: str
    command: str
    progress: float
    tail: list[str]
    seconds: float

    KEYS = frozenset({"summary", "job", "state", "progress", "tail"})

    @classmethod
    def is_handle(cls, out) -> bool:
        """Whether a call's result ``out`` is a job's handle (`to_dict`), not the command's result."""
        return isinstance(out, dict) and set(out) == cls.KEYS and out.get("state") == "running"

    def to_dict(self) -> dict:
        pct = f"{self.progress:.0%}"
        return {"summary": f"{self.command} is still running after {self.seconds:.1f} s ({pct}): job {self.job}; "
                           f"job.wait (MCP: job_wait) with job {self.job!r} returns its result, job.cancel stops it",
                "job": self.job, "state": "running", "progress": round(self.progress, 4), "tail": list(self.tail)}


class Job:
    """One long call in its own thread.

    ``fn(job)`` does the work (reporting progress with `report`) and returns its
    result; ``token`` cancels it. ``meta``: anything the caller wants kept with the
    job (the door, the actor). `start` starts the thread. ``answered``: a caller was
    given the job's handle (it did not end within its first ``wait_s``)."""

    def __init__(self, id: str, command: str, fn: Callable[[Job], Any], token, meta: dict | None = None,
                 on_end: Callable[[Job], None] | None = None, slots: threading.Semaphore | None = None):
        self.id = id
        self._slots = slots  # held while the work runs (`JobTable`: RUNNING per session)
        self.command = command
        self.token = token
        self.meta = dict(meta or {})
        self.started = time.time()
        self.updated = self.started  # the last progress report or the end
        self.ended: float | None = None
        self.progress = 0.0
        self.tail: deque[str] = deque(maxlen=TAIL)
        self._fn = fn
        self._result: Any = None
        self._error: BaseException | None = None
        self._done = threading.Event()
        self._settled = threading.Event()  # set once the end listeners have run
        self._cond = threading.Condition()
        self._history: list[tuple[float, str]] = []  # every progress report, for waiters to pass on
        self._on_end = [on_end] if on_end is not None else []
        self.answered = False
        self.thread = threading.Thread(target=self._main, name=f"boardwire-job-{id}", daemon=True)

    def start(self) -> Job:
        self.thread.start()
        return self

    def _main(self) -> None:
        result, error = None, None
        held = False
        try:
            held = self._take_slot()
            result = self._fn(self)
        except BaseException as e:  # noqa: BLE001 - kept, raised again to whoever waits
            error = e
        finally:
            if held:
                self._slots.release()
            self._finish(result, error)

    def _take_slot(self) -> bool:
        """Wait for a free slot (True once held; False when the job has none to take);
        raises Cancelled if the job is cancelled meanwhile."""
        if self._slots is None:
            return False
        if not self._slots.acquire(blocking=False):
            self.report(0.0, "waiting for a free slot (other long commands of this session are running)")
            while not self._slots.acquire(timeout=SLOT_POLL_S):
                if getattr(self.token, "cancelled", False):
                    raise Cancelled(f"{self.command} was cancelled while it waited for a free slot")
        return True

    def _finish(self, result: Any, error: BaseException | None) -> None:
        """End the job once (a later end, of work that went on after `abandon`, is dropped)."""
        with self._cond:
            if self._done.is_set():
                return
            self._result, self._error, self.ended = result, error, time.time()
            self.updated = self.ended
            self._done.set()
            self._cond.notify_all()
        try:
            for listener in self._on_end:
                try:
                    listener(self)
                except Exception:  # noqa: BLE001 - a listener must not change the outcome
                    pass
        finally:
            self._settled.set()

    def abandon(self, reason: str) -> None:
        """End a job whose work did not stop when cancelled (its thread may run on):
        state cancelled, error ``cancelled`` with ``reason``."""
        self._finish(None, Cancelled(reason))

    def on_end(self, listener: Callable[[Job], None]) -> None:
        """Call ``listener(job)`` when the job has ended (added before `start`)."""
        self._on_end.append(listener)

    @property
    def outcome(self) -> tuple[Any, BaseException | None]:
        """(result, error) of an ended job ((None, None) while it runs)."""
        return (self._result, self._error) if self._done.is_set() else (None, None)

    def report(self, fraction: float, message: str = "") -> None:
        """Progress from the work: fraction 0..1 and a line for the tail."""
        fraction = min(1.0, max(0.0, fraction))
        with self._cond:
            self.progress = max(self.progress, fraction)
            self.updated = time.time()
            if message and (not self.tail or self.tail[-1] != message):
                self.tail.append(message)
            if len(self._history) < HISTORY:
                self._history.append((fraction, message))
            self._cond.notify_all()

    @property
    def state(self) -> str:
        if not self._done.is_set():
            return "running"
        if self._error is None:
            return "done"
        if isinstance(self._error, Cancelled) or getattr(self.token, "cancelled", False):
            return "cancelled"
        return "failed"

    @property
    def seconds(self) -> float:
        return (self.ended or time.time()) - self.started

    def cancel(self, wait_s: float = CANCEL_WAIT_S) -> None:
        """Cancel the work (its child processes are killed through the token) and wait
        up to ``wait_s`` seconds for it to stop; work still running then is abandoned
        (state cancelled at once; a session edit it finishes later is rolled back, see
        `boardwire.registry.Registry`). ``wait_s`` 0: cancel without waiting."""
        self.token.cancel()
        if wait_s > 0 and not self._done.wait(wait_s):
            self.abandon(f"{self.command} was cancelled; its work did not stop within {wait_s:g} s "
                         "and is dropped when it does (no edit of it is kept)")

    def running(self) -> Running:
        return Running(self.id, self.command, self.progress, list(self.tail), self.seconds)

    def wait(self, wait_s: float | None, on_progress: Callable[[float, str], None] | None = None,
             *, from_start: bool = False) -> Any:
        """The result if the job ends within ``wait_s`` seconds (None: until it ends),
        raising what it raised; else `Running`. Meanwhile ``on_progress(fraction,
        message)`` is called, in the waiting thread, with each progress report (from
        the job's start if ``from_start``, else from now)."""
        deadline = None if wait_s is None else time.monotonic() + max(0.0, wait_s)
        with self._cond:
            seen = 0 if from_start else len(self._history)
        while True:
            with self._cond:
                if seen == len(self._history) and not self._done.is_set():
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is None or remaining > 0:
                        self._cond.wait(remaining)
                new = self._history[seen:]
                seen += len(new)
                finished = self._done.is_set()
            for fraction, message in new if on_progress is not None else ():
                try:
                    on_progress(fraction, message)
                except Exception:  # noqa: BLE001 - a lost progress note must not fail the wait
                    pass
            if finished or (deadline is not None and time.monotonic() >= deadline):
                break
        if not finished:
            with self._cond:  # answered before the job is done, or not at all (see `on_end`)
                finished = self._done.is_set()
                self.answered = self.answered or not finished
        if not finished:
            return self.running()
        if self._error is not None:
            raise self._error
        return self._result

    def status(self) -> dict:
        """The job as a JSON object: id, command, state, progress, tail, seconds, and
        for a finished one the error's code."""
        out = {"job": self.id, "command": self.command, "state": self.state,
               "progress": 1.0 if self.state == "done" else round(self.progress, 4),
               "tail": list(self.tail), "seconds": round(self.seconds, 3)}
        if isinstance(self._error, BoardwireError):
            out["error"] = self._error.to_dict()
        elif self._error is not None:
            out["error"] = Internal(f"{type(self._error).__name__}: {self._error}").to_dict()
        return out


class JobTable:
    """The jobs of one session, newest last, at most `KEEP`."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.listeners: list[Callable[[Job], None]] = []  # told when a job ends
        self.queue = None  # a `queue.QueueRunner`: heavy jobs run on workers (None: here)
        self.slots = threading.Semaphore(RUNNING)
        _TABLES.add(self)

    def start(self, command: str, fn: Callable[[Job], Any], token, meta: dict | None = None,
              on_end: Callable[[Job], None] | None = None) -> Job:
        """Start ``fn`` as a new job (see `Job`); ``on_end(job)`` is called when it ends."""
        with self._lock:
            id = f"j{next(self._ids)}"
            job = Job(id, command, fn, token, meta, on_end=self._ended, slots=self.slots)
            if on_end is not None:
                job.on_end(on_end)
            self._jobs[id] = job
            while len(self._jobs) > self.keep:
                self._jobs.popitem(last=False)
        return job.start()

    def _ended(self, job: Job) -> None:
        for listener in list(self.listeners):
            listener(job)

    def get(self, id: str) -> Job:
        """The job ``id``; raises ``not-found`` naming the jobs kept."""
        with self._lock:
            job = self._jobs.get(id)
            known = list(self._jobs)
        if job is None:
            raise NotFound(f"no job {id!r}" + (f" (jobs kept: {', '.join(known[-10:])})" if known else " (no jobs)"),
                           hint=f"Only the newest {self.keep} jobs of this server are kept; job.status lists them.")
        return job

    def all(self) -> list[Job]:
        with self._lock:
            return list(self._jobs.values())

    def cancel_running(self, wait_s: float = EXIT_WAIT_S) -> None:
        """Cancel every running job and wait up to ``wait_s`` seconds in all for them to
        end; the ones still running then are abandoned (`Job.abandon`)."""
        running = [j for j in self.all() if j.state == "running"]
        for job in running:
            job.token.cancel()
        deadline = time.monotonic() + wait_s
        for job in running:  # ended, and its end told (the audit line written) before the process goes
            if not job._settled.wait(max(0.0, deadline - time.monotonic())):
                job.abandon(f"the server stopped; {job.command} did not end within {wait_s:g} s of being cancelled")


@atexit.register
def _cancel_at_exit() -> None:
    for table in list(_TABLES):
        table.cancel_running()


_lock = threading.Lock()


def jobs_of(session) -> JobTable:
    """The job table of ``session`` (made on first use, kept on the session)."""
    with _lock:
        table = getattr(session, "_job_table", None)
        if table is None:
            table = session._job_table = JobTable()
        return table
