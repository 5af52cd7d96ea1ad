"""Reading a board: its item index, items by kind, nets, layers, net classes, outline.

Format reference: KiCad's "Board File Format" page (dev-docs.kicad.org/en/file-formats/
sexpr-pcb/). Coordinates are integer nanometres.
"""

from __future__ import annotations

from typing import Iterator

from ...sexpr import atoms
from ...sexpr.node import SList
from ..versions import BOARD_RELEASES, board_has
from ..views import View, iter_views
from .container import BOARD_KINDS, FootprintContainer
from .footprint import Footprint
from .index import BoardIndex
from .items import Dimension, Graphic, Group, Text, Track, Via, Zone
from .tables import Layer, Net


class BoardReading(FootprintContainer):
    """A ``.kicad_pcb`` file, read: what `Board` builds its edits on."""

    kind = "board"
    roots = ("kicad_pcb",)
    lengths_checked = True
    latest = BOARD_RELEASES[10]
    _index: BoardIndex | None = None
    _net_codes: dict[str, int] | None = None

    def _insert_index(self, kinds: tuple[str, ...], fallback_before: tuple[str, ...]) -> int:
        """After the last item of ``kinds`` (found through the index), else as for any
        document."""
        idx = self.index
        last = [next(reversed(idx.by_kind[k].values())).node for k in kinds if idx.by_kind.get(k)]
        if last:
            kids = self.root.kids
            return max(kids.index(node) for node in last) + 1
        return super()._insert_index(kinds, fallback_before)

    @property
    def index(self) -> BoardIndex:
        """Records of the top-level items, refreshed for what edits touched."""
        index = self._index
        if index is None:
            index = self._index = BoardIndex(self.root)
            self._touched = {}
        elif self._touched:
            index.refresh(self._touched)
            self._touched.clear()
            if len(index.entries) != len(self.root.kids) - index.root_atoms:
                index = self._index = BoardIndex(self.root)  # lost track: start again
        return index

    # -- reading ---------------------------------------------------------------------

    def items(self, kinds: str | tuple[str, ...] | None = None) -> Iterator[View]:
        """Top-level items as views, optionally only the given keyword(s)."""
        if isinstance(kinds, str):
            kinds = (kinds,)
        table = BOARD_KINDS if kinds is None else {k: BOARD_KINDS[k] for k in kinds}
        return iter_views(self, self.root, table)

    @property
    def footprints(self) -> list[Footprint]:
        return list(self.items(("footprint", "module")))

    @property
    def tracks(self) -> list[Track]:
        return list(self.items(("segment", "arc")))

    @property
    def vias(self) -> list[Via]:
        return list(self.items("via"))

    @property
    def zones(self) -> list[Zone]:
        return list(self.items("zone"))

    @property
    def graphics(self) -> list[Graphic]:
        return [v for v in self.items() if isinstance(v, Graphic)]

    @property
    def texts(self) -> list[Text]:
        return list(self.items(("gr_text", "gr_text_box")))

    @property
    def groups(self) -> list[Group]:
        return list(self.items("group"))

    @property
    def dimensions(self) -> list[Dimension]:
        return list(self.items("dimension"))

    @property
    def variants(self) -> list[dict]:
        """KiCad 10 design variants (``(variants (variant (name "V") (description
        "...")))``): name and description of each; [] without. What a variant changes
        on a footprint: `Footprint.variants`."""
        table = self.root.find("variants")
        out = []
        for v in table.lists("variant") if table is not None else []:
            name, descr = v.find("name"), v.find("description")
            out.append({"name": atoms.text(name.atoms()[0]) if name is not None and name.atoms() else "",
                        "description": atoms.text(descr.atoms()[0]) if descr is not None and descr.atoms() else ""})
        return out

    @property
    def named_nets(self) -> bool:
        """True when items name their nets (KiCad 10, format 20251028 on): no net table,
        ``(net "GND")`` on tracks, vias, zones and pads. Decided by what the file has:
        a board of a KiCad 10 version that still holds a net table (``(net N "name")``,
        as KiCad 10 development builds wrote) is read and written with its table."""
        return board_has(self.version, "net_names") and not self.index.net_table

    @property
    def nets(self) -> list[Net]:
        """The net table (``(net 0 "")`` ... up to KiCad 9). KiCad 10 boards name nets
        on items instead: there the table is the names found on items (and those
        `ensure_net` added), numbered in the order first seen (as KiCad numbers them
        on load: numbers live in memory only, never in the file)."""
        if self.named_nets:
            return [Net(n, name) for name, n in self._named_codes().items()]
        out = []
        for kid in self.root.kids:
            if type(kid) is SList and kid.head_bytes() == b"net":
                vals = kid.atoms()
                if len(vals) >= 2:
                    out.append(Net(int(vals[0]), atoms.text(vals[1])))
        return out

    def _named_codes(self) -> dict[str, int]:
        """name -> number for a board whose items name their nets; numbers, once
        given, stay for the document's life (new names are appended in name order)."""
        codes = self._net_codes
        if codes is None:
            codes = self._net_codes = {"": 0}
        idx = self.index
        found = {n for n in idx.by_net if isinstance(n, str)}
        found.update(n for n, c in idx.pad_nets.items() if isinstance(n, str) and c > 0)
        for name in sorted(found - codes.keys()):
            codes[name] = len(codes)
        return codes

    @property
    def net_table(self) -> dict[str, int]:
        """Net name -> number, kept up to date by the index (KiCad 10 boards: the
        in-memory numbers of `nets`); do not change it."""
        return self._named_codes() if self.named_nets else self.index.net_table

    def net_name(self, number: int | None) -> str | None:
        for name, n in self.net_table.items():
            if n == number:
                return name
        return None

    def net_number(self, name: str) -> int | None:
        """The number of net ``name`` (None if the board has no such net); on KiCad 10
        boards the in-memory number `nets` gives."""
        return self.net_table.get(name)

    @property
    def layers(self) -> list[Layer]:
        table = self.root.find("layers")
        out = []
        if table is None:
            return out
        for entry in table.lists():
            vals = [entry.head_bytes()] + entry.atoms()
            if len(vals) >= 3:
                user = atoms.text(vals[3]) if len(vals) > 3 else None
                out.append(Layer(int(vals[0]), atoms.text(vals[1]), atoms.text(vals[2]), user))
        return out

    @property
    def copper_layers(self) -> list[str]:
        return [layer.name for layer in self.layers if layer.is_copper]

    @property
    def setup(self) -> SList | None:
        return self.root.find("setup")

    @property
    def mask_expansion(self) -> int:
        """The board's solder mask expansion around pads (nm; setup
        ``pad_to_mask_clearance``, 0 when absent, as KiCad's default)."""
        setup = self.setup
        v = setup.find("pad_to_mask_clearance") if setup is not None else None
        try:
            return atoms.to_nm(v.atoms()[0]) if v is not None and v.atoms() else 0
        except (ValueError, TypeError):
            return 0

    @property
    def net_classes(self) -> list[dict]:
        """Net classes kept in the board file, as up to KiCad 5 (``(net_class ...)``;
        KiCad 6+ keeps them in the project file, `Project.net_classes`). Each: name,
        the rule values (mm) that are set, and ``nets``."""
        out = []
        for nc in self.root.lists("net_class"):
            vals = nc.atoms()
            row: dict = {"name": atoms.text(vals[0]) if vals else ""}
            for rule in nc.lists():
                rv = rule.atoms()
                if rule.head == "add_net":
                    row.setdefault("nets", []).append(atoms.text(rv[0]))
                elif rv:
                    row[rule.head] = float(rv[0])
            out.append(row)
        return out

    def footprint(self, reference: str) -> Footprint | None:
        e = self.index.by_ref.get(reference)
        return Footprint(self, e.node) if e is not None else None

    def by_uuid(self, uid: str) -> View | None:
        e = self.index.by_uuid.get(uid)
        return self.view(e) if e is not None else None

    def view(self, entry) -> View | None:
        """The view of an index entry (`BoardIndex`), None for kinds without one."""
        cls = BOARD_KINDS.get(entry.kind)
        return cls(self, entry.node) if cls is not None else None

    def summary(self) -> dict:
        """Counts a person reads first: format, layers, and items by kind."""
        from .stats import board_summary

        return board_summary(self)


    def zones_by_id(self) -> dict[str, Zone]:
        """The board's zones by id (``uuid``, ``tstamp`` before KiCad 8)."""
        return {z.uuid: z for z in self.zones if z.uuid}

    def outline_bbox(self) -> tuple[int, int, int, int] | None:
        """(x1, y1, x2, y2) nm: the box around the points that define the drawings on
        Edge.Cuts (an arc's box is that of its start, mid and end); None without one."""
        pts = [p for g in self.graphics if g.layer == "Edge.Cuts" for p in g.points]
        if not pts:
            return None
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)
