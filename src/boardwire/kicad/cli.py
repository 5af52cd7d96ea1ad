"""Running kicad-cli: found once, version probed once, children killable on cancel.

kicad-cli is looked for in ``$BOARDWIRE_KICAD_CLI``, on ``PATH``, then in KiCad's usual
install places. A missing or pre-9 kicad-cli raises ``service-unavailable`` saying what
to install. Each run starts in its own process group so a cancelled call kills the
whole group, grandchildren included, and with its own temporary folder (``TMPDIR``): KiCad
keeps its single-instance lock file there (``org.kicad.kicad/instances/kicad-cli-9.0``),
and a lock left empty by a run killed mid-start makes every later kicad-cli sharing it
print "Invalid lock file" in place of its own messages ("Failed to load board" is lost).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..documents.refusals import file_kicad_major
from ..errors import (
    Cancelled,
    CheckFailed,
    ServiceUnavailable,
    UnsupportedFormat,
    needs_human,
)
from ..firmware.process import (
    kill_group as _kill,  # one process-group killer for every child
)

MIN_MAJOR = 9
_PLACES = [
    "/usr/bin/kicad-cli", "/usr/local/bin/kicad-cli", "/opt/kicad/bin/kicad-cli",
    "/Applications/KiCad/KiCad.app/Contents/MacOS/kicad-cli",
    r"C:\Program Files\KiCad\9.0\bin\kicad-cli.exe",
]


@dataclass(frozen=True)
class KiCadCli:
    path: str
    version: str

    @property
    def major(self) -> int:
        m = re.match(r"(\d+)", self.version)
        return int(m.group(1)) if m else 0

    def run(self, args: list[str], *, cancel=None, timeout: float = 3600,
            cwd: str | Path | None = None) -> subprocess.CompletedProcess:
        """Run ``kicad-cli args``; returns the completed process (any exit code).
        Raises Cancelled (the process group is killed) or CheckFailed on timeout."""
        popen_kw = {"start_new_session": True} if os.name == "posix" else {}
        with _own_tmp() as env:
            proc = subprocess.Popen([self.path, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, errors="replace", cwd=cwd, env=env, **popen_kw)
            remove = cancel.on_cancel(lambda: _kill(proc)) if cancel is not None else None
            try:
                out, err = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill(proc)
                proc.communicate()
                raise CheckFailed(f"{self.what(args)} took longer than {timeout:.0f} s")
            finally:
                if remove:
                    remove()
        if cancel is not None and cancel.cancelled:
            raise Cancelled(f"{self.what(args)} was cancelled")
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def what(self, args: list[str]) -> str:
        """A short name of a run for messages: ``kicad-cli pcb drc``, or for another
        program run this way (KiCad's Python with an inline script) its label."""
        if Path(self.path).name.startswith("kicad-cli"):
            return "kicad-cli " + " ".join(args[:2])
        return f"{self.version} ({Path(self.path).name})"

    def run_for(self, args: list[str], output: Path, *, cancel=None,
                cwd: str | Path | None = None) -> subprocess.CompletedProcess:
        """`run` for a command that writes ``output`` (a file, or a folder it fills).
        Raises CheckFailed with the exit status and the end of KiCad's messages when
        nothing was written."""
        r = self.run(args, cancel=cancel, cwd=cwd)
        if not (any(output.iterdir()) if output.is_dir() else output.exists()):
            raise failure(" ".join(a for a in args[:2]), r, args[-1] if args else None)
        return r


# How kicad-cli 9 says it could not load its input ("Failed to load board",
# "Failed to load schematic", a parser's "Unknown token ..."): KiCad refused the file.
_REFUSED = re.compile(r"Failed to load|Unable to load|Error loading|Unknown token|Expecting ")


def failure(what: str, r: subprocess.CompletedProcess, file: str | None = None) -> CheckFailed:
    """The error for a kicad-cli run that failed: its exit status and KiCad's whole
    message (both streams, up to 20,000 characters). When KiCad refused to load
    ``file`` the message says so first; ``data``: kicad_exit, kicad_message and
    ``kicad_refused``."""
    said = "\n".join(t.strip() for t in (r.stderr, r.stdout) if t and t.strip())
    said = said if len(said) <= 20_000 else said[:20_000] + " [...]"
    refused = bool(_REFUSED.search(said))
    name = Path(file).name if file else "the file"
    head = (f"KiCad {kicad_version_text()}refused to load {name} (kicad-cli {what}, exit {r.returncode})"
            if refused else f"kicad-cli {what} failed (exit {r.returncode})")
    return CheckFailed(f"{head}: {said or 'no output'}", kicad_exit=r.returncode,
                       kicad_message=said, kicad_refused=refused)


def require_readable(name: str, head: bytes) -> None:
    """Refuse, before KiCad runs, a file (``name``; ``head``: its first bytes) in the
    format of a newer KiCad than the installed one (KiCad 9 cannot load KiCad 10's):
    UnsupportedFormat naming both. Nothing when no KiCad is found (`kicad_cli` says so)."""
    found = _probe()
    major = file_kicad_major(name, head)
    if isinstance(found, str) or major is None or major <= found.major:
        return
    raise UnsupportedFormat(
        f"{Path(name).name} is in KiCad {major}'s file format; the installed KiCad is {found.version}, "
        f"which cannot load it", file_kicad=major, installed_kicad=found.version,
        hint=f"Install KiCad {major} to check, render, export or fill zones with KiCad; "
             "check.drc engine=builtin checks design rules without it.")


@contextlib.contextmanager
def _own_tmp() -> Iterator[dict[str, str]]:
    """This process's environment with a new temporary folder (``TMPDIR``, and
    ``TEMP``/``TMP`` on Windows), removed afterwards: a private place for KiCad's lock
    file (module text)."""
    with tempfile.TemporaryDirectory(prefix="boardwire-kicad-") as folder:
        yield {**os.environ, "TMPDIR": folder, "TEMP": folder, "TMP": folder}


def kicad_version_text() -> str:
    """``"9.0.8 "`` for the kicad-cli found (with a trailing space), else ``""``."""
    found = _probe()
    return "" if isinstance(found, str) else f"{found.version} "


def _candidates() -> list[str]:
    forced = os.environ.get("BOARDWIRE_KICAD_CLI")
    if forced:  # asked for: that one or none, never silently another
        return [forced]
    out = [shutil.which("kicad-cli"), *_PLACES]
    return [c for c in out if c]


@functools.lru_cache(maxsize=1)
def _probe() -> KiCadCli | str:
    tried = []
    for c in _candidates():
        if not Path(c).exists():
            tried.append(f"{c}: not found")
            continue
        try:
            with _own_tmp() as env:
                r = subprocess.run([c, "version"], capture_output=True, text=True, timeout=60, env=env)
        except (OSError, subprocess.TimeoutExpired) as e:
            tried.append(f"{c}: {e}")
            continue
        version = (r.stdout or r.stderr).strip().splitlines()[0] if (r.stdout or r.stderr) else ""
        cli = KiCadCli(c, version)
        if cli.major >= MIN_MAJOR:
            return cli
        tried.append(f"{c}: version {version or 'unknown'}")
    return "; ".join(tried) or "no kicad-cli on PATH or in KiCad's usual places"


def kicad_cli() -> KiCadCli:
    """The kicad-cli to use; ServiceUnavailable if there is no KiCad 9."""
    found = _probe()
    if isinstance(found, str):
        raise ServiceUnavailable(
            f"KiCad {MIN_MAJOR} kicad-cli is needed ({found})",
            hint="Install KiCad 9 (on Debian: apt-get install -t bookworm-backports kicad), "
                 "or set BOARDWIRE_KICAD_CLI to its kicad-cli.",
            needs_human=needs_human("install_kicad", f"Install KiCad {MIN_MAJOR} on the machine running boardwire "
                                                     "(kicad.org/download; `boardwire doctor` checks), then call again."))
    return found


def doctor() -> dict:
    """What boardwire finds of KiCad on this machine."""
    found = _probe()
    return {"kicad_cli": None if isinstance(found, str) else found.path,
            "kicad_version": None if isinstance(found, str) else found.version,
            "problem": found if isinstance(found, str) else None,
            "python": sys.version.split()[0], "time": time.strftime("%Y-%m-%d %H:%M:%S")}


def library_tables() -> dict:
    """The user's global library tables: kind -> {path, found}, and for a missing one
    what to do (KiCad copies its default tables there on first run; kicad-cli does not,
    and its ERC then warns on every symbol)."""
    from ..documents.library.tables import global_table, missing_global_tables

    missing = missing_global_tables()
    out = {}
    for kind in ("sym", "fp"):
        path = global_table(kind)
        entry = {"path": str(path), "found": kind not in missing}
        if kind in missing:
            template = missing[kind]
            entry["fix"] = (f"mkdir -p {path.parent} && cp {template} {path}" if template else
                            f"install KiCad 9's libraries, or list your libraries in {path}")
            entry["why"] = ("without it kicad-cli's ERC reports every symbol's library as not in the "
                            "configuration; project.new writes the project's own table meanwhile")
        out[kind] = entry
    return out

