"""session.*: open, close, list, undo, redo, save, revert, describe, batch."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from ..errors import BoardwireError, InvalidArgs
from ..registry import Context, command
from .common import Args, ChangeArgs, Destroys, DocArgs, OutputPath
from .results import AuditExport, Batch, DocumentResult, Documents, Done, Saved, SessionDescribed


def _info(od) -> dict:
    return od.info()


@command("session.open", kind="session", args=DocArgs, result=DocumentResult, idempotent=True,
         examples=({"path": "board.kicad_pcb"},))
def open_(ctx: Context, a: DocArgs) -> dict:
    """Open a KiCad file (board, schematic, library, rules, table or project) into the session; commands also open what they name."""
    od = ctx.session.open(a.path, ctx.actor)
    return {"summary": f"{od.path}: {od.kind}, revision {od.revision}", **_info(od)}


class CloseArgs(DocArgs):
    discard: Annotated[bool, Destroys(of="path")] = Field(False, description="Drop unsaved changes")


@command("session.close", kind="session", args=CloseArgs, result=Done, destructive=True)
def close(ctx: Context, a: CloseArgs) -> dict:
    """Close a document; refuses (unsaved-changes) if it has unsaved changes unless discard."""
    ctx.session.close(a.path, ctx.actor, discard=a.discard)
    return {"summary": f"closed {a.path}"}


@command("session.documents", kind="session", args=Args, result=Documents, idempotent=True)
def documents(ctx: Context, a: Args) -> dict:
    """The open documents with their kind, revision and unsaved state."""
    d = ctx.session.describe()
    n = len(d["documents"])
    return {"summary": f"{n} open document{'s' if n != 1 else ''}", **d}


@command("session.undo", kind="session", args=ChangeArgs, result=DocumentResult)
def undo(ctx: Context, a: ChangeArgs) -> dict:
    """Undo the last change of a document (one command, or one whole batch)."""
    od = ctx.session.undo(a.path, ctx.actor)
    return {"summary": f"{od.path}: back to revision {od.revision}", **_info(od)}


@command("session.redo", kind="session", args=ChangeArgs, result=DocumentResult)
def redo(ctx: Context, a: ChangeArgs) -> dict:
    """Redo the last undone change of a document."""
    od = ctx.session.redo(a.path, ctx.actor)
    return {"summary": f"{od.path}: forward to revision {od.revision}", **_info(od)}


class SaveArgs(DocArgs):
    path: OutputPath = Field(min_length=1, max_length=4096,
                             description="Document path relative to the working directory")
    force: Annotated[bool, Destroys(of="path")] = Field(
        False, description="Overwrite even if the file changed on disk since it was opened")


@command("session.save", kind="session", args=SaveArgs, result=Saved)
def save(ctx: Context, a: SaveArgs) -> dict:
    """Write a document to its file: atomic, with a backup, permissions kept; refuses (file-changed) to overwrite someone else's change unless force. Saves its changed .kicad_pro/.kicad_dru too (saved lists all)."""
    from ..registry import REGISTRY

    project = ctx.session.unsaved_project_files(a.path)
    for path in project:  # a call of its own: the policy checks each file as it checks the document
        REGISTRY.call("session.save", {"path": path, "force": a.force},
                      Context(ctx.session, ctx.actor, ctx.progress_fn, ctx.cancel, tables=ctx.tables))
    od = ctx.session.save(a.path, ctx.actor, force=a.force)
    return {"summary": f"saved {od.path} at revision {od.revision}"
                       + (f", with its unsaved project file{'s' if len(project) > 1 else ''} {', '.join(project)}"
                          if project else ""),
            **_info(od), "hash": od.content_hash, "saved": [*project, od.path]}


@command("session.revert", kind="session", args=ChangeArgs, result=DocumentResult, destructive=True)
def revert(ctx: Context, a: ChangeArgs) -> dict:
    """Drop unsaved changes and read the file again."""
    od = ctx.session.revert(a.path, ctx.actor)
    return {"summary": f"reverted {od.path} to the file on disk", **_info(od)}


@command("session.describe", kind="session", args=Args, result=SessionDescribed, idempotent=True)
def describe(ctx: Context, a: Args) -> dict:
    """The working directory, open documents, and the command families available."""
    from ..registry import REGISTRY

    scopes: dict[str, int] = {}
    for c in REGISTRY.all():
        scopes[c.scope] = scopes.get(c.scope, 0) + 1
    d = ctx.session.describe()
    return {"summary": f"{len(d['documents'])} open, {sum(scopes.values())} commands", **d,
            "commands": scopes}


class Step(Args):
    command: str = Field(description="Command id, e.g. pcb.addTrack")
    args: dict[str, Any] = Field(default_factory=dict)


class BatchArgs(Args):
    steps: list[Step] = Field(min_length=1, max_length=1000)
    label: str | None = Field(None, description="Name of the undo step")


def _run_steps(ctx: Context, a: BatchArgs, id: str) -> dict:
    from ..registry import REGISTRY

    cmds = [REGISTRY.get(s.command) for s in a.steps]
    for i, c in enumerate(cmds):
        if c.kind not in ("edit", "query"):
            raise InvalidArgs(f"step {i} ({c.id}) is {'an' if c.kind[0] in 'aeiou' else 'a'} {c.kind} command; batches hold edits and queries",
                              hint="run checks, exports and session commands as calls of their own",
                              errors=[{"loc": f"steps.{i}.command", "msg": "not an edit or a query",
                                       "type": "value"}])
    results: list[dict] = []

    def run() -> None:
        for i, (step, c) in enumerate(zip(a.steps, cmds)):
            step_ctx = Context(ctx.session, ctx.actor, ctx.progress_fn, ctx.cancel, tables=ctx.tables)
            try:
                results.append(REGISTRY.call(c.id, step.args, step_ctx))
                ctx.new_ids.extend(step_ctx.new_ids)
            except BoardwireError as e:
                e.message = f"step {i} ({c.id}): {e.message}"
                e.args = (e.message,)
                e.data["step"] = i
                raise

    ctx.session.edit(a.label or id, run, actor=ctx.actor, new_ids=ctx.new_ids)
    return {"summary": f"{len(results)} steps applied as one change", "results": results}


@command("session.batch", kind="session", args=BatchArgs, result=Batch,
         examples=({"steps": [{"command": "pcb.addVia", "args": {"path": "b.kicad_pcb", "at": [10, 10]}},
                              {"command": "pcb.addTrack", "args": {"path": "b.kicad_pcb", "points": [[10, 10], [20, 10]], "layer": "F.Cu", "width": 0.25}}]},))
def batch(ctx: Context, a: BatchArgs) -> dict:
    """Run steps in order as one change: edits (one undo step per document changed) and queries, which see the edits before them; every step's result is returned. At the first failure every document is rolled back and the error names the step."""
    return _run_steps(ctx, a, "session.batch")


@command("session.transaction", kind="session", args=BatchArgs, result=Batch)
def transaction(ctx: Context, a: BatchArgs) -> dict:
    """An alias of session.batch, which is already all-or-nothing across documents (one undo step each); its undo step is named session.transaction unless label is given."""
    return _run_steps(ctx, a, "session.transaction")


class ExportArgs(Args):
    report: Literal["markdown", "json"] = Field("markdown", description="markdown: a report; json: the log's lines")
    since: str | None = Field(None, max_length=40, description="A span back (90s, 10m, 2h, 1d) or an ISO time")
    command: str | None = Field(None, min_length=1, max_length=200, description="A command id, or a prefix: pcb.*")
    errors: bool = Field(False, description="Only failed calls")


@command("session.export", kind="session", args=ExportArgs, result=AuditExport, idempotent=True,
         examples=({"report": "markdown", "since": "1h"},))
def export(ctx: Context, a: ExportArgs) -> dict:
    """The workspace's audit log (.boardwire/session.jsonl: every call through every door, with its seconds and error) as a Markdown report or one JSON document."""
    from ..session import audit

    try:
        since = audit.parse_since(a.since) if a.since else None
    except ValueError as e:
        raise InvalidArgs(f"since: {e}", errors=[{"loc": "since", "msg": str(e), "type": "value"}]) from None
    lines = list(audit.read(ctx.session.workspace.root, since=since, command=a.command, errors=a.errors))
    summary = f"{len(lines)} calls logged, {sum(1 for x in lines if x.get('error'))} failed"
    if a.report == "json":
        return {"summary": summary, "calls": lines}
    return {"summary": summary, "markdown": audit.markdown(lines)}
