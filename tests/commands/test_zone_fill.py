"""pcb.fillZones on boards whose zone ids do not identify the zones, and on KiCad 5
boards whose fills KiCad strokes (both found by a fresh-user trial on a corpus board).

KiCad gives new ids to zones whose ids repeat and writes a legacy 8-digit tstamp as a
full UUID, so fills are matched to KiCad's copy by net, layers and outline. A KiCad 5
format strokes filled polygons with the zone's minimum width: KiCad 9's unstroked fill
written there grew the copper by half that width (170 new clearance errors in KiCad's
DRC), so such boards are refused and left as they were."""

from __future__ import annotations

import shutil

import pytest

from boardwire.errors import UnsupportedFormat
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import CORPUS, DEMOS, need

pytestmark = pytest.mark.kicad


def _fills(board) -> list[bytes]:
    return [b"".join(p.to_bytes() for p in z.node.lists("filled_polygon")) for z in board.zones]


def test_zones_with_one_id_each_get_their_own_fill(pcbnew_python, tmp_path):
    src = need(DEMOS / "stickhub" / "StickHub.kicad_pcb")
    for name in ("plain", "same"):
        (tmp_path / name).mkdir()
        shutil.copy(src, tmp_path / name / src.name)
    plain = Session(tmp_path / "plain")
    REGISTRY.call("pcb.fillZones", {"path": src.name}, Context(plain))
    expected = _fills(plain.get(src.name).doc)
    assert len(expected) == 5 and all(expected)

    same = Session(tmp_path / "same")
    board = same.get(src.name).doc
    first = board.zones[0].uuid
    text = board.to_bytes()
    for z in board.zones[1:]:  # every zone with the first one's id
        text = text.replace(z.uuid.encode(), first.encode())
    (tmp_path / "same" / src.name).write_bytes(text)
    same = Session(tmp_path / "same")
    assert len({z.uuid for z in same.get(src.name).doc.zones}) == 1
    result = REGISTRY.call("pcb.fillZones", {"path": src.name}, Context(same))
    assert result["zones"] == 5  # was 1: zones by id kept one of the five
    assert _fills(same.get(src.name).doc) == expected


def test_a_kicad_5_board_is_not_filled_with_kicad_9_fills(pcbnew_python, tmp_path):
    src = need(CORPUS / "felixheld__qspimux" / "qspimux2-prog" / "qspimux2-prog.kicad_pcb")
    shutil.copy(src, tmp_path / src.name)
    (tmp_path / src.name).chmod(0o644)
    before = (tmp_path / src.name).read_bytes()
    session = Session(tmp_path)
    with pytest.raises(UnsupportedFormat) as e:
        REGISTRY.call("pcb.fillZones", {"path": src.name}, Context(session))
    assert "stroked" in e.value.message and "KiCad 9" in e.value.hint
    with pytest.raises(UnsupportedFormat) as e:
        REGISTRY.call("pcb.autoroute", {"path": src.name, "time_limit": 5}, Context(session))
    assert "refill_zones: false" in e.value.hint
    session.save(src.name)
    assert (tmp_path / src.name).read_bytes() == before
