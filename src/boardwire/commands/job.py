"""job.*: the long calls that answered with a job (boardwire.jobs): status, wait, cancel."""

from __future__ import annotations

from pydantic import Field

from ..jobs import Running, jobs_of
from ..registry import Context, command
from ..registry.command import DEFAULT_WAIT_S
from .common import Args, Result
from .results import JobResult, JobStatus

JobId = Field(min_length=1, max_length=40, description="Job id")


class StatusArgs(Args):
    job: str | None = Field(None, min_length=1, max_length=40, description="Default: every job kept")


class WaitArgs(Args):
    job: str = JobId
    wait_s: float = Field(DEFAULT_WAIT_S, ge=0, le=3600, description="s")


class JobArgs(Args):
    job: str = JobId


@command("job.status", kind="session", args=StatusArgs, result=JobStatus, idempotent=True, tables=("jobs",))
def status(ctx: Context, a: StatusArgs) -> dict:
    """A job's state (running, done, failed, cancelled), progress and last output lines; without job, every job kept (the newest 64)."""
    table = jobs_of(ctx.session)
    if a.job is not None:
        s = table.get(a.job).status()
        return {"summary": f"job {s['job']} ({s['command']}): {s['state']}, {s['progress']:.0%}, {s['seconds']} s", **s}
    rows = [j.status() for j in table.all()]
    running = sum(r["state"] == "running" for r in rows)
    return {"summary": f"{len(rows)} jobs, {running} running", "jobs": rows}


@command("job.wait", kind="session", args=WaitArgs, result=Result, idempotent=True)
def wait(ctx: Context, a: WaitArgs) -> dict:
    """Wait for a job: the long call's own result (or error), or the job again if still running. Cancelling this call cancels the job."""
    job = jobs_of(ctx.session).get(a.job)
    remove = ctx.cancel.on_cancel(lambda: job.cancel(0))
    try:
        out = job.wait(a.wait_s, ctx.progress_fn)
    finally:
        remove()
    return out.to_dict() if isinstance(out, Running) else out


@command("job.cancel", kind="session", args=JobArgs, result=JobResult)
def cancel(ctx: Context, a: JobArgs) -> dict:
    """Cancel a job: its child processes are killed, documents stay as before it."""
    job = jobs_of(ctx.session).get(a.job)
    was = job.state
    job.cancel()
    said = f"was {was}; now {job.state}" if job.state != was else f"had already ended: {was}"
    return {"summary": f"job {job.id} ({job.command}) {said}", **job.status()}
