"""The huge demo boards (over 20 MB: vme-wren, 70 MB), each checked by one test with the
checks the per-demo parametrisations make on every other demo board:

* query.describe fits on one screen (tests/commands/test_board_queries.py);
* nine edits undo to the original bytes and redo (tests/session/test_session.py);
* an edit changes only its own lines, and KiCad reads the result with the new items to
  the nanometre (tests/documents/test_edit_minimality.py).

The one difference: KiCad loads the edited board once, in pcbnew, not a second time
through ``kicad-cli pcb drc``. Both use the same KiCad board reader, and that test
asserts nothing about the DRC run but that it loaded the file; on vme-wren each load
takes one to two minutes and the DRC several more.
"""

from __future__ import annotations

import shutil

import pytest

from boardwire.session import Session
from tests.commands.test_board_queries import describe_fits_on_one_screen
from tests.documents.test_edit_minimality import edit_touches_only_those_lines
from tests.inputs import huge_demo_boards
from tests.session.test_session import undo_restores_the_original_bytes


@pytest.mark.kicad
@pytest.mark.heavy(minutes=6)
@pytest.mark.parametrize("board", huge_demo_boards(), ids=lambda p: p.stem)
def test_huge_demo_board(board, tmp_path, pcbnew_python):
    describe_fits_on_one_screen(Session(board.parent), board.name)
    (tmp_path / "undo").mkdir()
    shutil.copy(board, tmp_path / "undo" / board.name)
    undo_restores_the_original_bytes(Session(tmp_path / "undo"), board.name)
    (tmp_path / "edit").mkdir()
    edit_touches_only_those_lines(board, tmp_path / "edit", None, pcbnew_python)
