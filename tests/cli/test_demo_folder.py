"""``boardwire demo`` never overwrites a board the user edited: a second run goes to a
fresh folder (issue 17, item 4)."""

from __future__ import annotations

from boardwire.cli.demo import BOARD, bundled_project, prepare


def test_a_second_run_uses_a_fresh_folder(tmp_path):
    out = tmp_path / "boardwire-demo"
    assert prepare(out) == out
    edited = (out / BOARD).read_bytes() + b"\n"  # the user's edit
    (out / BOARD).write_bytes(edited)
    again = prepare(out)
    assert again == tmp_path / "boardwire-demo-2" and (out / BOARD).read_bytes() == edited
    assert (again / BOARD).read_bytes() == (bundled_project() / BOARD).read_bytes()
    assert prepare(out) == tmp_path / "boardwire-demo-3"


def test_a_folder_without_the_demo_files_is_used(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    assert prepare(tmp_path) == tmp_path and (tmp_path / "notes.txt").read_text() == "mine"
