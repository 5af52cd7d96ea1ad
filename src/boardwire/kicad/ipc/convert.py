"""The session board's changed items as one KiCad commit (`editor.Change`).

What KiCad 9's IPC API can take, item by item (kicad-python 0.6 wrappers):

* tracks (``segment``), track arcs (``arc``) and vias: created or updated whole, with
  their own UUID (KiCad keeps it), width, layer, net (by name), via diameter and drill;
* footprints already on the board: position and orientation (``pcb.move``,
  ``pcb.rotate``; a footprint's other changes, such as fields, pad nets or a flip,
  are not carried, and not reported either);
* removal of any item by UUID.

Everything else (new footprints, zones, drawings, texts, fields, flips, board
settings) has no faithful IPC form in KiCad 9 (``ParseAndCreateItemsFromString``
answers without creating anything): such keys are returned as not mirrored, and
`boardwire.session.live` has KiCad reload the file once it is saved. ``net:N``
lists are implied by the items that use them and never reported.
"""

from __future__ import annotations

from ...documents.board import Arc, Board, Footprint, Track, Via
from .editor import Change, Editor


def layer_of(name: str):
    """A KiCad layer name (``F.Cu``, ``In1.Cu``) as the API's BoardLayer value."""
    from kipy.proto.board.board_types_pb2 import BoardLayer

    return BoardLayer.Value("BL_" + name.replace(".", "_"))


def _vec(p):
    from kipy.geometry import Vector2

    return Vector2.from_xy(int(p[0]), int(p[1]))


def _net(board: Board, item, nets: dict):
    from kipy.board_types import Net

    name = board.net_name(item.net) or ""
    return nets.get(name) or Net()


def _track(board: Board, view, nets: dict):
    from kipy.board_types import ArcTrack
    from kipy.board_types import Track as KTrack

    t = ArcTrack() if isinstance(view, Arc) else KTrack()
    t.proto.id.value = view.uuid
    t.start, t.end = _vec(view.start), _vec(view.end)
    if isinstance(view, Arc):
        t.mid = _vec(view.mid)
    t.width = view.width
    t.layer = layer_of(view.layer)
    t.net = _net(board, view, nets)
    return t


def _via(board: Board, view: Via, nets: dict):
    from kipy.board_types import Via as KVia

    v = KVia()
    v.proto.id.value = view.uuid
    v.position = _vec(view.position)
    v.diameter = view.size
    v.drill_diameter = view.drill
    v.net = _net(board, view, nets)
    return v


def change_for(board: Board, keys: list[str], editor: Editor,
               in_kicad: set[str] | None = None) -> tuple[Change, list[str]]:
    """The commit that makes KiCad's board what ``board`` is for ``keys`` (from
    `documents.board.mirror.changed_keys`), and the keys it cannot carry.
    ``in_kicad``: the item ids KiCad's board has (asked from KiCad when not given:
    the first request after a commit waits for KiCad's redraw, 0.2-0.5 s under Xvfb)."""
    from kipy.geometry import Angle

    change, skipped = Change(), []
    if in_kicad is None:
        in_kicad = editor.existing_ids()
    footprints = None
    nets = None
    for key in keys:
        if key.startswith("net:"):
            continue
        view = board.by_uuid(key)
        if view is None:
            if ":" in key:  # a settings list (setup, layers, general...) went
                skipped.append(key)
            elif key in in_kicad:
                change.remove.append(key)
            continue  # gone from both (an item KiCad never had, undone)
        if isinstance(view, Footprint):
            footprints = footprints if footprints is not None else editor.footprints()
            fp = footprints.get(key)
            if fp is None:
                skipped.append(key)
                continue
            fp.position = _vec(view.position)
            fp.orientation = Angle.from_degrees(view.orientation)
            change.update.append(fp)
        elif isinstance(view, (Track, Via)):
            nets = nets if nets is not None else editor.nets()
            item = _via(board, view, nets) if isinstance(view, Via) else _track(board, view, nets)
            (change.update if key in in_kicad else change.create).append(item)
        else:
            skipped.append(key)
    return change, skipped
