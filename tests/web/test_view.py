"""The live view in a real browser (Debian's chromium, Playwright): the page comes from
boardwire alone and draws the demo board; an MCP client's edit reaches the drawing
within a second; hover names the footprint and net; the chat box reaches an MCP
agent's agent_chat and shows its agent_reply, the edit it made and that edit's undo;
another Origin is refused; behind the HTTP server's keys the page needs a key.
``BOARDWIRE_SCREENSHOTS=docs`` writes the board and schematic screenshots into docs/."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.inputs import REPO
from tests.web.conftest import BOARD, SCHEMATIC, Agent, copy_demo, running

pytestmark = [pytest.mark.kicad, pytest.mark.xdist_group("web")]


def _shots_dir(tmp_path: Path) -> Path:
    return REPO / "docs" if os.environ.get("BOARDWIRE_SCREENSHOTS") == "docs" else tmp_path


def _changed_pixels(a: bytes, b: bytes) -> int:
    from PIL import Image, ImageChops

    ia, ib = Image.open(io.BytesIO(a)).convert("RGB"), Image.open(io.BytesIO(b)).convert("RGB")
    assert ia.size == ib.size
    diff = ImageChops.difference(ia, ib).convert("L").point(lambda v: 255 if v > 24 else 0)
    return diff.histogram()[255]


def test_page_draws_the_board_and_follows_an_mcp_edit(view_server, page, tmp_path):
    url, folder = view_server
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    page.goto(url + "/view/")
    page.wait_for_selector('#drawing svg [data-ref="U1"]', timeout=30_000)
    page.wait_for_selector('#status[data-state="connected"]')
    assert page.get_attribute("#drawing", "data-replaced") == "all"  # the first drawing: whole
    refs = set(page.eval_on_selector_all('#drawing [data-layer="References"] text', "els => els.map(e => e.textContent)"))
    with Agent(url) as agent:
        described = agent.call("query_describe", {"path": BOARD})
        assert f"{len(refs)} footprints" in described["summary"]  # every footprint drawn
        # the layer list comes from the drawing; toggling a layer hides it
        page.uncheck('#layers input[data-layer="B.Cu"]')
        assert page.eval_on_selector('#drawing g.layer[data-layer="B.Cu"]', "g => g.style.display") == "none"
        page.check('#layers input[data-layer="B.Cu"]')
        page.mouse.move(5, 5)
        before = page.locator("#canvas").screenshot()
        out = agent.call("pcb_move", {"path": BOARD, "reference": "U1", "by": [8, 0]})
        start = time.perf_counter()
        page.wait_for_selector(f'#drawing[data-revision="{out["revision"]}"]', timeout=10_000)
        elapsed = time.perf_counter() - start
        # the page patched the drawing: only U1's items, the markers and the ratsnest changed
        replaced = page.get_attribute("#drawing", "data-replaced")
        assert replaced != "all" and 0 < int(replaced) < 150, replaced
        page.mouse.move(5, 5)
        after = page.locator("#canvas").screenshot()
        # the move shorts U1's pads to tracks and breaks connections: markers and ratsnest
        drc = agent.call("check_drc", {"path": BOARD, "engine": "builtin", "format": "json"})
        unrouted = agent.call("query_unrouted", {"path": BOARD, "limit": 5000})
        assert drc["violations"] and unrouted["total"]
        assert page.locator('#drawing [data-layer="DRC"] circle').count() == len(drc["violations"])
        assert page.locator('#drawing [data-layer="Ratsnest"] line').count() == unrouted["total"]
        # hover: the footprint's reference, value and the pad's net, as the session has them
        pad = agent.call("query_pads", {"path": BOARD, "reference": "R1", "format": "json"})["pads"][0]
        fp = agent.call("query_footprint", {"path": BOARD, "reference": "R1"})
        page.locator(f'#drawing [data-layer="F.Cu"] [data-ref="R1"][data-pad="{pad["number"]}"]').hover()
        tip = page.locator("#tip")
        tip.wait_for(state="visible")
        text = tip.inner_text()
        assert "R1" in text and fp["value"] in text and f"net {pad['net']}" in text, text
        shots = _shots_dir(tmp_path)
        page.mouse.move(5, 5)
        page.screenshot(path=str(shots / "view-board.png"))
        agent.call("session_undo", {"path": BOARD})
    assert elapsed < 1.0, f"the drawing followed the edit after {elapsed:.2f} s"
    assert _changed_pixels(before, after) > 500
    assert all(u.startswith(url) for u in seen), [u for u in seen if not u.startswith(url)]  # no CDN
    print(f"\nmove -> redrawn in {elapsed * 1000:.0f} ms")


def test_back_side_and_schematic_sheet(view_server, page, tmp_path):
    url, _ = view_server
    page.goto(url + "/view/")
    page.wait_for_selector('#drawing svg[data-side="front"]', timeout=30_000)
    # zoom with the wheel about the pointer, pan by dragging
    before = page.eval_on_selector("#drawing", "el => el.style.transform")
    page.mouse.move(600, 400)
    page.mouse.wheel(0, -400)
    zoomed = page.eval_on_selector("#drawing", "el => el.style.transform")
    page.mouse.down()
    page.mouse.move(700, 450)
    page.mouse.up()
    panned = page.eval_on_selector("#drawing", "el => el.style.transform")
    scale = lambda t: float(t.split("scale(")[1].rstrip(")"))  # noqa: E731
    assert scale(zoomed) > scale(before) and panned != zoomed and scale(panned) == scale(zoomed)
    page.check('input[name="side"][value="back"]')
    page.wait_for_selector('#drawing svg[data-side="back"]')
    assert page.get_attribute('#drawing svg g.board', "transform").startswith("translate(")  # mirrored
    page.select_option("#doc", SCHEMATIC)
    page.wait_for_selector("#drawing.sheet svg", timeout=60_000)
    # KiCad's plot of the in-memory sheet: the tube's reference is drawn
    assert "U1" in page.inner_text("#drawing") or page.locator("#drawing svg text").count() > 0
    page.screenshot(path=str(_shots_dir(tmp_path) / "view-schematic.png"))


def test_chat_round_trip_with_the_edit_and_its_undo(view_server, page, tmp_path):
    url, _ = view_server
    page.goto(url + "/view/")
    page.wait_for_selector('#drawing svg [data-ref="R1"]', timeout=30_000)
    with Agent(url) as agent:
        x0 = agent.call("query_footprint", {"path": BOARD, "reference": "R4"})["at"]
        waiting = agent.start("agent_chat", {"wait": 30})
        page.fill("#ask-text", "Move R4 3 mm down")
        page.click("#ask button")
        got = waiting.result(timeout=30)
        assert not got.is_error, got.structured_content
        (req,) = got.structured_content["requests"]
        assert req["text"] == "Move R4 3 mm down" and req["path"] == BOARD
        card = page.locator(f'.card[data-chat="{req["chatId"]}"]')
        agent.call("agent_reply", {"chatId": req["chatId"], "progress": "moving R4", "percent": 50})
        card.locator(".state", has_text="moving R4").wait_for(timeout=5000)
        moved = agent.call("pcb_move", {"path": BOARD, "reference": "R4", "by": [0, 3]})
        agent.call("agent_reply", {"chatId": req["chatId"], "text": "Moved R4 3 mm down.", "done": True})
        card.locator(".answer", has_text="Moved R4 3 mm down.").wait_for(timeout=5000)
        assert card.get_attribute("data-state") == "done"
        item = card.locator("ul.edits li")
        assert item.count() == 1 and "pcb.move" in item.inner_text()
        page.wait_for_selector(f'#drawing[data-revision="{moved["revision"]}"]', timeout=5000)
        page.screenshot(path=str(_shots_dir(tmp_path) / "view-chat.png"))
        item.locator("button.undo").click()
        page.wait_for_selector(f'#drawing[data-revision="{moved["revision"] - 1}"]', timeout=5000)
        assert agent.call("query_footprint", {"path": BOARD, "reference": "R4"})["at"] == x0


def test_a_stdio_mcp_server_serves_its_view(tmp_path, page):
    """`boardwire mcp --view PORT`, as an agent's host spawns it: the page shows that
    stdio session, and the agent's edits reach it."""
    from mcp import StdioServerParameters

    from tests.web.conftest import free_port

    folder = copy_demo(tmp_path / "w")
    port = free_port()
    params = StdioServerParameters(command=sys.executable, cwd=str(folder), env=dict(os.environ),
                                   args=["-m", "boardwire.cli.main", "mcp", "--view", str(port)])
    with Agent(None, stdio=params) as agent:
        tools = {t.name for t in agent.portal.call(agent.c.list_tools).tools}
        assert {"agent_chat", "agent_reply", "pcb_move"} <= tools
        agent.call("session_open", {"path": BOARD})
        page.goto(f"http://127.0.0.1:{port}/view/")
        page.wait_for_selector('#drawing svg [data-ref="U1"]', timeout=30_000)
        out = agent.call("pcb_move", {"path": BOARD, "reference": "R2", "by": [2, 0]})
        page.wait_for_selector(f'#drawing[data-revision="{out["revision"]}"]', timeout=5000)


def test_no_agent_listening_runs_the_agent_command(tmp_path, page):
    """With no agent listening the page says so, and the configured command answers:
    the request on its stdin, its output the answer."""
    folder = copy_demo(tmp_path / "w")
    command = f"{sys.executable} -c \"import sys; print('echo: ' + sys.stdin.read().upper())\""
    with running(["view", "--open", BOARD, "--agent-command", command], folder) as url:
        page.goto(url + "/view/")
        page.wait_for_selector("#agent-state.none", timeout=30_000)
        page.fill("#ask-text", "hello")
        page.click("#ask button")
        page.locator(".card .answer", has_text="echo: HELLO").wait_for(timeout=15_000)
        page.wait_for_selector('.card[data-state="done"]', timeout=5_000)  # set just after the answer shows


def test_another_origin_is_refused(view_server, page):
    url, _ = view_server
    evil = "http://evil.example"
    page.route(evil + "/**", lambda route: route.fulfill(status=200, content_type="text/html",
                                                         body="<!doctype html><title>evil</title>"))
    page.goto(evil + "/")
    result = page.evaluate("""(base) => new Promise((done) => {
        const out = {};
        const ws = new WebSocket(base.replace("http", "ws") + "/view/bridge");
        ws.onopen = () => { out.ws = "open"; ws.close(); };
        ws.onerror = () => { out.ws = "error"; };
        fetch(base + "/view/board.svg?path=ecc83-pp.kicad_pcb", {mode: "cors"})
            .then((r) => { out.fetch = r.status; }, () => { out.fetch = "blocked"; })
            .finally(() => setTimeout(() => done(out), 1500));
    })""", url)
    assert result["ws"] == "error", result
    assert result["fetch"] in ("blocked", 403), result
    # a name rebound to this machine (DNS rebinding) is refused without keys
    import urllib.error
    import urllib.request

    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(urllib.request.Request(url + "/view/", headers={"Host": "evil.example"}), timeout=10)
    assert e.value.code == 403
    # the same page from boardwire itself connects
    page.goto(url + "/view/")
    page.wait_for_selector('#status[data-state="connected"]', timeout=30_000)


def test_behind_the_http_servers_keys(tmp_path, page, kicad_cli):
    cli = [sys.executable, "-m", "boardwire.cli.main", "mcp", "keys", "add", "alice"]
    key = subprocess.run(cli, cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    copy_demo(tmp_path / "workspaces" / "alice")
    with running(["mcp", "--http"], tmp_path) as url:
        assert page.goto(url + "/view/").status == 403
        assert page.goto(url + "/view/board.svg?path=" + BOARD).status == 403
        assert page.goto(url + "/view/?key=bw_wrong").status == 403
        page.goto(f"{url}/view/?key={key}&open={BOARD}")
        assert "key=" not in page.url  # the key went into a cookie, not the history
        page.wait_for_selector('#drawing svg [data-ref="U1"]', timeout=30_000)
        with Agent(url, key) as agent:  # the page shows the key's workspace: alice's edits reach it
            out = agent.call("pcb_move", {"path": BOARD, "reference": "C1", "by": [1, 0]})
            page.wait_for_selector(f'#drawing[data-revision="{out["revision"]}"]', timeout=10_000)
