"""MCP Tasks (the ``io.modelcontextprotocol/tasks`` extension of MCP 2026-07-28): a
client written against the extension's schema, on the raw wire (the SDK has no
client for it), over stdio and Streamable HTTP: a long tool started as a task,
polled to its result; a slow one cancelled; another caller refused."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2
import pytest

from tests.inputs import DEMOS, need
from tests.protocols.test_mcp import BOARD, _kicad_children, http_server  # noqa: F401 - a fixture

EXT = "io.modelcontextprotocol/tasks"
VERSION = "2026-07-28"
TERMINAL = ("completed", "failed", "cancelled")
# Every Task carries these (the extension's `Task`: taskId, status, createdAt,
# lastUpdatedAt, ttlMs; pollIntervalMs optional, but the client honours it).
TASK_FIELDS = {"taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"}


def _meta(declare: bool) -> dict:
    return {"io.modelcontextprotocol/protocolVersion": VERSION,
            "io.modelcontextprotocol/clientInfo": {"name": "tasks-test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {"extensions": {EXT: {}} if declare else {}}}


class Wire:
    """A 2026-07-28 client: each request carries its version, client info and
    capabilities in ``_meta``; answers the JSON-RPC response (result or error)."""

    ids = iter(range(1, 10**6))
    notes: list[dict]  # the notifications that came before each answer, newest request's


    def request(self, method: str, params: dict, declare: bool = True) -> dict:
        message = {"jsonrpc": "2.0", "id": next(self.ids), "method": method,
                   "params": {**params, "_meta": _meta(declare)}}
        return self.send(message)

    def call(self, tool: str, arguments: dict, declare: bool = True) -> dict:
        return self.request("tools/call", {"name": tool, "arguments": arguments}, declare)

    def poll(self, task_id: str, timeout: float = 120) -> dict:
        """tasks/get every pollIntervalMs until the task ends."""
        deadline = time.monotonic() + timeout
        while True:
            task = self.request("tasks/get", {"taskId": task_id})["result"]
            assert TASK_FIELDS <= set(task) and task["resultType"] == "complete", task
            if task["status"] in TERMINAL or time.monotonic() > deadline:
                return task
            time.sleep(task["pollIntervalMs"] / 1000)


class StdioWire(Wire):
    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", "mcp"], cwd=cwd, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.lines: queue.Queue[str] = queue.Queue()  # stdout lines, read by a thread
        threading.Thread(target=lambda: [self.lines.put(line) for line in self.proc.stdout], daemon=True).start()

    def send(self, message: dict) -> dict:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        self.notes = []
        while True:
            answer = json.loads(self.lines.get(timeout=120))
            if answer.get("id") == message["id"]:
                return answer
            if "method" in answer:
                self.notes.append(answer)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


class HttpWire(Wire):
    """Streamable HTTP: one POST per request, with the routing headers the
    extension asks for (Mcp-Name: the tool, or the taskId of a tasks/* request)."""

    def __init__(self, url: str, key: str) -> None:
        self.url, self.key = url, key

    def send(self, message: dict) -> dict:
        params = message["params"]
        headers = {"Authorization": f"Bearer {self.key}", "Accept": "application/json, text/event-stream",
                   "Content-Type": "application/json", "Mcp-Protocol-Version": VERSION,
                   "Mcp-Method": message["method"]}
        name = params.get("taskId") or params.get("name")
        if name:
            headers["Mcp-Name"] = name
        r = httpx2.post(self.url, json=message, headers=headers, timeout=120)
        self.notes = []
        if r.headers.get("content-type", "").startswith("text/event-stream"):
            for line in r.text.splitlines():
                if line.startswith("data:") and line[5:].strip():
                    answer = json.loads(line[5:])
                    if answer.get("id") == message["id"]:
                        return answer
                    if "method" in answer:
                        self.notes.append(answer)
            raise AssertionError(r.text)
        return r.json()


def _start(wire: Wire, tool: str, arguments: dict) -> dict:
    """tools/call answered at once with a CreateTaskResult."""
    t0 = time.monotonic()
    task = wire.call(tool, arguments)["result"]
    assert task["resultType"] == "task" and task["status"] == "working", task
    assert TASK_FIELDS <= set(task) and task["pollIntervalMs"] > 0
    assert len(task["taskId"]) >= 32  # secrets.token_urlsafe: not a guessable counter
    assert time.monotonic() - t0 < 10
    return task


def _not_found(answer: dict) -> dict:
    assert answer.get("error", {}).get("code") == -32602, answer
    return answer["error"]


def _complete_and_refuse(wire: Wire, other: Wire) -> None:
    """DRC as a task equals the direct call; ``other`` (another caller) cannot see it."""
    direct = wire.call("check_drc", {"path": BOARD}, declare=False)["result"]
    assert direct.get("resultType") != "task" and "taskId" not in direct  # not declared: today's answer
    task = _start(wire, "check_drc", {"path": BOARD})
    made_up = _not_found(other.request("tasks/get", {"taskId": "x" * len(task["taskId"])}))
    assert _not_found(other.request("tasks/get", {"taskId": task["taskId"]})) == made_up
    assert _not_found(other.request("tasks/cancel", {"taskId": task["taskId"]})) == made_up
    no_cap = wire.request("tasks/get", {"taskId": task["taskId"]}, declare=False)["error"]
    assert no_cap["code"] == -32021 and EXT in no_cap["data"]["requiredCapabilities"]["extensions"]
    no_cap = wire.request("subscriptions/listen", {"notifications": {"taskIds": [task["taskId"]]}}, declare=False)
    assert no_cap["error"]["code"] == -32021
    # another caller's listen: its acknowledgement leaves the task out, and nothing comes
    other.request("subscriptions/listen", {"notifications": {"taskIds": [task["taskId"]]}})
    assert [n["method"] for n in other.notes] == ["notifications/subscriptions/acknowledged"]
    assert not other.notes[0]["params"]["notifications"].get("taskIds")
    # notifications/tasks until the task ends (the stream then ends)
    wire.request("subscriptions/listen", {"notifications": {"taskIds": [task["taskId"], "made-up"]}})
    ack, *notes = wire.notes
    assert ack["params"]["notifications"]["taskIds"] == [task["taskId"]]
    assert notes and all(n["method"] == "notifications/tasks" and TASK_FIELDS <= set(n["params"]) for n in notes)
    assert notes[-1]["params"]["status"] == "completed"
    assert notes[-1]["params"]["result"]["structuredContent"] == direct["structuredContent"]
    done = wire.poll(task["taskId"])
    assert done["status"] == "completed", done
    assert done["result"]["structuredContent"] == direct["structuredContent"]
    assert done["result"]["isError"] is False and "DRC" in done["statusMessage"]


def _cancel(wire: Wire, server_cwd: Path) -> None:
    """A slow DRC cancelled: status cancelled, its kicad-cli gone."""
    task = _start(wire, "check_drc", {"path": "video.kicad_pcb"})
    deadline = time.monotonic() + 60
    while not _kicad_children(server_cwd):
        assert time.monotonic() < deadline, "kicad-cli never started"
        time.sleep(0.05)
    assert wire.request("tasks/get", {"taskId": task["taskId"]})["result"]["status"] == "working"
    ack = wire.request("tasks/cancel", {"taskId": task["taskId"]})["result"]
    assert ack["resultType"] == "complete"
    assert wire.poll(task["taskId"], timeout=30)["status"] == "cancelled"
    deadline = time.monotonic() + 10
    while _kicad_children(server_cwd):
        assert time.monotonic() < deadline, "kicad-cli still running after tasks/cancel"
        time.sleep(0.05)


@pytest.mark.kicad
def test_tasks_over_stdio(tmp_path, kicad_cli):
    shutil.copy(need(DEMOS / "ecc83" / "ecc83-pp.kicad_pcb"), tmp_path / BOARD)
    shutil.copy(need(DEMOS / "video" / "video.kicad_pcb"), tmp_path / "video.kicad_pcb")
    os.mkdir(tmp_path / "other")
    wire, other = StdioWire(tmp_path), StdioWire(tmp_path / "other")
    try:
        _complete_and_refuse(wire, other)
        _cancel(wire, tmp_path)
    finally:
        wire.close()
        other.close()


@pytest.mark.kicad
def test_tasks_over_http(http_server, kicad_cli):  # noqa: F811 - the fixture
    url, keys, root = http_server
    shutil.copy(need(DEMOS / "video" / "video.kicad_pcb"), root / "workspaces" / "alice" / "video.kicad_pcb")
    alice, bob = HttpWire(url, keys["alice"]), HttpWire(url, keys["bob"])
    _complete_and_refuse(alice, bob)
    _cancel(alice, root)
