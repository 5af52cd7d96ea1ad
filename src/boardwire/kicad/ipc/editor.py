"""A running KiCad 9 PCB editor, reached through its IPC API (kicad-python, ``kipy``).

KiCad 9's IPC API ("public beta" in 9.0) is served by the GUI editor over a local
socket (NNG); ``kipy`` is its Python client (kicad-python 0.6.0 is built against 9.0).
Measured facts are in docs/bridge.md. What this module adds to ``kipy``:

* finding the socket: ``socket`` given, else ``KICAD_API_SOCKET``, else
  ``$TMPDIR/kicad/api.sock`` and ``api-<PID>.sock`` (KiCad follows TMPDIR);
* failures with stable codes: ``editor-unavailable`` (not running, API server
  disabled, closed mid-session) and ``editor-busy`` (an interactive tool holds it:
  retried for ``busy_s`` seconds first; "not ready" while a board loads is retried too);
* commits: a change is one KiCad commit (``begin_commit`` ... ``push_commit``), one
  step in KiCad's own undo history; a failed change drops its commit;
* ``undo``: KiCad's own undo action (``RunAction`` built by hand: kicad-python 0.6.0's
  ``run_action`` never sends the action name).
"""

from __future__ import annotations

import glob
import os
import tempfile
import threading
import time
from dataclasses import dataclass, field

from ...errors import EditorBusy, EditorUnavailable

ENABLE_HINT = ("Enable KiCad's API server: Preferences > Plugins > Enable KiCad API "
               "(kicad_common.json: {\"api\": {\"enable_server\": true}}), restart the PCB editor "
               "with the board open, then attach again.")


def candidate_sockets(socket: str | None = None) -> list[str]:
    """Socket paths to try, in order (``ipc://`` URLs, as kipy takes them)."""
    if socket:
        return [socket if socket.startswith("ipc://") else f"ipc://{socket}"]
    if os.environ.get("KICAD_API_SOCKET"):
        return [os.environ["KICAD_API_SOCKET"]]
    folder = os.path.join(tempfile.gettempdir(), "kicad")
    paths = [os.path.join(folder, "api.sock"), *sorted(glob.glob(os.path.join(folder, "api-*.sock")))]
    return [f"ipc://{p}" for p in paths]


@dataclass
class Change:
    """One KiCad commit: items to create, to update (kipy wrappers) and ids to remove."""

    create: list = field(default_factory=list)
    update: list = field(default_factory=list)
    remove: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.create or self.update or self.remove)


class Editor:
    """One connection to a PCB editor and the board open in it."""

    def __init__(self, socket: str | None = None, *, token: str | None = None,
                 timeout_ms: int = 5000, busy_s: float = 3.0):
        self.socket = socket
        self.token = token if token is not None else os.environ.get("KICAD_API_TOKEN", "")
        self.timeout_ms = timeout_ms
        self.busy_s = busy_s
        self.kicad = None
        self.board = None
        self.version = ""
        self._lock = threading.RLock()  # one request at a time on the socket (NNG req/rep)

    # -- connecting ------------------------------------------------------------------

    def connect(self, wait_s: float = 0.0) -> Editor:
        """Connect and get the open board; waits up to ``wait_s`` for a starting editor.
        Raises ``editor-unavailable`` (with why) or ``service-unavailable`` when
        kicad-python is not installed."""
        try:
            from kipy import KiCad
        except ImportError:
            from ...errors import ServiceUnavailable
            raise ServiceUnavailable("kicad-python is not installed (the live attach needs it)",
                                     hint="pip install 'boardwire[live]' (kicad-python 0.6 for KiCad 9)") from None
        deadline = time.monotonic() + wait_s
        last = "no socket found"
        while True:
            for url in candidate_sockets(self.socket):
                path = url[len("ipc://"):]
                if not os.path.exists(path):
                    last = f"no API socket at {path}"
                    continue
                try:
                    kicad = KiCad(socket_path=url, kicad_token=self.token, timeout_ms=self.timeout_ms)
                    self.version = kicad.get_version().full_version
                    self.kicad = kicad
                    self.board = self._retry(kicad.get_board)
                    return self
                except EditorBusy as e:
                    last = e.message
                except Exception as e:  # kipy's ConnectionError, ApiError (no board open)
                    last = f"{path}: {e}"
            if time.monotonic() >= deadline:
                break
            time.sleep(0.25)
        raise EditorUnavailable(f"KiCad's PCB editor is not reachable: {last}", hint=ENABLE_HINT, reason=last)

    # -- calls -----------------------------------------------------------------------

    def _retry(self, fn, *args):
        """Call ``fn``; retry while KiCad says busy or not ready, up to ``busy_s``."""
        from kipy.errors import ApiError, ConnectionError as KiConnectionError
        from kipy.proto.common import ApiStatusCode

        deadline = time.monotonic() + self.busy_s
        delay = 0.02
        while True:
            try:
                with self._lock:
                    return fn(*args)
            except ApiError as e:
                if e.code not in (ApiStatusCode.AS_BUSY, ApiStatusCode.AS_NOT_READY):
                    raise
                if time.monotonic() + delay > deadline:
                    raise EditorBusy(f"KiCad stayed busy for {self.busy_s:g} s: {e}") from None
            except KiConnectionError as e:
                self.board = None
                raise EditorUnavailable(f"KiCad's PCB editor went away: {e}", hint=ENABLE_HINT) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.25)

    def _board(self):
        if self.board is None:
            raise EditorUnavailable("not attached to KiCad's PCB editor", hint=ENABLE_HINT)
        return self.board

    def board_text(self) -> str:
        """The board as KiCad would save it now (``SaveDocumentToString``)."""
        return self._retry(self._board().get_as_string)

    def board_path(self) -> str:
        """The absolute path of the board KiCad has open (its project folder and name)."""
        board = self._board()
        return os.path.join(self._retry(board.get_project).path, board.name)

    def footprints(self) -> dict[str, object]:
        return {fp.id.value: fp for fp in self._retry(self._board().get_footprints)}

    def nets(self) -> dict[str, object]:
        return {n.name: n for n in self._retry(self._board().get_nets)}

    def existing_ids(self) -> set[str]:
        board = self._board()
        ids = {t.id.value for t in self._retry(board.get_tracks)}
        ids |= {v.id.value for v in self._retry(board.get_vias)}
        return ids

    def commit(self, change: Change, label: str) -> None:
        """Apply ``change`` as one KiCad commit (one undo step named ``label``)."""
        if not change:
            return
        board = self._board()
        commit = self._retry(board.begin_commit)
        try:
            if change.remove:
                from kipy.proto.common.types import KIID
                self._retry(board.remove_items_by_id, [KIID(value=i) for i in change.remove])
            if change.update:
                self._retry(board.update_items, change.update)
            if change.create:
                self._retry(board.create_items, change.create)
        except BaseException:
            try:
                board.drop_commit(commit)
            except Exception:
                pass
            raise
        self._retry(board.push_commit, commit, label)

    def undo(self) -> None:
        """KiCad's own Undo (Edit > Undo), as a person would press Ctrl+Z."""
        from kipy.proto.common.commands import editor_commands_pb2 as ec

        cmd = ec.RunAction()
        cmd.action = "common.Interactive.undo"
        self._retry(self.kicad._client.send, cmd, ec.RunActionResponse)

    def save(self) -> None:
        self._retry(self._board().save)

    def revert(self) -> None:
        """Reload the board from its file in KiCad (no dialog; KiCad's undo history goes)."""
        self._retry(self._board().revert)
