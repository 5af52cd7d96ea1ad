"""A document stored as S-expressions, with the edit primitives every view uses.

Edits go through `insert`, `replace`, `remove` and `set_atoms` so that
* only the touched list is rewritten and its neighbours keep their bytes,
* new lists are laid out in the file's own generation (KiCad 8/9 tabs through
  `kicad9_text`; KiCad 6/7 two-space layout through `legacy_text`), with the file's
  line ending,
* the document's revision moves on.
"""

from __future__ import annotations

from pathlib import Path

from ..sexpr import atoms
from ..sexpr.file import SexprFile
from ..sexpr.node import SList
from ..sexpr.pretty import as_tree, kicad9_text, legacy_text, tail_for
from ..errors import UnsupportedFormat
from .base import Document
from .refusals import allowed_keywords, check_lengths, check_version


def make(head: str, *kids: bytes | SList | None) -> SList:
    """A new list ``(head kid...)``; atoms are raw tokens (use `atoms.quote`,
    `atoms.mm`...), ``None`` kids are skipped so optional parts read naturally."""
    items: list = [head.encode()]
    items.extend(k for k in kids if k is not None)
    node = SList(items)
    for k in items:
        if type(k) is SList:
            k.parent = node
    return node


class SexprDocument(Document):
    """Base of boards, schematics, libraries and tables."""

    forest = False  # True for files that are a sequence of lists (.kicad_dru)
    roots: tuple[str, ...] = ()  # keywords the root list may have (empty: any)
    latest: int | None = None  # newest format version boardwire writes (None: unversioned)
    lengths_checked = False  # lengths beyond KiCad's range refused at load (`check_lengths`)

    def __init__(self, data: bytes, path: str | Path | None = None):
        super().__init__(data, path)
        self.tree = SexprFile(data, str(path) if path else None, forest=self.forest,
                              heads=None if self.forest else allowed_keywords(data))
        if self.roots and self.root.head not in self.roots:
            raise UnsupportedFormat(
                f"{path or 'the data'} holds a {self.root.head or 'list without keyword'}, "
                f"not a {self.kind} ({' or '.join(self.roots)})",
                hint="Check the file: its extension and its content disagree.")
        v = self._header_atom("version")
        if v is not None and not v.isdigit():
            raise UnsupportedFormat(f"{path or 'the data'}: format version {v.decode(errors='replace')!r} is not a number")
        check_version(self.version, str(path or "the data"))
        if self.lengths_checked:
            check_lengths(data, str(path) if path else None)
        # Top-level lists changed since an index last looked (None: nobody is looking).
        self._touched: dict[int, SList] | None = None
        self._logs: list[ChangeLog] = []

    @property
    def root(self) -> SList:
        return self.tree.root

    def to_bytes(self) -> bytes:
        if self.edits == 0:
            return self.original
        return self.tree.to_bytes()

    # -- header ----------------------------------------------------------------------

    def _header_atom(self, head: str) -> bytes | None:
        for kid in self.root.kids[:8]:
            if type(kid) is SList and kid.head == head:
                vals = kid.atoms()
                return vals[0] if vals else None
        return None

    @property
    def version(self) -> int | None:
        """The file's format version (``(version 20241229)``), None if it has none."""
        v = self._header_atom("version")
        try:
            return int(v) if v is not None else None
        except ValueError:
            return None

    @property
    def generator(self) -> str | None:
        g = self._header_atom("generator")
        return atoms.text(g) if g is not None else None

    @property
    def generator_version(self) -> str | None:
        g = self._header_atom("generator_version")
        return atoms.text(g) if g is not None else None

    # -- layout of the file ----------------------------------------------------------

    @property
    def tabbed(self) -> bool:
        """True for KiCad 8/9 layout (tabs, one list per line)."""
        for w in self.root.ws[1:4]:
            if b"\n" in w:
                return b"\t" in w
        return True

    @property
    def indent(self) -> bytes:
        return b"\t" if self.tabbed else b"  "

    def _layout(self, node: SList, depth: int) -> tuple[bytes, SList]:
        if self.tabbed:
            ws, text = kicad9_text(node, depth)
        else:
            ws, text = legacy_text(node, depth)
        nl = self.tree.newline
        if nl != b"\n":
            ws, text = ws.replace(b"\n", nl), text.replace(b"\n", nl)
        return ws, as_tree(text)

    def check_editable(self) -> None:
        """Refuse to edit a file whose format boardwire cannot write faithfully: newer
        than the newest KiCad release it knows (``latest``: KiCad 10), or without the
        version KiCad itself requires (UnsupportedFormat)."""
        if self.latest is None:
            return
        v = self.version
        if v is None or v > self.latest:
            raise UnsupportedFormat(
                f"{self.path.name if self.path else 'this file'} is format "
                f"{v if v is not None else '(no version)'}; boardwire edits formats up to "
                f"{self.latest} (KiCad 10) and reads newer ones without changing them",
                hint="Use the KiCad version that wrote the file to edit it, or keep it read-only.")

    # -- what changed (for indexes kept by subclasses) ---------------------------------

    def watch(self) -> ChangeLog:
        """A log of the top-level lists that edits (and undo, redo, rollback) touch
        from now on, for models kept beside the document (geometry, indexes): they
        re-read only what changed."""
        log = ChangeLog(self)
        self._logs.append(log)
        return log

    def note(self, node: SList) -> None:
        """Record that ``node`` (in the tree, or just taken out of it) changed."""
        if self._touched is None and not self._logs:
            return
        top, root = node, self.root
        chain = [node]
        while top.parent is not None and top.parent is not root:
            top = top.parent
            chain.append(top)
        if top is not root:
            if self._touched is not None:
                self._touched[id(top)] = top
            for log in self._logs:
                log.nodes[id(top)] = top
                for n in chain:
                    log.inner[id(n)] = n

    def note_journal(self, ops: list) -> None:
        """Record what an undo or redo journal touches (call before and after it runs)."""
        self.generation += 1
        if self._touched is None and not self._logs:
            return
        kids = self.root.kids
        for op in ops:
            if op[1] is self.root:
                i = op[2]
                if i < len(kids) and type(kids[i]) is SList:
                    self.note(kids[i])
                if op[0] in ("set", "insert") and type(op[3]) is SList:
                    self.note(op[3])
            else:
                self.note(op[1])

    # -- edits -------------------------------------------------------------------------

    def insert(self, parent: SList, node: SList, index: int | None = None) -> SList:
        """Insert ``node`` as a child of ``parent`` (at the end by default), laid out
        as KiCad lays out a list at that depth. Returns the inserted (re-read) node."""
        self.check_editable()
        depth = parent.depth + 1
        ws, fresh = self._layout(node, depth)
        kids = parent.kids
        if index is None:
            index = len(kids)
        parent.insert_kid(index, fresh, ws)
        self._retail(parent, depth - 1)
        self.note(fresh)
        self.touch()
        return fresh

    def replace(self, old: SList, node: SList) -> SList:
        """Put ``node`` where ``old`` is, keeping the whitespace before it."""
        self.check_editable()
        parent = old.parent
        _, fresh = self._layout(node, parent.depth + 1)
        self.note(old)
        parent.set_kid(parent.index(old), fresh)
        self.note(fresh)
        self.touch()
        return fresh

    def remove(self, node: SList) -> None:
        """Remove ``node`` and the whitespace before it."""
        self.check_editable()
        parent = node.parent
        if parent is None:
            raise ValueError("cannot remove the root list")
        self.note(node)
        parent.remove_kid(parent.index(node))
        self._retail(parent, parent.depth)
        self.touch()

    def set_atoms(self, node: SList, values: list[bytes], start: int = 1) -> None:
        """Overwrite the atoms of ``node`` from position ``start`` (1 = after the head),
        adding or dropping trailing atoms as needed; whitespace is kept where it was."""
        self.check_editable()
        self.note(node)
        kids = node.kids
        old = [i for i in range(start, len(kids)) if type(kids[i]) is bytes]
        for i, v in zip(old, values):
            node.set_kid(i, v)
        if len(values) > len(old):
            at = (old[-1] + 1) if old else start
            for v in values[len(old):]:
                node.insert_kid(at, v, b" ")
                at += 1
        else:
            for i in reversed(old[len(values):]):
                node.remove_kid(i)
        self.touch()

    def _retail(self, parent: SList, depth: int) -> None:
        if self.tabbed and parent.parent is not None:
            parent.tail = tail_for(parent, depth, True).replace(b"\n", self.tree.newline)


class ChangeLog:
    """Top-level lists of a document touched since the log was last read
    (`SexprDocument.watch`)."""

    def __init__(self, doc: SexprDocument):
        self.doc = doc
        self.nodes: dict[int, SList] = {}
        self.inner: dict[int, SList] = {}  # every list an edit touched, with its ancestors
        self.changed: dict[int, SList] = {}  # `inner` as the last `take` found it

    def take(self) -> list[tuple[SList, bool]]:
        """The touched top-level lists, each with whether it is still in the document;
        the log starts empty again. Every list inside them an edit touched (or that
        holds one) is `changed` until the next take: the lists not in it are as they
        were at the last take."""
        root = self.doc.root
        out = [(node, node.parent is root) for node in self.nodes.values()]
        self.nodes = {}
        self.changed, self.inner = self.inner, {}
        return out

    def peek(self) -> list[SList]:
        """The touched top-level lists, without emptying the log."""
        return list(self.nodes.values())

    @property
    def pending(self) -> bool:
        return bool(self.nodes)

    def close(self) -> None:
        """Stop logging."""
        if self in self.doc._logs:
            self.doc._logs.remove(self)
