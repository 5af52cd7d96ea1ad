"""The chat box of the live view (session/chat.py) and its commands (agent.*), without
a browser: requests, waiting, replies, the edits counted while a request runs, errors."""

from __future__ import annotations

import shutil
import threading
import time

import pytest

from boardwire.errors import InvalidArgs, NotFound
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from boardwire.session.chat import chat_box
from tests.inputs import DEMOS, need

BOARD = "b.kicad_pcb"


@pytest.fixture
def session(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    return Session(tmp_path)


def call(session, command, args, actor="mcp"):
    return REGISTRY.call(command, args, Context(session, actor=actor))


def test_a_request_reaches_a_waiting_agent_and_its_edits_are_counted(session):
    heard = []
    chat_box(session).subscribe(heard.append)
    got = {}
    agent = threading.Thread(target=lambda: got.update(call(session, "agent.chat", {"wait": 10})))
    agent.start()
    deadline = time.monotonic() + 10
    while not chat_box(session).listening() and time.monotonic() < deadline:
        time.sleep(0.02)
    asked = call(session, "agent.ask", {"text": "move C1", "path": BOARD}, actor="boardwire-web-1")
    assert asked["listening"] is True  # the agent waits in agent.chat
    agent.join(10)
    (req,) = got["requests"]
    assert req["text"] == "move C1" and req["path"] == BOARD and req["chatId"] == asked["chatId"]
    call(session, "pcb.move", {"path": BOARD, "reference": "C1", "by": [1, 0]})
    call(session, "session.undo", {"path": BOARD})  # an undo is not an edit of the request
    out = call(session, "agent.reply", {"chatId": req["chatId"], "text": "done it", "done": True})
    assert out["state"] == "done" and out["edits"] == 1
    state = call(session, "agent.requests", {})["requests"][0]
    assert state["answer"] == "done it" and [e["label"] for e in state["edits"]] == ["pcb.move"]
    assert [e["kind"] for e in heard] == ["request", "taken", "edit", "text", "done"]
    # finished: another reply is refused, edits no longer counted
    with pytest.raises(InvalidArgs):
        call(session, "agent.reply", {"chatId": req["chatId"], "text": "more"})
    call(session, "pcb.move", {"path": BOARD, "reference": "C1", "by": [1, 0]})
    assert len(call(session, "agent.requests", {})["requests"][0]["edits"]) == 1


def test_waiting_ends_when_time_is_up_or_the_call_is_cancelled(session):
    start = time.monotonic()
    assert call(session, "agent.chat", {"wait": 0.3})["requests"] == []
    assert 0.25 < time.monotonic() - start < 3
    ctx = Context(session, actor="mcp")
    threading.Timer(0.2, ctx.cancel.cancel).start()
    start = time.monotonic()
    assert REGISTRY.call("agent.chat", {"wait": 600}, ctx)["requests"] == []
    assert time.monotonic() - start < 3


def test_bad_replies(session):
    with pytest.raises(NotFound):
        call(session, "agent.reply", {"chatId": "c99", "text": "x"})
    req = call(session, "agent.ask", {"text": "hi"})
    assert req["listening"] is False  # nobody asked agent.chat
    with pytest.raises(InvalidArgs):
        call(session, "agent.reply", {"chatId": req["chatId"], "percent": 101})
    with pytest.raises(InvalidArgs):
        call(session, "agent.chat", {"wait": 601})
    with pytest.raises(InvalidArgs):
        call(session, "agent.ask", {"text": "   "})
    out = call(session, "agent.reply", {"chatId": req["chatId"], "error": "cannot"})
    assert out["state"] == "error"
