"""The board open in KiCad's PCB editor as the session's document (the live attach).

`LiveBoard` keeps the session's copy of a board and KiCad's in step, both ways:

* session -> KiCad: after every change of the board in the session (an edit from any
  door, an undo, a redo, a revert), the items it changed (`documents.board.mirror`)
  are sent as one KiCad commit, one step in KiCad's own undo history
  (`kicad.ipc.convert` says which items KiCad 9's API can carry; the others are
  counted as ``unmirrored`` and KiCad reloads the file when the session saves it).
* KiCad -> session: a poller (every ``poll_s``) and every edit command on the board
  (before it runs) read KiCad's board; items a person changed there are copied into
  the session as one change by actor ``kicad`` (a ``document.changed`` event to every
  door). Its revision moves on, so a command planned against the old revision fails
  with ``stale-revision`` and changes nothing: neither side overwrites the other.
* KiCad closed or its API gone mid-session: the attach ends, the session keeps its
  last state (every edit of both sides), and ``session.save`` writes it.

Each side is compared only with its own earlier text, so KiCad's formatting and
boardwire's never read as changes.
"""

from __future__ import annotations

import logging
import threading

from ..documents import Board
from ..documents.board.mirror import adopt, changed_keys, item_texts
from ..errors import BoardwireError, EditorBusy, EditorUnavailable, NoDocument

log = logging.getLogger("boardwire.live")
LIVE_ACTOR = "kicad"
POLL_S = 0.25
_LIVE: dict[int, LiveBoard] = {}  # id(session) -> its attach


class LiveBoard:
    """A session's board bound to the board open in a KiCad PCB editor (`kicad.ipc.Editor`)."""

    def __init__(self, session, editor, *, poll_s: float = POLL_S):
        self.session = session
        self.editor = editor
        self.poll_s = poll_s
        self.path: str | None = None
        self.attached = False
        self.reason = ""
        self.unmirrored: set[str] = set()
        self.pushed = 0  # KiCad commits made
        self.pulled = 0  # person's changes taken in
        self._ids: dict[bytes, str] = {}  # item text -> UUID, for KiCad's boards (mirror.item_texts)
        self._ours: set[str] = set()  # keys committed to KiCad since its board was last read
        self._gone: set[str] = set()  # of those, the ones the commits removed from KiCad
        self._stop = threading.Event()
        self._unsubscribe = None
        self._thread: threading.Thread | None = None

    # -- lifetime --------------------------------------------------------------------

    def attach(self, path: str | None = None) -> str:
        """Open the board KiCad has open (``path``: its workspace-relative path; by
        default found from KiCad's project folder) and start mirroring. Edits a person
        made in KiCad and has not saved are taken into the session at once. Returns the
        path. Raises ``no-document`` when the board is outside the workspace."""
        s = self.session
        with s.lock:
            if path is None:
                path = self.editor.board_path()
            try:
                od = s.open(path, actor=LIVE_ACTOR)
            except BoardwireError as e:
                raise NoDocument(f"the board open in KiCad ({path}) cannot be opened here: {e.message}",
                                 hint="Serve from the folder that holds the board (--root).") from e
            self.path = od.path
            text = self.editor.board_text()
            theirs = Board(text.encode())
            self.kicad_text, self.kicad_items = text, item_texts(theirs, self._ids)
            on_disk = item_texts(Board(od.full.read_bytes())) if od.full.is_file() else {}
            unsaved = [k for k in changed_keys(on_disk, self.kicad_items) if k in self.kicad_items]
            if unsaved and not od.modified:
                s.edit("KiCad: unsaved edits in the PCB editor", lambda: adopt(od.doc, theirs, unsaved),
                       actor=LIVE_ACTOR)
            self.synced = item_texts(od.doc)
            self.attached = True
            s.attached.add(self.path)
            self._unsubscribe = s.subscribe(self._on_event)
            _LIVE[id(s)] = self
        self._thread = threading.Thread(target=self._poll, name="boardwire-live", daemon=True)
        self._thread.start()
        return self.path

    def detach(self, reason: str = "detached") -> None:
        """Stop mirroring; the session keeps its documents as they are."""
        if not self.attached:
            return
        self.attached = False
        self.reason = reason
        self.session.attached.discard(self.path)
        self._stop.set()
        if self._unsubscribe:
            try:
                self._unsubscribe()
            except ValueError:
                pass
        _LIVE.pop(id(self.session), None)
        log.warning("live: %s: %s", self.path, reason)

    def status(self) -> dict:
        return {"attached": self.attached, "path": self.path, "editor": self.editor.version,
                "kicad_commits": self.pushed, "kicad_edits_taken": self.pulled,
                "unmirrored": len(self.unmirrored), **({"reason": self.reason} if self.reason else {})}

    # -- KiCad -> session ------------------------------------------------------------------

    def pull(self) -> bool:
        """Take KiCad's changes since the last look into the session (one change by
        actor ``kicad``). Returns True when there were any."""
        with self.session.lock:
            if not self.attached:
                return False
            text = self.editor.board_text()
            if text == self.kicad_text:
                return False
            theirs = Board(text.encode())
            items = item_texts(theirs, self._ids)
            # what we committed comes back as KiCad prints it: a new baseline, not an edit
            keys = [k for k in changed_keys(self.kicad_items, items)
                    if k not in self._ours and not (self._ours and k.startswith("net:"))]
            self._ours.clear()
            self._gone.clear()
            od = self.session.get(self.path)
            if keys:
                self.session.edit("KiCad: edit in the PCB editor", lambda: adopt(od.doc, theirs, keys, self._ids),
                                  actor=LIVE_ACTOR)
                self.pulled += 1
            self.kicad_text, self.kicad_items = text, items
            if keys:  # the adopted items are in step; anything not yet sent stays pending
                now = item_texts(od.doc)
                for key in keys:
                    if key in now:
                        self.synced[key] = now[key]
                    else:
                        self.synced.pop(key, None)
            return bool(keys)

    def _poll(self) -> None:
        while not self._stop.wait(self.poll_s):
            try:
                self.pull()
            except EditorBusy:
                continue  # a person is in the middle of something: look again later
            except EditorUnavailable as e:
                self.detach(f"KiCad went away ({e.message}); the session keeps every edit")
            except Exception as e:  # never let the poller die silently
                log.error("live: reading KiCad's board failed: %s: %s", type(e).__name__, e)

    # -- session -> KiCad ------------------------------------------------------------------

    def _on_event(self, event) -> None:
        """Session listener (under the session lock)."""
        if not self.attached or event.path != self.path:
            return
        try:
            if event.reason in ("edit", "undo", "redo", "revert") and event.actor != LIVE_ACTOR:
                self.push(event.label if event.reason == "edit" else event.reason)
            elif event.reason == "save" and self.unmirrored:
                self._reload_saved()
            elif event.reason == "close":
                self.detach("the board was closed in the session")
        except EditorUnavailable as e:
            self.detach(f"KiCad went away ({e.message}); the session keeps every edit")
        except Exception as e:  # a listener must never fail the change it reports
            log.error("live: mirroring %s to KiCad failed: %s: %s", event.label, type(e).__name__, e)

    def push(self, label: str) -> None:
        """Send the session's changes since the last sync to KiCad as one commit."""
        from ..kicad.ipc.convert import change_for

        od = self.session.get(self.path)
        now = item_texts(od.doc)
        keys = changed_keys(self.synced, now)
        if not keys:
            return
        # what KiCad has now: its board as last read, with our commits since applied
        in_kicad = (set(self.kicad_items) | self._ours) - self._gone
        change, skipped = change_for(od.doc, keys, self.editor, in_kicad)
        self.editor.commit(change, f"boardwire: {label}")
        if change:
            self.pushed += 1
        self.synced = now
        self.unmirrored = (self.unmirrored - set(keys)) | set(skipped)
        # KiCad's board is read again by the next pull() (KiCad redraws after a commit,
        # and a read now would wait for it): the keys committed here are then taken as
        # its new baseline, everything else that changed there as a person's edit.
        committed = set(keys) - set(skipped)
        self._ours |= committed
        self._gone = (self._gone - set(now)) | {k for k in committed if k not in now}
        self.kicad_text = ""

    def _reload_saved(self) -> None:
        """After a save, KiCad reloads the file: it then shows what its API could not
        carry. A person's unsaved edits are taken in first, and then nothing is reloaded
        (the session has them; the next save reloads)."""
        if self.pull():
            return
        self.editor.revert()
        self.kicad_text = self.editor.board_text()
        self.kicad_items = item_texts(Board(self.kicad_text.encode()), self._ids)
        self._ours.clear()
        self._gone.clear()
        self.unmirrored.clear()


def live_for(session) -> LiveBoard | None:
    return _LIVE.get(id(session))


def _before_edit(cmd, args, ctx):
    """Registry hook: before an edit of the attached board, take in KiCad's changes
    (so a stale ``revision`` is refused); after it, report the attach's state."""
    live = live_for(ctx.session)
    if live is None or not live.attached:
        return None
    try:
        live.pull()
    except (EditorBusy, EditorUnavailable) as e:
        log.warning("live: could not read KiCad's board before %s: %s", cmd.id, e.message)

    def after(out: dict) -> None:
        out["live"] = live.status()

    return after


_hooked: set[int] = set()


def attach(session, editor, path: str | None = None, *, registry=None, poll_s: float = POLL_S) -> LiveBoard:
    """Attach ``session`` to a connected `kicad.ipc.Editor`; returns the `LiveBoard`.
    ``registry``: the command registry whose edits look at KiCad first (its
    ``on_edit`` hook; a higher layer passes it in)."""
    if registry is not None and id(registry) not in _hooked:
        registry.on_edit(_before_edit)
        _hooked.add(id(registry))
    live = LiveBoard(session, editor, poll_s=poll_s)
    live.attach(path)
    return live


def attach_hook(registry, socket: str | None = None, wait_s: float = 10.0):
    """For the servers' ``--attach``: a function of the session that connects to the
    running PCB editor (waiting up to ``wait_s``), attaches, and returns the hello's
    extra capabilities and the function that detaches. Raises ``editor-unavailable``."""
    from ..kicad.ipc.editor import Editor

    def hook(session):
        live = attach(session, Editor(socket).connect(wait_s), registry=registry)
        log.warning("live: attached %s in KiCad %s", live.path, live.editor.version)
        return ["kicad.live"], live.detach

    return hook
