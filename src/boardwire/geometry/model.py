"""The copper geometry of an in-memory board, kept in step with its edits.

`BoardGeometry` reads a `Board` through the documents layer once, then follows its
edits: the board logs the top-level items an edit (or undo, redo, rollback) touched
(`SexprDocument.watch`), and `sync` re-reads only those, updating the item columns and
the spatial index in place. What it holds (nanometres):

* copper items (`items.Item`): pads of every shape on each copper layer they are on (a
  hole pierces every copper layer), tracks, arcs, vias (through, blind/buried, micro)
  with their layer span, filled zone polygons per layer, copper drawings;
* footprints (`items.FootprintRec`): courtyards per side, local clearance, net ties;
* edges (`items.Edge`): Edge.Cuts and Margin drawings (footprint ones too) as lines;
* keep-outs (`items.Keepout`): rule areas with their outline and flags.

Copper text is not modelled (its strokes come from KiCad's font); board outlines are
`outline()`. Use `geometry_of` to get the model kept for a board.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import shapely

from ..documents.board.footprint_shapes import PadReads, read_footprint
from ..documents.board.shapes import (
    pending_items,
    read_drawing,
    read_track,
    read_via,
    read_zone,
    touched_items,
)
from ..documents.views import View
from . import items as mk
from . import shapes
from .index import KIND, Columns, CopperIndex
from .items import Layers, copper_order

_EDGE_LAYERS = ("Edge.Cuts", "Margin")


class _Owned:
    __slots__ = ("items", "footprints", "edges", "keepouts")

    def __init__(self) -> None:
        self.items: list[int] = []
        self.footprints: list[int] = []
        self.edges: list[int] = []
        self.keepouts: list[int] = []


class BoardGeometry:
    """Copper, holes, edges, courtyards and keep-outs of one board."""

    def __init__(self, board):
        self.board = board
        self.layers = Layers(copper_order(board.layers))
        self.items: list[mk.Item | None] = []
        self.footprints: list[mk.FootprintRec | None] = []
        self.edges: list[mk.Edge | None] = []
        self.keepouts: list[mk.Keepout | None] = []
        self.cols = Columns()
        self.index = CopperIndex(self.cols)
        self.net_codes: dict[str, int] = {"": 0}
        self._owned: dict[View, _Owned] = {}
        self._numbers = {n.number: n.name for n in board.nets}
        self._log = board.watch()
        self._pads = PadReads(self._log)  # footprints' pads as read, for re-reading them
        self.generation = 0
        self._flash: dict[int, int] = {}
        self._seq: dict[View, int] = {}  # document order of top-level items
        # called with the model before `sync` re-reads pending edits (old shapes still
        # here): the edit feedback sees edits a command synced itself
        self.before_sync: list = []
        tracks: list = []
        for n, view in enumerate(board.items()):
            self._seq[view] = n
            if view.kind in ("segment", "arc"):
                tracks.append((view, read_track(view)))
            else:
                self._add(view)
        self._next_seq = len(self._seq)
        nets = [self._net(t.net, t.net_name) for _, t in tracks]
        made = mk.track_items([t for _, t in tracks], self.layers, nets)
        for (view, _), item in zip(tracks, made):
            own = _Owned()
            self._put(item, own, view)
            self._owned[view] = own

    # -- reading ----------------------------------------------------------------------------

    def net_code(self, name: str) -> int:
        code = self.net_codes.get(name)
        if code is None:
            code = self.net_codes[name] = len(self.net_codes)
        return code

    def net_names(self) -> set[str]:
        """Every net name the board knows: its net table and its items' nets."""
        return set(self._numbers.values()) | set(self.net_codes)

    def _net(self, number, name) -> str:
        if name is not None:
            return name
        return self._numbers.get(number or 0, "") or ""

    def _put(self, item: mk.Item | None, own: _Owned, owner: View) -> None:
        if item is None:
            return
        item.id = len(self.items)
        item.owner = owner
        item.seq = self._seq.get(owner, 0)
        self.items.append(item)
        self.cols.add(item, self.net_code(item.net))
        if item.kind != "zone":
            self.index.added(item.id)
        own.items.append(item.id)

    def _add(self, view: View) -> None:
        head = view.kind
        own = _Owned()
        L = self.layers
        if head in ("footprint", "module"):
            self._add_footprint(view, own)
        elif head in ("segment", "arc"):
            t = read_track(view)
            self._put(mk.track_item(t, L, self._net(t.net, t.net_name)), own, view)
        elif head == "via":
            v = read_via(view)
            self._put(mk.via_item(v, L, self._net(v.net, v.net_name)), own, view)
        elif head == "zone":
            self._add_zone(view, own, None)
        elif head.startswith("gr_") and not head.startswith("gr_text"):
            d = read_drawing(view)
            if d is not None:
                self._add_drawing(d, own, view, None)
        elif head == "net":
            self._numbers = {n.number: n.name for n in self.board.nets}
        self._owned[view] = own

    def _add_drawing(self, d, own: _Owned, owner: View, fp: int | None) -> None:
        if any(layer in _EDGE_LAYERS for layer in d.layers):
            for e in mk.edge_items(d):
                e.id, e.owner = len(self.edges), owner
                self.edges.append(e)
                own.edges.append(e.id)
        if self.layers.mask(d.layers):
            item = mk.shape_item(d, self.layers, self._net(d.net, d.net_name))
            if item is not None:
                item.fp = fp
                self._put(item, own, owner)

    def _add_zone(self, view: View, own: _Owned, fp: int | None) -> None:
        z = read_zone(view)
        net = self._net(z.net, z.net_name)
        if z.keepout is not None:
            polys = [shapely.Polygon(p) for p in z.outline if len(p) >= 3]
            ko = mk.Keepout(z.uuid, z.name, self.layers.mask(z.layers),
                            shapely.union_all(polys) if polys else None, z.keepout, view,
                            _rule_area_desc(z.layers),
                            z.outline[0][0] if z.outline and z.outline[0] else (0, 0))
            own.keepouts.append(len(self.keepouts))
            self.keepouts.append(ko)
            return
        for item in mk.zone_items(z, self.layers, net):
            item.fp = fp
            self._put(item, own, view)

    def _add_footprint(self, view: View, own: _Owned) -> None:
        f = read_footprint(view, self._pads)
        court, malformed = mk.courtyards(f)
        rec = mk.FootprintRec(f.reference, f.uuid, f.at, f.side, court, malformed,
                              f.local_clearance, f.net_tie_pad_groups, f.attributes,
                              id=len(self.footprints), owner=view)
        self.footprints.append(rec)
        own.footprints.append(rec.id)
        coppers = shapes.pad_coppers(f.pads)
        for pad, copper in zip(f.pads, coppers):
            item = mk.pad_item(pad, f, self.layers, self._net(pad.net, pad.net_name), copper)
            if item is not None:
                item.fp = rec.id
                self._put(item, own, view)
                rec.pads.append(item.id)
        for d in f.drawings:
            self._add_drawing(d, own, view, rec.id)
        for z in f.zones:
            self._add_zone(z, own, rec.id)

    # -- following edits ------------------------------------------------------------------------

    def sync(self) -> tuple[list[int], list[int]]:
        """Re-read what edits touched since the last sync: returns (removed item ids,
        added item ids)."""
        if not self._log.pending:
            return [], []
        for hook in list(self.before_sync):
            hook(self)
        removed, added = [], []
        touched = touched_items(self.board, self._log)
        if any(view.kind == "net" for view, _ in touched):
            self._follow_net_table()
        for view, alive in touched:
            removed.extend(self._drop(view))
            if not alive and view.kind in ("footprint", "module"):
                self._pads.forget(view)
            if alive:
                if view not in self._seq:
                    self._seq[view] = self._next_seq
                    self._next_seq += 1
                self._add(view)
                added.extend(self._owned[view].items)
        self.generation += 1
        self._flash.clear()
        return removed, added

    def _follow_net_table(self) -> None:
        """A net table entry changed (a net renamed, `Board.rename_net`): the items on
        it that were not touched (tracks and vias name their net by number) are replaced
        by copies with the new name (new objects, so caches keyed on an item see the
        change) and the net keeps its code."""
        now = {n.number: n.name for n in self.board.nets}
        renamed = {}
        for number, name in now.items():
            old = self._numbers.get(number)
            if old is not None and old != name and name not in self.net_codes:
                renamed[old] = name
                if old in self.net_codes:
                    self.net_codes[name] = self.net_codes.pop(old)
        if renamed:
            for i, item in enumerate(self.items):
                if item is not None and item.net in renamed:
                    self.items[i] = dataclasses.replace(item, net=renamed[item.net])
        self._numbers = now

    @property
    def pending(self) -> bool:
        """True when edits happened since the last `sync`."""
        return self._log.pending

    def pending_owners(self) -> list[View]:
        """The top-level items edits touched since the last `sync` (not yet re-read)."""
        return pending_items(self.board, self._log)

    def footprints_of(self, view: View) -> list[int]:
        own = self._owned.get(view)
        return list(own.footprints) if own else []

    def _drop(self, view: View) -> list[int]:
        own = self._owned.pop(view, None)
        if own is None:
            return []
        for i in own.items:
            it = self.items[i]
            if it is not None and it.kind != "zone":
                self.index.removed(i)
            self.items[i] = None
            self.cols.remove(i)
        for i in own.footprints:
            self.footprints[i] = None
        for i in own.edges:
            self.edges[i] = None
        for i in own.keepouts:
            self.keepouts[i] = None
        return list(own.items)

    def flash(self, it) -> int:
        """The copper layers where item ``it`` has copper (bit mask). A through-hole pad
        or via whose unused layers are removed (``remove_unused_layers``) keeps its
        copper only where same-net copper (a track, arc, via, pad or zone fill) meets
        it, and on the outer layers when ``keep_end_layers`` is set (KiCad's
        ``FlashLayer``); elsewhere it is only its hole."""
        if it.kind not in ("pad", "via") or not getattr(it.data, "remove_unused_layers", False):
            return it.flash
        done = self._flash.get(it.id)
        if done is not None:
            return done
        keep = self.layers.outer if it.data.keep_end_layers else 0
        result = it.flash & keep
        if it.net:
            copper = shapely.buffer(it.core, it.r + 1.0) if it.r else it.core
            near = self.index.candidates_in(copper)
            for j in near.tolist():
                o = self.items[j]
                if j == it.id or o is None or o.net != it.net or not o.mask & it.flash & ~result:
                    continue
                if shapely.distance(it.core, o.core) <= it.r + o.r:
                    result |= o.mask & it.flash
            for z in self.alive_ids(("zone",)).tolist():
                zone = self.items[z]
                if zone.net == it.net and zone.mask & it.flash & ~result \
                        and shapely.distance(zone.core, it.core) <= it.r + zone.r:
                    result |= zone.mask & it.flash
        self._flash[it.id] = result
        return result

    def owned_by(self, view: View) -> list[int]:
        own = self._owned.get(view)
        return list(own.items) if own else []

    # -- questions ----------------------------------------------------------------------------------

    def alive_ids(self, kinds: tuple[str, ...] | None = None) -> np.ndarray:
        c = self.cols
        live = c.alive[:c.n].copy()
        if kinds is not None:
            live &= np.isin(c.kind[:c.n], [KIND[k] for k in kinds])
        return np.flatnonzero(live)

    def by_uuid(self, uid: str) -> list[mk.Item]:
        return [it for it in self.items if it is not None and it.uuid == uid]

    def resolver(self) -> dict:
        """uuid -> the record KiCad shows for it in a report: KiCad looks report items
        up by uuid, so where a file repeats a uuid (old boards: ``tstamp 0``) the last
        item with it answers for all."""
        out: dict = {}
        for own in self._owned.values():
            for rec in ([self.footprints[i] for i in own.footprints] + [self.items[i] for i in own.items]
                        + [self.keepouts[i] for i in own.keepouts] + [self.edges[i] for i in own.edges]):
                if rec is not None and rec.uuid:
                    out[rec.uuid] = rec
        return out

    def outline(self):
        """The board outline: polygons (holes for cut-outs) closed by Edge.Cuts lines,
        or None when the edges close nothing."""
        lines = [e.core for e in self.edges if e is not None and e.layer == "Edge.Cuts"]
        if not lines:
            return None
        merged = shapely.union_all(shapely.set_precision(lines, 1000.0))
        polys = list(shapely.get_parts(shapely.polygonize(shapely.get_parts(merged))))
        if not polys:
            return None
        # even-odd over the closed loops: a loop inside another is a cut-out, a loop
        # inside a cut-out an island
        area = shapely.Polygon(polys[0].exterior)
        for p in polys[1:]:
            area = area.symmetric_difference(shapely.Polygon(p.exterior))
        return area


def _rule_area_desc(layers) -> str:
    """KiCad's description of a rule area ("Rule Area on F.Cu, B.Cu and 2 more")."""
    names = list(layers)
    if len(names) > 2:
        return f"Rule Area on {names[0]}, {names[1]} and {len(names) - 2} more"
    return "Rule Area on " + ", ".join(names)


def geometry_of(board) -> BoardGeometry:
    """The geometry kept for ``board`` (built on first use), synced with its edits.
    Kept on the board itself, so it goes when the board goes."""
    model = cached_geometry(board)
    if model is None:
        model = board._geometry = BoardGeometry(board)
    else:
        model.sync()
    return model


def cached_geometry(board) -> BoardGeometry | None:
    """The geometry kept for ``board`` if one was built (not synced)."""
    return getattr(board, "_geometry", None)
