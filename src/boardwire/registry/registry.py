"""The registry: looks commands up, validates arguments, runs them in the session, and
turns every failure into an error with a stable code."""

from __future__ import annotations

import json
import logging
import math
import os
import re
import threading
import time
import traceback
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Callable, Iterator

from pydantic import BaseModel, ValidationError, create_model

from ..errors import (
    BoardwireError,
    Internal,
    InvalidArgs,
    IOFailure,
    NoDocument,
    ReadOnlyFile,
    UnknownCommand,
)
from ..jobs import Running, jobs_of
from ..session.audit import audit_of
from . import policy, roles, tables
from .command import DEFAULT_WAIT_S, KINDS, Command, LongArgs
from .context import AGENT_DOORS, DOORS, Context
from .tables import TableFormat

log = logging.getLogger("boardwire")
LOCAL_SCOPES = ("fw",)  # long commands never sent to a work queue: the board is on this machine
_calling = threading.local()  # .door: the door of the call this thread runs (nested calls inherit it);
# .call: its audit line's `_Call` (nested calls add the files they name)
# Check every result against its command's result model (`check_result`); read once,
# at import: tests/conftest.py sets it for the whole suite (and the servers it starts).
CHECK_RESULTS = os.environ.get("BOARDWIRE_CHECK_RESULTS", "") not in ("", "0")


# Control characters no argument may carry: C0 but tab, line feed and carriage return
# (KiCad's strings keep those), and DEL. KiCad cuts a string at a NUL and its files
# cannot hold the others, so they are refused here, once for every command. A field
# that is no KiCad text (bytes for a serial port: Ctrl-C) opts out with
# ``json_schema_extra={"control_characters": True}``.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _control_characters(raw: Any, loc: str = "") -> list[dict]:
    """Where strings in ``raw`` (nested objects and arrays, keys included) hold a
    `_CONTROL` character: validation errors in the shape of `_validation_errors`."""
    out = []
    if isinstance(raw, str):
        m = _CONTROL.search(raw)
        if m:
            out.append({"loc": loc or "(arguments)", "type": "control_character",
                        "msg": f"control character U+{ord(m.group()):04X} at position {m.start()} "
                               "(KiCad files cannot hold it; KiCad cuts a string at a NUL)"})
    elif isinstance(raw, dict):
        for k, v in raw.items():
            key = f"{loc}.{k}" if loc else str(k)
            out += _control_characters(k, key) + _control_characters(v, key)
    elif isinstance(raw, (list, tuple)):
        for i, v in enumerate(raw):
            out += _control_characters(v, f"{loc}.{i}" if loc else str(i))
    return out


@lru_cache(maxsize=None)
def _takes_controls(args: type[BaseModel]) -> frozenset[str]:
    """The fields of an arguments model that may carry control characters (see `_CONTROL`)."""
    return frozenset(name for name, f in args.model_fields.items()
                     if isinstance(f.json_schema_extra, dict) and f.json_schema_extra.get("control_characters"))


def default_wait_s() -> float:
    """A long call's ``wait_s`` when it gives none: `DEFAULT_WAIT_S` (25 s), or the
    server's ``BOARDWIRE_WAIT_S`` environment variable (seconds, 0..3600) for clients
    that wait longer (a test suite on a busy machine sets it high)."""
    raw = os.environ.get("BOARDWIRE_WAIT_S")
    if not raw:
        return DEFAULT_WAIT_S
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 3600:  # NaN, infinities, negatives and more than an hour too
        log.warning("BOARDWIRE_WAIT_S=%r is not 0 to 3600 seconds; using %g", raw, DEFAULT_WAIT_S)
        return DEFAULT_WAIT_S
    return value


def _validation_errors(e: ValidationError) -> list[dict]:
    return [{"loc": ".".join(str(p) for p in err["loc"]) or "(arguments)",
             "msg": err["msg"], "type": err["type"]} for err in e.errors()]


class Registry:
    def __init__(self) -> None:
        self._commands: dict[str, Command] = {}
        self._edit_hooks: list = []
        self._loaders: list = []
        self._load_one: list = []
        self._load_lock = threading.RLock()

    def add_loader(self, loader, one=None) -> None:
        """Register ``loader()``, run once before the first lookup of every command: it
        imports (and so registers) commands declared elsewhere; and ``one(id)``, which
        imports only the module that declares ``id`` (if it knows it), for a lookup by
        id, so a call pays for its own family alone. The command families install
        theirs when their package is imported (`boardwire.commands`); the registry
        itself imports no command module."""
        self._loaders.append(loader)
        if one is not None:
            self._load_one.append(one)

    def _load(self) -> None:
        if self._loaders:
            with self._load_lock:
                while self._loaders:
                    self._loaders.pop(0)()

    def _load_for(self, id: str) -> None:
        if id in self._commands or not self._loaders:
            return
        with self._load_lock:
            for one in self._load_one:
                one(id)
                if id in self._commands:
                    return
        self._load()  # an id no index knows: every command, for the error's suggestion

    def on_edit(self, hook) -> None:
        """Wrap every edit command: ``hook(cmd, args, ctx)`` runs before the edit and
        returns None or a function that is called with the edit's result once the edit
        is committed (and may add keys to it, e.g. the violations it introduced); when
        the edit fails instead, that function's ``abandon()`` is called if it has one.
        A failing hook is logged and never fails the edit."""
        self._edit_hooks.append(hook)

    def _before_edit(self, cmd: Command, args, ctx: Context) -> list:
        afters = []
        for hook in self._edit_hooks:
            try:
                after = hook(cmd, args, ctx)
            except Exception:  # feedback must never break an edit
                log.error("edit hook failed before %s: %s", cmd.id, traceback.format_exc())
                continue
            if after is not None:
                afters.append(after)
        return afters

    def _after_edit(self, cmd: Command, afters: list, out: dict) -> None:
        for after in afters:
            try:
                after(out)
            except Exception:
                log.error("edit hook failed after %s: %s", cmd.id, traceback.format_exc())

    def add(self, cmd: Command) -> None:
        if cmd.id in self._commands:
            raise ValueError(f"command {cmd.id} declared twice")
        self._commands[cmd.id] = cmd

    def get(self, id: str) -> Command:
        self._load_for(id)
        cmd = self._commands.get(id)
        if cmd is None:
            close = [c for c in self._commands if c.split(".")[-1] == id.split(".")[-1]]
            raise UnknownCommand(f"no command {id!r}" + (f"; did you mean {close[0]}?" if close else ""))
        return cmd

    def all(self) -> list[Command]:
        self._load()
        return sorted(self._commands.values(), key=lambda c: c.id)

    def validate(self, cmd: Command, raw: Any) -> BaseModel:
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise InvalidArgs(f"{cmd.id}: arguments must be an object, not {type(raw).__name__}",
                              errors=[{"loc": "(arguments)", "msg": "expected an object",
                                       "type": "type"}])
        free = _takes_controls(cmd.args)
        bad = _control_characters({k: v for k, v in raw.items() if k not in free})
        if bad:
            raise InvalidArgs(f"{cmd.id}: {bad[0]['loc']}: {bad[0]['msg']}"
                              + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""),
                              errors=bad)
        try:
            return cmd.args.model_validate(raw)
        except ValidationError as e:
            errors = _validation_errors(e)
            first = errors[0]
            raise InvalidArgs(f"{cmd.id}: {first['loc']}: {first['msg']}"
                              + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""),
                              errors=errors) from None

    def call(self, id: str, raw: Any, ctx: Context) -> dict:
        """Run command ``id`` with JSON arguments ``raw``; returns its JSON result.

        Every door's call passes here. A call through a door (``ctx.door`` in
        `DOORS`) is written to the workspace's audit log (`boardwire.session.audit`);
        through an agent's door (`AGENT_DOORS`) it is checked against the workspace's
        policy (`policy`), its nested calls too, and a long command not done within
        its ``wait_s`` answers with a job (`boardwire.jobs`; the work goes on).
        Raises BoardwireError (stable code) on failure; anything unexpected becomes
        ``internal`` and the session is left as it was before the call."""
        outer = getattr(_calling, "door", None)
        if outer is not None or ctx.door not in DOORS:  # nested, or boardwire's own call
            cmd, args = self._checked(id, raw, ctx, outer)
            return self._run(cmd, args, ctx)
        with _audited(ctx, ctx.door, id, raw, time.time()) as call:
            cmd, args = self._checked(id, raw, ctx, ctx.door)
            if cmd.long and ctx.door in AGENT_DOORS and not ctx.session.grouping_here:
                # (inside the caller's own change, a batch or a script's transaction, a
                # job's thread would wait for the lock that change holds: run it here)
                call.out = self._as_job(cmd, args, raw, ctx, call)
                call.job = call.out.get("job") if call.out.get("state") == "running" else None
            else:
                call.out = self._run(cmd, args, ctx)
            return call.out

    def _checked(self, id: str, raw: Any, ctx: Context, door: str | None):
        """The command and its validated arguments, checked against the policy when
        ``door`` is an agent's; the files they name go to the audit line of the call
        this thread runs (`roles.named`)."""
        cmd = self.get(id)
        args = self.validate(cmd, raw)
        record = getattr(_calling, "call", None)
        if record is not None:
            for n in roles.named(args, ctx.session.workspace, strict=False):
                (record.wrote if n.role.writes else record.read).append(n.path)
        if door in AGENT_DOORS:
            policy.check(cmd, args, ctx.session)
        return cmd, args

    def _as_job(self, cmd: Command, args, raw: Any, ctx: Context, call: _Call) -> dict:
        """Run a long command as a job: its result if done within ``wait_s``, else
        the job's handle (`jobs.Running`). The job's end is audited too."""
        wait = getattr(args, "wait_s", None)
        if wait is None:  # a script is sequential code: without wait_s it gets its result, like a person
            wait = None if ctx.door == "script" else default_wait_s()
        door, forward = ctx.door, ctx.progress_fn

        def work(job) -> dict:
            ctx.progress_fn = job.report  # passed on by whoever waits (`Job.wait`)
            _calling.door, _calling.call = door, call
            try:
                runner = jobs_of(ctx.session).queue
                if runner is not None and cmd.scope not in LOCAL_SCOPES:
                    plain = {k: v for k, v in (raw or {}).items() if k != "wait_s"}
                    return runner.run(job, cmd.id, plain, ctx, edits=cmd.kind == "edit")
                return self._run(cmd, args, ctx)
            finally:
                _calling.door = _calling.call = None

        def ended(job) -> None:  # a caller got the handle: the job's end gets a line of its own
            if job.answered:
                out, error = job.outcome
                _record(ctx, door, cmd.id, raw, out, error, job.seconds, job.id, job.state, job.started, call)

        job = jobs_of(ctx.session).start(cmd.id, work, ctx.cancel, meta={"door": door, "actor": ctx.actor},
                                         on_end=ended)
        out = job.wait(wait, forward, from_start=True)
        return out.to_dict() if isinstance(out, Running) else out

    def _run(self, cmd: Command, args, ctx: Context) -> dict:
        """The command itself (validated and checked)."""
        session = ctx.session
        try:
            if cmd.kind == "edit":
                path = getattr(args, cmd.edits, None) if cmd.edits else None
                expect = {path: getattr(args, "revision", None)} if path else None
                afters = self._before_edit(cmd, args, ctx)
                try:
                    out = session.edit(cmd.id, lambda: _unless_cancelled(cmd.handler(ctx, args), ctx),
                                       actor=ctx.actor, expect=expect, new_ids=ctx.new_ids)
                except BaseException:
                    _abandon(afters)
                    raise
            elif cmd.kind == "query":
                with session.lock:
                    out = cmd.handler(ctx, args)
            else:  # session commands lock inside; checks and exports lock only to snapshot
                out = cmd.handler(ctx, args)
        except BoardwireError:
            raise
        except FileNotFoundError as e:
            raise NoDocument(f"{cmd.id}: {e.filename or e}: no such file") from e
        except IsADirectoryError as e:
            raise IOFailure(f"{cmd.id}: {e.filename} is a folder") from e
        except PermissionError as e:
            raise ReadOnlyFile(f"{cmd.id}: {e.filename or ''}: permission denied") from e
        except OSError as e:
            raise IOFailure(f"{cmd.id}: {e}") from e
        except Exception as e:  # a bug: report it as internal, never as a crash
            log.error("internal error in %s: %s", cmd.id, traceback.format_exc())
            raise Internal(f"{cmd.id} failed: {type(e).__name__}: {e}") from e
        if isinstance(out, BaseModel):
            out = out.model_dump(mode="json", exclude_none=True)
        if cmd.tables and (getattr(args, "format", None) or ctx.tables) == "table":
            out = tables.shape(out, cmd.tables, cmd.grouped)
        if ctx.new_ids and "new_ids" not in out:
            if ctx.tables == "table" and len(ctx.new_ids) > NEW_IDS_LISTED:  # a model reads it: a count
                out["new_count"] = len(ctx.new_ids)
            else:
                out["new_ids"] = list(ctx.new_ids)
        if cmd.kind == "edit":  # the revision the caller can plan its next edit against
            path = getattr(args, cmd.edits, None) if cmd.edits else None
            od = session.documents.get(session.workspace.relative(session.workspace.resolve(path))) if path else None
            if od is not None:
                out.setdefault("revision", od.revision)
            self._after_edit(cmd, afters, out)
        if CHECK_RESULTS:
            check_result(cmd, out)
        return out


NEW_IDS_LISTED = 8
"""Results shaped for a model (``Context.tables == "table"``, the MCP door) list the
ids of the items a call created up to this many; beyond it they carry ``new_count``
instead (query.items lists the items). Programs (JSON-RPC, the script API, the CLI)
always get every id."""


def _unless_cancelled(out: Any, ctx: Context) -> Any:
    """An edit's result, unless its call was cancelled meanwhile (raises Cancelled: the
    session rolls the edit back). A job abandoned after `job.cancel` keeps nothing."""
    ctx.cancel.check()
    return out


def check_result(cmd: Command, out: Any) -> None:
    """Refuse a result that ``cmd.result`` does not describe, as the caller gets it
    (tables shaped, edit keys added): read from its JSON, strictly (no "1" for 1),
    and with no key its model does not name, unless that model's keys are open (its
    class attribute ``open_keys``, as `boardwire.commands.common.Result`'s).

    Raises Internal naming the command and the first mismatch."""
    if cmd.result is None:
        return
    try:
        text = json.dumps(out, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise Internal(f"{cmd.id}: the result is not JSON: {e}") from None
    try:
        model = cmd.result.model_validate_json(text, strict=True)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(result)"
        raise Internal(f"{cmd.id}: the result does not match {cmd.result.__name__} at {where}: {err['msg']}"
                       + (f" (and {e.error_count() - 1} more)" if e.error_count() > 1 else "")) from None
    where = _undeclared(model)
    if where is not None:
        raise Internal(f"{cmd.id}: the result has {where}, which {cmd.result.__name__} does not name")


def _undeclared(value: Any, loc: str = "") -> str | None:
    """The first key of a validated result that its model does not name (a model with
    ``open_keys`` takes any), as a dotted path; None when there is none."""
    if isinstance(value, BaseModel):
        extra = value.__pydantic_extra__
        if extra and not getattr(type(value), "open_keys", False):
            return f"{loc}{next(iter(extra))}"
        items = [(name, getattr(value, name)) for name in type(value).model_fields]
    elif isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return None
    for key, v in items:
        found = _undeclared(v, f"{loc}{key}.")
        if found is not None:
            return found
    return None


def _abandon(afters: list) -> None:
    for after in afters:
        try:
            getattr(after, "abandon", lambda: None)()
        except Exception:
            log.error("edit hook failed abandoning: %s", traceback.format_exc())


class _Call:
    out: Any = None
    job: str | None = None
    id: str | None = None  # the audit line's call id (`Audit.start`)

    def __init__(self) -> None:
        self.read: list[str] = []  # the files the call's arguments (and its nested calls') name, by role
        self.wrote: list[str] = []


@contextmanager
def _audited(ctx: Context, door: str, command: str, raw: Any, when: float) -> Iterator[_Call]:
    """Run the block as one call through ``door`` (nested calls in this thread inherit
    it, for the policy) and write its audit line: the block sets the `_Call`'s
    ``out`` (and ``job`` when it answers with a job's handle)."""
    call, error = _Call(), None
    t0 = time.perf_counter()
    call.id = audit_of(ctx.session).start(door=door, client=ctx.client, actor=ctx.actor, command=command,
                                          args=raw, when=when)  # a killed call leaves this line
    _calling.door, _calling.call = door, call
    try:
        yield call
    except BaseException as e:
        error = e
        raise
    finally:
        _calling.door = _calling.call = None
        _record(ctx, door, command, raw, call.out, error, time.perf_counter() - t0, call.job,
                "running" if call.job else None, when, call)


def _record(ctx: Context, door: str, command: str, raw: Any, out, error, seconds: float, job: str | None,
            state: str | None, when: float, call: _Call) -> None:
    """One line of the workspace's audit log for a call through ``door``, with the
    files ``call`` read and wrote (none written when it failed: a failed change is
    rolled back)."""
    audit_of(ctx.session).record(door=door, client=ctx.client, actor=ctx.actor, command=command, args=raw,
                                 result=out, error=error, seconds=seconds, job=job, state=state, when=when,
                                 read=list(call.read), wrote=list(call.wrote) if error is None else [],
                                 call=call.id)


REGISTRY = Registry()


def command(id: str, *, kind: str, args: type[BaseModel], result: type[BaseModel] | None = None,
            units: str = "", examples: tuple[dict, ...] = (), destructive: bool = False,
            idempotent: bool = False, long: bool = False,
            tables: tuple[str, ...] = (), grouped: tuple[str, ...] = (),
            finds_errors: Callable[[dict], bool] | None = None, registry=None):
    """Decorator: declare the function as the handler of command ``id``.

    The handler is called as ``handler(ctx, args)`` and returns a dict (or a model)
    whose ``summary`` key is a one-line account of what happened. A command with
    ``tables`` takes a ``format`` argument too (`tables.TableFormat`, mixed into
    ``args``). The files the arguments name are declared by their types' roles
    (`roles`: the document an edit changes is its `roles.EditPath`)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    if len(examples) > 3:
        raise ValueError("at most three examples")

    def deco(fn: Callable) -> Callable:
        doc = (fn.__doc__ or "").strip()
        mixins = ((TableFormat,) if tables and "format" not in args.model_fields else ()) + \
                 ((LongArgs,) if long and "wait_s" not in args.model_fields else ())
        model = create_model(args.__name__, __base__=(*mixins, args), __module__=args.__module__) if mixins else args
        (registry or REGISTRY).add(Command(
            id=id, kind=kind, summary=" ".join(doc.split()), args=model, result=result,
            handler=fn, units=units, examples=examples, destructive=destructive,
            idempotent=idempotent, long=long, tables=tables, grouped=grouped,
            finds_errors=finds_errors))
        return fn

    return deco
