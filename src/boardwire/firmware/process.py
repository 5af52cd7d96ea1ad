"""Child processes for builds: one process group per child, output streamed line by
line, cancellation kills the whole group (POSIX ``killpg``)."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from dataclasses import dataclass, field
from typing import Callable

from ..errors import Cancelled


@dataclass
class Finished:
    """A finished child: exit status and its output lines (stdout and stderr merged,
    in the order they arrived)."""

    returncode: int
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child's process group (its own session: every grandchild too, even
    when the child itself has exited). Used for kicad-cli too (`boardwire.kicad.cli`)."""
    if proc.poll() is not None and os.name != "posix":
        return
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass


def run_streaming(argv: list[str], *, cwd: str, env: dict | None = None, cancel=None,
                  on_line: Callable[[str], None] | None = None, timeout: float = 3600,
                  on_start: Callable[[subprocess.Popen], None] | None = None) -> Finished:
    """Run ``argv`` in ``cwd`` as the leader of a new session, calling ``on_line`` for
    each output line as it comes.

    ``cancel`` is a `boardwire.registry.CancelToken`-like object (``on_cancel``,
    ``cancelled``): cancelling kills the process group and raises `Cancelled`; so does
    running past ``timeout`` seconds. Raises FileNotFoundError when ``argv[0]`` is not
    found."""
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=(os.name == "posix"))
    if on_start is not None:
        on_start(proc)
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        kill_group(proc)

    remove = cancel.on_cancel(kill) if cancel is not None else (lambda: None)
    timer = threading.Timer(timeout, kill)
    timer.daemon = True
    timer.start()
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            lines.append(line)
            if on_line is not None:
                on_line(line)
        proc.wait()
    finally:
        timer.cancel()
        remove()
        if proc.poll() is None:
            kill_group(proc)
            proc.wait()
    if killed.is_set():
        raise Cancelled(f"{os.path.basename(argv[0])} was stopped"
                        + (" (cancelled)" if cancel is not None and cancel.cancelled else f" after {timeout:.0f} s"))
    return Finished(proc.returncode, lines)
