"""Bearer keys for ``boardwire mcp --http``.

The keys file (``ROOT/.boardwire/mcp-keys.json``, mode 0600) stores, per key name,
only the SHA-256 digest of the key and the key's workspace directory. It is checked
again on every request (and every message of a live view's bridge connection): read
again whenever its stat changed, so a revoked key fails on its next call.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import time
from pathlib import Path

# Where KeyAuth leaves (key name, workspace) in the ASGI scope's state for the handlers.
SCOPE_KEY = "boardwire.key"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class KeyStore:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()
        self.file = self.root / ".boardwire" / "mcp-keys.json"
        self._cache: tuple[tuple, dict] | None = None  # (the file's stat, its entries)

    def _read(self) -> dict:
        """The file's entries (a copy): parsed again only when its stat (inode, size,
        modification and change times) differs from the last read's, so a check per
        request or per message costs one ``stat``."""
        try:
            st = self.file.stat()
        except FileNotFoundError:
            return {}
        except OSError:
            return {}  # unreadable: no key is valid (fail closed)
        stamp = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        cached = self._cache
        if cached is None or cached[0] != stamp:
            try:
                data = json.loads(self.file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return {}  # unreadable: no key is valid (fail closed)
            cached = self._cache = (stamp, data if isinstance(data, dict) else {})
        return dict(cached[1])

    def _write(self, data: dict) -> None:
        self.file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.file.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
        os.replace(tmp, self.file)

    def add(self, name: str, workspace: str | None = None) -> str:
        """Create key ``name`` and return it (the only time it is shown).

        Raises ValueError for a bad or taken name."""
        if not NAME.match(name):
            raise ValueError(f"key name {name!r}: use letters, digits, _ . - (up to 64)")
        data = self._read()
        if name in data:
            raise ValueError(f"a key named {name} exists; revoke it first")
        ws = Path(workspace).resolve() if workspace else self.root / "workspaces" / name
        ws.mkdir(parents=True, exist_ok=True)
        key = "bw_" + secrets.token_urlsafe(32)
        data[name] = {"sha256": digest(key), "workspace": str(ws), "created": time.time()}
        self._write(data)
        return key

    def list(self) -> list[dict]:
        return [{"name": n, "workspace": v["workspace"], "created": v["created"]} for n, v in self._read().items()]

    def revoke(self, name: str) -> bool:
        data = self._read()
        if data.pop(name, None) is None:
            return False
        self._write(data)
        return True

    def lookup(self, key: str) -> tuple[str, Path] | None:
        """(name, workspace) of a valid key, else None. Compared in constant time."""
        d = digest(key)
        for name, entry in self._read().items():
            if hmac.compare_digest(entry.get("sha256", ""), d):
                return name, Path(entry["workspace"])
        return None
