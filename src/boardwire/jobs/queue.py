"""Heavy jobs on a work queue (``boardwire mcp --http --queue redis://HOST:PORT/N``).

RQ (python-rq, on Redis) carries them: a job is a function name and JSON-able
arguments, run by ``boardwire worker`` processes on any machine that shares the
workspace storage (the same paths). Why RQ: it needs only Redis, it is small and
well kept, it records each job's state, result and failure in Redis where every
process can read them, and it needs no broker configuration; Celery's broker and
result backends and Dramatiq's middleware would be more to run for the same work.

The server stays the session's owner (`QueueRunner.run`, in the job's thread):

1. it snapshots the session's unsaved documents (their content) and the revisions
   the job starts from, and enqueues ``boardwire.cli.worker_cmd.execute`` with them;
2. the worker opens a session of the same workspace with those contents, runs the
   command (``boardwire.registry``), and returns its result and, for an edit, the
   new content of each document it changed; failures come back as error objects;
3. the server replaces those documents' contents in its session as one step
   (`Session.replace`: one undo step, ``stale-revision`` if a document moved on
   meanwhile) and answers what the command answered, with its own revision.

Trust: a worker runs only boardwire's own job function (`EXECUTE`). Jobs are stored as
JSON (RQ's JSONSerializer), never pickled, so reading a job runs nothing of it, and
`OwnJobsWorker` fails any job that names another function before it starts: a process
that can write to Redis can make a worker run a boardwire command on a workspace it
shares, but not arbitrary code. Redis itself must still be private: docs/agent-ops.md
says how to run it with a password, TLS and on a private network.

Cancelling (job.cancel, a cancelled call) sets a key the worker watches; the worker
cancels the command, which kills its child processes' group. A worker that stops
mid-job (killed, its machine gone) stops refreshing its job's heartbeat key: after
`LOST_AFTER` seconds the job fails with ``service-unavailable`` and nothing is
applied; a result the lost job might still deliver is never read (each job is
applied once, by the one thread that waits for it).
"""

from __future__ import annotations

import base64
import time

from ..errors import ALL_CODES, BoardwireError, Cancelled, ServiceUnavailable

QUEUE = "boardwire"
EXECUTE = "boardwire.cli.worker_cmd.execute"
HEARTBEAT_S = 0.5  # how often a worker refreshes a running job's heartbeat key
LOST_AFTER = 5.0  # seconds without a heartbeat before a started job counts as lost
POLL_S = 0.1
TIMEOUT_S = 3600


def alive_key(job_id: str) -> str:
    return f"boardwire:alive:{job_id}"


def cancel_key(job_id: str) -> str:
    return f"boardwire:cancel:{job_id}"


def progress_key(job_id: str) -> str:
    return f"boardwire:progress:{job_id}"


def encode(data: bytes) -> str:
    return base64.b64encode(data).decode()


def decode(text: str) -> bytes:
    return base64.b64decode(text)


JSON = "json"  # RQ's JSONSerializer: jobs as JSON, never pickled (see the module)


def worker(url: str, name: str | None = None):
    """A worker for the queue at ``url`` (`OwnJobsWorker`, in this process: no fork)."""
    from redis import Redis
    from rq import Queue

    connection = Redis.from_url(url)
    return _own_jobs_worker()([Queue(QUEUE, connection=connection, serializer=JSON)], connection=connection,
                              name=name, serializer=JSON)


def _own_jobs_worker():
    from rq import SimpleWorker

    class OwnJobsWorker(SimpleWorker):
        """RQ's in-process worker that runs only `EXECUTE`: a job naming another
        function (or one that is not JSON) fails before anything of it runs."""

        def perform_job(self, job, queue, execution) -> bool:
            try:
                name = job.func_name
            except Exception as e:  # not JSON (a pickled job): never unpickled
                name, why = None, f"{type(e).__name__}"
            else:
                why = repr(name)
            if name != EXECUTE:
                def refuse():
                    raise PermissionError(f"refused job function {why}: this worker runs only {EXECUTE}")
                job.perform = refuse
            return super().perform_job(job, queue, execution)

    return OwnJobsWorker


def error_from(obj: dict) -> BoardwireError:
    """The error a worker reported (``{code, message, hint?, data?}``), as its class."""
    cls = ALL_CODES.get(obj.get("code"), BoardwireError)
    return cls(obj.get("message", "the job failed"), hint=obj.get("hint"), **(obj.get("data") or {}))


class QueueRunner:
    """The server's side of the queue: ``url`` is ``redis://HOST:PORT/N``."""

    def __init__(self, url: str):
        from redis import Redis
        from rq import Queue

        self.url = url
        self.redis = Redis.from_url(url)
        self.queue = Queue(QUEUE, connection=self.redis, serializer=JSON)

    def ping(self) -> None:
        """Raise ``service-unavailable`` when Redis does not answer."""
        from redis.exceptions import RedisError

        try:
            self.redis.ping()
        except RedisError as e:
            raise ServiceUnavailable(f"the work queue {self.url} does not answer: {e}",
                                     hint="Start Redis, or serve without --queue.") from None

    def run(self, job, command: str, args: dict, ctx, edits: bool) -> dict:
        """Run ``command`` on a worker for the local `Job` ``job`` (its progress and
        tail follow the worker's) and return its result; edits are applied to
        ``ctx.session`` as one step. Raises the command's error, ``cancelled``, or
        ``service-unavailable`` when the worker was lost."""
        session = ctx.session
        with session.lock:
            docs = {od.path: encode(od.doc.to_bytes()) for od in session.documents.values() if od.modified}
            revisions = {od.path: od.revision for od in session.documents.values()}
        payload = {"command": command, "args": args, "root": str(session.workspace.root), "documents": docs,
                   "actor": ctx.actor, "tables": ctx.tables}
        rq_job = self.queue.enqueue(EXECUTE, payload, job_timeout=TIMEOUT_S, result_ttl=600, failure_ttl=600)
        remove = ctx.cancel.on_cancel(lambda: self.redis.set(cancel_key(rq_job.id), 1, ex=TIMEOUT_S))
        try:
            answer = self._wait(job, rq_job, ctx)
        finally:
            remove()
        if "error" in answer:
            raise error_from(answer["error"])
        out = answer["result"]
        changed = {path: decode(data) for path, data in (answer.get("documents") or {}).items()}
        if edits and changed:
            new = session.replace(changed, command, actor=ctx.actor,
                                  expect={p: revisions[p] for p in changed if p in revisions})
            if isinstance(out, dict) and "revision" in out and len(new) == 1:
                out["revision"] = next(iter(new.values()))
        return out

    def _wait(self, job, rq_job, ctx) -> dict:
        from rq.job import JobStatus

        started_at = None
        seen = 0
        while True:
            status = rq_job.get_status(refresh=True)
            for raw in self.redis.lrange(progress_key(rq_job.id), seen, -1):
                seen += 1
                fraction, _, message = raw.decode().partition(" ")
                job.report(float(fraction), message)
            if status == JobStatus.FINISHED:
                return rq_job.return_value()
            if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
                if ctx.cancel.cancelled:
                    raise Cancelled(f"{job.command} was cancelled on its worker")
                raise ServiceUnavailable(f"{job.command} failed on its worker ({status}); nothing was applied",
                                         hint="Run it again; `boardwire worker` prints what went wrong.")
            if ctx.cancel.cancelled and status in (JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED):
                rq_job.cancel()
                raise Cancelled(f"{job.command} was cancelled before a worker took it")
            if status == JobStatus.STARTED:
                started_at = started_at or time.monotonic()
                if time.monotonic() - started_at > LOST_AFTER and not self.redis.exists(alive_key(rq_job.id)):
                    raise ServiceUnavailable(
                        f"the worker running {job.command} stopped (no heartbeat for {LOST_AFTER:g} s); "
                        "nothing was applied", hint="Run it again; another worker will take it.")
            time.sleep(POLL_S)


