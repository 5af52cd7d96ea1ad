"""Fixtures of the live view's tests: a `boardwire view` (or `boardwire mcp --http`)
process on a copy of KiCad's ecc83 demo, Debian's chromium driven by Playwright, and an
MCP client (the official SDK over Streamable HTTP) running in a thread of its own."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.inputs import DEMOS, _missing, need

BOARD = "ecc83-pp.kicad_pcb"
SCHEMATIC = "ecc83-pp.kicad_sch"
CHROMIUM = os.environ.get("BOARDWIRE_CHROMIUM", "/usr/bin/chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def copy_demo(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("ecc83-pp.kicad_pcb", "ecc83-pp.kicad_sch", "ecc83-pp.kicad_pro", "ecc83-pp.kicad_sym",
                 "fp-lib-table", "sym-lib-table"):
        shutil.copy(need(DEMOS / "ecc83" / name), folder / name)
    return folder


@contextmanager
def running(args: list[str], cwd: Path):
    """``boardwire ARGS --port P`` until the port answers; yields the base URL."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "boardwire.cli.main", *args, "--port", str(port)], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()
                raise RuntimeError(f"boardwire {' '.join(args)} did not start: {proc.stderr.read().decode()[-2000:]}")
            time.sleep(0.1)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def view_server(tmp_path_factory, kicad_cli):
    """`boardwire view` with the demo board and schematic open: (base URL, folder)."""
    folder = copy_demo(tmp_path_factory.mktemp("view"))
    with running(["view", "--open", BOARD, "--open", SCHEMATIC], folder) as url:
        yield url, folder


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        _missing("Debian's chromium (.ci/install-chromium.sh)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    yield pg
    context.close()


class Agent:
    """An MCP client over Streamable HTTP in a thread of its own (so the browser and
    the agent act at the same time): ``call`` blocks, ``start`` returns a Future."""

    def __init__(self, url: str | None, key: str | None = None, stdio=None):
        """Over HTTP at ``url`` (with ``key``), or spawned on stdio (``stdio``: the
        SDK's StdioServerParameters)."""
        self.url, self.key, self.stdio = url, key, stdio

    def __enter__(self):
        from anyio.from_thread import start_blocking_portal

        self._portal_cm = start_blocking_portal()
        self.portal = self._portal_cm.__enter__()
        self.client = self.portal.wrap_async_context_manager(self._client())
        self.c = self.client.__enter__()
        return self

    def __exit__(self, *exc):
        self.client.__exit__(*exc)
        self._portal_cm.__exit__(*exc)

    @staticmethod
    def _headers(key):
        return {"Authorization": f"Bearer {key}"} if key else {}

    def _client(self):
        from contextlib import asynccontextmanager

        import httpx2
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        @asynccontextmanager
        async def cm():
            if self.stdio is not None:
                async with Client(self.stdio) as c:
                    yield c
                return
            async with httpx2.AsyncClient(headers=self._headers(self.key), timeout=120) as hc:
                async with Client(streamable_http_client(self.url + "/mcp", http_client=hc)) as c:
                    yield c
        return cm()

    def start(self, tool: str, args: dict):
        return self.portal.start_task_soon(self.c.call_tool, tool, args)

    def call(self, tool: str, args: dict) -> dict:
        r = self.portal.call(self.c.call_tool, tool, args)
        assert not r.is_error, r.structured_content
        return r.structured_content
