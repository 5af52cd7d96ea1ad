"""The HTTP server's limits (web/limits.py), on a real `boardwire mcp --http` and
`boardwire view`: slow headers and slow bodies are dropped, idle MCP sessions end,
and the session cap answers ``too-many-sessions``."""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import urlsplit

import httpx2
import pytest

from boardwire.errors import SERVER_ERROR, TooManySessions
from tests.web.conftest import running

SHORT = ["--header-timeout", "1", "--body-timeout", "1"]
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _connect(url: str) -> socket.socket:
    parts = urlsplit(url)
    return socket.create_connection((parts.hostname, parts.port), timeout=5)


def _dropped_after(sock: socket.socket, trickle: bytes, limit: float) -> float:
    """Send ``trickle`` one byte every 0.2 s until the server closes the connection;
    the seconds that took (fails past ``limit``)."""
    start = time.monotonic()
    for byte in trickle:
        try:
            sock.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            return time.monotonic() - start
        sock.settimeout(0.2)
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except TimeoutError:
            pass
        except ConnectionResetError:
            return time.monotonic() - start
        assert time.monotonic() - start < limit, "the server still reads this request"
    raise AssertionError("the request was sent whole")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(["mcp", "--http", "--no-auth", *SHORT], tmp_path_factory.mktemp("limits")) as url:
        yield url


def test_slow_headers_are_dropped(server):
    with _connect(server) as s:
        took = _dropped_after(s, b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Slow: a\r\n" * 100, limit=4)
    assert 0.8 < took < 2.5, took
    with _connect(server) as s:  # a connection that sends nothing at all
        s.settimeout(4)
        start = time.monotonic()
        assert s.recv(10) == b"" and time.monotonic() - start < 2.5


def test_a_slow_body_is_dropped(server):
    head = (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Accept: application/json, text/event-stream\r\nContent-Length: 200\r\n\r\n")
    with _connect(server) as s:
        s.sendall(head)
        took = _dropped_after(s, b" " * 200, limit=4)
    assert 0.8 < took < 2.5, took


def test_requests_in_time_are_served_on_a_kept_connection(server):
    with httpx2.Client(timeout=10) as c:  # one connection, two requests, a pause between them
        assert c.post(f"{server}/mcp", json=INIT, headers=ACCEPT).status_code == 200
        time.sleep(1.5)  # longer than both deadlines, shorter than uvicorn's keep-alive (5 s)
        assert c.post(f"{server}/mcp", json=INIT, headers=ACCEPT).status_code == 200


def test_the_view_alone_drops_slow_headers_not_its_websocket(tmp_path):
    from websockets.sync.client import connect

    with running(["view", *SHORT], tmp_path) as url:
        with _connect(url) as s:
            took = _dropped_after(s, b"GET /view/ HTTP/1.1\r\n" + b"X-Slow: a\r\n" * 100, limit=4)
        assert took < 2.5, took
        with connect(url.replace("http:", "ws:") + "/view/bridge", open_timeout=5) as ws:
            time.sleep(2)  # past both deadlines: the WebSocket is no HTTP request any more
            ws.send("{}")
            assert json.loads(ws.recv(timeout=5))["type"] == "refused"  # the bridge answers: still open


def test_idle_sessions_end_and_the_cap_refuses(tmp_path):
    with running(["mcp", "--http", "--no-auth", "--session-idle", "1", "--max-sessions", "2"], tmp_path) as url:
        mcp = f"{url}/mcp"
        opened = [httpx2.post(mcp, json=INIT, headers=ACCEPT, timeout=10) for _ in range(2)]
        assert [r.status_code for r in opened] == [200, 200]
        full = httpx2.post(mcp, json=INIT, headers=ACCEPT, timeout=10)
        assert full.status_code == 503 == TooManySessions.http_status, full.text
        body = full.json()
        assert body["jsonrpc"] == "2.0" and body["id"] is None
        assert body["error"]["code"] == SERVER_ERROR and body["error"]["data"]["code"] == "too-many-sessions"
        assert "2 MCP sessions" in body["error"]["message"] and body["error"]["data"]["hint"]
        time.sleep(2.5)  # past --session-idle
        old = opened[0].headers["mcp-session-id"]
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        gone = httpx2.post(mcp, json=ping, timeout=10,
                           headers={**ACCEPT, "mcp-session-id": old, "mcp-protocol-version": "2025-11-25"})
        assert gone.status_code == 404, gone.text  # MCP spec: a session that ended is not found
        # the table shrank: two new sessions fit again
        assert [httpx2.post(mcp, json=INIT, headers=ACCEPT, timeout=10).status_code for _ in range(2)] == [200, 200]


def test_the_key_bindings_of_ended_sessions_are_dropped(tmp_path):
    from boardwire.protocols.mcp.http import build_app

    auth, _ = build_app(str(tmp_path), auth=False, max_sessions=2)
    assert auth.live() == {}  # the SDK's session table, read (None would keep every binding)
    live = {"a", "b"}
    auth.live = lambda: live
    for sid in ("a", "x", "b", "y", "z"):  # five bindings: over twice the cap, the ended ones go
        auth._bind(sid, "local")
    assert auth.owners == {"a": "local", "b": "local"}
