"""Saving never loses the user's work: atomic replace, backups, permissions, and no
silent overwrite of a file changed since it was opened."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

import boardwire
from boardwire.documents import fileio
from boardwire.errors import FileChangedOnDisk
from tests.inputs import DEMOS, need

MM = 1_000_000


@pytest.fixture
def board_copy(tmp_path) -> Path:
    src = need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb")
    dst = tmp_path / src.name
    shutil.copy(src, dst)
    return dst


def test_unedited_save_writes_nothing(board_copy):
    before = board_copy.stat().st_mtime_ns
    doc = boardwire.open(board_copy)
    doc.save()
    assert board_copy.stat().st_mtime_ns == before
    assert not (board_copy.parent / fileio.BACKUP_DIR).exists()


def test_save_keeps_permissions_and_a_backup(board_copy):
    os.chmod(board_copy, 0o640)
    original = board_copy.read_bytes()
    doc = boardwire.open(board_copy)
    fp = doc.footprints[0]
    fp.move_to((fp.position[0] + MM, fp.position[1]))
    doc.save()
    assert stat.S_IMODE(board_copy.stat().st_mode) == 0o640
    backups = list((board_copy.parent / fileio.BACKUP_DIR).glob(board_copy.name + ".*.bak"))
    assert len(backups) == 1 and backups[0].read_bytes() == original
    assert stat.S_IMODE(backups[0].stat().st_mode) == 0o640
    assert board_copy.read_bytes() != original
    assert not list(board_copy.parent.glob(".*.tmp"))  # no temporary left behind


def test_backups_are_pruned(board_copy):
    doc = boardwire.open(board_copy)
    fp = doc.footprints[0]
    for i in range(fileio.KEEP_BACKUPS + 3):
        fp.move_to((fp.position[0] + MM, fp.position[1]))
        doc.save()
    backups = list((board_copy.parent / fileio.BACKUP_DIR).glob(board_copy.name + ".*.bak"))
    assert len(backups) == fileio.KEEP_BACKUPS


def test_refuses_to_overwrite_a_file_changed_on_disk(board_copy):
    doc = boardwire.open(board_copy)
    fp = doc.footprints[0]
    fp.move_to((fp.position[0] + MM, fp.position[1]))
    someone_else = board_copy.read_bytes().replace(b"(paper", b"(paper", 1) + b"\n"
    board_copy.write_bytes(someone_else)
    os.utime(board_copy, ns=(1, 1))
    with pytest.raises(FileChangedOnDisk) as e:
        doc.save()
    assert e.value.code == "file-changed"
    assert board_copy.read_bytes() == someone_else  # their change is still there
    doc.save(force=True)
    assert board_copy.read_bytes() != someone_else


def test_touch_without_change_is_not_a_conflict(board_copy):
    original = board_copy.read_bytes()
    doc = boardwire.open(board_copy)
    os.utime(board_copy, ns=(1, 1))
    fp = doc.footprints[0]
    moved = (fp.position[0] + MM, fp.position[1])
    fp.move_to(moved)
    doc.save()  # same bytes on disk, only the time moved: not someone else's edit
    assert board_copy.stat().st_mtime_ns != 1 and board_copy.read_bytes() != original  # written
    again = boardwire.open(board_copy)
    assert next(f for f in again.footprints if f.uuid == fp.uuid).position == moved


def test_crash_during_write_leaves_the_original(board_copy, monkeypatch):
    original = board_copy.read_bytes()
    doc = boardwire.open(board_copy)
    fp = doc.footprints[0]
    fp.move_to((fp.position[0] + MM, fp.position[1]))

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(fileio.os, "replace", boom)
    with pytest.raises(OSError):
        doc.save(backup=False)
    assert board_copy.read_bytes() == original
    assert not list(board_copy.parent.glob(".*.tmp"))


def test_crlf_file_stays_crlf(tmp_path):
    text = (b"(kicad_pcb\r\n\t(version 20241229)\r\n\t(generator \"pcbnew\")\r\n"
            b"\t(net 0 \"\")\r\n\t(net 1 \"A\")\r\n)\r\n")
    p = tmp_path / "crlf.kicad_pcb"
    p.write_bytes(text)
    doc = boardwire.open(p)
    doc.add_via((1 * MM, 2 * MM), 600_000, 300_000, net=1)
    doc.save()
    out = p.read_bytes()
    assert out.count(b"\n") == out.count(b"\r\n")
    assert out.startswith(text[: text.index(b"\t(net 1")])


_HANG_IN_SAVE = """
import os, sys, time, boardwire
from boardwire.documents import fileio
doc = boardwire.open(sys.argv[1])
fp = doc.footprints[0]
fp.move_to((fp.position[0] + 1_000_000, fp.position[1]))
real = os.fsync
calls = []
def hang(fd):
    real(fd)
    calls.append(fd)
    if len(calls) == int(sys.argv[2]):  # the temporary is written and synced: stop here
        print("ready", flush=True)
        time.sleep(600)
fileio.os.fsync = hang
doc.save()
"""


@pytest.mark.parametrize("where", ["backup", "file"])
def test_a_save_killed_half_way_leaves_temporaries_the_next_save_removes(board_copy, where):
    """kill -9 while the backup's (1st fsync) or the file's (3rd: after the backup and
    its folder) temporary is on disk; the next save sweeps what is ours, only that."""
    import signal
    import subprocess
    import sys

    original = board_copy.read_bytes()
    nth = {"backup": 1, "file": 3}[where]
    proc = subprocess.Popen([sys.executable, "-c", _HANG_IN_SAVE, str(board_copy), str(nth)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    backups = board_copy.parent / fileio.BACKUP_DIR
    stale = list(board_copy.parent.glob(".*.tmp")) + list(backups.glob(".*.tmp"))
    assert len(stale) == 1, stale  # the killed save's temporary, left behind
    assert board_copy.read_bytes() == original
    name = board_copy.name
    more = [board_copy.parent / f".{name}.k9x_ab12.tmp",
            backups / f".{name}.20260101-120000-000000001.bak.zz99_0aa.tmp"]
    theirs = [board_copy.parent / f".other.kicad_pcb.abcdefgh.tmp",  # another file's
              board_copy.parent / f".{name}.short.tmp",  # not mkstemp's shape
              board_copy.parent / f"{name}.abcdefgh.tmp",  # not hidden: not our naming
              backups / f".{name}.abcdefgh.tmp.keep"]
    for p in more + theirs:
        p.write_bytes(b"partial")
    doc = boardwire.open(board_copy)
    fp = doc.footprints[0]
    fp.move_to((fp.position[0] + MM, fp.position[1]))
    doc.save()
    for p in stale + more:
        assert not p.exists(), p
    for p in theirs:
        assert p.exists(), p
    assert boardwire.open(board_copy).footprints[0].position == fp.position
