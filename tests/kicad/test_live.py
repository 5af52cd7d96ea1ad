"""The live attach against KiCad 9's real PCB editor (pcbnew under Xvfb, started here:
one editor for the whole module, on a copy of KiCad's ecc83 demo board).

KiCad's own view is read with an independent kicad-python client (``person``), which
also stands in for a person's edits in the window. The last test closes the editor
while attached."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardwire.errors import EditorBusy, EditorUnavailable
from boardwire.kicad.ipc.editor import Editor
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from boardwire.session.live import attach
from tests.inputs import DEMOS, REPO, absent, need

pytestmark = [pytest.mark.kicad, pytest.mark.xdist_group("kicad-editor")]
BOARD = "ecc83-pp.kicad_pcb"
MM = 1_000_000


@pytest.fixture(scope="module")
def editor(tmp_path_factory):
    """A running PCB editor with the API on: (the launcher, the board's folder)."""
    for tool in ("Xvfb", "pcbnew", "import"):
        if shutil.which(tool) is None:
            absent(f"{tool} is not installed (.ci/install-xvfb.sh, .ci/install-kicad.sh)")
    pytest.importorskip("kipy")
    from boardwire.kicad.ipc.launch import PcbEditor

    work = tmp_path_factory.mktemp("live")
    for f in need(DEMOS / "ecc83").glob("ecc83-pp.kicad_p*"):
        shutil.copy(f, work / f.name)
    ed = PcbEditor(work / BOARD, tmp_path_factory.mktemp("kicad-home")).start()
    yield ed, work
    ed.stop()


def person(ed):
    """An independent client of KiCad's API (what a person's clicks would do)."""
    from kipy import KiCad

    return KiCad(socket_path=f"ipc://{ed.socket}", kicad_token="", timeout_ms=5000).get_board()


def footprint(board, ref):
    return next(f for f in board.get_footprints() if f.reference_field.text.value == ref)


CANVAS = (40, 110, 990, 655)  # the drawing area of the 1600x1000 screen: no toolbars, panels, status bar


def changed_pixels(a: Path, b: Path) -> int:
    """Pixels of KiCad's drawing area that differ between two screenshots."""
    from PIL import Image, ImageChops

    diff = ImageChops.difference(Image.open(a).convert("RGB").crop(CANVAS),
                                 Image.open(b).convert("RGB").crop(CANVAS)).convert("L")
    return diff.point(lambda v: 255 if v else 0).histogram()[255]


def test_mcp_attach_edits_kicad_live(editor, tmp_path):
    """An MCP client on ``boardwire mcp --attach`` moves a footprint and routes a track:
    KiCad's board has both, the window shows them, and KiCad's undo takes back exactly
    the last step."""
    from mcp import Client, StdioServerParameters

    ed, work = editor
    kicad = person(ed)
    r4_before = footprint(kicad, "R4").position
    ed.screenshot(tmp_path / "before.png")
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "boardwire.cli.main", "mcp", "--attach", "--kicad-socket", str(ed.socket)],
        cwd=str(work), env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"})

    async def agent():
        async with Client(server, mode="auto") as client:
            moved = await client.call_tool("pcb_move", {"path": BOARD, "reference": "R4", "by": [3, 0]})
            routed = await client.call_tool("pcb_route", {"path": BOARD, "points": [[150, 125], [160, 125], [160, 130]],
                                                          "layers": ["B.Cu"], "width": 0.5, "net": "GND"})
            return moved.structured_content, routed.structured_content

    moved, routed = asyncio.run(asyncio.wait_for(agent(), 120))
    assert moved["live"]["attached"] and moved["live"]["kicad_commits"] >= 1, moved
    ids = routed["ids"] if "ids" in routed else routed["new_ids"]
    assert len(ids) == 2
    # KiCad's own model has both edits
    r4 = footprint(kicad, "R4").position
    assert (r4.x - r4_before.x, r4.y - r4_before.y) == (3 * MM, 0)
    tracks = {t.id.value: t for t in kicad.get_tracks()}
    assert set(ids) <= set(tracks)
    first = tracks[ids[0]]
    assert (first.start.x, first.start.y, first.end.x, first.end.y) == (150 * MM, 125 * MM, 160 * MM, 125 * MM)
    assert first.width == MM // 2 and first.net.name == "GND"
    # the window shows them
    time.sleep(0.5)
    ed.screenshot(tmp_path / "after.png")
    assert changed_pixels(tmp_path / "before.png", tmp_path / "after.png") > 200
    # KiCad's undo: exactly one step (the track) goes; the move stays
    Editor(str(ed.socket)).connect().undo()
    tracks = {t.id.value for t in kicad.get_tracks()}
    assert not set(ids) & tracks
    r4 = footprint(kicad, "R4").position
    assert r4.x - r4_before.x == 3 * MM
    time.sleep(0.5)
    ed.screenshot(tmp_path / "undone.png")
    assert changed_pixels(tmp_path / "after.png", tmp_path / "undone.png") > 50


def test_person_edit_reaches_the_session(editor):
    """A person's edit in KiCad becomes a document.changed (actor kicad) in the session,
    over the bridge too; a query sees it; a command planned against the old revision
    fails with stale-revision and changes nothing."""
    from kipy.geometry import Vector2

    ed, work = editor
    session = Session(work)
    live = attach(session, Editor(str(ed.socket)).connect(), registry=REGISTRY, poll_s=0.1)
    try:
        events = []
        session.subscribe(lambda e: events.append(e))
        od = session.get(BOARD)
        before = od.revision
        kicad = person(ed)
        fp = footprint(kicad, "R2")
        fp.position = Vector2.from_xy(fp.position.x, fp.position.y + 2 * MM)
        commit = kicad.begin_commit()
        kicad.update_items([fp])
        kicad.push_commit(commit, "a person moves R2")
        t0 = time.monotonic()
        while od.revision == before and time.monotonic() - t0 < 10:
            time.sleep(0.02)
        seen = time.monotonic() - t0
        assert od.revision == before + 1, "the person's edit never reached the session"
        event = events[-1]
        assert (event.reason, event.actor) == ("edit", "kicad")
        assert event.to_dict()["hash"]
        ctx = Context(session, actor="test")
        at = REGISTRY.call("query.footprint", {"path": BOARD, "reference": "R2"}, ctx)["at"]
        assert at == [fp.position.x / MM, fp.position.y / MM]
        with pytest.raises(Exception) as e:
            REGISTRY.call("pcb.move", {"path": BOARD, "reference": "R2", "by": [1, 0], "revision": before}, ctx)
        assert getattr(e.value, "code", None) == "stale-revision"
        assert footprint(kicad, "R2").position.x == fp.position.x  # nothing changed in KiCad either
        assert seen < 5
    finally:
        live.detach("test over")


def test_person_edit_pushed_over_the_bridge(editor):
    """The same, seen by a WebSocket client of the bridge: document.changed with actor kicad."""
    from kipy.geometry import Vector2
    from websockets.asyncio.client import connect

    from boardwire.protocols.bridge import Bridge, contract
    from boardwire import __version__

    ed, work = editor
    session = Session(work)
    live = attach(session, Editor(str(ed.socket)).connect(), registry=REGISTRY, poll_s=0.1)

    async def scenario():
        bridge = Bridge(session, capabilities=["kicad.live"])
        server = await bridge.listen("127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as ws:
            await ws.send(json.dumps({"type": "handshake", "protocol": contract.PROTOCOL, "protocolVersion": "1.0.0",
                                      "contractVersion": 1, "clientName": "boardwire-client", "clientVersion": __version__}))
            hello = json.loads(await ws.recv())
            assert "kicad.live" in hello["capabilities"]
            await ws.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "session.documents"}))
            while json.loads(await ws.recv()).get("id") != 1:
                pass
            kicad = person(ed)
            fp = footprint(kicad, "R3")
            fp.position = Vector2.from_xy(fp.position.x - MM, fp.position.y)
            commit = kicad.begin_commit()
            kicad.update_items([fp])
            kicad.push_commit(commit, "a person moves R3")
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg.get("method") == "document.changed" and msg["params"]["reason"] == "edit":
                    return msg["params"]
        server.close()
        await bridge.close()

    try:
        params = asyncio.run(scenario())
    finally:
        live.detach("test over")
    assert params["actor"] == "kicad" and params["path"] == BOARD


def test_vias_rotations_deletes_undo_and_what_the_api_cannot_carry(editor):
    """Each mirrored kind reaches KiCad; session.undo is mirrored too; a text (which
    KiCad 9's API cannot create) is counted as unmirrored, and appears in KiCad once
    the session saves the board (KiCad reloads the file). No poller: KiCad's board is read
    only before each edit, so the session must know what its own commits did (an undone
    delete re-creates the via, found when a slow machine's poller did not run between)."""
    ed, work = editor
    session = Session(work)
    live = attach(session, Editor(str(ed.socket)).connect(), registry=REGISTRY, poll_s=3600)
    kicad = person(ed)
    ctx = Context(session, actor="test")
    try:
        via = REGISTRY.call("pcb.addVia", {"path": BOARD, "at": [152, 128], "size": 0.8, "drill": 0.4,
                                           "net": "GND"}, ctx)
        vid = via["new_ids"][0]
        got = {v.id.value: v for v in kicad.get_vias()}[vid]
        assert (got.position.x, got.position.y, got.diameter, got.drill_diameter, got.net.name) == \
            (152 * MM, 128 * MM, 800_000, 400_000, "GND")
        REGISTRY.call("pcb.rotate", {"path": BOARD, "reference": "R1", "angle": 90}, ctx)
        assert footprint(kicad, "R1").orientation.degrees == pytest.approx(90)
        REGISTRY.call("pcb.delete", {"path": BOARD, "ids": [vid]}, ctx)
        assert vid not in {v.id.value for v in kicad.get_vias()}
        REGISTRY.call("session.undo", {"path": BOARD}, ctx)
        assert vid in {v.id.value for v in kicad.get_vias()}
        out = REGISTRY.call("pcb.addText", {"path": BOARD, "text": "GONE-AGAIN", "at": [140, 80]}, ctx)
        assert out["live"]["unmirrored"] == 1
        REGISTRY.call("session.undo", {"path": BOARD}, ctx)  # gone from both sides: nothing left to carry
        assert live.status()["unmirrored"] == 0 and live.attached
        out = REGISTRY.call("pcb.addText", {"path": BOARD, "text": "LIVE-PROBE", "at": [140, 80]}, ctx)
        assert out["live"]["unmirrored"] == 1
        assert "LIVE-PROBE" not in kicad.get_as_string()
        REGISTRY.call("session.save", {"path": BOARD}, ctx)  # attached: KiCad's lock file is no obstacle
        assert "LIVE-PROBE" in person(ed).get_as_string()
        assert live.status()["unmirrored"] == 0 and live.attached
    finally:
        live.detach("test over")


def test_kicad_busy_with_an_interactive_tool(editor):
    """A person routing in the window (the router started with X and a click on a pad):
    KiCad answers "busy"; boardwire retries for busy_s, then fails with editor-busy;
    Escape ends the tool and the same call goes through."""
    if shutil.which("xdotool") is None:
        absent("xdotool is not installed (.ci/install-xvfb.sh)")
    ed, _ = editor
    env = ed.env

    def x(*args):
        subprocess.run(["xdotool", *args], env=env, check=True, timeout=10, capture_output=True)

    window = subprocess.run(["xdotool", "search", "--name", "PCB Editor"], env=env, capture_output=True,
                            text=True, timeout=10).stdout.split()[-1]
    e = Editor(str(ed.socket), busy_s=1.0).connect()

    def routing() -> bool:
        try:
            e.board.drop_commit(e.board.begin_commit())
            return False
        except Exception as err:  # kipy's ApiError: "KiCad is busy"
            return "busy" in str(err)

    for _ in range(3):  # a loaded machine may drop the first key or click: start the router again
        x("mousemove", "400", "400")
        x("key", "--window", window, "x")
        time.sleep(0.5)
        x("mousemove", "306", "243", "click", "1")  # pad 1 of P3 in the zoomed-to-fit view
        time.sleep(0.5)
        x("mousemove", "500", "300")
        t0 = time.monotonic()
        while not routing() and time.monotonic() - t0 < 3:
            time.sleep(0.2)
        if routing():
            break
        x("key", "--window", window, "Escape")
    try:
        t0 = time.monotonic()
        with pytest.raises(EditorBusy) as err:
            e._retry(e.board.begin_commit)
        assert 0.5 <= time.monotonic() - t0 < 3 and err.value.code == "editor-busy"
        assert "Escape" in err.value.hint
    finally:
        x("key", "--window", window, "Escape")
        time.sleep(0.3)
        x("key", "--window", window, "Escape")
        time.sleep(0.3)
    e.board.drop_commit(e._retry(e.board.begin_commit))


def test_board_reloaded_in_kicad(editor):
    """File > Revert in KiCad (a reload from disk) is a person's edit like any other:
    what it changed comes into the session."""
    from kipy.geometry import Vector2

    ed, work = editor
    kicad = person(ed)
    fp = footprint(kicad, "P1")
    on_disk = (fp.position.x, fp.position.y)
    fp.position = Vector2.from_xy(fp.position.x + 2 * MM, fp.position.y)
    commit = kicad.begin_commit()
    kicad.update_items([fp])
    kicad.push_commit(commit, "a person moves P1, unsaved")
    session = Session(work)
    live = attach(session, Editor(str(ed.socket)).connect(), registry=REGISTRY, poll_s=0.1)
    try:
        ctx = Context(session, actor="test")
        at = REGISTRY.call("query.footprint", {"path": BOARD, "reference": "P1"}, ctx)["at"]
        assert at == [(on_disk[0] + 2 * MM) / MM, on_disk[1] / MM]  # KiCad's unsaved edit, taken at attach
        od = session.get(BOARD)
        before = od.revision
        kicad.revert()
        t0 = time.monotonic()
        while od.revision == before and time.monotonic() - t0 < 10:
            time.sleep(0.02)
        at = REGISTRY.call("query.footprint", {"path": BOARD, "reference": "P1"}, ctx)["at"]
        assert at == [on_disk[0] / MM, on_disk[1] / MM]
    finally:
        live.detach("test over")


def test_kicad_attach_command_serves_the_bridge(editor):
    """`boardwire kicad attach` (what the toolbar button runs): the bridge from the
    board's folder, the board attached, a client's edit landing in KiCad."""
    import os
    import re
    import signal

    from websockets.sync.client import connect

    from boardwire import __version__

    ed, work = editor
    r3 = footprint(person(ed), "R3").position
    proc = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "kicad", "attach", "--port", "0",
                             "--kicad-socket", str(ed.socket)], cwd="/", stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    try:
        url = None
        while url is None:
            line = proc.stderr.readline()
            assert line, "the bridge did not start"
            m = re.search(r"ws://\S+", line)
            url = m.group(0) if m else None
        assert f"(root {work})" in line
        with connect(url) as ws:
            ws.send(json.dumps({"type": "handshake", "protocol": "boardwire.bridge", "protocolVersion": "1.0.0",
                                "contractVersion": 1, "clientName": "boardwire-kicad", "clientVersion": __version__}))
            hello = json.loads(ws.recv(timeout=60))  # attaching to KiCad comes first; slow under load
            assert "kicad.live" in hello["capabilities"]
            ws.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "pcb.move",
                                "params": {"path": BOARD, "reference": "R3", "by": [0, 1]}}))
            while True:
                msg = json.loads(ws.recv(timeout=60))
                if msg.get("id") == 1:
                    break
        assert msg["result"]["live"]["kicad_commits"] == 1 and msg["result"]["live"]["attached"], msg
        moved = footprint(person(ed), "R3").position
        assert (moved.x - r3.x, moved.y - r3.y) == (0, MM)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_kicad_not_running(tmp_path):
    """No editor: a clear error with a stable code and how to enable the API."""
    stale = tmp_path / "api.sock"
    stale.touch()  # what a killed KiCad leaves behind
    for sock in (str(tmp_path / "none.sock"), str(stale)):
        with pytest.raises(EditorUnavailable) as e:
            Editor(sock).connect()
        assert "enable" in e.value.hint.lower() and e.value.exit_status == 46
    run = subprocess.run([sys.executable, "-m", "boardwire.cli.main", "mcp", "--attach", "--kicad-wait", "0",
                          "--kicad-socket", str(tmp_path / "none.sock")], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL, env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 46 and "editor-unavailable" in run.stderr


def test_busy_is_retried_then_reported():
    pytest.importorskip("kipy")
    from kipy.errors import ApiError
    from kipy.proto.common import ApiStatusCode

    calls = []

    def busy():
        calls.append(time.monotonic())
        raise ApiError("KiCad is busy", code=ApiStatusCode.AS_BUSY)

    ed = Editor("unused", busy_s=0.3)
    with pytest.raises(EditorBusy):
        ed._retry(busy)
    assert len(calls) >= 3 and calls[-1] - calls[0] <= 0.5
    answers = iter([ApiError("busy", code=ApiStatusCode.AS_BUSY), "ok"])

    def once_busy():
        a = next(answers)
        if isinstance(a, Exception):
            raise a
        return a

    assert ed._retry(once_busy) == "ok"


def test_kicad_closed_mid_session_keeps_everything(editor, tmp_path):
    """Last: the editor goes away while attached; the session detaches, keeps every
    edit (its own and the person's), and saves them."""
    ed, work = editor
    session = Session(work)
    live = attach(session, Editor(str(ed.socket)).connect(), registry=REGISTRY, poll_s=0.1)
    ctx = Context(session, actor="test")
    REGISTRY.call("pcb.move", {"path": BOARD, "reference": "C1", "by": [0, 1]}, ctx)
    ed.stop()
    t0 = time.monotonic()
    while live.attached and time.monotonic() - t0 < 30:
        time.sleep(0.05)
    assert not live.attached and "went away" in live.status()["reason"]
    out = REGISTRY.call("pcb.move", {"path": BOARD, "reference": "C1", "by": [0, 1]}, ctx)
    assert "live" not in out  # no longer attached: a plain session edit
    session.save(BOARD, actor="test", force=True)
    saved = Session(work)
    c1 = REGISTRY.call("query.footprint", {"path": BOARD, "reference": "C1"}, Context(saved))["at"]
    r4 = REGISTRY.call("query.footprint", {"path": BOARD, "reference": "R4"}, Context(saved))["at"]
    original = Session(tmp_path)
    shutil.copy(DEMOS / "ecc83" / BOARD, tmp_path / BOARD)
    c1_0 = REGISTRY.call("query.footprint", {"path": BOARD, "reference": "C1"}, Context(original))["at"]
    r4_0 = REGISTRY.call("query.footprint", {"path": BOARD, "reference": "R4"}, Context(original))["at"]
    assert c1 == [c1_0[0], round(c1_0[1] + 2, 6)]
    assert r4 == [round(r4_0[0] + 3, 6), r4_0[1]]  # the first test's move (saved by the test before)
