"""pcb.exportDsn and pcb.importSes, through KiCad's own Specctra code: a session file
written from a routed board comes back into a stripped copy as the same tracks, and
nothing else in the file changes."""

from __future__ import annotations

import re

import pytest

from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import DEMOS, need
from tests.layout.judge import strip_board

pytestmark = pytest.mark.kicad


def _ses(board, layer_names: dict[str, str], via: str) -> str:
    """A Specctra session of the board's tracks: (resolution um 10) is ten units per
    micrometre; Specctra's y axis points up; KiCad wants a library_out section."""
    names = {n.number: n.name for n in board.nets}
    wires = {}
    for t in board.tracks:
        pts = " ".join(f"{x // 100} {-y // 100}" for x, y in (t.start, t.end))
        wires.setdefault(names[t.net], []).append(
            f'(wire (path "{layer_names[t.layer]}" {t.width // 100} {pts}))')
    nets = "\n".join(f'(net "{n}" {" ".join(w)})' for n, w in wires.items())
    return (f'(session "x.ses" (base_design "x.dsn") (routes (resolution um 10) '
            f'(parser (host_cad "boardwire test")) (library_out (padstack "{via}" (shape (circle '
            f'"{layer_names["F.Cu"]}" 12000)) (attach off))) (network_out {nets})))\n')


def test_session_round_trip(pcbnew_python, tmp_path):
    src = need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb")
    routed = strip_board(src, tmp_path / "routed")
    session = Session(routed.parent)
    REGISTRY.call("pcb.autoroute", {"path": routed.name}, Context(session))
    ours = session.get(routed.name).doc
    dsn = REGISTRY.call("pcb.exportDsn", {"path": routed.name, "output": "out/board.dsn"}, Context(session))
    text = (routed.parent / "out" / "board.dsn").read_text()
    assert dsn["bytes"] > 1000 and text.startswith("(pcb") and "(network" in text and '"Via[0-1]' in text
    assert text.startswith('(pcb "out/board.dsn"')  # not the temporary folder KiCad wrote it in
    user = {layer.name: layer.user_name or layer.name for layer in ours.layers}
    via = re.search(r'\(via "([^"]+)"', text).group(1)
    (tmp_path / "ours.ses").write_text(_ses(ours, user, via))

    target = strip_board(src, tmp_path / "target")
    stripped = target.read_bytes()
    session2 = Session(tmp_path)
    result = REGISTRY.call("pcb.importSes", {"path": "target/" + target.name, "session": "ours.ses"},
                           Context(session2))
    theirs = session2.get("target/" + target.name).doc

    def key(board):
        names = {n.number: n.name for n in board.nets}
        return sorted((tuple(sorted([t.start, t.end])), t.width, t.layer, names[t.net]) for t in board.tracks)

    assert result["added"] == len(ours.tracks) and key(theirs) == key(ours)
    for t in list(theirs.tracks):  # only the routing changed
        theirs.delete(t)
    assert theirs.to_bytes() == stripped
    assert session2.get("target/" + target.name).revision == 1


def _routed(tmp_path):
    """ecc83-pp stripped and routed by pcb.autoroute in ``tmp_path``: the session, the
    board's path and document, and a Specctra session of its tracks."""
    src = need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb")
    routed = strip_board(src, tmp_path)
    session = Session(tmp_path)
    REGISTRY.call("pcb.autoroute", {"path": routed.name}, Context(session))
    ours = session.get(routed.name).doc
    REGISTRY.call("pcb.exportDsn", {"path": routed.name, "output": "board.dsn"}, Context(session))
    via = re.search(r'\(via "([^"]+)"', (tmp_path / "board.dsn").read_text()).group(1)
    user = {layer.name: layer.user_name or layer.name for layer in ours.layers}
    return session, routed, ours, _ses(ours, user, via)


def test_session_errors_and_unknown_nets(pcbnew_python, tmp_path):
    """A garbage session is refused with what KiCad needs (it gives no reason) and the
    board is left as it was; a session routing a net the board lacks is imported with
    that net named (KiCad's importer joins such a wire to the pads it touches)."""
    from boardwire.errors import CheckFailed

    session, routed, ours, text = _routed(tmp_path)
    before = ours.to_bytes()
    (tmp_path / "junk.ses").write_text("this is not a session\n")
    with pytest.raises(CheckFailed) as e:
        REGISTRY.call("pcb.importSes", {"path": routed.name, "session": "junk.ses"}, Context(session))
    assert "refused the file" in e.value.message and "exit 0" not in e.value.message
    assert "library_out" in e.value.hint and session.get(routed.name).doc.to_bytes() == before
    first = ours.tracks[0]
    net = {n.number: n.name for n in ours.nets}[first.net]
    (tmp_path / "renamed.ses").write_text(text.replace(f'(net "{net}"', '(net "NOPE"', 1))
    result = REGISTRY.call("pcb.importSes", {"path": routed.name, "session": "renamed.ses"}, Context(session))
    assert result["unknown_nets"] == ["NOPE"] and "NOPE" in result["summary"]


def test_session_coordinates_out_of_range_or_off_the_board(pcbnew_python, tmp_path):
    """A fresh-user trial: a wire at x = 99999999999 (tenths of a micrometre) became a
    track from KiCad's coordinate limit (2147.48 mm, where its importer clamps) to the
    board, with no word. Such a session is now refused and the board left as it was;
    a wire merely off the board is imported and counted in ``outside_outline``."""
    from boardwire.errors import InvalidArgs

    session, routed, ours, text = _routed(tmp_path)
    first = ours.tracks[0]
    x = str(first.start[0] // 100)
    assert text.count(f" {x} ") >= 1
    before = ours.to_bytes()
    (tmp_path / "far.ses").write_text(text.replace(f" {x} ", " 99999999999 ", 1))
    with pytest.raises(InvalidArgs) as e:
        REGISTRY.call("pcb.importSes", {"path": routed.name, "session": "far.ses"}, Context(session))
    assert "coordinate limit" in e.value.message and session.get(routed.name).doc.to_bytes() == before
    (tmp_path / "off.ses").write_text(text.replace(f" {x} ", f" {int(x) + 1_000_000} ", 1))  # 100 mm to the right
    result = REGISTRY.call("pcb.importSes", {"path": routed.name, "session": "off.ses"}, Context(session))
    assert result["outside_outline"] == 1 and "outside the board outline" in result["summary"]
