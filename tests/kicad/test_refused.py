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


def test_a_stale_kicad_lock_file_does_not_hide_kicads_message(tmp_path, kicad_cli, monkeypatch):
    """KiCad's single-instance lock (``$TMPDIR/org.kicad.kicad/instances/kicad-cli-9.0``)
    left empty by a run killed mid-start makes a kicad-cli that shares it print only
    "Invalid lock file" and lose "Failed to load board" (seen in CI, where runs are
    cancelled in parallel). Each run of ours has its own temporary folder, so the refusal
    is still reported as KiCad's."""
    shared = tmp_path / "shared-tmp"
    lock = shared / "org.kicad.kicad" / "instances" / "kicad-cli-9.0"
    lock.parent.mkdir(parents=True)
    lock.write_bytes(b"")
    monkeypatch.setenv("TMPDIR", str(shared))
    work = tmp_path / "work"
    work.mkdir()
    src = need(CORPUS / QA / "LayerEnumerate.kicad_pcb")
    shutil.copy(src, work / src.name)
    (work / src.name).chmod(0o644)
    with pytest.raises(CheckFailed) as e:
        REGISTRY.call("check.drc", {"path": src.name}, Context(Session(work)))
    data = e.value.to_dict()["data"]
    assert data["kicad_refused"] is True and data["kicad_message"] == "Failed to load board"
    assert "Invalid lock file" not in data["kicad_message"]
    assert lock.exists() and lock.read_bytes() == b""  # KiCad never saw it


K10 = "KiCad__kicad-source-mirror/qa/data/pcbnew/diff_pair_uncoupled_tuning_drc"


def test_kicad10_files_are_refused_before_kicad9_runs(tmp_path, kicad_cli):
    """A KiCad 10 board and schematic (the corpus's, generator 10.0.2) given to the
    commands that run KiCad 9 (checks, renders, fabrication, zone fill): one
    unsupported-format error naming both versions, before KiCad runs (not KiCad's
    "Failed to load", nor a traceback); the built-in DRC still checks the board."""
    from boardwire.errors import UnsupportedFormat
    from boardwire.kicad.cli import KiCadCli

    for suffix in (".kicad_pcb", ".kicad_sch"):
        shutil.copy(need(CORPUS / (K10 + suffix)), tmp_path / ("k10" + suffix))
    installed = KiCadCli(kicad_cli, "").run(["version"]).stdout.strip()
    session = Session(tmp_path)
    calls = [("check.drc", "k10.kicad_pcb", {}), ("check.erc", "k10.kicad_sch", {}),
             ("pcb.fillZones", "k10.kicad_pcb", {}), ("render.svg", "k10.kicad_pcb", {}),
             ("fab.gerbers", "k10.kicad_pcb", {"output": "out"})]
    for cid, path, args in calls:
        with pytest.raises(UnsupportedFormat) as e:
            REGISTRY.call(cid, {"path": path, **args}, Context(session))
        err = e.value.to_dict()
        assert err["code"] == "unsupported-format", cid
        assert f"{path} is in KiCad 10's file format" in err["message"] and installed in err["message"], cid
        assert "engine=builtin" in err["hint"]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    builtin = REGISTRY.call("check.drc", {"path": "k10.kicad_pcb", "engine": "builtin"}, Context(session))
    assert builtin["engine"] == "builtin"
