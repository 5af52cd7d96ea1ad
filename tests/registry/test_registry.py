"""The registry: one declaration per command, stable error codes, generated docs."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from boardwire.commands import REGISTRY
from boardwire.errors import (
    ALL_CODES,
    BoardwireError,
    Internal,
    InvalidArgs,
    UnknownCommand,
)
from boardwire.registry import Context
from boardwire.registry.command import KINDS
from boardwire.registry.docs import render
from boardwire.session import Session
from tests.inputs import REPO

STABLE = {"unknown-command", "invalid-args", "no-document", "wrong-kind", "not-found",
          "stale-revision", "check-failed", "service-unavailable", "path-outside-workspace",
          "policy-denied", "cancelled", "internal"}


def test_every_stable_code_exists_with_a_hint():
    assert STABLE <= set(ALL_CODES)
    for code, cls in ALL_CODES.items():
        assert cls.code == code and cls.hint, code


def test_each_error_is_defined_once_and_every_table_is_read_from_it():
    from boardwire.errors import EXIT_CODES
    from boardwire.protocols.jsonrpc.codes import WIRE_CODES

    assert {"unsaved-changes", "nothing-to-undo"} <= set(ALL_CODES)  # the session's too
    assert EXIT_CODES == {c: cls.exit_status for c, cls in ALL_CODES.items()}
    assert WIRE_CODES == {c: cls.rpc_code for c, cls in ALL_CODES.items()}
    for table in (EXIT_CODES, WIRE_CODES):
        assert len(set(table.values())) == len(table), "a number used twice"
    assert {c for c, cls in ALL_CODES.items() if cls.not_found} == {"no-document", "not-found"}
    docs = (REPO / "docs" / "commands.md").read_text()
    for code, cls in ALL_CODES.items():
        assert f"| `{code}` | {cls.exit_status} | {cls.hint} |" in docs, code
    with pytest.raises(TypeError):  # a second class with a published code
        type("Again", (BoardwireError,), {"code": "not-found", "__module__": "boardwire.errors"})
    with pytest.raises(TypeError):  # an error with a code of its own outside boardwire.errors
        type("Elsewhere", (BoardwireError,), {"code": "elsewhere"})
    assert "elsewhere" not in ALL_CODES


def test_commands_are_well_formed():
    cmds = REGISTRY.all()
    assert len(cmds) >= 35
    for c in cmds:
        scope, _, verb = c.id.partition(".")
        assert scope and verb and verb[0].islower(), c.id
        assert c.kind in KINDS and c.summary and len(c.examples) <= 3
        schema = c.input_schema()
        assert schema["type"] == "object" and "title" not in json.dumps(schema)
        for ex in c.examples:  # every example is valid input
            c.args.model_validate(ex)
        if c.kind == "edit":
            assert "revision" in schema["properties"], c.id
        if c.kind == "query":
            assert c.read_only


def test_docs_are_generated_from_the_registry():
    on_disk = (REPO / "docs" / "commands.md").read_text()
    assert on_disk == render(REGISTRY), "docs/commands.md is stale: python -m boardwire.commands.docs > docs/commands.md"


def test_unknown_command_and_bad_arguments(tmp_path):
    s = Session(tmp_path)
    with pytest.raises(UnknownCommand) as e:
        REGISTRY.call("pcb.teleport", {}, Context(s))
    assert e.value.code == "unknown-command"
    with pytest.raises(UnknownCommand) as e:
        REGISTRY.call("board.move", {}, Context(s))
    assert "pcb.move" in e.value.message  # a suggestion
    with pytest.raises(InvalidArgs) as e:
        REGISTRY.call("pcb.addVia", {"path": "b.kicad_pcb", "at": [1], "size": -1, "bogus": 1}, Context(s))
    locs = {err["loc"] for err in e.value.data["errors"]}
    assert {"at", "size", "bogus"} <= locs
    with pytest.raises(InvalidArgs):
        REGISTRY.call("pcb.addVia", ["not", "an", "object"], Context(s))


def test_an_unexpected_exception_is_internal_and_changes_nothing(tmp_path, monkeypatch):
    import shutil

    from tests.inputs import DEMOS, need

    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / "b.kicad_pcb")
    s = Session(tmp_path)
    od = s.open("b.kicad_pcb")
    before = od.doc.to_bytes()
    from boardwire.documents.board import Board

    real = Board.add_via

    def half_then_crash(self, *a, **k):
        real(self, *a, **k)
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(Board, "add_via", half_then_crash)
    with pytest.raises(Internal) as e:
        REGISTRY.call("pcb.addVia", {"path": "b.kicad_pcb", "at": [1, 1]}, Context(s))
    assert e.value.code == "internal" and "ZeroDivisionError" in e.value.message
    assert od.doc.tree.to_bytes() == before and od.revision == 0


def test_errors_serialise_with_code_message_hint():
    d = InvalidArgs("x: bad", errors=[{"loc": "x", "msg": "bad", "type": "value"}]).to_dict()
    assert d["code"] == "invalid-args" and d["hint"] and d["data"]["errors"][0]["loc"] == "x"
    assert isinstance(BoardwireError("m").to_dict()["code"], str)


@pytest.mark.parametrize("bad", ["4k7\x00; rm", "a\x07b", "x\x1bx", "del\x7f"])
def test_control_characters_in_any_string_argument_are_invalid_args(tmp_path, bad):
    """Refused once, where every command's arguments are validated: top-level strings,
    nested ones and object keys alike; the file is untouched."""
    session = Session(tmp_path)
    REGISTRY.call("project.new", {"name": "t", "folder": "."}, Context(session))
    sch = tmp_path / "t.kicad_sch"
    before = sch.read_bytes()
    for cid, args in [("sch.setField", {"path": "t.kicad_sch", "reference": "R1", "field": "Value",
                                        "value": bad}),
                      ("sch.label", {"path": "t.kicad_sch", "text": bad, "at": [10, 10]}),
                      ("sch.setField", {"path": f"t{bad}.kicad_sch", "reference": "R1",
                                        "field": "Value", "value": "1"})]:
        with pytest.raises(InvalidArgs) as e:
            REGISTRY.call(cid, args, Context(session))
        err = e.value.to_dict()
        assert err["code"] == "invalid-args" and "control character" in err["message"]
        assert err["data"]["errors"][0]["type"] == "control_character"
    assert sch.read_bytes() == before
    # tabs and line breaks are text KiCad keeps: not refused here (a label refuses a line
    # break itself, being one line: sch.label's own rule)
    REGISTRY.call("sch.label", {"path": "t.kicad_sch", "text": "tab\tx", "at": [10, 10]}, Context(session))
    with pytest.raises(InvalidArgs) as e:
        REGISTRY.call("sch.label", {"path": "t.kicad_sch", "text": "two\nlines", "at": [10, 10]}, Context(session))
    assert e.value.to_dict()["data"]["errors"][0]["type"] != "control_character"


def test_bytes_for_a_serial_port_may_hold_control_characters():
    """fw.monitor.write sends text to a board, not to a KiCad file: Ctrl-C passes."""
    cmd = REGISTRY.get("fw.monitor.write")
    assert REGISTRY.validate(cmd, {"text": "\x03"}).text == "\x03"
    with pytest.raises(InvalidArgs):
        REGISTRY.validate(cmd, {"text": "x", "session": "a\x00"})
