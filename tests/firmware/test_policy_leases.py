"""Policy: an agent flashes only the project's bound board (policy-denied naming the
key otherwise), erasing is off; leases: a second client's flash fails with
board-leased while the first holds the board, through the hub socket."""

from __future__ import annotations

import threading
import time

import pytest

from boardwire.errors import BoardLeased, PolicyDenied
from boardwire.firmware.leases import HubClient, hub, hub_path
from boardwire.firmware.policy import check_board_action

from .conftest import call, context


def _project(ctx, port: str | None) -> None:
    args = {"name": "blinky", "framework": "baremetal"}
    if port:
        args["port"] = port
    call(ctx, "fw.new", args)


def test_flashing_a_board_that_is_not_bound_is_denied_naming_the_key(fw_tools, ws, mock_tcp, tmp_path):
    ctx = context(ws)
    _project(ctx, str(tmp_path / "ttyUSB0"))  # bound to another board
    with pytest.raises(PolicyDenied) as e:
        call(ctx, "fw.flash", {"dir": "blinky", "port": mock_tcp})
    assert e.value.data["key"] == "agent.boards"
    assert "[agent] boards" in e.value.message and "allowed_boards" in e.value.hint
    # the server's [agent] table allows it: the same call goes through
    (ws / "boardwire.toml").write_text(f'[agent]\nallowed_boards = ["{mock_tcp}"]\n')
    assert call(ctx, "fw.flash", {"dir": "blinky", "port": mock_tcp})["written"]


def test_a_person_on_the_command_line_is_never_checked(fw_tools, ws, mock_tcp, tmp_path):
    _project(context(ws), str(tmp_path / "ttyUSB0"))
    person = context(ws, actor="cli")
    assert call(person, "fw.flash", {"dir": "blinky", "port": mock_tcp})["written"]


def test_erase_is_off_by_default(fw_tools, ws, mock_tcp):
    ctx = context(ws)
    _project(ctx, mock_tcp)
    with pytest.raises(PolicyDenied) as e:
        call(ctx, "fw.erase", {"dir": "blinky"})
    assert e.value.data["key"] == "agent.erase"
    (ws / "boardwire.toml").write_text("[agent]\nerase = true\n")
    assert call(ctx, "fw.erase", {"dir": "blinky"})["chip"] == "ESP32-C3"


@pytest.mark.parametrize("agent, allowed", [({}, False), ({"boards": "any"}, True), ({"boards": "none"}, False),
                                            ({"allowed_boards": ["AA:BB:CC:DD:EE:FF"]}, True)])
def test_policy_table(agent, allowed):
    board = {"port": "/dev/ttyUSB1", "id": "aa:bb:cc:dd:ee:ff"}
    bound = {"port": "/dev/ttyUSB0"}
    if allowed:
        check_board_action("flash", agent, board=board, bound=bound)
    else:
        with pytest.raises(PolicyDenied):
            check_board_action("flash", agent, board=board, bound=bound)


def test_the_bound_board_is_allowed_and_unchecked_actions_pass():
    bound = {"port": "/dev/ttyUSB0"}
    check_board_action("flash", {}, board={"port": "/dev/ttyUSB0"}, bound=bound)
    check_board_action("boardInfo", {"boards": "none"}, board={"port": "/dev/ttyUSB9"}, bound=bound)
    with pytest.raises(PolicyDenied):
        check_board_action("reset", {}, board={"port": "/dev/ttyUSB9"}, bound={})


def test_a_second_clients_flash_fails_while_the_first_holds_the_board(fw_tools, ws, mock_tcp):
    ctx_a, ctx_b = context(ws, "agent-a"), context(ws, "agent-b")
    _project(ctx_a, mock_tcp)
    terminal = HubClient(hub_path())  # another process's connection to the same hub
    try:
        hub().listing()  # this process serves the hub
        terminal.acquire(mock_tcp, "terminal")
        with pytest.raises(BoardLeased) as e:
            call(ctx_b, "fw.flash", {"dir": "blinky"})
        assert e.value.data["holder"] == "terminal"
        devices = call(ctx_a, "fw.devices", {})["devices"]
        assert [d["lease"]["holder"] for d in devices if d["port"] == mock_tcp] == ["terminal"]
        terminal.release(mock_tcp, "terminal")
        assert call(ctx_b, "fw.flash", {"dir": "blinky"})["written"]
    finally:
        terminal.close()


def test_two_agents_in_one_server_and_a_lease_held_through_a_call(fw_tools, ws, mock_tcp, monkeypatch):
    from boardwire.firmware import esp

    ctx_a, ctx_b = context(ws, "agent-a"), context(ws, "agent-b")
    _project(ctx_a, mock_tcp)
    call(ctx_a, "fw.build", {"dir": "blinky"})
    inside, go = threading.Event(), threading.Event()
    real = esp.flash

    def slow_flash(*args, **kw):  # agent-a's flash holds the lease until we let it go
        inside.set()
        go.wait(30)
        return real(*args, **kw)

    monkeypatch.setattr(esp, "flash", slow_flash)
    result = {}
    t = threading.Thread(target=lambda: result.setdefault("a", call(ctx_a, "fw.flash", {"dir": "blinky", "build": False})))
    t.start()
    try:
        assert inside.wait(30)
        with pytest.raises(BoardLeased) as e:
            call(ctx_b, "fw.reset", {"dir": "blinky"})
        assert e.value.data["holder"] == "agent-a"
    finally:
        go.set()
        t.join(60)
    assert result["a"]["written"]
    assert call(ctx_b, "fw.reset", {"dir": "blinky"})["port"] == mock_tcp  # released


def test_a_holders_leases_go_with_its_connection(tmp_path):
    path = hub_path()
    serving = HubClient(path)
    other = HubClient(path)
    try:
        serving.listing()
        other.acquire("/dev/ttyUSB0", "terminal")
        with pytest.raises(BoardLeased):
            serving.acquire("/dev/ttyUSB0", "agent")
        other.close()  # the terminal quits; the hub notices its connection end
        deadline = time.monotonic() + 10
        while any(x["board"] == "/dev/ttyUSB0" for x in serving.listing()["leases"]):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        serving.acquire("/dev/ttyUSB0", "agent")
    finally:
        serving.close()
