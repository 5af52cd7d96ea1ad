"""``boardwire kicad install-plugin``: the reference extension as a KiCad 9 IPC plugin.

KiCad 9 loads IPC API plugins from folders holding a ``plugin.json`` (schema
``https://go.kicad.org/api/schemas/v1``: identifier, name, description, runtime,
actions with ``show-button``, ``scopes``, ``entrypoint``, icons) in its user plugin
folder, ``$XDG_DATA_HOME/kicad/9.0/plugins`` (``~/.local/share/kicad/9.0/plugins``) on
Linux. The action's toolbar button in the PCB editor runs ``entrypoint``; KiCad passes
its API socket and token in ``KICAD_API_SOCKET`` / ``KICAD_API_TOKEN``.

The entry point starts ``boardwire kicad attach`` (with the Python that installed the
plugin, so KiCad's own plugin environment needs nothing), detached: it serves the
bridge from the board's folder with the board attached, logging to
``.boardwire/bridge.log`` there.
"""

from __future__ import annotations

import json
import os
import struct
import sys
import zlib
from pathlib import Path

IDENTIFIER = "org.boardwire.bridge"


def plugins_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kicad" / "9.0" / "plugins"


def _png(size: int = 24) -> bytes:
    """A small square icon (a copper-coloured ring on transparent), as a PNG."""
    rows = []
    c, r_out, r_in = (size - 1) / 2, size / 2 - 1, size / 2 - 6
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            d = ((x - c) ** 2 + (y - c) ** 2) ** 0.5
            row += bytes((200, 117, 51, 255)) if r_in <= d <= r_out else bytes(4)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


ENTRYPOINT = '''"""boardwire: serve the board open in this PCB editor live (boardwire kicad attach)."""
import subprocess

subprocess.Popen([{python!r}, "-m", "boardwire.cli.main", "kicad", "attach", "--log"],
                 stdin=subprocess.DEVNULL, start_new_session=True)
'''


def manifest() -> dict:
    return {
        "$schema": "https://go.kicad.org/api/schemas/v1",
        "identifier": IDENTIFIER,
        "name": "boardwire bridge",
        "description": "Serve this board live to agents and scripts (boardwire bridge --attach)",
        "runtime": {"type": "python", "min_version": "3.11"},
        "actions": [{
            "identifier": f"{IDENTIFIER}.attach",
            "name": "boardwire: attach",
            "description": "Start the boardwire bridge on the board open here",
            "show-button": True,
            "scopes": ["pcb"],
            "entrypoint": "attach.py",
            "icons-light": ["icon.png"],
            "icons-dark": ["icon.png"],
        }],
    }


def install(target: str | Path | None = None, python: str | None = None) -> Path:
    """Write the plugin folder (replacing an older copy); returns its path."""
    folder = Path(target) if target else plugins_dir() / IDENTIFIER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "plugin.json").write_text(json.dumps(manifest(), indent=2) + "\n")
    (folder / "attach.py").write_text(ENTRYPOINT.format(python=python or sys.executable))
    (folder / "icon.png").write_bytes(_png())
    return folder
