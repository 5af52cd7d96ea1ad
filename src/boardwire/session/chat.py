"""The editor chat box: requests a person types in the live view, served by agents.

A request (``ask``) waits until an agent takes it (``take``, behind the MCP tool
``agent_chat``); the agent answers with events (``reply``: progress, text, done,
error, behind ``agent_reply``). While a request runs (taken, not yet done) every edit
of any document, through any door, is counted on it and listed on the page's answer
card with its undo. Listeners (the JSON-RPC doors, so the page) hear every request
and event. After the editor chat box of agent-protocols-edsnx section 2.1: requests
``{chatId, text, path, at}``, events ``{chatId, kind, text?, percent?}`` with kind
text, progress, done or error.

One box per session (`chat_box`); its methods are thread-safe.
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from ..errors import InvalidArgs, NotFound

MAX_WAIT = 600.0  # seconds an agent may wait for a request
LISTENING_FOR = 5.0  # seconds after an agent's last agent_chat during which it counts as listening
KEPT = 200  # finished requests kept for the page


@dataclass
class Request:
    chat_id: str
    text: str
    path: str | None
    at: float
    state: str = "pending"  # pending, running, done, error
    taken_by: str | None = None
    answer: str = ""
    progress: str = ""
    percent: float | None = None
    error: str | None = None
    edits: list[dict] = field(default_factory=list)

    def brief(self) -> dict:
        """What an agent gets from agent_chat."""
        return {"chatId": self.chat_id, "text": self.text, "path": self.path, "at": self.at}

    def to_dict(self) -> dict:
        return {**self.brief(), "state": self.state, "takenBy": self.taken_by, "answer": self.answer,
                "progress": self.progress, "percent": self.percent, "error": self.error,
                "edits": list(self.edits)}


class ChatBox:
    """Requests of one session, their answers and the edits made while they run."""

    def __init__(self, session) -> None:
        self.session = session
        self.requests: dict[str, Request] = {}
        self._cond = threading.Condition()
        self._ids = itertools.count(1)
        self._listeners: list[Callable[[dict], None]] = []
        self._waiting = 0
        self._last_poll = 0.0
        session.subscribe(self._on_event)

    # -- listeners -------------------------------------------------------------------

    def subscribe(self, listener: Callable[[dict], None]) -> Callable[[], None]:
        """Call ``listener`` with every chat event ``{chatId, kind, ...}`` (kinds: request,
        taken, progress, text, edit, done, error); returns the unsubscriber."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _tell(self, event: dict) -> None:
        for listener in list(self._listeners):
            listener(event)

    # -- the page's side -------------------------------------------------------------

    def ask(self, text: str, path: str | None = None) -> Request:
        """A new request typed by a person; ``path`` the document it is about."""
        text = text.strip()
        if not text:
            raise InvalidArgs("a chat request needs some text", errors=[{"loc": "text", "msg": "empty", "type": "value"}])
        with self._cond:
            req = Request(f"c{next(self._ids)}", text, path, time.time())
            self.requests[req.chat_id] = req
            done = [r for r in self.requests.values() if r.state in ("done", "error")]
            for old in done[:max(0, len(done) - KEPT)]:
                del self.requests[old.chat_id]
            self._cond.notify_all()
        self._tell({"chatId": req.chat_id, "kind": "request", "request": req.to_dict()})
        return req

    def listening(self) -> bool:
        """True while an agent waits in agent_chat or asked within LISTENING_FOR seconds."""
        with self._cond:
            return self._waiting > 0 or time.monotonic() - self._last_poll < LISTENING_FOR

    def all(self) -> list[dict]:
        """Every kept request, oldest first, as the page shows it."""
        with self._cond:
            return [r.to_dict() for r in self.requests.values()]

    def get(self, chat_id: str) -> Request:
        with self._cond:
            req = self.requests.get(chat_id)
        if req is None:
            raise NotFound(f"no chat request {chat_id!r}", hint="agent_chat lists the pending requests")
        return req

    # -- the agent's side ------------------------------------------------------------

    def take(self, actor: str, wait: float = 0.0, cancelled: Callable[[], bool] = lambda: False,
             chat_id: str | None = None, listens: bool = True) -> list[Request]:
        """The pending requests (or the one ``chat_id``), now running for ``actor``;
        waits up to ``wait`` seconds (at most MAX_WAIT) when none is pending.
        ``listens``: the caller is an agent waiting for work, so it counts as listening
        (`listening`); the configured agent command's own take does not."""
        deadline = time.monotonic() + max(0.0, min(wait, MAX_WAIT))
        with self._cond:
            self._waiting += listens
            try:
                while True:
                    found = [r for r in self.requests.values() if r.state == "pending"
                             and (chat_id is None or r.chat_id == chat_id)]
                    left = deadline - time.monotonic()
                    if found or left <= 0 or cancelled():
                        break
                    self._cond.wait(min(left, 0.25))
                for r in found:
                    r.state, r.taken_by = "running", actor
            finally:
                self._waiting -= listens
                if listens:
                    self._last_poll = time.monotonic()
        for r in found:
            self._tell({"chatId": r.chat_id, "kind": "taken", "actor": actor})
        return found

    def reply(self, chat_id: str, *, progress: str | None = None, percent: float | None = None,
              text: str | None = None, done: bool = False, error: str | None = None) -> Request:
        """An agent's progress line, answer text (appended), end or failure."""
        req = self.get(chat_id)
        events = []
        with self._cond:
            if req.state in ("done", "error"):
                raise InvalidArgs(f"chat request {chat_id} is already {req.state}",
                                  errors=[{"loc": "chatId", "msg": "finished", "type": "value"}])
            req.state = "running" if req.state == "pending" else req.state
            if progress is not None or percent is not None:
                req.progress = progress if progress is not None else req.progress
                req.percent = percent if percent is not None else req.percent
                events.append({"kind": "progress", "text": req.progress, "percent": req.percent})
            if text:
                req.answer += text
                events.append({"kind": "text", "text": text})
            if error is not None:
                req.state, req.error = "error", error
                events.append({"kind": "error", "text": error})
            elif done:
                req.state = "done"
                events.append({"kind": "done", "text": req.answer})
        for ev in events:
            self._tell({"chatId": chat_id, **ev})
        return req

    # -- edits while a request runs ----------------------------------------------------

    def _on_event(self, event) -> None:
        if event.reason != "edit":
            return
        with self._cond:
            running = [r for r in self.requests.values() if r.state == "running"]
            entry = {"path": event.path, "revision": event.revision, "label": event.label, "actor": event.actor}
            for r in running:
                r.edits.append(entry)
        for r in running:
            self._tell({"chatId": r.chat_id, "kind": "edit", "edit": entry, "count": len(r.edits)})


_lock = threading.Lock()


def chat_box(session) -> ChatBox:
    """The chat box of ``session`` (made on first use, kept on the session)."""
    with _lock:
        box = getattr(session, "_chat_box", None)
        if box is None:
            box = session._chat_box = ChatBox(session)
        return box
