"""``boardwire mcp install``: register boardwire with an MCP client.

Clients with a CLI that owns its config (Claude Code, Codex): their own ``mcp add``
is run when the client is on PATH, else the command is printed to run. For the
others our entry is merged into their JSON config: every other server and key kept,
an existing boardwire entry updated in place (its env, disabled flag and other keys
kept), non-ASCII text kept as written, a symlinked config written through (the link
stays a link), the file replaced atomically with its permissions. A config that is
not plain JSON (comments, trailing commas) is refused, never overwritten, and the
entry to paste is shown instead.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

NAME = "boardwire"
# The server's name in the MCP registry (server.json at the repository's root; the
# README carries the matching ``mcp-name`` line PyPI ownership is checked by).
REGISTRY_NAME = "io.github.boardwire/boardwire"
VIA = ("local", "uvx")


def _server(root: str, via: str = "local") -> tuple[str, list[str]]:
    """The command a client runs. ``local``: this very installation, the ``boardwire``
    script beside the running interpreter (a venv need not be activated), else
    ``python -m``. ``uvx``: the PyPI package of this version, as the registry entry
    runs it (``uvx --from boardwire==VERSION boardwire mcp``); nothing need be installed."""
    if via == "uvx":
        from ... import __version__

        return "uvx", ["--from", f"boardwire=={__version__}", "boardwire", "mcp", "--root", str(Path(root).resolve())]
    exe = shutil.which("boardwire", path=os.path.dirname(sys.executable))
    base = [exe] if exe else [sys.executable, "-m", "boardwire.cli.main"]
    return base[0], [*base[1:], "mcp", "--root", str(Path(root).resolve())]


def _config_path(client: str, root: str) -> Path:
    home = Path.home()
    if client == "cursor":
        return home / ".cursor" / "mcp.json"
    if client == "vscode":  # a workspace setting: the folder boardwire serves
        return Path(root) / ".vscode" / "mcp.json"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if os.name == "nt":
        return Path(os.environ.get("APPDATA", home)) / "Claude" / "claude_desktop_config.json"
    return home / ".config" / "Claude" / "claude_desktop_config.json"


class NotPlainJson(ValueError):
    """A config we cannot rewrite without losing what is in it (comments, trailing commas)."""


def _read(path: Path) -> dict:
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text or "{}")
    except ValueError as e:
        raise NotPlainJson(f"{path} is not plain JSON ({e}); comments and trailing commas would be lost, "
                           "so it is left as it is") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a JSON object")
    return data


def _merge(data: dict, path: Path, section: str, entry: dict) -> dict:
    servers = data.setdefault(section, {})
    if not isinstance(servers, dict):
        raise ValueError(f"{path}: {section!r} is not an object")
    old = servers.get(NAME)
    servers[NAME] = {**old, **entry} if isinstance(old, dict) else entry
    return data


def _write(path: Path, data: dict) -> Path:
    """Replace the file ``path`` points to (through symlinks) atomically; the target."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o600
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
    os.chmod(tmp, mode)
    os.replace(tmp, target)
    return target


def _client_add(client: str, command: str, args: list[str], print_only: bool) -> str:
    """Run ``claude mcp add`` / ``codex mcp add`` (the client owns its config)."""
    cli = "claude" if client == "claude-code" else "codex"
    argv = [cli, "mcp", "add", NAME, "--", command, *args]
    found = shutil.which(cli)
    if print_only or found is None:
        why = "" if print_only else f"{cli} is not on PATH; "
        return f"{why}run this:\n{shlex.join(argv)}"
    r = subprocess.run([found, *argv[1:]], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise ValueError(f"{shlex.join(argv)} failed ({r.returncode}): {(r.stderr or r.stdout).strip()[-500:]}")
    return f"ran: {shlex.join(argv)}" + (f"\n{r.stdout.strip()}" if r.stdout.strip() else "")


def install(client: str, *, root: str = ".", print_only: bool = False, config: str | None = None,
            via: str = "local") -> str:
    """Register boardwire with ``client``, started as ``via`` says (`VIA`, see
    `_server`); returns what was done (or would be).

    Raises ValueError for an unknown client or ``via``, a config that is not a JSON
    object, or a client CLI that fails; NotPlainJson (a ValueError) for a config with
    comments, its message giving the entry to add by hand."""
    if via not in VIA:
        raise ValueError(f"unknown --via {via!r}; use {' or '.join(VIA)}")
    command, args = _server(root, via)
    if client in ("claude-code", "codex"):
        return _client_add(client, command, args, print_only)
    if client not in ("cursor", "vscode", "claude-desktop"):
        raise ValueError(f"unknown client {client!r}; use claude-code, codex, cursor, vscode or claude-desktop")
    path = Path(config) if config else _config_path(client, root)
    section, entry = (("servers", {"type": "stdio", "command": command, "args": args}) if client == "vscode"
                      else ("mcpServers", {"command": command, "args": args}))
    try:
        data = _merge(_read(path), path, section, entry)
    except NotPlainJson as e:
        snippet = json.dumps({section: {NAME: entry}}, indent=2, ensure_ascii=False)
        raise NotPlainJson(f"{e}. Add this under {section!r} by hand:\n{snippet}") from None
    text = json.dumps(data, indent=2, ensure_ascii=False)
    if print_only:
        return f"# would write {path}\n{text}"
    target = _write(path, data)
    return f"wrote {path}" + (f" (through the link, to {target})" if path.is_symlink() else "")
