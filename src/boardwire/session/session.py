"""One in-memory session of KiCad documents (C2).

* Documents are opened by workspace-relative path and stay in memory until saved.
* Each has a revision: +1 per command that changed it (batches and transactions
  count once per document), and a content hash of what a save would write.
* Every change is one undo step per document. Undo replays the edit journal backwards
  (`boardwire.documents.journal`), so it is exact and costs what the edit cost; JSON
  documents (projects) are snapshotted instead.
* `Session.edit` runs a change all-or-nothing: on any error the journal is undone and
  every document is as it was.
* All calls take one lock, so edits from several clients never interleave. A long
  change may `lend` the lock while it computes without touching documents (the
  router): other threads read meanwhile, and their changes wait until it ends.
* Listeners receive an `Event` for every open, close, edit, undo, redo, save, revert.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from ..documents import Document, SexprDocument, document_class, journal
from ..documents.journal import recording
from ..errors import (BoardwireError, EditorHoldsFile, InvalidArgs, NoDocument, NothingToUndo,
                      ParseError, StaleRevision, UnsavedChanges, WrongKind, needs_human)
from .workspace import Workspace

# the files of a board's or schematic's project that hold its rules (session.save writes them with it)
PROJECT_FILE_SUFFIXES = (".kicad_pro", ".kicad_dru")


@dataclass
class Step:
    """One undo (or redo) step of one document: applying it takes the document to
    revision ``target``. Tree documents keep the journal that does it (``ops``), JSON
    documents the content to restore (``data``)."""

    label: str
    ops: list | None
    data: bytes | None
    target: int


@dataclass
class Event:
    """A change to a document, as listeners receive it."""

    path: str
    reason: str  # open, close, edit, undo, redo, save, revert
    revision: int
    label: str
    actor: str
    new_ids: list[str] = field(default_factory=list)
    time: float = field(default_factory=time.time)
    _doc: OpenDocument | None = field(default=None, repr=False)

    @property
    def hash(self) -> str | None:
        """SHA-256 of the document at this event's revision (None once superseded and
        not computed in time; protocol doors read it when they deliver the event)."""
        return self._doc.hash_at(self.revision) if self._doc is not None else None

    def to_dict(self) -> dict:
        return {"path": self.path, "reason": self.reason, "revision": self.revision,
                "hash": self.hash, "label": self.label, "new_ids": self.new_ids,
                "actor": self.actor, "time": self.time}


class OpenDocument:
    """A document in the session with its revision and undo history."""

    def __init__(self, path: str, full: Path, doc: Document):
        self.path = path
        self.full = full
        self.doc = doc
        self.revision = 0
        self.saved_revision = 0
        self.undo: list[Step] = []
        self.redo: list[Step] = []
        self._hash: tuple[int, str] | None = None

    @property
    def kind(self) -> str:
        return self.doc.kind

    @property
    def modified(self) -> bool:
        return self.revision != self.saved_revision

    def hash_at(self, revision: int) -> str | None:
        if self._hash is not None and self._hash[0] == revision:
            return self._hash[1]
        if revision != self.revision:
            return None
        digest = self.doc.content_hash
        self._hash = (revision, digest)
        return digest

    @property
    def content_hash(self) -> str:
        return self.hash_at(self.revision)  # type: ignore[return-value]

    def info(self) -> dict:
        return {"path": self.path, "kind": self.kind, "revision": self.revision,
                "modified": self.modified, "undo": len(self.undo), "redo": len(self.redo)}


class Session:
    """Documents of one working directory, shared by every client of a server."""

    def __init__(self, root: str | Path = ".", *, max_undo: int = 200):
        self.workspace = Workspace(root)
        self.documents: dict[str, OpenDocument] = {}
        self.lock = threading.RLock()
        self._turn = threading.Condition(self.lock)  # told when a change ends (`lend`)
        self.max_undo = max_undo
        self._listeners: list[Callable[[Event], None]] = []
        self._depth = 0  # > 0 while an edit runs: nested edits join it (batches)
        self._owner: int | None = None  # the thread running that edit
        self._json_before: dict[str, bytes] | None = None  # JSON documents' content before the edit
        self.attached: set[str] = set()  # paths mirrored live into an editor (session.live)

    # -- events ----------------------------------------------------------------------

    def subscribe(self, listener: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``listener`` with every event; returns the function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _emit(self, od: OpenDocument, reason: str, label: str, actor: str,
              new_ids: list[str] | None = None) -> Event:
        event = Event(od.path, reason, od.revision, label, actor, list(new_ids or []), _doc=od)
        for listener in list(self._listeners):
            listener(event)
        return event

    # -- opening ---------------------------------------------------------------------

    def _key(self, path: str | Path) -> tuple[str, Path]:
        full = self.workspace.resolve(path)
        return self.workspace.relative(full), full

    def open(self, path: str | Path, actor: str = "local") -> OpenDocument:
        """Open (or return the already open) document at ``path``."""
        with self.lock:
            key, full = self._key(path)
            od = self.documents.get(key)
            if od is not None:
                return od
            cls = document_class(full)
            if full.is_dir():
                raise NoDocument(f"{key} is a folder, not a KiCad file")
            try:
                if full.is_file():
                    doc = cls.load(full)
                else:
                    data = self.pending_file(full)
                    if data is None:
                        raise NoDocument(f"{key}: no such file in the working directory")
                    doc = cls(data, full)
            except ParseError as e:  # named as the caller named it, like every other error
                if e.path is None or Path(e.path) != full:
                    raise
                raise ParseError(e.detail, path=key, line=e.line, col=e.col) from None
            od = OpenDocument(key, full, doc)
            self.documents[key] = od
            if self._json_before is not None and not isinstance(od.doc, SexprDocument):
                self._json_before[key] = od.doc.to_bytes()  # opened by a running edit
            self._emit(od, "open", "open", actor)
            return od

    def load(self, path: str | Path, data: bytes, actor: str = "local") -> OpenDocument:
        """Open the document at ``path`` with content ``data`` instead of the file's
        (a queue worker receives the server's unsaved documents so). Raises
        ``invalid-args`` if it is open already."""
        with self.lock:
            self._wait_turn()
            key, full = self._key(path)
            if key in self.documents:
                raise InvalidArgs(f"{key} is open already")
            od = self.documents[key] = OpenDocument(key, full, document_class(full)(data, full))
            self._emit(od, "open", "open", actor)
            return od

    def replace(self, contents: dict[str, bytes], label: str, *, actor: str = "local",
                expect: dict[str, int] | None = None) -> dict[str, int]:
        """Replace open documents' contents as one change: one undo step and one
        revision per document whose content differs (a queued job's edit is applied
        so). ``expect``: the revisions the job started from; a document that moved on
        meanwhile fails with ``stale-revision`` and nothing is replaced. Returns the
        new revision of each document."""
        with self.lock:
            self._wait_turn()
            ods = {path: self.get(path, actor=actor) for path in contents}
            for path, rev in (expect or {}).items():
                od = ods.get(path) or self.get(path, actor=actor)
                if rev != od.revision:
                    raise StaleRevision(f"{od.path} changed while the job ran (revision {od.revision}, not {rev}); "
                                        "nothing was applied", path=od.path, revision=od.revision)
            for path, data in contents.items():
                od = ods[path]
                before = od.doc.to_bytes()
                if before == data:
                    continue
                od.doc = type(od.doc)(data, od.full)
                od.undo.append(Step(label, None, before, od.revision))
                del od.undo[:-self.max_undo]
                od.redo.clear()
                od.revision += 1
                self._emit(od, "edit", label, actor)
            return {path: od.revision for path, od in ods.items()}

    def pending_file(self, full: Path) -> bytes | None:
        """The content of file ``full`` (resolved) if an open document creates it when
        saved (a new sheet's file, `Document.new_files`) and it is not on disk yet."""
        for od in self.documents.values():
            data = od.doc.new_files().get(full)
            if data is not None:
                return data
        return None

    def get(self, path: str | Path, kind: str | tuple[str, ...] | None = None,
            actor: str = "local") -> OpenDocument:
        """The open document at ``path`` (opened now if it exists on disk), checked to
        be of ``kind`` (``board``, ``schematic``...)."""
        od = self.open(path, actor)
        kinds = (kind,) if isinstance(kind, str) else kind
        if kinds and od.kind not in kinds:
            raise WrongKind(f"{od.path} is a {od.kind}; this command needs a {' or '.join(kinds)}")
        return od

    def project_file(self, od: OpenDocument, suffix: str) -> Document | None:
        """A file of ``od``'s project: the file named like it with ``suffix`` in its
        folder (a board's ``.kicad_pro``, ``.kicad_dru``), as this session has it: the
        open document (unsaved edits included), else the file read from disk without
        opening it; None when there is no such file. Raises ``parse-error`` for a file
        that does not parse."""
        with self.lock:
            full = od.full.with_suffix(suffix)
            open_ = self.documents.get(self.workspace.relative(full))
            if open_ is not None:
                return open_.doc
            return document_class(full).load(full) if full.is_file() else None

    def close(self, path: str | Path, actor: str = "local", discard: bool = False) -> None:
        with self.lock:
            self._wait_turn()
            key, _ = self._key(path)
            od = self.documents.get(key)
            if od is None:
                raise NoDocument(f"{key} is not open")
            if od.modified and not discard:
                raise UnsavedChanges(f"{key} has unsaved changes (revision {od.revision})")
            del self.documents[key]
            self._emit(od, "close", "close", actor)

    # -- changing --------------------------------------------------------------------

    def edit(self, label: str, fn: Callable[[], Any], *, actor: str = "local",
             expect: dict[str, int] | None = None, new_ids: list[str] | None = None) -> Any:
        """Run ``fn`` as one change: all-or-nothing across documents, one undo step and
        one revision per document it changed.

        ``expect`` maps paths to the revision the caller planned against; a mismatch
        fails with ``stale-revision`` before anything runs.
        """
        with self.lock:
            for path, rev in (expect or {}).items():
                od = self.get(path, actor=actor)
                if rev is not None and rev != od.revision:
                    raise StaleRevision(
                        f"{od.path} is at revision {od.revision}, not {rev}", path=od.path,
                        revision=od.revision)
            with self.group(label, actor=actor, new_ids=new_ids):
                return fn()

    @property
    def grouping_here(self) -> bool:
        """True while the calling thread runs a change (`edit` or `group`: a batch, a
        script's transaction; edits made now join it): a long command it calls must run
        in this thread, which holds the lock and whose journal the change records."""
        return self._depth > 0 and self._owner == threading.get_ident()

    @contextmanager
    def group(self, label: str, *, actor: str = "local",
              new_ids: list[str] | None = None) -> Iterator[None]:
        """`edit` as a ``with`` block: every change made inside is one change (one undo
        step and one revision per document), committed when the block ends and rolled
        back if it raises. Holds the session lock for the whole block. Inside another
        change (a batch, a transaction, an outer group) it joins that change: if it
        raises, only its own changes are rolled back (a savepoint) and the outer change
        goes on or rolls back as a whole. ``new_ids`` is read when the block ends (the
        ids reported in the events)."""
        with self.lock:
            self._wait_turn()
            if self._depth:  # a step of a batch: the batch commits or rolls back
                json_before = {k: od.doc.to_bytes() for k, od in self.documents.items()
                               if not isinstance(od.doc, SexprDocument)}
                with recording() as ops:  # the outer change's journal
                    mark = len(ops)
                    try:
                        yield
                    except BaseException:
                        self._rollback(ops[mark:])
                        del ops[mark:]  # the step and its undoing cancel out
                        self._restore_json(json_before)
                        raise
                return
            json_before = {k: od.doc.to_bytes() for k, od in self.documents.items()
                           if not isinstance(od.doc, SexprDocument)}
            self._json_before = json_before
            with recording() as ops:
                self._depth += 1
                self._owner = threading.get_ident()
                try:
                    yield
                except BaseException:
                    self._rollback(ops[:])
                    self._restore_json(json_before)
                    raise
                finally:
                    self._depth -= 1
                    self._owner = None
                    self._json_before = None
                    self._turn.notify_all()
            self._commit(label, ops, json_before, actor, new_ids or [])

    def _wait_turn(self) -> None:
        """(Under the lock.) Wait while another thread's change is open: it lent the
        lock (`lend`) to readers, not to other changes."""
        while self._depth and self._owner != threading.get_ident():
            self._turn.wait()

    @contextmanager
    def lend(self) -> Iterator[None]:
        """Inside this thread's change, let other threads take the lock for the block:
        work that reads no document and changes none (a router on its own copy of the
        board) runs while other clients read any document; their changes (edits,
        undo, redo, save, close, revert) wait until this change ends. Outside a change,
        or when the lock is not held, the block just runs."""
        if not self.grouping_here:
            yield
            return
        state = self.lock._release_save()  # every level this thread holds
        try:
            yield
        finally:
            self.lock._acquire_restore(state)

    def _rollback(self, ops: list) -> None:
        """Undo a failed change's journal, telling each document what it touched (so
        indexes over it are refreshed, as after an undo)."""
        per_doc = [(self.documents[key].doc, doc_ops) for key, doc_ops in self._split(ops).items()]
        for doc, doc_ops in per_doc:
            doc.note_journal(doc_ops)
        journal.undo(ops)
        for doc, doc_ops in per_doc:
            doc.note_journal(doc_ops)
            doc.touch()

    def _restore_json(self, before: dict[str, bytes]) -> None:
        for key, data in before.items():
            od = self.documents.get(key)
            if od is not None and od.doc.to_bytes() != data:
                od.doc = type(od.doc)(data, od.full)

    def _split(self, ops: list) -> dict[str, list]:
        """Assign journal operations to the documents whose tree they touched."""
        roots = {id(od.doc.root): od.path for od in self.documents.values()
                 if isinstance(od.doc, SexprDocument)}
        return journal.by_document(ops, roots)

    def _commit(self, label: str, ops: list, json_before: dict[str, bytes], actor: str,
                new_ids: list[str]) -> None:
        changed: list[tuple[OpenDocument, Step]] = []
        for key, doc_ops in self._split(ops).items():
            od = self.documents[key]
            changed.append((od, Step(label, doc_ops, None, od.revision)))
        for key, before in json_before.items():
            od = self.documents.get(key)
            if od is not None and od.doc.to_bytes() != before:
                changed.append((od, Step(label, None, before, od.revision)))
        for od, step in changed:
            od.revision += 1
            od.undo.append(step)
            del od.undo[:-self.max_undo]
            od.redo.clear()
            self._emit(od, "edit", label, actor, new_ids)

    def _apply(self, od: OpenDocument, step: Step) -> Step:
        """Apply an undo or redo step; returns the step that takes it back."""
        back_to = od.revision
        if step.ops is None:
            current = od.doc.to_bytes()
            od.doc = type(od.doc)(step.data, od.full)  # type: ignore[arg-type]
            inverse = Step(step.label, None, current, back_to)
        else:
            od.doc.note_journal(step.ops)
            with recording() as ops:
                journal.undo(step.ops)
            od.doc.note_journal(ops)
            od.doc.touch()
            inverse = Step(step.label, ops[:], None, back_to)
        od.revision = step.target
        return inverse

    def undo(self, path: str | Path, actor: str = "local") -> OpenDocument:
        """Undo the last change of one document (its revision goes back by one)."""
        with self.lock:
            self._wait_turn()
            od = self.get(path, actor=actor)
            if not od.undo:
                raise NothingToUndo(f"{od.path} has nothing to undo")
            step = od.undo.pop()
            od.redo.append(self._apply(od, step))
            self._emit(od, "undo", step.label, actor)
            return od

    def redo(self, path: str | Path, actor: str = "local") -> OpenDocument:
        """Redo the last undone change of one document."""
        with self.lock:
            self._wait_turn()
            od = self.get(path, actor=actor)
            if not od.redo:
                raise NothingToUndo(f"{od.path} has nothing to redo")
            step = od.redo.pop()
            od.undo.append(self._apply(od, step))
            self._emit(od, "redo", step.label, actor)
            return od

    # -- saving ----------------------------------------------------------------------

    def unsaved_project_files(self, path: str | Path) -> list[str]:
        """The project files of board or schematic ``path`` (``NAME.kicad_pro`` and
        ``NAME.kicad_dru`` beside it: net classes, design rules, custom rules) that are
        open in this session with unsaved changes, as workspace-relative paths. KiCad's
        editors write the project file when they save a board or a schematic; so does
        session.save. Empty for any other document."""
        with self.lock:
            od = self.documents.get(self._key(path)[0])
            if od is None or od.kind not in ("board", "schematic"):
                return []
            out = []
            for suffix in PROJECT_FILE_SUFFIXES:
                key = self.workspace.relative(od.full.with_suffix(suffix))
                other = self.documents.get(key)
                if other is not None and other.modified:
                    out.append(key)
            return out

    def unsaved_with(self, path: str | Path) -> list[str]:
        """What a check or an export of document ``path`` judges that differs from the
        files on disk: the document itself if it has unsaved changes, the schematic
        or board of the same name beside it and its project files
        (`unsaved_project_files`) when they are open here with unsaved changes; as
        workspace-relative paths, the document first. kicad-cli run later on the files
        would judge the saved ones."""
        with self.lock:
            od = self.documents.get(self._key(path)[0])
            if od is None:
                return []
            out = [od.path] if od.modified else []
            for suffix in (".kicad_sch", ".kicad_pcb"):
                other = self.documents.get(self.workspace.relative(od.full.with_suffix(suffix)))
                if other is not None and other is not od and other.modified:
                    out.append(other.path)
        return out + self.unsaved_project_files(path)

    def save(self, path: str | Path, actor: str = "local", force: bool = False) -> OpenDocument:
        """Write a document to its file (atomic, backup kept, permissions kept); refuses
        with ``file-changed`` if the file changed on disk since opened, unless ``force``.
        The files the document creates on saving (a new sheet's file) are written too:
        as they are open in the session, if they are. A file KiCad holds open (its lock
        file ``~NAME.lck`` beside it; KiCad 9's schematic editor has no API to edit
        through) is refused with ``editor-holds-file`` unless ``force`` or the document
        is attached live."""
        with self.lock:
            self._wait_turn()
            od = self.get(path, actor=actor)
            lock = od.full.with_name(f"~{od.full.name}.lck")
            if not force and od.path not in self.attached and lock.exists():
                raise EditorHoldsFile(f"{od.path} is open in KiCad ({lock.name} exists); not overwriting it",
                                      path=od.path, needs_human=needs_human(
                                          "close_in_kicad", f"Save and close {od.path} in KiCad (or tell the "
                                                            "agent to save with force), then call again."))
            for full in od.doc.new_files():  # files it creates that are open here: as edited
                child = self.documents.get(self.workspace.relative(full))
                if child is not None and child is not od:
                    self.save(child.path, actor, force)
            od.doc.save(force=force)
            od.saved_revision = od.revision
            self._emit(od, "save", "save", actor)
            return od

    def save_modified(self, actor: str = "local", force: bool = False,
                      on_error: Callable[[str, Exception], None] | None = None) -> list[str]:
        """`save` every document with unsaved changes, in path order; returns the paths
        saved. A failure (``file-changed``, ``read-only``, ``io-error``) is raised, the
        documents saved before it staying saved, unless ``on_error(path, error)`` is
        given: then it is told and the other documents are still saved."""
        saved = []
        with self.lock:
            self._wait_turn()
            for od in sorted(self.documents.values(), key=lambda od: od.path):
                if not od.modified:
                    continue
                try:
                    self.save(od.path, actor, force=force)
                except (BoardwireError, OSError) as e:
                    if on_error is None:
                        raise
                    on_error(od.path, e)
                    continue
                saved.append(od.path)
        return saved

    def revert(self, path: str | Path, actor: str = "local") -> OpenDocument:
        """Drop unsaved changes: read the file again. The revision moves on and the
        undo history is cleared (it described the tree that was dropped)."""
        with self.lock:
            self._wait_turn()
            od = self.get(path, actor=actor)
            if not od.full.is_file():
                raise NoDocument(f"{od.path} is no longer on disk: nothing to revert to")
            od.doc = type(od.doc).load(od.full)
            od.undo.clear()
            od.redo.clear()
            od.revision += 1
            od.saved_revision = od.revision
            self._emit(od, "revert", "revert", actor)
            return od

    def describe(self) -> dict:
        with self.lock:
            return {"root": str(self.workspace.root),
                    "documents": [od.info() for od in self.documents.values()]}

