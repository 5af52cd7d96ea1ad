"""Compact line tables (registry/tables.py): every table a command writes decodes back
to the JSON rows of the same call with ``format: "json"``, on real boards, libraries
and KiCad's own DRC/ERC reports; findings are grouped."""

from __future__ import annotations

import shutil

import pytest

from boardwire.registry import REGISTRY, Context, tables
from boardwire.session import Session
from tests.inputs import DEMOS, need

TRICKY = [
    {"s": "R1", "n": 1, "f": 0.1 + 0.2, "b": True, "z": None, "l": [1.5, 2], "o": {"id": "a|b", "at": [0, 0]}},
    {"s": "12", "n": -0, "f": 1e-9, "b": False, "l": [], "o": {}},  # a string that reads as a number
    {"s": "", "t": "true"},  # an empty string, a string that reads as JSON, absent keys
    {"s": "a|b", "t": 'say "hi" [x]'},  # the separator inside; quotes and brackets mid-string
    {"s": "line\nbreak", "t": "+5V"},  # a line break; a leading + (the cut line's mark)
    {"s": '"quoted"', "t": "[not json", "u": "{neither"},
    {"s": "µ° ≤ 10 kΩ", "t": " padded ", "u": "null"},
    {"s": "NaN", "t": "-", "u": "1e5"},
]


def test_tricky_values_decode_exactly():
    text = tables.encode(TRICKY, more=3, page="offset=8")
    rows, more = tables.decode(text)
    assert rows == TRICKY and more == 3
    assert text.count("\n") == len(TRICKY) + 1  # header, one line a row, the cut line
    assert text.splitlines()[-1] == "+3 more rows (offset=8)"


def test_a_grouped_table_has_one_line_per_kind_of_finding():
    rows = [{"type": "lib_symbol_issues", "severity": "warning", "description": "not in the configuration",
             "items": [{"id": f"u{i}", "at": [i, 0]}]} for i in range(20)]
    rows.insert(3, {"type": "pin_not_connected", "severity": "error", "description": "Pin not connected",
                    "items": [{"id": "p"}]})
    text = tables.encode(rows, group_by="items")
    lines = text.splitlines()
    assert len(lines) == 3 and lines[0] == "x|type|severity|description|items" and lines[1].startswith("20|")
    decoded, more = tables.decode(text)
    assert decoded == tables.grouped_order(rows, "items") and more == 0
    assert sorted(map(repr, decoded)) == sorted(map(repr, rows))


def test_a_first_column_named_x_does_not_read_as_grouped():
    rows = [{"x": 1, "y": 2}, {"x": 3}]
    assert tables.decode(tables.encode(rows)) == (rows, 0)


def test_a_line_with_the_wrong_number_of_cells_is_refused():
    with pytest.raises(ValueError, match="line 2"):
        tables.decode("a|b\n1|2|3")


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    d = tmp_path_factory.mktemp("video")
    shutil.copy(need(DEMOS / "video" / "video.kicad_pcb"), d)
    shutil.copy(need(DEMOS / "stickhub" / "StickHub.kicad_pcb"), d)
    return Session(d)


CALLS = [
    ("query.items", {"path": "video.kicad_pcb", "limit": 400}, "items"),
    ("query.items", {"path": "video.kicad_pcb", "kind": ["via", "segment"], "offset": 100}, "items"),
    ("query.nets", {"path": "video.kicad_pcb", "limit": 1000}, "nets"),
    ("query.pads", {"path": "video.kicad_pcb"}, "pads"),
    ("query.pads", {"path": "StickHub.kicad_pcb", "reference": "U1"}, "pads"),
]


@pytest.mark.parametrize("cid, args, field", CALLS, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(CALLS)])
def test_board_tables_decode_to_the_json_rows(video, cid, args, field):
    as_json = REGISTRY.call(cid, {**args, "format": "json"}, Context(video))
    compact = REGISTRY.call(cid, args, Context(video, tables="table"))
    assert REGISTRY.call(cid, args, Context(video)) == as_json  # programs get rows unless they ask
    rows, more = tables.decode(compact[field])
    assert rows == as_json[field] and rows
    assert more == as_json["total"] - as_json["offset"] - len(rows)
    assert {k: v for k, v in compact.items() if k != field} == {k: v for k, v in as_json.items() if k != field}


def test_builtin_drc_findings_grouped_and_decoded(video):
    args = {"path": "StickHub.kicad_pcb", "engine": "builtin", "limit": 300}
    as_json = REGISTRY.call("check.drc", {**args, "format": "json"}, Context(video))
    compact = REGISTRY.call("check.drc", {**args, "format": "table"}, Context(video))
    rows, more = tables.decode(compact["violations"])
    assert rows == tables.grouped_order(as_json["violations"], "items")
    assert more == as_json["counts"]["violations"] - 300 > 0
    assert compact["violations"].count("\n") < len(rows) / 2  # identical findings share a line


def test_lib_search_decodes(tmp_path):
    need(DEMOS)
    session = Session(tmp_path)
    args = {"query": "0603 resistor", "limit": 50}
    as_json = REGISTRY.call("lib.search", {**args, "format": "json"}, Context(session))
    rows, more = tables.decode(REGISTRY.call("lib.search", args, Context(session, tables="table"))["items"])
    assert rows == as_json["items"] and more == as_json["total"] - len(rows)


@pytest.mark.kicad
def test_kicad_erc_findings_grouped_and_decoded(tmp_path, kicad_cli):
    """KiCad's ERC of a demo on a machine with no global symbol library table warns
    for every symbol; the table says so in a few lines."""
    for f in (DEMOS / "video").iterdir():
        if f.suffix in (".kicad_sch", ".kicad_pro"):
            shutil.copy(f, tmp_path)
    session = Session(tmp_path)
    args = {"path": "video.kicad_sch", "limit": 1000}
    as_json = REGISTRY.call("check.erc", {**args, "format": "json"}, Context(session))
    compact = REGISTRY.call("check.erc", args, Context(session, tables="table"))
    rows, more = tables.decode(compact["violations"])
    assert rows == tables.grouped_order(as_json["violations"], "items") and more == 0
    assert len(rows) == as_json["counts"]["violations"] > compact["violations"].count("\n")
