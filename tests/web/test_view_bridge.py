"""The live view's bridge (``/view/bridge``) behind the HTTP server's keys, with no
browser: a real ``boardwire mcp --http`` and a websockets client. A revoked key's open
connection is closed at its next message; every call's actor names the key, whatever
the client calls itself; only the view's own origin (or an ``--allow-origin``) may open
the bridge with the login cookie, which holds a login token, never the key."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.protocols.test_bridge import call, handshake
from tests.web.conftest import running

pytestmark = pytest.mark.xdist_group("web")


def keys(root: Path, *args: str) -> str:
    cli = [sys.executable, "-m", "boardwire.cli.main", "mcp", "keys", *args]
    return subprocess.run(cli, cwd=root, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def server(tmp_path):
    """``boardwire mcp --http`` with keys alice and bob: (base URL, root, alice's key, bob's key)."""
    alice, bob = keys(tmp_path, "add", "alice"), keys(tmp_path, "add", "bob")
    with running(["mcp", "--http", "--allow-origin", "http://localhost:4444"], tmp_path) as url:
        yield url, tmp_path, alice, bob


@contextmanager
def bridge(url: str, headers: dict, origin: str | None = None, client: str = "boardwire-client"):
    """A bridge connection past its hello."""
    with connect(url.replace("http", "ws") + "/view/bridge", additional_headers=headers, origin=origin) as ws:
        ws.send(json.dumps(handshake(clientName=client)))
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        yield ws


def audit(root: Path, name: str) -> list[dict]:
    return [json.loads(line) for line in (root / "workspaces" / name / ".boardwire" / "session.jsonl")
            .read_text().splitlines()]


def test_a_revoked_key_is_refused_on_its_open_connection(server):
    url, root, alice, _ = server
    with bridge(url, {"Authorization": f"Bearer {alice}"}) as ws:
        assert "result" in call(ws, 1, "session.documents")
        keys(root, "revoke", "alice")
        ws.send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "project.new", "params": {"name": "late"}}))
        refusal = json.loads(ws.recv(timeout=10))
        assert refusal == {"type": "refused", "code": 4006, "reason": "key-revoked",
                           "message": "key alice was revoked"}
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
    assert ws.close_code == 4006  # errors.KeyRevoked
    assert not list((root / "workspaces" / "alice").glob("late*")), "the call after the revocation ran"
    with pytest.raises(InvalidStatus):  # and a new connection is refused
        connect(url.replace("http", "ws") + "/view/bridge", additional_headers={"Authorization": f"Bearer {alice}"})


def test_the_actor_names_the_key_not_the_clients_claim(server):
    url, root, alice, _ = server
    with bridge(url, {"Authorization": f"Bearer {alice}"}) as ws:
        call(ws, 1, "session.documents")
        hello = call(ws, 2, "rpc.hello", {"name": "mcp:bob"})["result"]
        assert hello["actor"] == "view:alice" and hello["client"] == "mcp:bob"
        call(ws, 3, "session.documents")
    lines = [x for x in audit(root, "alice") if x["command"] == "session.documents" and x.get("state") != "started"]
    assert [(x["door"], x["actor"], x["client"]) for x in lines] == [
        ("bridge", "view:alice", lines[0]["client"]), ("bridge", "view:alice", "mcp:bob")]
    assert lines[0]["client"].startswith("boardwire-client-")
    assert not (root / "workspaces" / "bob" / ".boardwire" / "session.jsonl").exists()


def login_cookie(url: str, key: str) -> str:
    """The cookie ``/view/?key=KEY`` sets (``boardwire_view=...``)."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as e:
        opener.open(f"{url}/view/?key={key}", timeout=10)
    assert e.value.code == 303
    cookie = e.value.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/view" in cookie
    return cookie.split(";")[0]


def test_only_the_views_own_origin_opens_the_bridge_with_the_cookie(server):
    url, _, alice, _ = server
    port = url.rsplit(":", 1)[1]
    cookie = login_cookie(url, alice)
    # other ports of this machine are other origins (browsers send them the cookie: same site);
    # so is localhost:PORT when the view was reached as 127.0.0.1:PORT (its Host header)
    for origin in ("http://localhost:3000", "http://127.0.0.1:8080", f"http://localhost:{port}", "http://evil.example"):
        with pytest.raises(InvalidStatus) as e:
            connect(url.replace("http", "ws") + "/view/bridge", additional_headers={"Cookie": cookie}, origin=origin)
        assert e.value.response.status_code == 403, origin
    for origin in (f"http://127.0.0.1:{port}", "http://localhost:4444"):  # its own, an --allow-origin
        with bridge(url, {"Cookie": cookie}, origin=origin, client="boardwire-web") as ws:
            assert "result" in call(ws, 1, "session.documents")
    with bridge(url, {"Authorization": f"Bearer {alice}"}) as ws:  # no Origin: a script with the key
        assert "result" in call(ws, 1, "session.documents")


def test_the_cookie_holds_a_login_token_not_the_key(server):
    url, _, alice, _ = server
    own = "http://" + url.split("://", 1)[1]
    cookie = login_cookie(url, alice)
    assert alice not in cookie
    with bridge(url, {"Cookie": cookie}, origin=own, client="boardwire-web") as ws:
        assert "result" in call(ws, 1, "session.documents")
    with pytest.raises(InvalidStatus):  # the raw key is no cookie
        connect(url.replace("http", "ws") + "/view/bridge", additional_headers={"Cookie": f"boardwire_view={alice}"},
                origin=own)


def test_a_key_check_reads_the_file_only_when_it_changed(tmp_path, monkeypatch):
    from boardwire.protocols.mcp.keys import KeyStore

    store = KeyStore(tmp_path)
    key = store.add("alice")
    reads = []
    real = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: reads.append(self) or real(self, *a, **k))
    for _ in range(100):
        assert store.lookup(key)[0] == "alice"
    assert len(reads) <= 1
    KeyStore(tmp_path).revoke("alice")  # another process's store: only the file changed
    assert store.lookup(key) is None
