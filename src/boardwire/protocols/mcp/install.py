"""``boardwire mcp install``: register boardwire with an MCP client.

Clients with a CLI that owns its config (Claude Code, Codex) get the command to run;
for the others our entry is merged into their JSON config, every other key kept, the
file written atomically with its permissions. A config that is not valid JSON is
refused, never overwritten.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

NAME = "boardwire"


def _server(root: str) -> tuple[str, list[str]]:
    """The command that starts this very installation: the ``boardwire`` script beside
    the running interpreter (a venv need not be activated), else ``python -m``."""
    exe = shutil.which("boardwire", path=os.path.dirname(sys.executable))
    base = [exe] if exe else [sys.executable, "-m", "boardwire.cli.main"]
    return base[0], [*base[1:], "mcp", "--root", str(Path(root).resolve())]


def _config_path(client: str) -> Path:
    home = Path.home()
    if client == "cursor":
        return home / ".cursor" / "mcp.json"
    if client == "vscode":
        return Path.cwd() / ".vscode" / "mcp.json"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if os.name == "nt":
        return Path(os.environ.get("APPDATA", home)) / "Claude" / "claude_desktop_config.json"
    return home / ".config" / "Claude" / "claude_desktop_config.json"


def _merge(path: Path, section: str, entry: dict) -> dict:
    data: dict = {}
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8") or "{}")
        except ValueError as e:
            raise ValueError(f"{path} is not valid JSON ({e}); fix it or pass --print") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path} does not hold a JSON object")
    servers = data.setdefault(section, {})
    if not isinstance(servers, dict):
        raise ValueError(f"{path}: {section!r} is not an object")
    servers[NAME] = entry
    return data


def _write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o600
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def install(client: str, *, root: str = ".", print_only: bool = False, config: str | None = None) -> str:
    """Register boardwire with ``client``; returns what was done (or would be).

    Raises ValueError for an unknown client or an unreadable config."""
    command, args = _server(root)
    if client in ("claude-code", "codex"):
        cli = "claude" if client == "claude-code" else "codex"
        return shlex.join([cli, "mcp", "add", NAME, "--", command, *args])
    if client not in ("cursor", "vscode", "claude-desktop"):
        raise ValueError(f"unknown client {client!r}; use claude-code, codex, cursor, vscode or claude-desktop")
    path = Path(config) if config else _config_path(client)
    if client == "vscode":
        data = _merge(path, "servers", {"type": "stdio", "command": command, "args": args})
    else:
        data = _merge(path, "mcpServers", {"command": command, "args": args})
    text = json.dumps(data, indent=2)
    if print_only:
        return f"# would write {path}\n{text}"
    _write(path, data)
    return f"wrote {path}"
