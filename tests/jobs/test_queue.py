"""Heavy jobs on a work queue (RQ on Redis, `boardwire mcp --http --queue`), on
loopback with a redis-server of the test's own: two workers take jobs from two keys'
workspaces; a worker killed mid-job fails the job cleanly and nothing is applied, not
even later; cancelling reaches across processes and kills the worker's kicad-cli."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from boardwire.errors import ServiceUnavailable
from boardwire.jobs import jobs_of
from boardwire.jobs.queue import QUEUE, QueueRunner
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need

pytestmark = [pytest.mark.kicad, pytest.mark.xdist_group("queue")]
CLI = [sys.executable, "-m", "boardwire.cli.main"]
VIDEO = "video.kicad_pcb"
ECC = "b.kicad_pcb"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while True:
        assert proc.poll() is None and time.time() < deadline, "the process did not start listening"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)


@pytest.fixture
def redis_url(tmp_path):
    if not shutil.which("redis-server"):
        pytest.fail("redis-server is missing: .ci/install-redis.sh installs it")
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    wait_port(port, proc)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(10)


class Workers:
    def __init__(self, url: str):
        self.url = url
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str) -> subprocess.Popen:
        proc = subprocess.Popen([*CLI, "worker", "--queue", self.url, "--name", name], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        self.procs[name] = proc
        return proc

    def children(self, name: str) -> list[int]:
        """Pids of the worker's child processes (kicad-cli, KiCad's Python), each in its own group."""
        pid = self.procs[name].pid
        out = []
        for p in filter(str.isdigit, os.listdir("/proc")):
            try:
                stat = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == pid and stat[0] != "Z":
                    out.append(int(p))
            except (OSError, IndexError):
                continue
        return out

    def kill(self, name: str) -> None:
        children = self.children(name)
        os.killpg(self.procs[name].pid, signal.SIGKILL)
        for child in children:  # orphans a real crash would leave running until done
            try:
                os.killpg(child, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.procs[name].wait(10)

    def stop(self) -> None:
        for name, proc in self.procs.items():
            if proc.poll() is None:
                self.kill(name)


@pytest.fixture
def workers(redis_url):
    w = Workers(redis_url)
    yield w
    w.stop()


def until(pred, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while not pred():
        assert time.time() < deadline, "timed out"
        time.sleep(0.05)


def queued_session(folder: Path, url: str) -> Session:
    session = Session(folder)
    jobs_of(session).queue = QueueRunner(url)
    return session


def test_two_workers_take_jobs_from_two_keys_and_edits_come_back_as_one_step(tmp_path, redis_url, workers,
                                                                              kicad_cli):
    keys = {name: subprocess.run([*CLI, "mcp", "keys", "add", name], cwd=tmp_path, capture_output=True, text=True,
                                 check=True).stdout.strip() for name in ("alice", "bob")}
    for name in keys:
        shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / "workspaces" / name / ECC)
    workers.start("w1")
    workers.start("w2")
    port = free_port()
    server = subprocess.Popen([*CLI, "mcp", "--http", "--port", str(port), "--queue", redis_url], cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_port(port, server)
        url = f"http://127.0.0.1:{port}/mcp"
        direct = REGISTRY.call("check.drc", {"path": ECC}, Context(Session(tmp_path / "workspaces" / "alice"),
                                                                     tables="table"))
        results: dict[str, list] = {}

        async def agent(name: str) -> None:
            async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {keys[name]}"}, timeout=120) as hc:
                async with Client(streamable_http_client(url, http_client=hc)) as c:
                    out = []
                    for _ in range(2):
                        out.append((await c.call_tool("check_drc", {"path": ECC})).structured_content)
                    r = (await c.call_tool("pcb_fillZones", {"path": ECC})).structured_content
                    out.append(r)
                    out.append((await c.call_tool("session_undo", {"path": ECC})).structured_content)
                    results[name] = out

        async def main():
            async with anyio.create_task_group() as tg:
                for name in keys:
                    tg.start_soon(agent, name)

        anyio.run(main)
    finally:
        server.terminate()
        server.wait(10)
    for name, (drc1, drc2, fill, undo) in results.items():
        assert drc1 == drc2 == direct, name  # what the command answers in-process
        assert "error" not in fill and fill["revision"] == 1, fill
        assert undo["revision"] == 0  # the job's edit was one undo step
    from redis import Redis
    from rq import Queue
    from rq.registry import FinishedJobRegistry

    registry = FinishedJobRegistry(queue=Queue(QUEUE, connection=Redis.from_url(redis_url)))
    from rq.job import Job

    names = {Job.fetch(i, connection=registry.connection).worker_name for i in registry.get_job_ids()}
    assert len(registry.get_job_ids()) == 6 and names == {"w1", "w2"}


def test_a_worker_killed_mid_job_fails_it_cleanly_and_it_is_never_applied(tmp_path, redis_url, workers,
                                                                           pcbnew_python):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / ECC)
    session = queued_session(tmp_path, redis_url)
    workers.start("w1")
    r = REGISTRY.call("pcb.fillZones", {"path": ECC, "wait_s": 0}, Context(session, door="script"))
    until(lambda: workers.children("w1"))  # KiCad's filler is running on the worker
    workers.kill("w1")
    t = time.time()
    with pytest.raises(ServiceUnavailable, match="stopped"):
        REGISTRY.call("job.wait", {"job": r["job"], "wait_s": 60}, Context(session, door="script"))
    assert time.time() - t < 30
    assert session.get(ECC).revision == 0 and not session.get(ECC).modified
    workers.start("w2")  # a new worker takes new jobs; the lost one is not run again
    done = REGISTRY.call("check.drc", {"path": ECC, "engine": "builtin"}, Context(session, door="script"))
    assert "summary" in done and jobs_of(session).get(r["job"]).state == "failed"
    time.sleep(1)
    assert session.get(ECC).revision == 0


def test_cancelling_reaches_the_worker_and_kills_its_kicad_cli(tmp_path, redis_url, workers, kicad_cli):
    shutil.copy(need(DEMOS / "video" / VIDEO), tmp_path / VIDEO)
    session = queued_session(tmp_path, redis_url)
    workers.start("w1")
    r = REGISTRY.call("check.drc", {"path": VIDEO, "wait_s": 0}, Context(session, door="script"))
    until(lambda: workers.children("w1"))
    out = REGISTRY.call("job.cancel", {"job": r["job"]}, Context(session, door="script"))
    assert out["state"] == "cancelled" and out["error"]["code"] == "cancelled"
    until(lambda: not workers.children("w1"), 10)  # kicad-cli killed on the worker's machine
    assert workers.procs["w1"].poll() is None  # the worker lives on and takes the next job
    assert "summary" in REGISTRY.call("check.drc", {"path": VIDEO, "engine": "builtin"}, Context(session, door="script"))


@pytest.mark.parametrize("serializer", ["pickle", "json"])
def test_a_worker_runs_nothing_but_boardwire_jobs(tmp_path, redis_url, serializer):
    """A job pushed straight into Redis that names another function (`os.system`, the
    break-it trial's) is failed by the worker before anything of it runs, whether it
    was stored pickled (RQ's default: never unpickled) or as JSON."""
    from redis import Redis
    from rq import Queue

    marker = tmp_path / "pwned"
    queue = Queue(QUEUE, connection=Redis.from_url(redis_url), serializer=serializer)
    job = queue.enqueue("os.system", f"touch {marker}")
    proc = subprocess.run([*CLI, "worker", "--queue", redis_url, "--burst"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists()
    status = Redis.from_url(redis_url).hget(f"rq:job:{job.id}", "status")
    assert status == b"failed"


def test_a_queue_behind_a_password(tmp_path, workers):
    """``redis://:password@host``: the server and the workers reach a Redis that asks for
    a password; without it Redis refuses and the server says the queue does not answer."""
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path), "--requirepass", "s3cret"],
                            stdout=subprocess.DEVNULL)
    try:
        wait_port(port, proc)
        with pytest.raises(ServiceUnavailable):
            QueueRunner(f"redis://127.0.0.1:{port}/0").ping()
        url = f"redis://:s3cret@127.0.0.1:{port}/0"
        QueueRunner(url).ping()
        shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / ECC)
        workers.url = url
        workers.start("w1")
        session = queued_session(tmp_path, url)
        ctx = Context(session, door="jsonrpc")
        out = REGISTRY.call("query.describe", {"path": ECC}, ctx)  # not long: runs here
        assert out["counts"]["footprints"] > 0
        out = REGISTRY.call("check.drc", {"path": ECC, "engine": "builtin", "wait_s": 120}, ctx)
        assert "counts" in out, out
        from redis import Redis
        from rq import Queue

        done = Queue(QUEUE, connection=Redis.from_url(url), serializer="json").finished_job_registry
        assert done.count == 1  # the check ran on the worker
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_queue_over_tls(tmp_path, workers):
    """``rediss://`` (TLS): the server and a worker reach a Redis that speaks only TLS,
    checking its certificate (``ssl_ca_certs``, as redis-py reads it from the URL)."""
    if not shutil.which("openssl"):
        pytest.fail("openssl is missing (Debian's openssl package)")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", "0", "--tls-port", str(port), "--bind", "127.0.0.1",
                             "--tls-cert-file", str(cert), "--tls-key-file", str(key), "--tls-ca-cert-file", str(cert),
                             "--tls-auth-clients", "no", "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL)
    try:
        wait_port(port, proc)
        with pytest.raises(ServiceUnavailable):
            QueueRunner(f"redis://127.0.0.1:{port}/0").ping()  # plain text to a TLS port
        url = f"rediss://127.0.0.1:{port}/0?ssl_ca_certs={cert}"
        QueueRunner(url).ping()
        shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / ECC)
        workers.url = url
        workers.start("w1")
        session = queued_session(tmp_path, url)
        out = REGISTRY.call("check.drc", {"path": ECC, "engine": "builtin", "wait_s": 120},
                            Context(session, door="jsonrpc"))
        assert "counts" in out, out
        from redis import Redis
        from rq import Queue

        assert Queue(QUEUE, connection=Redis.from_url(url), serializer="json").finished_job_registry.count == 1
    finally:
        proc.terminate()
        proc.wait(10)
