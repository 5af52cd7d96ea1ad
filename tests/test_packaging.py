"""The package as users get it (issue 38, item 4): the MCP registry entry (server.json)
agrees with the package, and the two ways registries and READMEs tell people to run a
Python server work from a checkout on a clean cache: ``uvx --from . boardwire mcp``
answers an MCP client, ``pipx install .`` gives a working ``boardwire``; ``boardwire mcp
install --via uvx`` writes the entry that runs the registry's package.

Both installs fetch the dependencies from the package index (the network CI has) into
throwaway folders; uv and pipx come with the test extra."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import boardwire
from boardwire.protocols.mcp.install import REGISTRY_NAME, install

ROOT = Path(__file__).resolve().parent.parent
SERVER = json.loads((ROOT / "server.json").read_text())


def _tool(name: str) -> str:
    """uv / pipx: beside this interpreter (the test extra installs them), else on PATH."""
    found = shutil.which(name, path=os.path.dirname(sys.executable)) or shutil.which(name)
    assert found, f"{name} is missing: pip install -e '.[test]' installs it"
    return found


def test_server_json_names_this_package_and_version():
    """What the registry checks before it publishes (modelcontextprotocol.io/registry,
    package types and official registry requirements): a reverse-DNS name with one slash
    whose GitHub namespace the README's ``mcp-name`` line claims, a description of at
    most 100 characters, exact versions equal to the package's, a PyPI package named
    as the project, run over stdio with the ``mcp`` subcommand."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert SERVER["$schema"].startswith("https://static.modelcontextprotocol.io/schemas/")
    assert SERVER["name"] == REGISTRY_NAME
    assert re.fullmatch(r"io\.github\.[A-Za-z0-9-]+/[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]", SERVER["name"])
    assert 0 < len(SERVER["description"]) <= 100
    assert SERVER["version"] == boardwire.__version__
    (pkg,) = SERVER["packages"]
    assert pkg["registryType"] == "pypi" and pkg["identifier"] == project["name"]
    assert pkg["version"] == boardwire.__version__ and pkg["transport"] == {"type": "stdio"}
    assert pkg["runtimeHint"] == "uvx"
    assert [a["value"] for a in pkg["packageArguments"] if a["type"] == "positional"] == ["mcp"]
    assert project["scripts"]["boardwire"] == "boardwire.cli.main:main"
    assert f"mcp-name: {REGISTRY_NAME}" in (ROOT / "README.md").read_text()


def test_install_via_uvx_writes_the_registry_package_entry(tmp_path):
    cfg = tmp_path / "mcp.json"
    install("cursor", root=str(tmp_path), config=str(cfg), via="uvx")
    entry = json.loads(cfg.read_text())["mcpServers"]["boardwire"]
    assert entry == {"command": "uvx", "args": ["--from", f"boardwire=={boardwire.__version__}", "boardwire",
                                                "mcp", "--root", str(tmp_path.resolve())]}
    with pytest.raises(ValueError, match="--via"):
        install("cursor", root=str(tmp_path), config=str(cfg), via="docker")


def _mcp_tools(command: list[str], env: dict, cwd: Path) -> list[str]:
    """The tool names an MCP client (the official SDK's, over stdio) lists from ``command``."""
    script = (
        "import asyncio, sys, json\n"
        "from mcp import ClientSession, StdioServerParameters\n"
        "from mcp.client.stdio import stdio_client\n"
        "async def main():\n"
        "    p = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:], env=dict(__import__('os').environ))\n"
        "    async with stdio_client(p) as (r, w):\n"
        "        async with ClientSession(r, w) as s:\n"
        "            await s.initialize()\n"
        "            print(json.dumps([t.name for t in (await s.list_tools()).tools]))\n"
        "asyncio.run(main())\n")
    r = subprocess.run([sys.executable, "-c", script, *command], env=env, cwd=cwd, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def _clean_env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHONPATH", "VIRTUAL_ENV", "BOARDWIRE_"))}
    env.update(HOME=str(tmp_path / "home"), UV_CACHE_DIR=str(tmp_path / "uv-cache"),
               UV_TOOL_DIR=str(tmp_path / "uv-tools"), PIPX_HOME=str(tmp_path / "pipx"),
               PIPX_BIN_DIR=str(tmp_path / "bin"))
    return env


def _checkout(tmp_path: Path) -> Path:
    """The tracked files of this checkout (what a clone has: no build folders, no
    compiled extensions), so the installs build the package from source."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    dest = tmp_path / "checkout"
    for name in filter(None, files.decode().split("\0")):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


@pytest.mark.heavy(minutes=0.5)
def test_uvx_from_a_checkout_serves_mcp(tmp_path):
    env = _clean_env(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    tools = _mcp_tools([_tool("uvx"), "--from", str(_checkout(tmp_path)), "boardwire", "mcp"], env, work)
    assert {"session_open", "check_drc", "pcb_autoroute"} <= set(tools)


@pytest.mark.heavy(minutes=0.5)
def test_pipx_install_gives_a_working_boardwire(tmp_path):
    env = _clean_env(tmp_path)
    r = subprocess.run([_tool("pipx"), "install", str(_checkout(tmp_path))], env=env, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    exe = tmp_path / "bin" / "boardwire"
    out = subprocess.run([str(exe), "--version"], env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == f"boardwire {boardwire.__version__}"
    info = subprocess.run([str(exe), "info", "example", "--json"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert info.returncode == 0 and json.loads(info.stdout)["footprints"] > 0, info.stderr[-2000:]
    work = tmp_path / "work"
    work.mkdir()
    assert "session_open" in _mcp_tools([str(exe), "mcp"], env, work)
