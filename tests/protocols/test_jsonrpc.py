"""`boardwire serve`: JSON-RPC 2.0 over stdio (LSP or newline-delimited JSON framing)
and over a Unix socket shared by many clients, on real demo boards."""

from __future__ import annotations

import json
import queue
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from boardwire.commands.common import Args
from boardwire.errors import ALL_CODES, EXIT_CODES
from boardwire.protocols.jsonrpc.codes import PROTOCOL_CODES, WIRE_CODES, markdown_table
from boardwire.protocols.jsonrpc.framing import FrameError, FrameReader
from boardwire.registry import REGISTRY, Registry, command
from tests.inputs import DEMOS, REPO, need

SERVE = [sys.executable, "-m", "boardwire.cli.main", "serve"]


# -- a small independent client ------------------------------------------------------

class Client:
    """Frames requests, parses replies in a thread; notifications are kept in ``notes``."""

    def __init__(self, read, write, framing: str = "ndjson"):
        self.framing = framing
        self._write = write
        self._in: queue.Queue = queue.Queue()
        self._replies: dict = {}
        self.notes: list[dict] = []
        self.raw = bytearray()  # everything received, to check the framing itself
        self._next_id = 0
        threading.Thread(target=self._pump, args=(read,), daemon=True).start()

    def _pump(self, read) -> None:
        buf = bytearray()
        while True:
            try:
                data = read(1 << 16)
            except OSError:
                data = b""
            if not data:
                self._in.put(None)
                return
            self.raw += data
            buf += data
            while True:
                if self.framing == "ndjson":
                    nl = buf.find(b"\n")
                    if nl < 0:
                        break
                    body, buf = bytes(buf[:nl]), buf[nl + 1:]
                else:
                    end = buf.find(b"\r\n\r\n")
                    if end < 0:
                        break
                    n = int(bytes(buf[:end]).split(b":")[1])
                    if len(buf) < end + 4 + n:
                        break
                    body, buf = bytes(buf[end + 4:end + 4 + n]), buf[end + 4 + n:]
                self._in.put(json.loads(body))

    def frame(self, body: bytes) -> bytes:
        if self.framing == "ndjson":
            return body + b"\n"
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send(self, msg) -> None:
        self._write(self.frame(msg if isinstance(msg, bytes) else json.dumps(msg).encode()))

    def request(self, method: str, params=None) -> int:
        self._next_id += 1
        msg = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self._next_id

    def next(self, timeout: float = 20):
        msg = self._in.get(timeout=timeout)
        if msg is None:
            raise EOFError("the server closed the stream")
        return msg

    def reply(self, id=None, timeout: float = 20):
        """The reply with ``id`` (or the next reply of any id, or a batch reply)."""
        deadline = time.time() + timeout
        while True:
            if id is not None and id in self._replies:
                return self._replies.pop(id)
            msg = self.next(max(0.01, deadline - time.time()))
            if isinstance(msg, dict) and "method" in msg and "id" not in msg:
                self.notes.append(msg)
            elif id is None or (isinstance(msg, dict) and msg.get("id") == id):
                return msg
            else:
                self._replies[msg.get("id") if isinstance(msg, dict) else None] = msg

    def call(self, method: str, params=None, timeout: float = 20) -> dict:
        return self.reply(self.request(method, params), timeout)

    def wait_note(self, pred, timeout: float = 20) -> dict:
        deadline = time.time() + timeout
        while True:
            for n in self.notes:
                if pred(n):
                    return n
            msg = self.next(max(0.01, deadline - time.time()))
            if isinstance(msg, dict) and "id" not in msg:
                self.notes.append(msg)
            else:
                self._replies[msg.get("id")] = msg


def changed(notes, **match) -> list[dict]:
    return [n["params"] for n in notes if n["method"] == "document.changed"
            and all(n["params"].get(k) == v for k, v in match.items())]


@pytest.fixture
def ws(tmp_path):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / "b.kicad_pcb")
    return tmp_path


@contextmanager
def stdio_server(ws, framing="ndjson", *args):
    err = tempfile.TemporaryFile()
    proc = subprocess.Popen([*SERVE, "--root", str(ws), *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=err, cwd=ws)

    def write(data: bytes) -> None:
        proc.stdin.write(data)
        proc.stdin.flush()

    client = Client(proc.stdout.read1, write, framing)
    client.proc = proc
    try:
        yield client
    finally:
        if proc.stdin and not proc.stdin.closed:
            proc.stdin.close()
        rc = proc.wait(30)
        err.seek(0)
        stderr = err.read().decode()
        assert rc == 0 and "Traceback" not in stderr, stderr


def short_dir() -> Path:
    """AF_UNIX paths are limited to ~107 bytes: pytest's tmp_path may be longer."""
    return Path(tempfile.mkdtemp(prefix="bw-", dir="/tmp"))


def connect(path: Path, framing="ndjson") -> Client:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(str(path))
    c = Client(s.recv, s.sendall, framing)
    c.sock = s
    return c


@contextmanager
def socket_server(ws, *args):
    path = short_dir() / "bw.sock"
    err = tempfile.TemporaryFile()
    proc = subprocess.Popen([*SERVE, "--socket", str(path), "--root", str(ws), *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err)
    deadline = time.time() + 30
    while not path.exists():
        assert proc.poll() is None and time.time() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield path, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        rc = proc.wait(30)
        err.seek(0)
        stderr = err.read().decode()
        assert rc == 0 and "Traceback" not in stderr, stderr
        assert proc.stdout.read() == b""  # diagnostics go to stderr only
        assert not path.exists()  # removed on the way out
        shutil.rmtree(path.parent, ignore_errors=True)


# -- stdio --------------------------------------------------------------------------

def test_ndjson_on_stdin_gets_one_reply_line(ws):
    r = subprocess.run(SERVE, input=b'{"jsonrpc":"2.0","id":1,"method":"session.documents"}\n',
                       capture_output=True, cwd=ws, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 1
    reply = json.loads(lines[0])
    assert reply["id"] == 1 and reply["result"]["documents"] == [] and reply["result"]["root"] == str(ws)


def test_only_frames_on_stdout(ws):
    """A stray print, or a child process writing to stdout, lands on stderr."""
    code = """if True:
        import dataclasses, os
        from boardwire.registry import REGISTRY
        from boardwire.protocols.jsonrpc import run
        c = REGISTRY.get("session.documents")
        def noisy(ctx, a):
            print("noise from print")
            os.system("echo noise from a child")
            return c.handler(ctx, a)
        REGISTRY._commands[c.id] = dataclasses.replace(c, handler=noisy)
        run()"""
    r = subprocess.run([sys.executable, "-c", code], input=b'{"jsonrpc":"2.0","id":1,"method":"session.documents"}',
                       capture_output=True, cwd=ws, timeout=60)
    assert json.loads(r.stdout)["result"]["documents"] == [] and len(r.stdout.splitlines()) == 1
    assert b"noise from print" in r.stderr and b"noise from a child" in r.stderr


def test_lsp_client_edits_and_hears_the_change(ws):
    with stdio_server(ws, "lsp") as c:
        hello = c.call("rpc.hello", {"name": "alice"})["result"]
        assert hello["actor"] == "alice" and hello["framing"] == "lsp"
        r = c.call("pcb.addVia", {"path": "b.kicad_pcb", "at": [10, 10]})["result"]
        assert r["revision"] == 1 and r["new_ids"] == [r["id"]]
        ev = changed(c.notes, reason="edit")
        assert len(ev) == 1 and ev[0]["actor"] == "alice" and ev[0]["new_ids"] == [r["id"]]
        assert ev[0]["revision"] == 1 and len(ev[0]["hash"]) == 64 and ev[0]["label"] == "pcb.addVia"
        assert changed(c.notes, reason="open")[0]["actor"] == "alice"
        assert c.call("session.undo", {"path": "b.kicad_pcb"})["result"]["revision"] == 0
        assert c.raw.startswith(b"Content-Length: ")  # replies in the client's framing


def test_a_batch_mixes_good_bad_and_notifications(ws):
    with stdio_server(ws) as c:
        c.send([
            {"jsonrpc": "2.0", "id": 1, "method": "session.open", "params": {"path": "b.kicad_pcb"}},
            {"jsonrpc": "2.0", "method": "pcb.addVia", "params": {"path": "b.kicad_pcb", "at": [5, 5]}},
            {"jsonrpc": "2.0", "id": 2, "method": "pcb.teleport", "params": {}},
            {"jsonrpc": "2.0", "id": 3, "method": "pcb.addVia", "params": {"path": "b.kicad_pcb", "at": "here"}},
            {"jsonrpc": "2.0", "id": 4, "method": "query.nets", "params": ["b.kicad_pcb"]},
            {"jsonrpc": "2.0", "id": "five", "method": "session.documents"},
            {"jsonrpc": "2.0", "method": "no.such.thing"},  # a notification: never answered
            {"foo": "boo"},
            1,
        ])
        replies = c.reply()
        assert isinstance(replies, list) and len(replies) == 7
        by_id = {r["id"]: r for r in replies if r["id"] is not None}
        assert by_id[1]["result"]["revision"] == 0
        assert by_id[2]["error"]["code"] == -32601 and by_id[2]["error"]["data"]["code"] == "unknown-command"
        bad = by_id[3]["error"]
        assert bad["code"] == -32602 and bad["data"]["errors"][0]["loc"] == "at" and bad["data"]["hint"]
        assert by_id[4]["error"]["code"] == -32602  # positional params
        docs = by_id["five"]["result"]["documents"]
        assert docs[0]["revision"] == 1  # the notification ran, in order, before this
        assert [r["error"]["code"] for r in replies if r["id"] is None] == [-32600, -32600]
        # an empty batch is one invalid request; a batch of notifications gets no reply
        c.send([])
        empty = c.reply()
        assert empty["id"] is None and empty["error"]["code"] == -32600
        c.send([{"jsonrpc": "2.0", "method": "session.documents"}, {"jsonrpc": "2.0", "method": "x.y"}])
        c.send({"jsonrpc": "2.0", "id": "after", "method": "session.documents"})
        assert c.reply()["id"] == "after"  # the next reply received is this one's


def test_malformed_input_is_always_answered(ws):
    for framing in ("ndjson", "lsp"):
        with stdio_server(ws, framing) as c:
            c.request("session.documents")  # fixes the framing
            c.reply(1)
            for bad in (b'{"jsonrpc": "2.0", "id": 7', b"\xff\xfe{}", b'{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":NaN}}',
                        b"[" * 100000 + b"]" * 100000):
                c.send(bad)
                r = c.reply()
                assert r["id"] is None and r["error"]["code"] == -32700, (framing, bad[:20], r)
                assert r["error"]["data"]["code"] == "invalid-json"
            for bad_request in ({"jsonrpc": "1.0", "id": 9, "method": "session.documents"},
                                {"jsonrpc": "2.0", "id": 9, "method": 5},
                                {"jsonrpc": "2.0", "id": 9, "method": "session.documents", "params": "x"}):
                c.send(bad_request)
                assert c.reply(9)["error"]["code"] == -32600
            c.send({"jsonrpc": "2.0", "id": [1], "method": "session.documents"})
            assert c.reply()["error"]["code"] == -32600
            assert "result" in c.call("session.documents")  # still serving


def test_frames_split_across_reads_are_reassembled(ws):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "session.open",
                       "params": {"path": "b.kicad_pcb"}}).encode()
    with stdio_server(ws, "lsp") as c:
        raw = c.frame(body)
        for piece in (raw[:7], raw[7:25], raw[25:40], raw[40:]):  # header split, body split
            c._write(piece)
            time.sleep(0.05)
        assert c.reply(1)["result"]["kind"] == "board"
    with stdio_server(ws, "ndjson") as c:
        raw = c.frame(body.replace(b'"id": 1', b'"id": 2'))
        c._write(raw[:10])
        time.sleep(0.1)
        c._write(raw[10:-1])
        time.sleep(0.1)
        c._write(raw[-1:])
        assert c.reply(2)["result"]["kind"] == "board"


@pytest.mark.parametrize("framing", ["lsp", "ndjson"])
def test_a_20_mb_frame(ws, framing):
    path = "x" * (20 * 1024 * 1024)
    with stdio_server(ws, framing) as c:
        start = time.time()
        c.send({"jsonrpc": "2.0", "id": 1, "method": "query.describe", "params": {"path": path}})
        r = c.reply(1, timeout=60)
        assert r["error"]["code"] == -32602 and r["error"]["data"]["errors"][0]["loc"] == "path"
        assert len(json.dumps(r)) < 2000  # the reply does not echo the input
        assert time.time() - start < 10
        assert "result" in c.call("session.documents")
        if framing == "lsp":  # over the limit: refused from the header, before the body comes
            c._write(b"Content-Length: 100000000\r\n\r\n{")
            e = c.reply()["error"]
            assert e["code"] == -32600 and e["data"]["code"] == "frame-too-large" and "100000000" in e["message"]


def test_frame_reader_reassembles_and_limits():
    lsp = b"Content-Length: 17\r\n\r\n" + b'{"jsonrpc":"2.0"}'
    fr = FrameReader(max_frame=100)
    out = []
    for byte in (b"\r\n" + lsp * 2):
        out += fr.feed(bytes([byte]))
    assert fr.mode == "lsp" and out == [b'{"jsonrpc":"2.0"}'] * 2
    # too large: reported once, skipped as it streams past, the next frame is read
    big = b"Content-Length: 500\r\n\r\n" + b"x" * 500
    out = fr.feed(big[:200]) + fr.feed(big[200:] + lsp)
    assert isinstance(out[0], FrameError) and out[0].code == "frame-too-large" and "500" in out[0].message
    assert out[1:] == [b'{"jsonrpc":"2.0"}']
    bad = fr.feed(b"Content-Type: x\r\n\r\n" + lsp)
    assert bad[0].code == "bad-frame" and bad[1:] == [b'{"jsonrpc":"2.0"}']
    assert fr.feed(b"Content-Length: 10\r\n\r\n{}") == [] and fr.eof()[0].code == "bad-frame"

    nd = FrameReader(max_frame=100)
    out = nd.feed(b"  {") + nd.feed(b'"a":1}\r\n\n[1]\n') + nd.feed(b"{" + b" " * 150) + nd.feed(b"}\n{}")
    assert nd.mode == "ndjson" and out[:2] == [b'{"a":1}', b"[1]"] and out[2].code == "frame-too-large"
    assert out[3:] == [] and nd.eof() == [b"{}"]  # the last line needs no newline

    junk = FrameReader()
    assert junk.feed(b"hello " * 2000)[0].fatal
    typed = FrameReader()  # a person typing a word: told at once, not at the end of the stream
    assert typed.feed(b"hello") == []
    said = typed.feed(b"\n")
    assert said[0].fatal and "not JSON" in said[0].message and "hello" in said[0].message


# -- the socket: many clients, one session --------------------------------------------

def test_socket_clients_share_one_session(ws):
    with socket_server(ws) as (path, proc):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        a, b = connect(path), connect(path, "lsp")
        assert a.call("rpc.hello", {"name": "alice"})["result"]["actor"] == "alice"
        assert b.call("rpc.hello")["result"]["actor"].startswith("client-")
        via = a.call("pcb.addVia", {"path": "b.kicad_pcb", "at": [10, 10]})["result"]
        for c in (a, b):
            ev = c.wait_note(lambda n: n["method"] == "document.changed" and n["params"]["reason"] == "edit")
            assert ev["params"]["actor"] == "alice" and ev["params"]["new_ids"] == [via["id"]]
        undo = b.call("session.undo", {"path": "b.kicad_pcb"})["result"]
        assert undo["revision"] == 0
        ev = a.wait_note(lambda n: n["method"] == "document.changed" and n["params"]["reason"] == "undo")
        assert ev["params"]["actor"] == b.call("rpc.hello")["result"]["actor"]
        a.sock.close()
        b.sock.close()


def test_a_client_that_leaves_mid_call_loses_nothing(tmp_path):
    shutil.copy(need(DEMOS / "video" / "video.kicad_pcb"), tmp_path)  # 5.8 MB: opening takes a while
    with socket_server(tmp_path) as (path, proc):
        a = connect(path)
        a.request("pcb.addVia", {"path": "video.kicad_pcb", "at": [10, 10]})
        a.sock.close()  # gone before the reply
        b = connect(path)
        docs = b.call("session.documents")["result"]["documents"]
        assert [(d["path"], d["revision"]) for d in docs] == [("video.kicad_pcb", 1)]
        vias = b.call("query.items", {"path": "video.kicad_pcb", "kind": ["via"], "bbox": [9.9, 9.9, 10.1, 10.1]})
        assert vias["result"]["total"] == 1
        edit = changed(b.notes, reason="edit")  # b heard of a's change, made by a
        assert edit and edit[0]["actor"] != b.call("rpc.hello")["result"]["actor"]
        assert proc.poll() is None
        b.sock.close()


def test_interleaved_edits_are_serialised_and_undo_takes_back_one(ws):
    n = 15
    with socket_server(ws) as (path, proc):
        clients = [connect(path) for _ in range(2)]
        results: dict[int, list] = {0: [], 1: []}

        def edit(k: int) -> None:
            c = clients[k]
            ids = [c.request("pcb.addVia", {"path": "b.kicad_pcb", "at": [10 + k * 20, 10 + i]})
                   for i in range(n)]  # pipelined: all sent before any reply is read
            results[k] = [c.reply(i)["result"] for i in ids]

        threads = [threading.Thread(target=edit, args=(k,)) for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        revisions = [r["revision"] for k in (0, 1) for r in results[k]]
        assert sorted(revisions) == list(range(1, 2 * n + 1))  # one step each, none lost or merged
        for k in (0, 1):  # each client's calls ran in the order it sent them
            assert [r["revision"] for r in results[k]] == sorted(r["revision"] for r in results[k])
        by_rev = {r["revision"]: r["id"] for k in (0, 1) for r in results[k]}
        c = clients[0]
        assert c.call("session.undo", {"path": "b.kicad_pcb"})["result"]["revision"] == 2 * n - 1
        items = c.call("query.items", {"path": "b.kicad_pcb", "kind": ["via"], "limit": 1000})["result"]
        ids = {i["id"] for i in items["items"]}
        assert by_rev[2 * n] not in ids and by_rev[2 * n - 1] in ids
        assert len(ids & set(by_rev.values())) == 2 * n - 1
        for c in clients:
            c.sock.close()


def test_socket_file_stale_removed_live_refused(ws):
    d = short_dir()
    path = d / "bw.sock"
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(path))  # a socket file nobody listens on, as a killed server leaves
    stale.close()
    try:
        with socket_server(ws) as (live, proc):
            r = subprocess.run([*SERVE, "--socket", str(live), "--root", str(ws)], capture_output=True,
                               text=True, timeout=60)
            assert r.returncode == EXIT_CODES["io-error"] and "another server is listening" in r.stderr
            assert r.stdout == ""
            assert "result" in connect(live).call("session.documents")  # the live one is untouched
        proc = subprocess.Popen([*SERVE, "--socket", str(path), "--root", str(ws)],
                                stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 30
        while True:  # the stale file is replaced by a live socket
            try:
                c = connect(path)
                break
            except OSError:
                assert time.time() < deadline and proc.poll() is None
                time.sleep(0.05)
        assert "result" in c.call("session.documents")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0 and not path.exists()
        (d / "plain").write_text("mine")
        r = subprocess.run([*SERVE, "--socket", str(d / "plain")], capture_output=True, text=True, timeout=60)
        assert r.returncode != 0 and "not a socket" in r.stderr and (d / "plain").read_text() == "mine"
    finally:
        shutil.rmtree(d, ignore_errors=True)


# -- cancellation ----------------------------------------------------------------------

TEST_REGISTRY = Registry()
RELEASE = threading.Event()


class Nothing(Args):
    pass


@command("test.block", kind="session", args=Nothing, long=True, registry=TEST_REGISTRY)
def _block(ctx, a):
    """Report progress, then wait until released or cancelled."""
    ctx.progress(0.5, "blocked")
    while not RELEASE.wait(0.01):
        ctx.cancel.check()
    return {"summary": "released"}


@command("test.echo", kind="session", args=Nothing, registry=TEST_REGISTRY)
def _echo(ctx, a):
    """Answer at once."""
    return {"summary": "echo", "actor": ctx.actor}


@contextmanager
def in_process_server(tmp_path, registry):
    """The server core in this process (so it can be given a registry), on a socket."""
    import asyncio

    from boardwire.protocols.jsonrpc import Server
    from boardwire.protocols.jsonrpc.transports import listen
    from boardwire.session import Session

    path = short_dir() / "bw.sock"
    ready = threading.Event()
    box = {}

    def run() -> None:
        async def main() -> None:
            box["loop"], box["stop"] = asyncio.get_running_loop(), asyncio.Event()
            server = Server(Session(tmp_path), registry=registry)
            await server.start()
            try:
                await listen(server, path, box["stop"], ready=ready.set)
            finally:
                await server.close()
        asyncio.run(main())

    t = threading.Thread(target=run, daemon=True)
    t.start()
    assert ready.wait(10)
    try:
        yield path
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        t.join(10)
        shutil.rmtree(path.parent, ignore_errors=True)


def test_cancel_a_queued_and_a_running_request(tmp_path):
    RELEASE.clear()
    with in_process_server(tmp_path, TEST_REGISTRY) as path:
        a, b = connect(path), connect(path)
        running = a.request("test.block")
        a.wait_note(lambda n: n["method"] == "command.progress" and n["params"]["id"] == running)
        queued = a.request("test.echo")
        other = b.request("test.echo")  # another client's call queues behind as well
        a.send({"jsonrpc": "2.0", "method": "$/cancel", "params": {"id": queued}})
        r = a.reply(queued, timeout=5)  # answered at once, while test.block still runs
        assert r["error"]["code"] == -32800 and r["error"]["data"]["code"] == "cancelled"
        assert a.call("$/cancel", {"id": running})["result"] == {"cancelled": True}
        r = a.reply(running, timeout=5)
        assert r["error"]["code"] == -32800
        assert b.reply(other)["result"]["summary"] == "echo"  # the queue moved on
        assert a.call("$/cancel", {"id": 999})["result"] == {"cancelled": False}
        assert not [n for n in b.notes if n["method"] == "command.progress"]  # progress: the caller only
        a.sock.close()
        b.sock.close()


@pytest.mark.kicad
def test_cancel_drc_over_stdio(kicad_cli, tmp_path):
    shutil.copy(need(DEMOS / "video" / "video.kicad_pcb"), tmp_path)  # DRC takes seconds here
    with stdio_server(tmp_path, "lsp") as c:
        drc = c.request("check.drc", {"path": "video.kicad_pcb"})
        edit = c.request("pcb.addVia", {"path": "video.kicad_pcb", "at": [10, 10]})
        c.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": edit}})
        assert c.reply(edit, timeout=5)["error"]["code"] == -32800  # queued: never ran
        c.wait_note(lambda n: n["method"] == "command.progress" and n["params"]["fraction"] >= 0.1,
                    timeout=60)
        start = time.time()
        c.send({"jsonrpc": "2.0", "method": "$/cancel", "params": {"id": drc}})
        r = c.reply(drc, timeout=30)
        assert r["error"]["code"] == -32800 and time.time() - start < 10
        progress = [n["params"] for n in c.notes if n["method"] == "command.progress"]
        assert progress and all(p["id"] == drc for p in progress)
        docs = c.call("session.documents")["result"]["documents"]
        assert docs[0]["revision"] == 0  # the cancelled edit never ran


# -- methods, codes, options -----------------------------------------------------------

def test_every_command_is_a_method_listed_by_discover(ws):
    with stdio_server(ws) as c:
        d = c.call("rpc.discover")["result"]
        methods = {m["name"]: m for m in d["methods"]}
        for cmd in REGISTRY.all():
            assert methods[cmd.id]["params"] == cmd.input_schema(), cmd.id
            assert methods[cmd.id]["kind"] == cmd.kind
        assert {"rpc.discover", "rpc.hello", "$/cancel"} <= set(methods)
        assert {n["name"] for n in d["notifications"]} == {"document.changed", "command.progress", "session.log",
                                                                "agent.chatEvent"}
        assert len(json.dumps(d)) < 200_000  # compact
        ids = [c.id for c in REGISTRY.all()]
        c.send([{"jsonrpc": "2.0", "id": i, "method": m, "params": {"no_such_argument": 1}}
                for i, m in enumerate(ids)])
        replies = c.reply()
        assert len(replies) == len(ids)
        assert all(r.get("error", {}).get("code") != -32601 for r in replies)  # each one is a method


def test_error_codes_are_a_fixed_table(ws):
    assert set(EXIT_CODES) | set(ALL_CODES) <= set(WIRE_CODES), "give the new error its rpc_code (errors.py) and docs/jsonrpc.md a row"
    numbers = list(WIRE_CODES.values())
    assert len(set(numbers)) == len(numbers)
    assert all(-32099 <= n <= -32001 for c, n in WIRE_CODES.items()
               if c not in ("unknown-command", "invalid-args", "internal", "cancelled"))
    assert not set(PROTOCOL_CODES) & set(WIRE_CODES)
    assert markdown_table() in (REPO / "docs" / "jsonrpc.md").read_text(), "docs/jsonrpc.md is stale"
    with stdio_server(ws) as c:
        e = c.call("query.describe", {"path": "../b.kicad_pcb"})["error"]
        assert e["code"] == WIRE_CODES["path-outside-workspace"] and e["data"]["code"] == "path-outside-workspace"
        assert e["data"]["hint"] and e["message"]
        e = c.call("query.describe", {"path": "missing.kicad_pcb"})["error"]
        assert e["code"] == -32001 and e["data"]["code"] == "no-document"
        e = c.call("session.undo", {"path": "b.kicad_pcb"})["error"]
        assert e["data"]["code"] == "nothing-to-undo" and e["code"] == WIRE_CODES["nothing-to-undo"]


def test_open_and_auto_save(ws):
    before = (ws / "b.kicad_pcb").read_bytes()
    with stdio_server(ws, "ndjson", "--open", "b.kicad_pcb", "--auto-save") as c:
        docs = c.call("session.documents")["result"]["documents"]
        assert [d["path"] for d in docs] == ["b.kicad_pcb"]
        r = c.call("pcb.addVia", {"path": "b.kicad_pcb", "at": [10, 10]})["result"]
        assert r["saved"] == ["b.kicad_pcb"]
        assert r["id"].encode() in (ws / "b.kicad_pcb").read_bytes() != before
        log = c.wait_note(lambda n: n["method"] == "session.log")
        assert "saved b.kicad_pcb" in log["params"]["message"] and log["params"]["level"] == "info"
        assert changed(c.notes, reason="save")


def test_bad_start_exits_with_the_code(ws):
    r = subprocess.run([*SERVE, "--open", "missing.kicad_pcb"], input=b"", capture_output=True,
                       cwd=ws, timeout=60)
    assert r.returncode == EXIT_CODES["no-document"] and b"no-document" in r.stderr and r.stdout == b""


def test_the_server_is_imported_only_when_serving():
    code = "import sys, boardwire.cli.main; print(any(m.startswith('boardwire.protocols') for m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "False", r.stderr
