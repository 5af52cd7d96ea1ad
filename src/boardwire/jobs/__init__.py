"""Long work (issue 16): ``wait_s``, job status, wait and cancel, in-process threads
(jobs.py) or a work queue on Redis (queue.py)."""

from .jobs import KEEP, Job, JobTable, Running, jobs_of

__all__ = ["KEEP", "Job", "JobTable", "Running", "jobs_of"]
