"""The bridge's WebSocket door (docs/bridge.md), with no KiCad: handshake and its close
codes, the hello, methodRegistryHash, pairing, the payload limit, Origin, JSON-RPC on
registry commands, and document.changed to 100 clients at once.

The server runs in this process on its own event loop thread; clients are the
``websockets`` library's, as an editor extension's would be."""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
from contextlib import contextmanager

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from boardwire import __version__
from boardwire.protocols.bridge import Bridge, contract
from boardwire.protocols.bridge.pairing import proof
from boardwire.registry import REGISTRY, Registry, command
from boardwire.session import Session
from tests.inputs import DEMOS, need

BOARD = "b.kicad_pcb"


def handshake(**over) -> dict:
    hs = {"type": "handshake", "protocol": contract.PROTOCOL, "protocolVersion": contract.PROTOCOL_VERSIONS[-1],
          "contractVersion": contract.CONTRACT_VERSION, "clientName": "boardwire-client",
          "clientVersion": __version__, "editorVersion": "9.0.8"}
    hs.update(over)
    return {k: v for k, v in hs.items() if v is not None}


@contextmanager
def bridge_server(tmp_path, **kw):
    """A Bridge on a free loopback port, served from a thread; yields (url, bridge)."""
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    session = Session(tmp_path)
    bridge = Bridge(session, **kw)
    loop = asyncio.new_event_loop()
    box: dict = {}
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)

        async def main():
            box["server"] = await bridge.listen("127.0.0.1", 0)
            ready.set()
            box["stop"] = asyncio.Event()
            await box["stop"].wait()
            box["server"].close()
            await box["server"].wait_closed()
            await bridge.close()

        loop.run_until_complete(main())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(30)
    port = box["server"].sockets[0].getsockname()[1]
    try:
        yield f"ws://127.0.0.1:{port}", bridge
    finally:
        loop.call_soon_threadsafe(box["stop"].set)
        thread.join(10)


@contextmanager
def client(url: str, **hs):
    """A connected client past its handshake: yields (websocket, the hello)."""
    with connect(url, max_size=None) as ws:
        ws.send(json.dumps(handshake(**hs)))
        yield ws, json.loads(ws.recv(timeout=10))


def answer_of(url: str, first, second=None) -> tuple[list[dict], int]:
    """Send ``first`` (and ``second`` after the first reply), read to the close;
    returns the replies and the close code."""
    with connect(url) as ws:
        ws.send(first if isinstance(first, str) else json.dumps(first))
        replies = [json.loads(ws.recv(timeout=10))]
        if second is not None:
            ws.send(json.dumps(second))
            replies.append(json.loads(ws.recv(timeout=10)))
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
    return replies, ws.close_code


def call(ws, id, method, params=None) -> dict:
    """Send a request; return its response (notifications met on the way are skipped)."""
    ws.send(json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params or {}}))
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if msg.get("id") == id:
            return msg


def refused(url: str, **hs) -> tuple[dict, int]:
    replies, code = answer_of(url, handshake(**hs))
    return replies[0], code


# -- handshake and hello -----------------------------------------------------------------

def test_hello_fields(tmp_path):
    with bridge_server(tmp_path) as (url, bridge):
        with client(url) as (ws, hello):
            pass
    methods = [c.id for c in REGISTRY.all()]
    assert hello["type"] == "hello"
    assert hello["bridgeVersion"] == __version__
    assert hello["contractVersion"] == contract.CONTRACT_VERSION
    assert hello["supportedProtocolVersions"] == list(contract.PROTOCOL_VERSIONS)
    assert hello["maxPayloadSize"] == contract.MAX_PAYLOAD
    assert hello["devMode"] is False and hello["warnings"] == []
    assert hello["editorVersion"] == "9.0.8"
    assert {"jsonrpc-2.0", "document.changed"} <= set(hello["capabilities"])
    assert "pairing" not in hello["capabilities"] and "sessionToken" not in hello
    # the hash is recomputed here from its definition, not read back from the server
    import hashlib
    names = sorted(set(methods) | {"rpc.discover", "rpc.hello", "$/cancel", "$/cancelRequest"})
    assert hello["methodRegistryHash"] == hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]


def test_version_mismatch_is_warned_not_refused(tmp_path):
    with bridge_server(tmp_path, dev_mode=True) as (url, _):
        with client(url, clientVersion="0.0.1") as (ws, hello):
            assert call(ws, 1, "session.documents")["result"]["documents"] == []
    assert hello["devMode"] is True
    assert any("0.0.1" in w for w in hello["warnings"])


@pytest.mark.parametrize("over,reason", [
    ({"protocol": "easyeda.bridge"}, "wrong-protocol"),
    ({"clientName": "someone-else"}, "wrong-client"),
    ({"protocolVersion": "2.0.0"}, "unsupported-version"),
    ({"contractVersion": "one"}, "bad-handshake"),
    ({"clientName": None}, "bad-handshake"),
    ({"type": "hello"}, "bad-handshake"),
])
def test_handshake_refused_with_its_code(tmp_path, over, reason):
    with bridge_server(tmp_path) as (url, _):
        msg, code = refused(url, **over)
    assert msg["type"] == "refused" and msg["reason"] == reason
    assert code == msg["code"] == contract.CLOSE_CODES[reason]


def test_not_json_handshake_refused(tmp_path):
    with bridge_server(tmp_path) as (url, _):
        (msg,), code = answer_of(url, "hello?")
    assert msg["reason"] == "bad-handshake" and code == 4000


def test_method_registry_hash_changes_when_a_method_is_added(tmp_path):
    session = Session(tmp_path)
    extended = Registry()
    for c in REGISTRY.all():
        extended.add(c)
    before = contract.method_registry_hash(Bridge(session, registry=extended).methods())
    assert before == contract.method_registry_hash(Bridge(session).methods())

    class NoArgs(__import__("pydantic").BaseModel):
        pass

    command("test.added", kind="query", args=NoArgs, registry=extended)(lambda ctx, a: {"summary": "x"})
    after = contract.method_registry_hash(Bridge(session, registry=extended).methods())
    assert after != before and len(after) == 16


# -- pairing -------------------------------------------------------------------------------

def test_pairing_with_a_token(tmp_path):
    token = "s3cret-pairing-token"
    with bridge_server(tmp_path, token=token) as (url, bridge):
        with connect(url) as ws:
            ws.send(json.dumps(handshake()))
            challenge = json.loads(ws.recv(timeout=10))
            assert challenge["type"] == "challenge" and challenge["method"] == "hmac-sha256"
            ws.send(json.dumps({"type": "pair", "proof": proof(token, challenge["nonce"])}))
            hello = json.loads(ws.recv(timeout=10))
            assert hello["type"] == "hello" and "pairing" in hello["capabilities"]
            session_token = hello["sessionToken"]
            assert call(ws, 1, "session.documents")["result"]["documents"] == []
        # a reconnect with the session token skips the challenge
        with client(url, sessionToken=session_token) as (ws, hello2):
            assert hello2["type"] == "hello" and "sessionToken" not in hello2
        # the wrong proof, and no answer to the challenge, are refused
        for answer, reason in (({"type": "pair", "proof": proof("not-the-token", "x")}, "pairing-failed"),
                               ({"jsonrpc": "2.0", "id": 1, "method": "session.documents"}, "pairing-required")):
            (challenge, msg), code = answer_of(url, handshake(sessionToken="made-up"), answer)
            assert challenge["type"] == "challenge"
            assert msg["reason"] == reason and code == contract.CLOSE_CODES[reason]
    # only digests are kept
    assert token.encode() not in repr(vars(bridge.pairing)).encode()
    assert session_token not in repr(vars(bridge.pairing))


def test_no_pairing_without_a_token(tmp_path):
    with bridge_server(tmp_path) as (url, _):
        with client(url, sessionToken="anything") as (ws, hello):
            pass
    assert hello["type"] == "hello"


# -- payload limit, Origin ------------------------------------------------------------------

def test_oversize_message_answered_and_connection_kept(tmp_path):
    limit = 64 * 1024
    with bridge_server(tmp_path, max_payload=limit) as (url, _), client(url) as (ws, hello):
        assert hello["maxPayloadSize"] == limit
        big = {"jsonrpc": "2.0", "id": 7, "method": "query.describe", "params": {"path": BOARD, "pad": "x" * limit}}
        ws.send(json.dumps(big))
        err = json.loads(ws.recv(timeout=10))
        assert err["id"] == 7
        assert err["error"]["data"]["code"] == "payload-too-large"
        assert err["error"]["data"]["maxPayloadSize"] == limit and err["error"]["data"]["size"] > limit
        # the same connection goes on
        assert "result" in call(ws, 8, "query.describe", {"path": BOARD})
        # far past the limit the library closes with 1009 (message too big) unread
        ws.send("x" * (limit * contract.HARD_LIMIT_FACTOR + 1))
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
        assert ws.protocol.close_rcvd.code == 1009


def test_origin_checked(tmp_path):
    with bridge_server(tmp_path, allow_origins=("https://editor.example",)) as (url, _):
        for origin in ("https://evil.example", "http://localhost.evil.example", "http://127.0.0.1.evil.example:80"):
            with pytest.raises(InvalidStatus) as e:
                with connect(url, origin=origin):
                    pass
            assert e.value.response.status_code == 403
        for origin in ("http://localhost:5173", "http://127.0.0.1", "https://editor.example", None):
            with connect(url, origin=origin) as ws:
                ws.send(json.dumps(handshake()))
                assert json.loads(ws.recv(timeout=10))["type"] == "hello"


# -- commands and events -----------------------------------------------------------------------

def test_commands_and_document_changed(tmp_path):
    with bridge_server(tmp_path) as (url, _), client(url, clientName="boardwire-kicad") as (a, _), \
            client(url) as (b, _):
        desc = call(a, 1, "query.describe", {"path": BOARD})["result"]
        assert desc["summary"]
        bad = call(a, 2, "pcb.move", {"path": BOARD, "reference": "NOPE", "at": [1, 2]})
        assert bad["error"]["data"]["code"] == "not-found"
        moved = call(a, 3, "pcb.move", {"path": BOARD, "reference": "R1", "by": [1, 0]})["result"]
        note = json.loads(b.recv(timeout=10))
        while note.get("params", {}).get("reason") != "edit":
            note = json.loads(b.recv(timeout=10))
        assert note["method"] == "document.changed"
        assert note["params"]["revision"] == moved["revision"] == 1
        assert note["params"]["actor"].startswith("boardwire-kicad")
        stale = call(b, 4, "pcb.move", {"path": BOARD, "reference": "R1", "by": [1, 0], "revision": 0})
        assert stale["error"]["data"]["code"] == "stale-revision"


def test_hundred_clients_lose_no_event(tmp_path):
    from websockets.asyncio.client import connect as aconnect

    clients, edits = 100, 5

    async def scenario(url):
        conns = []
        for _ in range(clients):
            ws = await aconnect(url)
            await ws.send(json.dumps(handshake()))
            assert json.loads(await ws.recv())["type"] == "hello"
            conns.append(ws)
        # every client has spoken once, so each is registered before the edits
        for i, ws in enumerate(conns):
            await ws.send(json.dumps({"jsonrpc": "2.0", "id": i, "method": "session.documents"}))
            while json.loads(await ws.recv()).get("id") != i:
                pass
        driver = conns[0]
        for n in range(edits):
            await driver.send(json.dumps({"jsonrpc": "2.0", "id": 1000 + n, "method": "pcb.move",
                                          "params": {"path": BOARD, "reference": "R1", "by": [0.1, 0]}}))

        async def revisions(ws):
            seen = []
            while len(seen) < edits:
                msg = json.loads(await ws.recv())
                if msg.get("method") == "document.changed" and msg["params"]["reason"] == "edit":
                    seen.append(msg["params"]["revision"])
            return seen

        got = await asyncio.wait_for(asyncio.gather(*(revisions(ws) for ws in conns)), 60)
        for ws in conns:
            await ws.close()
        return got

    with bridge_server(tmp_path) as (url, _):
        got = asyncio.run(scenario(url))
    assert got == [list(range(1, edits + 1))] * clients


def test_docs_page_states_the_contract():
    from tests.inputs import REPO

    page = (REPO / "docs" / "bridge.md").read_text()
    for reason, code in contract.CLOSE_CODES.items():
        assert f"| {code} | `{reason}` |" in page, reason
    assert f"| protocol | `{contract.PROTOCOL}` |" in page
    assert f"| contractVersion | `{contract.CONTRACT_VERSION}` |" in page
    assert f"| supported protocolVersion | {', '.join(f'`{v}`' for v in contract.PROTOCOL_VERSIONS)} |" in page
    assert f"`{contract.MAX_PAYLOAD}` bytes" in page
    for name in contract.CLIENT_NAMES:
        assert f"`{name}`" in page


def test_boardwire_bridge_command(tmp_path):
    """`boardwire bridge` as a person starts it: prints where it listens, serves, stops on SIGTERM."""
    import os
    import re
    import signal
    import subprocess
    import sys

    from tests.inputs import REPO

    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    proc = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "bridge", "--port", "0", "--open", BOARD,
                             "--max-payload", "100000"], cwd=tmp_path, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    try:
        line = proc.stderr.readline()
        url = re.search(r"ws://\S+", line).group(0)
        with client(url) as (ws, hello):
            assert hello["maxPayloadSize"] == 100000
            docs = call(ws, 1, "session.documents")["result"]["documents"]
            assert [d["path"] for d in docs] == [BOARD]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
