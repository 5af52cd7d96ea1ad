"""Each reproducer in ../shared/corpus/bugs: read (and written back unchanged), or
refused for the reason KiCad refuses it."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardwire
from boardwire.errors import ParseError
from boardwire.documents.versions import LATEST_BOARD, LATEST_SCHEMATIC
from tests.inputs import CORPUS, need_corpus

BUGS = CORPUS / "bugs"


def bug_files():
    if not BUGS.is_dir():
        return [pytest.param(None, id="no-corpus")]
    out = []
    for folder in sorted(p for p in BUGS.iterdir() if p.is_dir()):
        for f in sorted(folder.iterdir()):
            if f.suffix in (".kicad_pcb", ".kicad_sch", ".kicad_mod"):
                out.append(pytest.param(f, id=f"{folder.name}/{f.name}"))
    return out


def kicad_refused(path: Path) -> str | None:
    for marker in path.parent.glob(path.stem + ".*.failed"):
        return marker.read_text()
    return None


@pytest.mark.parametrize("path", bug_files())
def test_bug_reproducer(path: Path):
    if path is None:
        need_corpus()
    refused = kicad_refused(path)
    try:
        doc = boardwire.open(path)
    except ParseError as e:
        # we refuse only what KiCad refuses, and we say where
        assert refused is not None, f"KiCad reads {path.name} but we refused it: {e}"
        assert e.line > 0 and e.col > 0
        return
    # read: everything survives, and the model sees the items
    materialized = doc.tree.root
    stack = [materialized]
    while stack:
        n = stack.pop()
        stack.extend(k for k in n.kids if type(k) is not bytes)
    assert doc.tree.to_bytes() == path.read_bytes()
    summary = doc.summary()
    assert summary["kind"] in ("board", "schematic", "footprint")
    if refused is not None:
        # KiCad 9.0.8 refused it without a syntax error: a newer format version it
        # does not know. We read it losslessly and say which version it is.
        latest = LATEST_SCHEMATIC if doc.kind == "schematic" else LATEST_BOARD
        assert (doc.version or 0) > latest, f"{path.name}: KiCad refused an old-format file"
