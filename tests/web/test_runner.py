"""The configured agent command survives any command: one that exits without reading
its input, fails to start, fails, or hangs ends its request with an error, and the
next request runs (a break-it trial left requests "running" forever after a
BrokenPipeError)."""

from __future__ import annotations

import shlex
import sys
import time

import pytest

from boardwire.session import Session
from boardwire.session.chat import chat_box
from boardwire.web.runner import AgentCommand

PY = shlex.quote(sys.executable)
ECHO = f"{PY} -c \"import sys; print('echo: ' + sys.stdin.read().strip().upper())\""
BIG = "x" * 1_000_000  # more than a pipe holds: writing it to a command that never reads breaks the pipe


def ended(req, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while req.state not in ("done", "error") and time.monotonic() < deadline:
        time.sleep(0.05)
    return req


@pytest.fixture
def session(tmp_path):
    return Session(tmp_path)


@pytest.mark.parametrize("command, expect", [
    (f"{PY} -c \"import sys; sys.exit(3)\"", "exited with status 3"),  # never reads its input
    ("no-such-agent-command-here", "could not start"),
    (f"{PY} -c \"import sys; sys.stdin.close(); print('partial'); sys.exit(1)\"", "exited with status 1"),
])
def test_a_broken_command_ends_its_request_and_the_next_one_runs(session, command, expect):
    runner = AgentCommand(session, command)
    box = chat_box(session)
    try:
        first = ended(box.ask(BIG))
        assert first.state == "error", first.to_dict()
        assert expect in first.error
        runner.argv = shlex.split(ECHO)  # the person fixes the command: the next request is served
        second = ended(box.ask("hello"))
        assert second.state == "done", second.to_dict()
        assert second.answer.strip() == "echo: HELLO"
    finally:
        runner.close()


def test_a_command_that_hangs_is_stopped_at_its_time_limit(session):
    runner = AgentCommand(session, f"{PY} -c \"import time; time.sleep(600)\"", timeout=1.0)
    box = chat_box(session)
    try:
        t0 = time.monotonic()
        hung = ended(box.ask("wait forever"))
        assert hung.state == "error" and "did not finish within 1 s" in hung.error
        assert time.monotonic() - t0 < 15
        runner.argv, runner.timeout = shlex.split(ECHO), 60.0
        assert ended(box.ask("next")).state == "done"
    finally:
        runner.close()


def test_requests_run_one_after_another(session):
    """Two requests typed at once both get answers (the runner's own take of the first
    does not count as an agent listening, which left the second pending)."""
    runner = AgentCommand(session, ECHO)
    box = chat_box(session)
    try:
        a, b = box.ask("one"), box.ask("two")
        assert ended(a).answer.strip() == "echo: ONE"
        assert ended(b).answer.strip() == "echo: TWO"
        assert not box.listening()
    finally:
        runner.close()
