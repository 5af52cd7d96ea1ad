"""The audit log: every call through every door, one JSON line each, in the
workspace's ``.boardwire/session.jsonl`` (issue 16).

A line (`Audit.record`): ``time`` (Unix seconds), ``door`` (mcp, jsonrpc, bridge,
script, cli), ``client`` (the name the client gave) and ``actor``, ``command``,
``args`` (big values trimmed: `trim`), ``summary`` (the result's one line, trimmed),
``seconds`` and ``error`` (the stable code, or null; ``message`` with it); ``job`` for
a call answered with a job (``state`` "running") and for the line written when that
job ends (``state`` done, failed or cancelled; its ``time`` is the job's start, as
every line's is its call's start); ``read`` and ``wrote``, when there are any: the
workspace-relative files and folders the call's arguments name, by their roles
(`boardwire.registry.roles`: documents and input files read; documents edited, files
and folders written; a batch's or a build's nested calls included; nothing written by
a call that failed).

A call writes two lines: one when it starts (``state`` "started", with a ``call`` id)
and its line when it ends (the same ``call``), so a call whose process was killed
leaves its start (`read` gives it with ``state`` "started" and no ``seconds``).

No agent can flush the log away:

* each line is capped as a whole: ``args`` beyond `ARGS_BYTES` (as JSON) keep their
  keys with the size of each value cut (``"<12345 bytes cut>"``), strings and lists
  are trimmed first (`trim`), ``read``/``wrote`` keep `LIST_LIMIT` paths; a line is at
  most about 6 kB however big or deep the arguments;
* the file rotates at `MAX_BYTES` into numbered backups (session.jsonl.1 is the
  newest), and rotation never deletes a file: backups beyond `BACKUPS` are removed only
  when a log is opened (a new process) and only those last written more than
  `RETAIN_S` ago (7 days). So every line a session wrote stays while it runs, and a
  week of history stays after it.

Writing never fails a call: a workspace that cannot be written is reported once on the
``boardwire`` logger.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import math
import os
import re
import secrets
import threading
import time
from pathlib import Path
from typing import Iterator

FOLDER = ".boardwire"
NAME = "session.jsonl"
MAX_BYTES = 5_000_000
BACKUPS = 3  # rotated files always kept; older ones too while younger than RETAIN_S
RETAIN_S = 7 * 86400
ARGS_BYTES = 4096  # the most a line's arguments take, as JSON
STRING_LIMIT = 200  # characters of a string argument kept
LIST_LIMIT = 20  # items of a list argument kept
SUMMARY_LIMIT = 300
NAME_LIMIT = 120  # characters of a door, client, actor or command name kept
# C0 and C1 control characters and DEL: never shown raw (a terminal obeys them)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

log = logging.getLogger("boardwire")


def trim(value, depth: int = 0):
    """``value`` small enough for a log line: long strings cut (their length said),
    long lists cut (the count of the rest said), nesting below 4 levels summarised."""
    if isinstance(value, str):
        return value if len(value) <= STRING_LIMIT else f"{value[:STRING_LIMIT]}... ({len(value)} chars)"
    if isinstance(value, (list, tuple)):
        if depth >= 4:
            return f"[{len(value)} items]"
        out = [trim(v, depth + 1) for v in value[:LIST_LIMIT]]
        if len(value) > LIST_LIMIT:
            out.append(f"... {len(value) - LIST_LIMIT} more")
        return out
    if isinstance(value, dict):
        if depth >= 4:
            return f"{{{len(value)} keys}}"
        return {trim(str(k), depth + 1): trim(v, depth + 1) for k, v in list(value.items())[:LIST_LIMIT * 2]}
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return trim(str(value), depth)


def name(value) -> str:
    """A name a client chose (its client name, a command id it sent...) fit for a log
    line: a string of at most `NAME_LIMIT` characters (its length said when cut)."""
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= NAME_LIMIT else f"{text[:NAME_LIMIT]}…<{len(text)} chars>"


def printable(text) -> str:
    """``text`` with every control character written as an escape (``\\x1b``): what a
    log line shows a person on a terminal or in Markdown obeys nothing it holds."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", "" if text is None else str(text))


def fit(args, limit: int = ARGS_BYTES):
    """``args`` trimmed (`trim`) and, when still over ``limit`` bytes as JSON, each
    top-level value that is over its share replaced by its size; with too many keys
    even for that, one string saying how many keys and bytes were cut."""
    out = trim(args)
    size = len(json.dumps(out, ensure_ascii=False, default=str))
    if size <= limit:
        return out
    if isinstance(out, dict) and len(out) <= limit // 64:
        share = limit // (len(out) + 1)
        cut = {}
        for k, v in out.items():
            n = len(json.dumps(v, ensure_ascii=False, default=str))
            cut[k] = v if n <= share else f"<{n} bytes cut>"
        if len(json.dumps(cut, ensure_ascii=False, default=str)) <= limit:
            return cut
    kind = f"{len(out)} keys, " if isinstance(out, dict) else ""
    return f"<{kind}{size} bytes cut>"


def log_path(root: str | Path) -> Path:
    return Path(root) / FOLDER / NAME


class Audit:
    """The audit log of one workspace (``root``)."""

    def __init__(self, root: str | Path):
        self.path = log_path(root)
        self._handler: logging.handlers.RotatingFileHandler | None = None
        self._lock = threading.Lock()
        self._broken = False

    def _open(self) -> logging.handlers.RotatingFileHandler:
        if self._handler is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _end_torn_line(self.path)
            _prune(self.path)
            self._handler = _KeepingHandler(self.path, maxBytes=MAX_BYTES, encoding="utf-8")
            self._handler.setFormatter(logging.Formatter("%(message)s"))
        return self._handler

    def _write(self, line: dict) -> None:
        text = json.dumps(line, ensure_ascii=False, default=str)
        with self._lock:
            if self._broken:
                return
            try:
                handler = self._open()
                handler.emit(logging.makeLogRecord({"msg": text, "levelno": logging.INFO}))
            except OSError as e:
                self._broken = True
                log.warning("cannot write the audit log %s: %s", self.path, e)

    def start(self, *, door: str, command: str, args, client: str = "", actor: str = "",
              when: float | None = None) -> str:
        """Write the line of a call that starts; returns its ``call`` id, which its
        end line (`record`) carries."""
        call = secrets.token_hex(6)
        self._write({"time": round(when if when is not None else time.time(), 3), "door": name(door),
                     "client": name(client), "actor": name(actor), "command": name(command),
                     "args": fit(args if args is not None else {}),
                     "state": "started", "call": call})
        return call

    def record(self, *, door: str, command: str, args, seconds: float, client: str = "", actor: str = "",
               result: dict | None = None, error: Exception | None = None, job: str | None = None,
               state: str | None = None, when: float | None = None, read: list[str] | None = None,
               wrote: list[str] | None = None, call: str | None = None) -> None:
        """Append one line (see the module); ``error``: the call's failure (its
        ``code``, "cancelled" for Ctrl-C, else "internal", and its message are logged);
        ``read``, ``wrote``: workspace-relative paths (repeats dropped); ``call``: the
        id `start` gave."""
        if isinstance(error, KeyboardInterrupt):  # the CLI answers it as cancelled (exit 20)
            code, message = "cancelled", "interrupted (Ctrl-C)"
        elif error is not None:
            code, message = getattr(error, "code", "internal"), str(getattr(error, "message", error))
        summary = (result or {}).get("summary") if isinstance(result, dict) else None
        line = {"time": round(when if when is not None else time.time(), 3), "door": name(door),
                "client": name(client), "actor": name(actor), "command": name(command),
                "args": fit(args if args is not None else {}),
                "summary": trim(summary)[:SUMMARY_LIMIT + 30] if isinstance(summary, str) else None,
                "seconds": round(seconds, 4), "error": code if error is not None else None}
        if error is not None:
            line["message"] = trim(message)[:SUMMARY_LIMIT * 4]
        for key, paths in (("read", read), ("wrote", wrote)):
            if paths:
                line[key] = trim(list(dict.fromkeys(paths)))
        if job:
            line["job"], line["state"] = job, state
        if call:
            line["call"] = call
        self._write(line)

    def close(self) -> None:
        with self._lock:
            if self._handler is not None:
                self._handler.close()
                self._handler = None


class _KeepingHandler(logging.handlers.RotatingFileHandler):
    """Rotation that deletes nothing: the current file becomes session.jsonl.1 and every
    older backup moves up one number (`_prune` removes old ones when a log opens)."""

    def doRollover(self) -> None:
        if self.stream:
            self.stream.close()
            self.stream = None
        base = Path(self.baseFilename)
        for n in sorted(_backup_numbers(base), reverse=True):
            os.replace(f"{base}.{n}", f"{base}.{n + 1}")
        if base.exists():
            os.replace(base, f"{base}.1")
        self.stream = self._open()


def _backup_numbers(base: Path) -> list[int]:
    rx = re.compile(re.escape(base.name) + r"\.(\d+)")
    return [int(m.group(1)) for p in base.parent.glob(base.name + ".*") if (m := rx.fullmatch(p.name))]


def _prune(base: Path, now: float | None = None) -> None:
    """Remove the backups beyond `BACKUPS` last written more than `RETAIN_S` ago."""
    now = time.time() if now is None else now
    for n in sorted(_backup_numbers(base)):
        if n <= BACKUPS:
            continue
        path = base.with_name(f"{base.name}.{n}")
        try:
            if now - path.stat().st_mtime > RETAIN_S:
                path.unlink()
        except OSError:
            pass


def _end_torn_line(path: Path) -> None:
    """A log whose last line was cut off (a process killed mid-write) gets its line
    break, so the next line is not glued to the torn one and lost with it."""
    try:
        with open(path, "rb+") as f:
            if f.seek(0, 2) and (f.seek(-1, 2), f.read(1))[1] != b"\n":
                f.write(b"\n")
    except FileNotFoundError:
        pass


def _well_formed(line) -> bool:
    """A log line as `Audit.record` writes it: a finite time, a command name, seconds."""
    t, s = line.get("time"), line.get("seconds", 0)
    return (isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t)
            and isinstance(line.get("command"), str)
            and isinstance(s, (int, float)) and not isinstance(s, bool) and math.isfinite(s)
            and all(isinstance(line.get(k) or "", str) for k in ("door", "client", "actor", "error", "summary", "message")))


def files(root: str | Path) -> list[Path]:
    """The log's files, oldest first (rotated backups, then the current one)."""
    current = log_path(root)
    backups = [current.with_name(f"{NAME}.{i}") for i in sorted(_backup_numbers(current), reverse=True)]
    return [p for p in (*backups, current) if p.is_file()]


def read(root: str | Path, *, since: float | None = None, command: str | None = None,
         errors: bool = False) -> Iterator[dict]:
    """The log's lines, oldest first: at or after ``since`` (Unix seconds), of commands
    matching ``command`` (an id, or a prefix ending in ``.`` or ``*``), only failed
    ones when ``errors``. A call's start line is given only when the call has no end
    line (still running, or its process was killed): then ``state`` is "started".
    Lines that are not JSON (a torn write) or not of the shape `Audit.record` writes
    (edited by hand) are skipped."""
    lines = list(_lines(root))
    ended = {x["call"] for x in lines if x.get("call") and x.get("state") != "started"}
    prefix = command[:-1] if command and command.endswith("*") else command
    for line in lines:
        if line.get("state") == "started" and line.get("call") in ended:
            continue
        if since is not None and line.get("time", 0) < since:
            continue
        if prefix and not (line.get("command") == prefix
                           or (prefix.endswith(".") or command.endswith("*"))
                           and str(line.get("command", "")).startswith(prefix)):
            continue
        if errors and not line.get("error"):
            continue
        yield line


def _lines(root: str | Path) -> Iterator[dict]:
    """Every well-formed line of the log, oldest file first."""
    for path in files(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            for text in f:
                try:
                    line = json.loads(text)
                except ValueError:
                    continue
                if isinstance(line, dict) and _well_formed(line):
                    yield line


def parse_since(text: str, now: float | None = None) -> float:
    """Unix seconds from ``text``: a span back from now (``90s``, ``10m``, ``2h``,
    ``1d``) or an ISO 8601 time (``2026-12-01T20:00``, local time unless it gives a
    zone). Raises ValueError for anything else."""
    import datetime as dt
    import re

    now = time.time() if now is None else now
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd])\s*", text)
    if m:
        return now - float(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
    try:
        return dt.datetime.fromisoformat(text.strip()).timestamp()
    except ValueError:
        raise ValueError(f"{text!r} is neither a span (90s, 10m, 2h, 1d) nor an ISO time") from None


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def markdown(lines: list[dict], title: str = "boardwire session") -> str:
    """The log's lines as a Markdown report: totals, then one table row per call."""
    if not lines:
        return f"# {title}\n\nNo calls logged.\n"
    failed = [x for x in lines if x.get("error")]
    seconds = sum(x.get("seconds") or 0 for x in lines)
    doors = sorted({x.get("door", "") for x in lines})
    out = [f"# {title}", "",
           f"{len(lines)} calls from {_when(lines[0]['time'])} to {_when(lines[-1]['time'])} "
           f"({', '.join(doors)}), {len(failed)} failed, {seconds:.1f} s in calls.", "",
           "| time | door | client | command | seconds | result |", "|---|---|---|---|---:|---|"]
    for x in lines:
        result = f"**{x['error']}** {x.get('message') or ''}" if x.get("error") else (x.get("summary") or "")
        if x.get("state") == "started":
            result = "*no end logged: still running, or its process was killed*"
        def cell(text) -> str:
            return printable(text).replace("|", "\\|").replace("`", "'")

        client = x.get("client") or x.get("actor") or ""
        job = f" (job {cell(x['job'])})" if x.get("job") else ""
        out.append(f"| {_when(x['time'])} | {cell(x.get('door', ''))} | {cell(client)} | `{cell(x.get('command', ''))}`{job} "
                   f"| {x.get('seconds', 0):.3f} | {cell(result)} |")
    return "\n".join(out) + "\n"


_lock = threading.Lock()


def audit_of(session) -> Audit:
    """The audit log of ``session``'s workspace (made on first use, kept on the session)."""
    with _lock:
        audit = getattr(session, "_audit", None)
        if audit is None:
            audit = session._audit = Audit(session.workspace.root)
        return audit
