"""agent.*: the editor chat box of the live view (`boardwire.session.chat`).

A person types a request in the page (agent.ask, over the bridge); an agent takes it
with agent.chat and answers with agent.reply. MCP lists agent_chat and agent_reply in
the opt-in toolset ``agent`` (``boardwire mcp --toolset all,agent``); agent.ask and
agent.requests are the page's and are not MCP tools.
"""

from __future__ import annotations

from pydantic import Field

from ..registry import Context, command
from ..session.chat import MAX_WAIT, chat_box
from .common import Args, DocPath
from .results import ChatAsked, ChatReplied, ChatRequests, ChatTaken


class ChatArgs(Args):
    wait: float = Field(0, ge=0, le=MAX_WAIT, description="Seconds to wait for a request when none is pending")


@command("agent.chat", kind="session", args=ChatArgs, result=ChatTaken, units="seconds",
         examples=({"wait": 60},))
def chat(ctx: Context, a: ChatArgs) -> dict:
    """Take the requests typed in the live view's chat box: [{chatId, text, path, at}]; each is yours until agent_reply done or error."""
    found = chat_box(ctx.session).take(ctx.actor, a.wait, lambda: ctx.cancel.cancelled)
    n = len(found)
    return {"summary": f"{n} chat request{'s' if n != 1 else ''}" + (
        ": answer each with agent_reply (progress, text, then done)" if n else ""),
            "requests": [r.brief() for r in found]}


class ReplyArgs(Args):
    chatId: str = Field(min_length=1, max_length=100)
    progress: str | None = Field(None, max_length=2000, description="The progress line shown on the page")
    percent: float | None = Field(None, ge=0, le=100)
    text: str | None = Field(None, max_length=100_000, description="Answer text, appended")
    done: bool = False
    error: str | None = Field(None, max_length=10_000, description="The request failed: why")


@command("agent.reply", kind="session", args=ReplyArgs, result=ChatReplied, units="percent 0..100",
         examples=({"chatId": "c1", "progress": "routing GND", "percent": 40},
                   {"chatId": "c1", "text": "Moved R1 2 mm right.", "done": True}))
def reply(ctx: Context, a: ReplyArgs) -> dict:
    """Answer a chat request: progress, answer text, then done (or error); the edits you made meanwhile are listed on the page with their undo."""
    req = chat_box(ctx.session).reply(a.chatId, progress=a.progress, percent=a.percent, text=a.text,
                                      done=a.done, error=a.error)
    return {"summary": f"{req.chat_id}: {req.state}, {len(req.edits)} edit(s) counted", "state": req.state,
            "edits": len(req.edits)}


class AskArgs(Args):
    text: str = Field(min_length=1, max_length=20_000)
    path: DocPath | None = Field(None, max_length=4096, description="The document the request is about")


@command("agent.ask", kind="session", args=AskArgs, result=ChatAsked)
def ask(ctx: Context, a: AskArgs) -> dict:
    """(The live view's chat box) Send a request to the agents; says whether one is listening."""
    box = chat_box(ctx.session)
    listening = box.listening()
    req = box.ask(a.text, a.path)
    return {"summary": f"{req.chat_id}: " + ("sent to the listening agent" if listening else "no agent is listening"),
            "chatId": req.chat_id, "listening": listening}


@command("agent.requests", kind="session", args=Args, result=ChatRequests, idempotent=True)
def requests(ctx: Context, a: Args) -> dict:
    """(The live view's chat box) Every request with its state, answer, progress and edits."""
    box = chat_box(ctx.session)
    reqs = box.all()
    return {"summary": f"{len(reqs)} chat request(s)", "requests": reqs, "listening": box.listening()}
