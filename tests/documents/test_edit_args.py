"""The board's copper edit primitives refuse arguments KiCad would refuse in the saved
file (``(net None)``, a negative width, a layer the board lacks, a net number not in
its table or a net name it lacks) with invalid-args naming the argument, and leave the board as it was.

The input is the board bundled with the package (a KiCad 9 file); the accepted case is
judged by reading the saved file back."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import boardwire
from boardwire.cli.main import example_board
from boardwire.errors import InvalidArgs

MM = 1_000_000
A, B = (110 * MM, 100 * MM), (115 * MM, 100 * MM)

BAD_TRACKS = [
    ({"net": None}, "net"),          # net_number() of a name the board lacks
    ({"net": "/NO_SUCH_NET"}, "net"),  # a name the board lacks (names are taken too)
    ({"net": 999}, "net"),
    ({"net": -1}, "net"),
    ({"net": True}, "net"),
    ({"width": -250_000}, "width"),
    ({"width": 0}, "width"),
    ({"width": float("nan")}, "width"),
    ({"layer": "Bogus.Cu"}, "layer"),
    ({"layer": "F.SilkS"}, "layer"),  # a layer of the board, not copper
    ({"start": (float("inf"), 0)}, "start"),
    ({"end": (1, 2, 3)}, "end"),
]


@pytest.fixture
def board(tmp_path):
    shutil.copy(example_board(), tmp_path / "b.kicad_pcb")
    return boardwire.open(tmp_path / "b.kicad_pcb")


@pytest.mark.parametrize("bad, loc", BAD_TRACKS, ids=[f"{loc}-{i}" for i, (_, loc) in enumerate(BAD_TRACKS)])
def test_add_track_refuses_what_kicad_refuses(board, bad, loc):
    before = board.to_bytes()
    args = {"start": A, "end": B, "width": 250_000, "layer": "F.Cu", "net": board.net_number("/OUT")} | bad
    with pytest.raises(InvalidArgs) as e:
        board.add_track(**args)
    assert e.value.code == "invalid-args" and e.value.data["errors"][0]["loc"] == loc
    assert e.value.message.startswith(f"{loc}: ")
    assert board.to_bytes() == before and board.edits == 0


BAD_VIAS = [
    ({"net": None}, "net"),
    ({"net": 999}, "net"),
    ({"size": -1}, "size"),
    ({"drill": 0}, "drill"),
    ({"drill": 700_000}, "drill"),            # not smaller than the size
    ({"layers": ("F.Cu", "F.Cu")}, "layers"),
    ({"layers": ("F.Cu", "In1.Cu")}, "layers"),  # a two-layer board
    ({"layers": "F.Cu"}, "layers"),
    ({"at": (None, 0)}, "at"),
]


@pytest.mark.parametrize("bad, loc", BAD_VIAS, ids=[f"{loc}-{i}" for i, (_, loc) in enumerate(BAD_VIAS)])
def test_add_via_refuses_what_kicad_refuses(board, bad, loc):
    before = board.to_bytes()
    args = {"at": A, "size": 600_000, "drill": 300_000, "layers": ("F.Cu", "B.Cu"), "net": 1} | bad
    with pytest.raises(InvalidArgs) as e:
        board.add_via(**args)
    assert e.value.data["errors"][0]["loc"] == loc
    assert board.to_bytes() == before and board.edits == 0


def test_good_copper_is_written_and_reads_back(board, tmp_path):
    """Numbers of any integral/real type (the router's NumPy ones too) are accepted;
    net 0 is "no net"; the saved file reads back with the items on their nets."""
    out = board.net_number("/OUT")
    board.add_track(A, B, width=250_000, layer="F.Cu", net=out)
    board.add_track(B, (B[0], B[1] + 2 * MM), np.int64(200_000), "B.Cu", np.int64(0))
    board.add_via(B, np.float64(600_000), 300_000, net=np.int32(out))
    board.save()
    again = boardwire.open(tmp_path / "b.kicad_pcb")
    assert b"(net None)" not in (tmp_path / "b.kicad_pcb").read_bytes()
    tracks = [t for t in again.tracks if t.start == A or t.start == B]
    assert sorted(again.net_name(t.net) for t in tracks) == ["", "/OUT"]


REGISTRY_BAD = [
    ("pcb.addTrack", {"points": [[0, 0], [1, 0]], "width": 0.25, "net": "NOPE"}, "not-found"),
    ("pcb.addTrack", {"points": [[0, 0], [1, 0]], "width": 0.25, "layer": "F.SilkS"}, "invalid-args"),
    ("pcb.addTrack", {"points": [[0, 0], [1, 0]], "width": -0.25}, "invalid-args"),
    ("pcb.addTrack", {"points": [[0, 0], [1, 0]], "width": 0.25, "net": 3}, "invalid-args"),  # a number, not a name
    ("pcb.route", {"points": [[0, 0], [1, 0], [1, 1]], "layers": ["F.Cu", "Edge.Cuts"], "width": 0.25}, "invalid-args"),
    ("pcb.route", {"points": [[0, 0], [1, 0]], "layers": ["F.Cu"], "width": 0.25, "net": "NOPE"}, "not-found"),
    ("pcb.addVia", {"at": [0, 0], "net": "NOPE"}, "not-found"),
    ("pcb.addVia", {"at": [0, 0], "size": 0.3, "drill": 0.3}, "invalid-args"),
    ("pcb.addVia", {"at": [0, 0], "size": -1}, "invalid-args"),
]


@pytest.mark.parametrize("cid, args, code", REGISTRY_BAD, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(REGISTRY_BAD)])
def test_the_commands_refuse_them_before_the_document(tmp_path, cid, args, code):
    """pcb.addTrack, pcb.route and pcb.addVia check names (layers, nets) against the board
    and sizes at the schema, with the same codes, before the document is touched."""
    from boardwire.errors import BoardwireError
    from boardwire.registry import REGISTRY, Context
    from boardwire.session import Session

    shutil.copy(example_board(), tmp_path / "b.kicad_pcb")
    session = Session(tmp_path)
    before = session.open("b.kicad_pcb").doc.to_bytes()
    with pytest.raises(BoardwireError) as e:
        REGISTRY.call(cid, {"path": "b.kicad_pcb", **args}, Context(session))
    assert e.value.code == code
    assert session.open("b.kicad_pcb").doc.to_bytes() == before


def test_zones_and_footprints_name_nets_and_layers_the_board_has(board):
    from tests.inputs import FOOTPRINTS, need

    before = board.to_bytes()
    square = [(0, 0), (5 * MM, 0), (5 * MM, 5 * MM), (0, 5 * MM)]
    for kw, loc in (({"net": "NOPE"}, "net"), ({"layer": "F.SilkS"}, "layer"),
                    ({"outline": square[:2]}, "outline"), ({"outline": [(0, 0), (1, None), (2, 2)]}, "outline")):
        with pytest.raises(InvalidArgs) as e:
            board.add_zone(**({"outline": square, "layer": "B.Cu", "net": "GND"} | kw))
        assert e.value.data["errors"][0]["loc"] == loc
    lib = boardwire.open(need(FOOTPRINTS / "Resistor_SMD.pretty" / "R_0805_2012Metric.kicad_mod"))
    with pytest.raises(InvalidArgs) as e:
        board.add_footprint(lib, "Resistor_SMD:R_0805_2012Metric", A, pad_nets={"1": "NOPE"})
    assert e.value.data["errors"][0]["loc"] == "pad_nets.1"
    assert board.to_bytes() == before
    board.add_zone(square, "B.Cu", "GND")
    assert board.zones[-1].node.find("net_name") is not None
