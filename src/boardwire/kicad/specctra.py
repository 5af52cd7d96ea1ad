"""Specctra DSN export and SES import with KiCad's own code (pcbnew in the system
Python; kicad-cli 9 has neither), so any router that reads DSN and writes SES
(FreeRouting and the like) plugs into a board, and engines can be compared on the
same input. ``pcbnew.ExportSpecctraDSN(board, path)`` writes the board, its rules
and its nets; ``pcbnew.ImportSpecctraSES(board, path)`` replaces the board's tracks
and vias with the session's wires and vias (and moves footprints to the session's
places, which routers leave as they were)."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import CheckFailed, ServiceUnavailable
from .pcbnew import pcbnew_python

_EXPORT = r'''
import sys, pcbnew
board = pcbnew.LoadBoard(sys.argv[1])
ok = pcbnew.ExportSpecctraDSN(board, sys.argv[2])
print("ok" if ok else "failed")
'''

_IMPORT = r'''
import sys, pcbnew
board = pcbnew.LoadBoard(sys.argv[1])
ok = pcbnew.ImportSpecctraSES(board, sys.argv[2])
if ok:
    pcbnew.SaveBoard(sys.argv[3], board)
print("ok" if ok else "failed")
'''


def _run(script: str, args: list[str], what: str, cancel=None, timeout: float = 600, hint: str | None = None) -> None:
    python = pcbnew_python()
    if python is None:
        raise ServiceUnavailable(
            f"{what} needs KiCad's pcbnew Python module, which no python3 here imports",
            hint="Install KiCad 9 (it provides pcbnew for the system python3), or set "
                 "BOARDWIRE_PCBNEW_PYTHON to a Python that can import pcbnew.")
    from .cli import KiCadCli

    r = KiCadCli(python, "KiCad's Specctra exchange").run(["-c", script, *args], cancel=cancel, timeout=timeout)
    last = (r.stdout or "").strip().splitlines()[-1:] or [""]
    if r.returncode == 0 and last[0] == "failed":  # pcbnew's call returned false: it gives no reason
        raise CheckFailed(f"KiCad's {what} refused the file (pcbnew gives no reason)", hint=hint)
    if r.returncode != 0 or last[0] != "ok":
        detail = (r.stderr or r.stdout or "").strip()[-500:] or "no reason given"
        raise CheckFailed(f"KiCad's {what} failed (exit {r.returncode}): {detail}", hint=hint)


def export_dsn(board_file: Path, dsn: Path, cancel=None) -> None:
    """Write ``board_file`` as a Specctra design file ``dsn``."""
    _run(_EXPORT, [str(board_file), str(dsn)], "Specctra DSN export", cancel)
    if not dsn.is_file():
        raise CheckFailed("KiCad's Specctra DSN export wrote no file")


def import_ses(board_file: Path, ses: Path, out_file: Path, cancel=None) -> None:
    """Apply the Specctra session ``ses`` to ``board_file``; KiCad saves the result as
    ``out_file``."""
    _run(_IMPORT, [str(board_file), str(ses), str(out_file)], "Specctra SES import", cancel,
         hint=SES_HINT)


SES_HINT = ("A session KiCad takes is `(session NAME ... (routes ... (library_out ...) (network_out ...)))` "
            "written for the DSN that pcb.exportDsn wrote for this board: its layer names as that DSN's "
            "(KiCad's own names, such as F.Cu, or the board's user names), and a `library_out` padstack for "
            "every via it places.")
_NET = re.compile(rb'\(net\s+(?:"((?:[^"\\]|\\.)*)"|([^\s()"]+))')


def ses_nets(ses: Path) -> set[str]:
    """The net names a Specctra session's ``network_out`` routes (each ``(net NAME``,
    quoted or bare; Specctra DSN/SES grammar, KiCad's pcbnew/specctra_import_export)."""
    data = ses.read_bytes()
    at = data.find(b"(network_out")
    if at < 0:
        return set()
    return {(m.group(1) or m.group(2)).decode("utf-8", "replace") for m in _NET.finditer(data, at)}
