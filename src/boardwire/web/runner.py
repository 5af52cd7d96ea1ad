"""The configured agent command: started for a chat request when no agent listens.

``boardwire view --agent-command "claude --print --mcp-config cfg.json --allowedTools mcp__boardwire"``:
for a request no agent took, the command runs in the working directory with the
request's text on stdin and ``BOARDWIRE_CHAT_ID`` in its environment; each line it
prints is appended to the answer, and its exit ends the request (done, or error with
the status and the last lines of stderr). Edits it makes through the server meanwhile
are counted on the request like any agent's. After agent-protocols-edsnx section 2.1.

Whatever the command does, the request ends and the next one runs: requests run one at
a time, in order; a command that cannot start, exits without reading its input, fails,
or runs past ``timeout`` seconds (its whole process group is then killed) ends its
request with an error the page shows.
"""

from __future__ import annotations

import logging
import os
import queue
import shlex
import signal
import subprocess
import threading

from ..session.chat import chat_box

RUNNER = "agent-command"  # the actor that takes the request
DEFAULT_TIMEOUT = 1800.0  # seconds an agent command may run for one request
log = logging.getLogger("boardwire")


class AgentCommand:
    """Runs ``command`` (a shell-like string, split with shlex) for unanswered requests of
    ``session``, one at a time. ``grace``: seconds to leave a listening agent before
    starting it; ``timeout``: seconds one run may take."""

    def __init__(self, session, command: str, *, env: dict | None = None, grace: float = 0.0,
                 timeout: float = DEFAULT_TIMEOUT):
        self.session = session
        self.argv = shlex.split(command)
        self.env = env or {}
        self.grace = grace
        self.timeout = timeout
        self.box = chat_box(session)
        self._todo: queue.Queue[str | None] = queue.Queue()
        self._worker = threading.Thread(target=self._work, daemon=True, name="boardwire-agent-command")
        self._worker.start()
        self._stop = self.box.subscribe(self._on_chat)

    def close(self) -> None:
        self._stop()
        self._todo.put(None)

    def _on_chat(self, event: dict) -> None:
        if event.get("kind") == "request" and not self.box.listening():
            self._todo.put(event["chatId"])

    def _work(self) -> None:
        while (chat_id := self._todo.get()) is not None:
            try:
                self._run(chat_id)
            except Exception as e:  # the request must end, and the next one run
                log.exception("agent command failed on chat request %s", chat_id)
                self._end(chat_id, error=f"the agent command failed: {type(e).__name__}: {e}")

    def _end(self, chat_id: str, **how) -> None:
        """Reply ``how`` (done or error) unless the request has ended already."""
        try:
            self.box.reply(chat_id, **how)
        except Exception:  # already done or error (another agent answered it)
            pass

    def _run(self, chat_id: str) -> None:
        taken = self.box.take(RUNNER, self.grace, chat_id=chat_id, listens=False)
        if not taken:
            return
        req = taken[0]
        self.box.reply(chat_id, progress=f"started {self.argv[0] if self.argv else '(empty command)'}")
        try:
            proc = subprocess.Popen(self.argv, cwd=self.session.workspace.root, stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                                    env={**os.environ, **self.env, "BOARDWIRE_CHAT_ID": chat_id},
                                    start_new_session=(os.name == "posix"))
        except (OSError, ValueError, IndexError) as e:
            self._end(chat_id, error=f"the agent command could not start: {e}")
            return
        err: list[str] = []
        timed_out = threading.Event()

        def stop() -> None:
            timed_out.set()
            _kill(proc)

        watchdog = threading.Timer(self.timeout, stop)
        watchdog.daemon = True
        watchdog.start()
        threads = [threading.Thread(target=lambda: err.extend(proc.stderr), daemon=True),
                   threading.Thread(target=_feed, args=(proc, req.text), daemon=True)]
        for t in threads:
            t.start()
        try:
            for line in proc.stdout:
                self.box.reply(chat_id, text=line)
            status = proc.wait()
        finally:
            watchdog.cancel()
            if proc.poll() is None:
                _kill(proc)
        for t in threads:
            t.join(5)
        tail = "".join(err[-5:]).strip()
        if timed_out.is_set():
            self._end(chat_id, error=f"{self.argv[0]} did not finish within {self.timeout:g} s and was stopped"
                                     + (f": {tail}" if tail else ""))
        elif status:
            self._end(chat_id, error=f"{self.argv[0]} exited with status {status}" + (f": {tail}" if tail else ""))
        else:
            self._end(chat_id, done=True)


def _feed(proc: subprocess.Popen, text: str) -> None:
    """Write the request to the command's input; a command that exits (or closes its
    input) without reading it is not an error of its own: its exit status says."""
    try:
        proc.stdin.write(text)
        proc.stdin.close()
    except (BrokenPipeError, OSError, ValueError):
        pass


def _kill(proc: subprocess.Popen) -> None:
    """Kill the command and everything it started (its own process group)."""
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass
