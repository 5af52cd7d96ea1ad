"""needs_human {action, message}: on the rare results only a person can resolve, over
MCP as an agent reads them; the server's instructions say to ask a person only then."""

from __future__ import annotations

import shutil

import anyio
from mcp import Client

from tests.inputs import DEMOS, need
from tests.protocols.test_mcp import stdio

BOARD = "b.kicad_pcb"


def test_a_file_open_in_kicad_and_kicad_missing_need_a_person(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    (tmp_path / f"~{BOARD}.lck").write_text("{}")  # KiCad's lock file: the board is open in KiCad

    async def main():
        async with Client(stdio(tmp_path, env={"BOARDWIRE_KICAD_CLI": str(tmp_path / "no-kicad-cli")})) as c:
            assert "needs_human" in (c.instructions or "")
            r = await c.call_tool("pcb_move", {"path": BOARD, "reference": "C1", "by": [1, 0]})
            assert not r.is_error and "needs_human" not in str(r.structured_content)  # the usual result
            r = await c.call_tool("session_save", {"path": BOARD})
            err = r.structured_content["error"]
            assert err["code"] == "editor-holds-file" and err["needs_human"]["action"] == "close_in_kicad"
            assert BOARD in err["needs_human"]["message"] and "NEEDS A PERSON" in r.content[0].text
            r = await c.call_tool("check_drc", {"path": BOARD})
            err = r.structured_content["error"]
            assert err["code"] == "service-unavailable" and err["needs_human"]["action"] == "install_kicad"

    anyio.run(main)
