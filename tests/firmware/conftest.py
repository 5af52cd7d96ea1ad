"""Firmware test fixtures: the bare-metal toolchain, the mock ROM bootloader (loopback
TCP and a pseudo-terminal), a hub socket per test, sessions closed after each test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from boardwire.firmware import devices
from boardwire.firmware import leases
from boardwire.firmware.monitor import session as monitors
from boardwire.firmware.toolchain import picolibc_specs
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import absent

INSTALL = "install them with .ci/install-firmware-tools.sh"


def need_module(name: str):
    try:
        return __import__(name)
    except ImportError:
        absent(f"the Python package {name} is not installed (pip install -e '.[test]')")


@pytest.fixture
def fw_tools():
    """Debian's RISC-V GCC, picolibc and make (the bare-metal ESP32-C3 template)."""
    if not shutil.which("riscv64-unknown-elf-gcc") or not shutil.which("make"):
        absent(f"riscv64-unknown-elf-gcc or make is missing: {INSTALL}")
    if picolibc_specs() is None:
        absent(f"picolibc-riscv64-unknown-elf is missing: {INSTALL}")
    need_module("esptool")


@pytest.fixture(autouse=True)
def _isolated(monkeypatch):
    """A hub socket of this test's own (a short path: Unix sockets allow ~108 bytes),
    and no monitor session or remembered board left for the next test."""
    folder = tempfile.mkdtemp(prefix="bwhub", dir="/tmp")
    monkeypatch.setenv("BOARDWIRE_FW_HUB", os.path.join(folder, "hub.sock"))
    yield
    for s in list(monitors.SESSIONS.values()):
        s.close()
        monitors.remove(s.id)
    client = leases._CLIENTS.pop(os.path.join(folder, "hub.sock"), None)
    if client is not None:
        client.close()
    devices._KNOWN.clear()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def mock_tcp():
    """The mock ROM bootloader (an ESP32-C3) on a free loopback TCP port: its URL."""
    need_module("esp32_mock_bootloader")
    from esp32_mock_bootloader import mock_bootloader

    with mock_bootloader(chip="esp32c3") as m:
        yield m.url()


@pytest.fixture
def mock_pty(tmp_path):
    """The mock ROM bootloader on a pseudo-terminal: its device path."""
    need_module("esp32_mock_bootloader")
    port_file = tmp_path / "mock.port"
    proc = subprocess.Popen([sys.executable, "-m", "esp32_mock_bootloader.cli", "run", "--pty",
                             "--port-file", str(port_file), "--chip", "esp32c3"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not (port_file.is_file() and port_file.read_text().strip()):
            assert proc.poll() is None, "the mock bootloader exited"
            assert time.monotonic() < deadline, "the mock bootloader did not start"
            time.sleep(0.05)
        yield port_file.read_text().strip()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def call(ctx: Context, command: str, args: dict) -> dict:
    return REGISTRY.call(command, args, ctx)


@pytest.fixture
def ws(tmp_path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


def context(root: Path, actor: str = "agent-a") -> Context:
    return Context(Session(root), actor=actor)
