"""A board KiCad 9 refuses to load (KiCad's own QA file LayerEnumerate, issue 19775:
kicad-cli says "Failed to load board") is reported by check.drc as refused by KiCad,
with KiCad's whole message, not as a check that found nothing."""

from __future__ import annotations

import shutil

import pytest

from boardwire.errors import CheckFailed
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import CORPUS, need

pytestmark = pytest.mark.kicad

QA = "KiCad__kicad-source-mirror/qa/data/pcbnew/plugins/kicad_sexpr/Issue19775_ZoneLayers"


def test_a_board_kicad_refuses_is_reported_with_kicads_message(tmp_path, kicad_cli):
    src = need(CORPUS / QA / "LayerEnumerate.kicad_pcb")
    expected = (src.parent / "LayerEnumerate.drc.json.failed").read_text().splitlines()[1:]
    shutil.copy(src, tmp_path / src.name)
    (tmp_path / src.name).chmod(0o644)
    session = Session(tmp_path)
    with pytest.raises(CheckFailed) as e:
        REGISTRY.call("check.drc", {"path": src.name}, Context(session))
    err = e.value.to_dict()
    assert err["code"] == "check-failed"
    assert err["data"]["kicad_refused"] is True and err["data"]["kicad_exit"] == 3
    kicad_said = "\n".join(expected).strip()  # what kicad-cli 9.0.8 printed, recorded
    assert err["data"]["kicad_message"] == kicad_said == "Failed to load board"
    assert err["message"].startswith("KiCad ") and "refused to load LayerEnumerate.kicad_pcb" in err["message"]
    assert err["message"].endswith(": " + kicad_said)
