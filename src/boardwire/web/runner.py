"""The configured agent command: started for a chat request when no agent listens.

``boardwire view --agent-command "claude --print --mcp-config cfg.json --allowedTools mcp__boardwire"``:
for a request no agent took, the command runs in the working directory with the
request's text on stdin and ``BOARDWIRE_CHAT_ID`` in its environment; each line it
prints is appended to the answer, and its exit ends the request (done, or error with
the status and the last lines of stderr). Edits it makes through the server meanwhile
are counted on the request like any agent's. After agent-protocols-edsnx section 2.1.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import threading

from ..session.chat import chat_box

RUNNER = "agent-command"  # the actor that takes the request


class AgentCommand:
    """Runs ``command`` (a shell-like string, split with shlex) for unanswered requests of
    ``session``. ``grace``: seconds to leave a listening agent before starting it."""

    def __init__(self, session, command: str, *, env: dict | None = None, grace: float = 0.0):
        self.session = session
        self.argv = shlex.split(command)
        self.env = env or {}
        self.grace = grace
        self.box = chat_box(session)
        self._stop = self.box.subscribe(self._on_chat)

    def close(self) -> None:
        self._stop()

    def _on_chat(self, event: dict) -> None:
        if event.get("kind") == "request" and not self.box.listening():
            threading.Thread(target=self._run, args=(event["chatId"],), daemon=True,
                             name=f"boardwire-agent-{event['chatId']}").start()

    def _run(self, chat_id: str) -> None:
        taken = self.box.take(RUNNER, self.grace, chat_id=chat_id)
        if not taken:
            return
        req = taken[0]
        self.box.reply(chat_id, progress=f"started {self.argv[0]}")
        try:
            proc = subprocess.Popen(self.argv, cwd=self.session.workspace.root, stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    env={**os.environ, **self.env, "BOARDWIRE_CHAT_ID": chat_id})
        except OSError as e:
            self.box.reply(chat_id, error=f"the agent command could not start: {e}")
            return
        err: list[str] = []
        reader = threading.Thread(target=lambda: err.extend(proc.stderr), daemon=True)
        reader.start()
        proc.stdin.write(req.text)
        proc.stdin.close()
        for line in proc.stdout:
            self.box.reply(chat_id, text=line)
        status = proc.wait()
        reader.join(5)
        if status:
            self.box.reply(chat_id, error=f"{self.argv[0]} exited with status {status}: " + "".join(err[-5:]).strip())
        else:
            self.box.reply(chat_id, done=True)
