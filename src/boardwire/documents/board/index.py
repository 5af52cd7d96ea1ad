"""An index of a board's top-level items, kept up to date edit by edit.

Queries on a large board (video: 11,000 items) must answer in a millisecond or two, so
the board keeps records by kind, net, reference and UUID. The document tells the index
which top-level items an edit touched (`SexprDocument.touched`), so after an edit only
those records are recomputed; undo and redo report the items their journal touched.
"""

from __future__ import annotations

from collections import Counter

from ...sexpr import atoms
from ...sexpr.node import SList
from ...sexpr.parse import gc_paused


class Entry:
    __slots__ = ("node", "kind", "layers", "net", "ref", "uuid", "anchor", "pad_nets", "declared")

    def __init__(self, node: SList):
        self.node = node
        self.kind = node.head
        self.layers: tuple[str, ...] = ()
        self.net: int | str | None = None
        self.ref: str | None = None
        self.uuid: str | None = None
        self.anchor: tuple[int, int] | None = None
        self.pad_nets: list = []
        self.declared: tuple[str, int] | None = None  # a net table entry: (name, number) as indexed
        for kid in node.kids:
            if type(kid) is not SList:
                continue
            h = kid.head_bytes()
            if h in (b"layer", b"layers"):
                if not self.layers:
                    self.layers = tuple(atoms.text(v) for v in kid.atoms())
            elif h == b"net":
                v = kid.atoms()
                if v:
                    self.net = atoms.text(v[0]) if v[0][:1] == b'"' else int(v[0])
            elif h in (b"uuid", b"tstamp") and self.uuid is None:
                v = kid.atoms()
                self.uuid = atoms.text(v[0]) if v else None
            elif h in (b"at", b"start", b"center") and self.anchor is None:
                v = kid.atoms()
                if len(v) >= 2:
                    self.anchor = (atoms.to_nm(v[0]), atoms.to_nm(v[1]))
            elif h == b"property" and self.kind in ("footprint", "module"):
                v = kid.atoms()
                if len(v) >= 2 and v[0] == b'"Reference"':
                    self.ref = atoms.text(v[1])
            elif h == b"fp_text" and self.kind == "module" or (h == b"fp_text" and self.ref is None):
                v = kid.atoms()
                if len(v) >= 2 and v[0] == b"reference":
                    self.ref = atoms.text(v[1])
            elif h == b"pad":
                net = kid.find("net")
                if net is not None and net.atoms():
                    v = net.atoms()[0]
                    self.pad_nets.append(atoms.text(v) if v[:1] == b'"' else int(v))
            elif h == b"polygon" and self.anchor is None:  # zones: first outline point
                pts = kid.find("pts")
                xy = next(pts.lists("xy"), None) if pts is not None else None
                if xy is not None:
                    v = xy.atoms()
                    self.anchor = (atoms.to_nm(v[0]), atoms.to_nm(v[1]))


class BoardIndex:
    """Records of a board's top-level lists, by id, kind, net, reference and UUID."""

    def __init__(self, root: SList):
        self.root = root
        self.entries: dict[int, Entry] = {}
        self.by_kind: dict[str, dict[int, Entry]] = {}
        self.by_net: dict[object, dict[int, Entry]] = {}
        self.by_ref: dict[str, Entry] = {}
        self.by_uuid: dict[str, Entry] = {}
        self.pad_nets: Counter = Counter()
        self.net_kinds: Counter = Counter()  # (net, kind) -> count
        self.net_table: dict[str, int] = {}
        self.root_atoms = 0  # the root's head keyword: edits never add atoms there
        with gc_paused():  # reads (materialises) every item: no garbage to look for
            for kid in root.kids:
                if type(kid) is SList:
                    self._add(kid)
                else:
                    self.root_atoms += 1

    def _add(self, node: SList) -> None:
        e = Entry(node)
        key = id(node)
        self.entries[key] = e
        self.by_kind.setdefault(e.kind, {})[key] = e
        if e.kind == "net":
            v = node.atoms()
            if len(v) >= 2:
                e.declared = (atoms.text(v[1]), int(v[0]))
                self.net_table[e.declared[0]] = e.declared[1]
            return
        if e.net is not None:
            self.by_net.setdefault(e.net, {})[key] = e
            self.net_kinds[(e.net, e.kind)] += 1
        if e.ref is not None:
            self.by_ref.setdefault(e.ref, e)
        if e.uuid is not None:
            self.by_uuid[e.uuid] = e
        self.pad_nets.update(e.pad_nets)

    def _drop(self, key: int) -> None:
        e = self.entries.pop(key, None)
        if e is None:
            return
        self.by_kind.get(e.kind, {}).pop(key, None)
        if e.kind == "net":  # as it was indexed: an edit may have renamed it since
            if e.declared is not None and self.net_table.get(e.declared[0]) == e.declared[1]:
                del self.net_table[e.declared[0]]
            return
        if e.net is not None:
            self.by_net.get(e.net, {}).pop(key, None)
            self.net_kinds[(e.net, e.kind)] -= 1
        if e.ref is not None and self.by_ref.get(e.ref) is e:
            del self.by_ref[e.ref]
        if e.uuid is not None and self.by_uuid.get(e.uuid) is e:
            del self.by_uuid[e.uuid]
        self.pad_nets.subtract(e.pad_nets)

    def refresh(self, touched: dict[int, SList]) -> None:
        """Recompute the records of the top-level lists an edit touched."""
        for key, node in touched.items():
            self._drop(key)
            if node.parent is self.root:
                self._add(node)
