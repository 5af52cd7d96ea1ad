"""The geometry model follows the session's edits: after edits, undo and redo, the
model kept for a board (re-reading only what each edit touched) equals a model built
from scratch on the same board, and its spatial index finds the new items."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import shapely

from boardwire.geometry import BoardGeometry, geometry_of
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need


def snapshot(model) -> list:
    """What the model holds, comparable between two models of one board."""
    rows = []
    for it in model.items:
        if it is None:
            continue
        b = tuple(round(v) for v in shapely.bounds(it.core))
        rows.append((it.kind, it.uuid, it.net, it.mask, it.number, round(it.r), b,
                     round(it.hole_r), model.layers.of(model.flash(it))))
    fps = [(f.reference, f.uuid, tuple(sorted(f.courtyard)), round(sum(p.area for p in f.courtyard.values())))
           for f in model.footprints if f is not None]
    edges = [(e.uuid, tuple(round(v) for v in shapely.bounds(e.core))) for e in model.edges if e is not None]
    return [sorted(rows, key=repr), sorted(fps, key=repr), sorted(edges, key=repr)]


@pytest.fixture
def session(tmp_path):
    for f in need(DEMOS / "pic_programmer").glob("pic_programmer.*"):
        shutil.copy(f, tmp_path / f.name)
    return Session(tmp_path)


def test_model_follows_edits_undo_and_redo(session):
    path = "pic_programmer.kicad_pcb"
    run = lambda cid, **a: REGISTRY.call(cid, {"path": path, **a}, Context(session))  # noqa: E731
    board = session.get(path, "board").doc
    model = geometry_of(board)
    before = snapshot(model)
    t = run("pcb.addTrack", points=[[120, 80], [130, 80], [130, 90]], width=0.3, layer="B.Cu", net="GND")
    run("pcb.addVia", at=[130, 90], net="GND")
    fp = run("query.items", kind=["footprint"], limit=1)["items"][0]["ref"]
    run("pcb.move", reference=fp, by=[2.5, -1.0])
    run("pcb.rotate", reference=fp, angle=90)
    run("pcb.flip", reference=fp)
    run("pcb.delete", ids=[t["ids"][0]])
    run("pcb.addGraphic", shape="rect", points=[[100, 60], [110, 70]], layer="F.Cu", width=0.2)
    kept = geometry_of(board)
    assert kept is model  # the same model, kept in step
    assert snapshot(kept) == snapshot(BoardGeometry(board))
    # the index finds the via just added
    via = [it for it in kept.items if it is not None and it.kind == "via"
           and tuple(it.pos) == (130_000_000, 90_000_000)]
    assert len(via) == 1
    a, b = kept.index.candidates(np.array([via[0].id]), np.array([1e6]))
    assert set(b.tolist()) & {i for i, it in enumerate(kept.items) if it is not None and it.kind == "track"
                              and it.net == "GND"}
    for _ in range(7):
        session.undo(path)
    assert snapshot(geometry_of(board)) == before
    for _ in range(3):
        session.redo(path)
    assert snapshot(geometry_of(board)) == snapshot(BoardGeometry(board))


def test_sync_rereads_only_what_an_edit_touched(session):
    path = "pic_programmer.kicad_pcb"
    board = session.get(path, "board").doc
    model = BoardGeometry(board)  # a model of its own (the edit hook syncs the kept one)
    n = len([it for it in model.items if it is not None])
    REGISTRY.call("pcb.addTrack", {"path": path, "points": [[120, 80], [125, 80]], "width": 0.25,
                                   "layer": "F.Cu"}, Context(session))
    removed, added = model.sync()
    assert removed == [] and len(added) == 1 and model.items[added[0]].kind == "track"
    assert len([it for it in model.items if it is not None]) == n + 1


def test_the_model_goes_with_its_board():
    """The model, its constraints and the zone fills prepared for checks are kept on
    the board, not in module-level caches that would keep every board ever opened."""
    import gc
    import weakref

    from boardwire.checks import board_rules, run
    from boardwire.documents import open_document
    from boardwire.geometry.constraints import constraints_for

    doc = open_document(need(DEMOS / "pic_programmer" / "pic_programmer.kicad_pcb"))
    model = geometry_of(doc)
    run(model, constraints_for(model, board_rules(doc)), doc)
    assert geometry_of(doc) is model
    gone = weakref.ref(doc)
    del doc, model
    gc.collect()
    assert gone() is None


def test_pads_an_edit_did_not_touch_are_placed_again_not_read_again(session, monkeypatch):
    """A footprint moved keeps its pad reads (placed anew); a pad whose net an edit
    set, and the same pad after undo, are read again: the model equals a fresh one."""
    from boardwire.documents.board import footprint_shapes

    path = "pic_programmer.kicad_pcb"

    def run(cid, **a):
        return REGISTRY.call(cid, {"path": path, **a}, Context(session))
    board = session.get(path, "board").doc
    model = geometry_of(board)
    before = snapshot(model)
    fp = next(f for f in model.footprints if f is not None and len(f.pads) >= 8)
    number = next(model.items[i].number for i in fp.pads if model.items[i].number)
    reads = []
    real = footprint_shapes._read_pad
    monkeypatch.setattr(footprint_shapes, "_read_pad", lambda node, place: reads.append(1) or real(node, place))
    run("pcb.move", reference=fp.reference, by=[2.5, -1.0])
    geometry_of(board)
    assert reads == []  # moved: no pad read again
    run("pcb.setPadNet", reference=fp.reference, pad=number, net="GND")
    run("pcb.move", reference=fp.reference, by=[1.0, 0])
    assert snapshot(geometry_of(board)) == snapshot(BoardGeometry(board))
    assert any(it is not None and it.number == number and it.net == "GND" and it.fp is not None
               and model.footprints[it.fp].reference == fp.reference for it in model.items)
    for _ in range(3):
        session.undo(path)
    assert snapshot(geometry_of(board)) == before
    session.redo(path)
    session.redo(path)
    assert snapshot(geometry_of(board)) == snapshot(BoardGeometry(board))
