"""The lossless S-expression tree.

A list node (`SList`) keeps, besides its children, the exact whitespace that stood before
each child and before its closing parenthesis, so writing an untouched tree gives back
the bytes it was read from. Atoms are kept as the raw ``bytes`` of their token (a quoted
string keeps its quotes and escapes, a number keeps its spelling), so an atom nobody
changed is written exactly as it was read.

A node read from a file may be *lazy*: it knows only its byte span in the source buffer
until something asks for its children, and a lazy node is written by copying that span.
This is what makes opening a 70 MB board cheap.

Reading a lazy node's children and writing a tree go through the compiled ``_sexpr``
extension when it is built (``pip install -e .`` builds it): the same tree as the Python
reader in parse.py, about ten times faster, with short tokens shared and each list's
whitespace kept as a tuple shared between lists until an edit needs the list's own
copy (the ``ws`` property). Without the extension the Python reader and writer do it all.
"""

from __future__ import annotations

import io
from typing import Iterator, Union

Child = Union[bytes, "SList"]

# The edit journal being recorded, if any (see `recording`): every structural edit of
# a list appends the operation that undoes it, so undo is exact and costs only what
# the edit touched.
_journal: list | None = None


class recording:
    """``with recording() as ops:`` collects the undo operations of the edits made
    inside the block (nested recordings share the outer list)."""

    def __enter__(self) -> list:
        global _journal
        self._outer = _journal
        if _journal is None:
            _journal = []
        return _journal

    def __exit__(self, *exc) -> None:
        global _journal
        _journal = self._outer


def apply_undo(ops: list) -> None:
    """Undo the edits whose journal is ``ops`` (newest last). Run inside `recording`
    to get the journal that redoes them."""
    for op in reversed(ops):
        kind, node = op[0], op[1]
        if kind == "set":
            node.set_kid(op[2], op[3])
        elif kind == "remove":
            node.remove_kid(op[2])
        elif kind == "insert":
            node.insert_kid(op[2], op[3], op[4])
        else:  # "tail"
            node.tail = op[2]


class _Sink:
    """What `SList.emit` appends to when writing a whole tree: a growing buffer."""

    __slots__ = ("buf", "append")

    def __init__(self):
        self.buf = io.BytesIO()
        self.append = self.buf.write


class SList:
    """One parenthesised list: ``(head child child ...)``.

    ``kids`` are the children in order; an atom child is ``bytes`` (its raw token text),
    a list child is an ``SList``. ``ws[i]`` is the whitespace written before ``kids[i]``
    and ``tail`` the whitespace before the closing parenthesis. ``implicit`` marks a list
    whose opening parenthesis is missing in the source (KiCad's teardrop parser accepts
    ``filter_ratio 0.9)`` for ``(filter_ratio 0.9)``; such a list is written back without
    it).
    """

    __slots__ = ("_kids", "_ws", "_tail", "_src", "_start", "_end", "parent", "implicit")

    def __init__(self, kids: list[Child] | None = None, ws: list[bytes] | None = None,
                 tail: bytes = b"", parent: SList | None = None):
        self._kids: list[Child] | None = kids if kids is not None else []
        self._ws: list[bytes] | None = ws if ws is not None else [b""] * len(self._kids)
        self._tail = tail
        self._src: bytes | memoryview | None = None
        self._start = 0
        self._end = 0
        self.parent = parent
        self.implicit = False

    # -- laziness -------------------------------------------------------------------

    @classmethod
    def lazy(cls, src: bytes, start: int, end: int, parent: SList | None) -> SList:
        """A node that is only the span ``src[start:end]`` until its children are read."""
        node = cls.__new__(cls)
        node._kids = None
        node._ws = None
        node._tail = b""
        node._src = src
        node._start = start
        node._end = end
        node.parent = parent
        node.implicit = False
        return node

    @property
    def is_lazy(self) -> bool:
        return self._kids is None

    def _materialize(self) -> None:
        if _compiled is not None:
            try:  # the compiled reader (_sexpr.c): same tree, less time and memory
                _compiled.materialize(self, self._src, self._start, self._end)
                return
            except ValueError:
                pass  # declined: the Python reader below decides (and reports errors)
        # A lazy span comes from the fast scan, which validated it.
        parsed = _read_span(self._src, self._start, self._end, trusted=True)
        self._kids = parsed._kids
        self._ws = parsed._ws
        self._tail = parsed._tail
        self.implicit = parsed.implicit
        for kid in self._kids:
            if type(kid) is SList:
                kid.parent = self

    @property
    def kids(self) -> list[Child]:
        if self._kids is None:
            self._materialize()
        return self._kids  # type: ignore[return-value]

    @property
    def ws(self) -> list[bytes]:
        if self._kids is None:
            self._materialize()
        ws = self._ws
        if type(ws) is tuple:  # shared by the compiled reader: this list's own copy
            ws = self._ws = list(ws)
        return ws  # type: ignore[return-value]

    @property
    def tail(self) -> bytes:
        if self._kids is None:
            self._materialize()
        return self._tail

    @tail.setter
    def tail(self, value: bytes) -> None:
        if self._kids is None:
            self._materialize()
        if _journal is not None:
            _journal.append(("tail", self, self._tail))
        self._tail = value

    def head_bytes(self) -> bytes:
        """The first atom (the keyword) without materialising a lazy node."""
        if self._kids is None:
            src, i, end = self._src, self._start + 1, self._end
            # Skip the whitespace after '(' then read up to the next separator.
            while i < end and src[i] in b" \t\r\n\x00":
                i += 1
            j = i
            while j < end and src[j] not in b" \t\r\n\x00()":
                j += 1
            return bytes(src[i:j])
        kids = self._kids
        return kids[0] if kids and type(kids[0]) is bytes else b""

    @property
    def head(self) -> str:
        """The keyword of this list (``"footprint"``, ``"at"``...), or ``""``."""
        return self.head_bytes().decode("utf-8", "surrogateescape")

    # -- reading ---------------------------------------------------------------------

    def lists(self, head: str | None = None) -> Iterator[SList]:
        """Child lists, optionally only those whose keyword is ``head``."""
        if head is None:
            for kid in self.kids:
                if type(kid) is SList:
                    yield kid
            return
        want = head.encode()
        for kid in self.kids:
            if type(kid) is SList and kid.head_bytes() == want:
                yield kid

    def find(self, head: str) -> SList | None:
        """The first child list with keyword ``head``, or None."""
        return next(self.lists(head), None)

    def atoms(self) -> list[bytes]:
        """The atom children after the head, in order (raw token text)."""
        return [k for k in self.kids[1:] if type(k) is bytes]

    def index(self, child: Child) -> int:
        """Position of ``child`` (by identity; SList has no value equality, so the
        list's own C search compares identities for lists)."""
        if type(child) is SList:
            return self.kids.index(child)
        for i, kid in enumerate(self.kids):
            if kid is child:
                return i
        raise ValueError("not a child of this list")

    @property
    def depth(self) -> int:
        """Nesting depth: the file's root list is 0, its children 1, and so on."""
        d, node = 0, self.parent
        while node is not None:
            d, node = d + 1, node.parent
        return d

    # -- writing ---------------------------------------------------------------------

    def emit(self, out: list) -> None:
        """Append this node's text pieces (bytes or memoryviews) to ``out``."""
        if self._kids is None:
            out.append(self._src[self._start:self._end])
            return
        if not self.implicit:
            out.append(b"(")
        self.emit_children(out)
        out.append(b")")

    def emit_children(self, out: list) -> None:
        """Append the children's text pieces with the whitespace between them and
        before the closing parenthesis (not the parentheses)."""
        for w, kid in zip(self._ws, self._kids):
            if w:
                out.append(w)
            if type(kid) is bytes:
                out.append(kid)
            else:
                kid.emit(out)
        if self._tail:
            out.append(self._tail)

    def to_bytes(self, lead: bytes = b"", trail: bytes = b"", size_hint: int = 0) -> bytes:
        """``lead`` + this list's text + ``trail`` (``size_hint``: the expected length
        in bytes, to size the buffer once)."""
        if _compiled is not None and type(self) is SList:
            try:
                return _compiled.to_bytes(self, size_hint, lead, trail)
            except ValueError:
                pass  # an unexpected node storage: the Python writer says what
        # Pieces go straight into one buffer: a list of millions of pieces for
        # b"".join costs an 80-byte Py_buffer per piece on top (1.2 GB on vme-wren).
        sink = _Sink()
        sink.append(lead)
        self.emit(sink)  # type: ignore[arg-type]
        sink.append(trail)
        return sink.buf.getvalue()

    def __repr__(self) -> str:
        text = self.to_bytes()
        if len(text) > 80:
            text = text[:77] + b"..."
        return f"SList({text.decode('utf-8', 'replace')!r})"

    # -- structural edits (whitespace policy lives in pretty.py) ---------------------

    def _detach_src(self) -> None:
        if self._kids is None:
            self._materialize()
        if type(self._ws) is tuple:
            self._ws = list(self._ws)

    def set_kid(self, i: int, value: Child) -> None:
        """Replace child ``i`` keeping the whitespace before it."""
        self._detach_src()
        if _journal is not None:
            _journal.append(("set", self, i, self._kids[i]))  # type: ignore[index]
        self._kids[i] = value  # type: ignore[index]
        if type(value) is SList:
            value.parent = self

    def insert_kid(self, i: int, value: Child, ws: bytes) -> None:
        self._detach_src()
        if _journal is not None:
            _journal.append(("remove", self, i))
        self._kids.insert(i, value)  # type: ignore[union-attr]
        self._ws.insert(i, ws)  # type: ignore[union-attr]
        if type(value) is SList:
            value.parent = self

    def remove_kid(self, i: int) -> Child:
        """Remove child ``i`` and the whitespace before it."""
        self._detach_src()
        if _journal is not None:
            _journal.append(("insert", self, i, self._kids[i], self._ws[i]))  # type: ignore[index]
        del self._ws[i]  # type: ignore[union-attr]
        kid = self._kids.pop(i)  # type: ignore[union-attr]
        if type(kid) is SList:
            kid.parent = None
        return kid


try:
    from . import _sexpr as _compiled
except ImportError:  # not built: the Python reader and writer do the same work
    _compiled = None
else:
    _compiled.configure(SList)


_read_span = None  # the exact reader of a list's span; `parse` sets it (it builds nodes, so node cannot import it)


def use_reader(read_span) -> None:
    """Set the reader lazy nodes are read with: ``read_span(src, start, end,
    trusted=True) -> SList`` (`parse.parse_list_span`, installed when `parse` is
    imported, which every path that makes lazy nodes does)."""
    global _read_span
    _read_span = read_span
