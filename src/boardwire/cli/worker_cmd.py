"""``boardwire worker``: run heavy jobs from the work queue (boardwire.jobs.queue).

Each job is one registry command on a session of the job's workspace (a path this
machine shares with the server) holding the server's unsaved documents. The worker
refreshes the job's heartbeat key while it runs and watches its cancel key; a
cancelled job's command is cancelled (its child processes' group killed).
"""

from __future__ import annotations

import threading

import typer


def execute(payload: dict) -> dict:
    """The RQ job function: ``{result, documents}`` (the new content of each document
    an edit changed, base64) or ``{error}`` (the stable error object)."""
    from rq import get_current_job

    from ..commands import REGISTRY
    from ..errors import BoardwireError
    from ..jobs.queue import (
        HEARTBEAT_S,
        LOST_AFTER,
        alive_key,
        cancel_key,
        decode,
        encode,
        progress_key,
    )
    from ..registry import CancelToken, Context
    from ..session import Session

    rq_job = get_current_job()
    redis = rq_job.connection
    token = CancelToken()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            redis.set(alive_key(rq_job.id), 1, px=int(LOST_AFTER * 1000))
            if redis.exists(cancel_key(rq_job.id)):
                token.cancel()
                return
            done.wait(HEARTBEAT_S)

    def progress(fraction: float, message: str) -> None:
        redis.rpush(progress_key(rq_job.id), f"{fraction:.4f} {message}")
        redis.expire(progress_key(rq_job.id), 3600)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        session = Session(payload["root"])
        for path, data in payload.get("documents", {}).items():
            session.load(path, decode(data))
        ctx = Context(session, actor=payload.get("actor", "worker"), progress_fn=progress, cancel=token,
                      tables=payload.get("tables", "json"))
        try:
            out = REGISTRY.call(payload["command"], payload.get("args") or {}, ctx)
        except BoardwireError as e:
            return {"error": e.to_dict()}
        changed = {od.path: encode(od.doc.to_bytes()) for od in session.documents.values() if od.revision > 0}
        return {"result": out, "documents": changed}
    finally:
        done.set()
        redis.delete(alive_key(rq_job.id))


def worker_command(queue: str = typer.Option(..., "--queue", help="The work queue: redis://HOST:PORT/N"),
                   burst: bool = typer.Option(False, "--burst", help="Stop when the queue is empty"),
                   name: str = typer.Option(None, "--name", help="The worker's name (default: RQ's)")):
    """Run heavy jobs (DRC, fills, renders, fabrication, autoroute, builds) that `boardwire mcp --http --queue` sends."""
    from ..commands import REGISTRY
    from ..jobs.queue import worker

    REGISTRY.all()  # import the commands once, before the first job
    worker(queue, name).work(burst=burst, with_scheduler=False)
