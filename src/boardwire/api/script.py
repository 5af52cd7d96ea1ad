"""``boardwire run build.py``: a user script with a live session.

The script runs as ``__main__`` with ``sys.argv = [script, *args]`` and the script's
folder first on ``sys.path``; `boardwire.api` is bound to a session of ``root`` with
the ``--board``/``--schematic`` documents open. When the script ends normally (or
calls ``sys.exit(0)``) every modified document is saved, unless ``save`` is false. If
it raises (or exits non-zero) nothing is saved, the traceback goes to stderr and the
exit status is the error's (its ``exit_status`` for a BoardwireError; for anything
else, the `boardwire.errors` class that names it: `ScriptError` 1, `Interrupted` 130,
`ScriptExit` the script's own for ``sys.exit(n)``).

With ``as_json`` a JSON summary goes to stdout (saved files, each open document's
revision and hash, the script's global ``result`` if it set one, the error if any) and
whatever the script prints goes to stderr, so stdout stays one JSON document.
"""

from __future__ import annotations

import contextlib
import json
import os
import runpy
import sys
import traceback
from pathlib import Path
from typing import Any, TextIO

from ..errors import BoardwireError, FileChangedOnDisk, Interrupted, IOFailure, NotFound, ScriptError, ScriptExit
from . import binding



PACKAGE = Path(__file__).resolve().parent.parent  # boardwire/


def _trimmed_traceback(e: BaseException, script: Path) -> str:
    """The traceback from the script's first frame on (the runner's frames dropped).
    For a BoardwireError (a refusal with a code, not a bug) boardwire's own frames are
    dropped too: the script's lines that led to it are what the person needs."""
    frames = list(traceback.extract_tb(e.__traceback__))
    for i, f in enumerate(frames):
        if Path(f.filename).resolve() == script:
            frames = frames[i:]
            break
    if isinstance(e, BoardwireError):
        frames = [f for f in frames if PACKAGE not in Path(f.filename).resolve().parents]
    return ("Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
            + "".join(traceback.format_exception_only(type(e), e)))


def _documents(session) -> list[dict]:
    return [{"path": od.path, "kind": od.kind, "revision": od.revision, "modified": od.modified,
             "hash": od.content_hash} for od in sorted(session.documents.values(), key=lambda od: od.path)]


def _failure(e: BaseException) -> tuple[int, dict]:
    if not isinstance(e, BoardwireError):
        e = Interrupted() if isinstance(e, KeyboardInterrupt) else ScriptError(f"{type(e).__name__}: {e}")
    return e.exit_status, e.to_dict()


def run_script(script: str | os.PathLike, args: list[str] | tuple[str, ...] = (), *, root: str | os.PathLike = ".",
               board: str | None = None, schematic: str | None = None, save: bool = True,
               as_json: bool = False, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run ``script`` (a path to a Python file) and return the exit status (0: done and
    saved). ``args`` become the script's ``sys.argv[1:]``; ``board``/``schematic`` are
    paths relative to ``root``."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    path = Path(script).resolve()
    summary: dict[str, Any] = {"script": str(script), "ok": False, "saved": []}

    def finish(status: int, session=None) -> int:
        summary["exit"] = status
        if session is not None:
            summary["documents"] = _documents(session)
        if as_json:
            out.write(json.dumps(summary, indent=2, ensure_ascii=False, default=repr) + "\n")
            out.flush()
        return status

    if not path.is_file():
        missing = NotFound(f"{script}: no such script", hint="Give the path of a Python file.")
        print(f"error {missing.code}: {missing.message}", file=err)
        summary["error"] = missing.to_dict()
        return finish(missing.exit_status)
    previous = binding.snapshot()
    try:
        session = binding.connect(root, board=board, schematic=schematic)
    except BoardwireError as e:
        print(f"error {e.code}: {e.message}" + (f"\n  {e.hint}" if e.hint else ""), file=err)
        summary["error"] = e.to_dict()
        return finish(e.exit_status)
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = [str(script), *args]
    sys.path.insert(0, str(path.parent))
    status, error, namespace = 0, None, None
    sessions = [session]
    try:
        with contextlib.redirect_stdout(err) if as_json else contextlib.nullcontext():
            namespace = runpy.run_path(str(path), run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            failed = ScriptExit(e.code)
            if not isinstance(e.code, int):
                print(e.code, file=err)
            status, error = failed.exit_status, failed.to_dict()
    except BaseException as e:  # the script failed: report, save nothing
        err.write(_trimmed_traceback(e, path))
        status, error = _failure(e)
        if isinstance(e, BoardwireError):
            print(f"error {e.code}: {e.message}" + (f"\n  {e.hint}" if e.hint else ""), file=err)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    try:
        if status == 0:
            rebound = binding.snapshot().session  # the script may have bound another session
            if rebound is not None and rebound is not session:
                sessions.append(rebound)
            if save:
                try:
                    for s in sessions:
                        summary["saved"] += [str(s.workspace.root / p) if s is not session else p
                                             for p in binding.save(session=s)]
                except OSError as e:
                    raise IOFailure(str(e)) from e
            summary["ok"] = True
            if namespace is not None and "result" in namespace:
                summary["result"] = binding.jsonable(namespace["result"])
        else:
            summary["error"] = error
            unsaved = [od.path for od in session.documents.values() if od.modified]
            if unsaved:
                print(f"boardwire run: not saved: {', '.join(sorted(unsaved))}", file=err)
        return finish(status, session)
    except BoardwireError as e:  # saving failed
        if isinstance(e, FileChangedOnDisk):  # the session's hint (reload, or force) means nothing here
            e.hint = ("Another program (KiCad, an editor, a boardwire call) wrote the file while the script ran, "
                      "so boardwire did not write it. Run the script again, or end it with save(force=True) "
                      "to overwrite that change.")
        print(f"error {e.code}: {e.message}" + (f"\n  {e.hint}" if e.hint else ""), file=err)
        summary["ok"], summary["error"] = False, e.to_dict()
        return finish(e.exit_status, session)
    finally:
        binding.restore(previous)
