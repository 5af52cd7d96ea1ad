"""A file KiCad holds open (its ``~NAME.lck`` beside it) is not overwritten unasked:
KiCad 9's schematic editor has no API, so schematics stay file-based (docs/bridge.md)."""

from __future__ import annotations

import shutil

import pytest

from boardwire.errors import EditorHoldsFile
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need

SCH = "ecc83-pp.kicad_sch"


def test_schematic_open_in_kicad_is_not_overwritten(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / SCH), tmp_path / SCH)
    original = (tmp_path / SCH).read_bytes()
    (tmp_path / f"~{SCH}.lck").write_text('{"hostname":"desk","username":"someone"}')
    session = Session(tmp_path)
    ctx = Context(session, actor="test")
    REGISTRY.call("sch.label", {"path": SCH, "text": "PROBE", "at": [50.8, 50.8]}, ctx)
    with pytest.raises(EditorHoldsFile) as e:
        REGISTRY.call("session.save", {"path": SCH}, ctx)
    assert e.value.code == "editor-holds-file" and "KiCad" in e.value.message
    assert (tmp_path / SCH).read_bytes() == original  # nothing written
    assert session.get(SCH).modified  # and nothing lost: the edit is still in the session
    REGISTRY.call("session.save", {"path": SCH, "force": True}, ctx)
    assert b"PROBE" in (tmp_path / SCH).read_bytes()


def test_without_a_lock_file_saving_is_as_before(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / SCH), tmp_path / SCH)
    session = Session(tmp_path)
    ctx = Context(session, actor="test")
    REGISTRY.call("sch.label", {"path": SCH, "text": "PROBE", "at": [50.8, 50.8]}, ctx)
    REGISTRY.call("session.save", {"path": SCH}, ctx)
    assert b"PROBE" in (tmp_path / SCH).read_bytes()
