"""Build versions: each design.build writes a folder ``OUT/NAME/vNNN/`` holding

* ``design.json``: the design document as built (canonical JSON);
* ``settings.json``: what made the build besides the design (the id seed, the stage
  to stop after, the boardwire version, the time stamped into fab files), everything
  design.rebuild needs;
* the KiCad project (``NAME.kicad_pro``, ``.kicad_sch``, ``.kicad_pcb``, library tables);
* ``build.json``: the stages with status, seconds and summaries;
* ``verdict.json`` and ``board.png``; ``fab/`` with fab.zip when the verdict is clean.

Numbers count up from 1; a folder is never reused.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path

SETTINGS_VERSION = 1


def next_version(root: Path, out: str, name: str) -> str:
    """The next free version folder (relative to ``root``): ``OUT/NAME/v001``..."""
    base = root / out / name
    taken = [int(m.group(1)) for p in (base.iterdir() if base.is_dir() else ())
             if (m := re.fullmatch(r"v(\d{3,})", p.name))]
    return f"{out.rstrip('/')}/{name}/v{max(taken, default=0) + 1:03d}"


def write_json(path: Path, data) -> None:
    path.write_text(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def read_json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def settings(seed: str, until: str | None, created: str) -> dict:
    """``created``: the first build's time (ISO 8601, UTC, seconds), stamped into the fab
    files of every rebuild too (fab.package's ``created``)."""
    from .. import __version__

    return {"settings_version": SETTINGS_VERSION, "uuid_seed": seed, "until": until, "boardwire": __version__,
            "created": created}


def now() -> str:
    """The time a build starts, as ``settings`` stores it."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


PROJECT_SUFFIXES = (".kicad_pro", ".kicad_sch", ".kicad_pcb")


def project_files(folder: Path) -> dict[str, bytes]:
    """What a rebuild reproduces byte for byte, by name relative to the version folder:
    the KiCad project files, library tables, design.json and the fab/ outputs."""
    files = {p.name: p.read_bytes() for p in sorted(folder.iterdir())
             if p.suffix in PROJECT_SUFFIXES or p.name in ("fp-lib-table", "sym-lib-table", "design.json")}
    fab = folder / "fab"
    if fab.is_dir():
        files.update({f"fab/{p.name}": p.read_bytes() for p in sorted(fab.iterdir()) if p.is_file()})
    return files
