"""The npm tools the MCP interoperability tests drive: Node 22, the official MCP
conformance suite and the MCP Inspector CLI, pinned by .ci/node/package-lock.json and
installed into .ci/node/node_modules by .ci/install-node-tools.sh (which .ci/run calls,
and the fixture below when they are missing).

Without npm the tests skip with the reason; under BOARDWIRE_REQUIRE_KICAD=1 (CI) that
is a failure, and so is an install that fails (no registry): never a silent skip."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.inputs import REPO, absent

INSTALL = REPO / ".ci" / "install-node-tools.sh"
BIN = REPO / ".ci" / "node" / "node_modules" / ".bin"
TOOLS = ("node", "conformance", "mcp-inspector")


@pytest.fixture(scope="session")
def node_bin() -> Path:
    """.ci/node/node_modules/.bin, installed or brought to the locked versions first."""
    if not all((BIN / t).exists() for t in TOOLS) and shutil.which("npm") is None:
        absent("npm is not installed (needed once for .ci/install-node-tools.sh)")
    with open(INSTALL.parent / "node" / ".install.lock", "w") as lock:  # pytest-xdist workers: one at a time
        fcntl.flock(lock, fcntl.LOCK_EX)
        r = subprocess.run([str(INSTALL)], capture_output=True, text=True, timeout=900)  # a no-op when current
    if r.returncode != 0:
        pytest.fail(f"{INSTALL.name} failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}", pytrace=False)
    return BIN


def node_env(node_bin: Path) -> dict:
    """The environment with node 22 first on PATH (the tools' `#!/usr/bin/env node`)."""
    return {**os.environ, "PATH": f"{node_bin}{os.pathsep}{os.environ.get('PATH', '')}"}
