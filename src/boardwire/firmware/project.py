"""A firmware project folder: its build system, its bound board and its artifacts.

The folder's ``boardwire.toml`` holds two tables (written by fw.new, editable by hand):

```toml
[firmware]
chip = "esp32c3"            # esptool's chip name
build = "make"              # idf | platformio | arduino | cargo | make (detected when absent)
command = ["make"]          # optional: the build command instead of the system's own
elf = "build/app.elf"       # make/command builds: the ELF (panics are decoded against it)
image = "build/app.bin"     #   the image to flash, at `offset`
offset = "0x0"
max_size = "48K"            # optional: the most the image may take (else the app partition)
partitions = "partitions.csv"  # optional: the partition table (CSV or binary)
kicad = "../hw/board.kicad_sch"  # optional: the board's schematic for fw.pins

[board]                     # the bound board: the one an agent may flash by default
port = "/dev/ttyUSB0"       # serial port or pyserial URL (socket://host:port)
id = "58:8c:81:53:ad:2c"    # board id (the chip's MAC, from fw.boardInfo)
baud = 460800
```

Build systems are detected as their own tools recognise their projects: ESP-IDF by a
``CMakeLists.txt`` that includes ``project.cmake``, PlatformIO by ``platformio.ini``,
Arduino by a ``.ino`` sketch named after its folder, cargo by ``Cargo.toml``, make by
a ``Makefile``.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InvalidArgs, NotFound
from .partitions import Partition, app_partition, parse_size, read_table

CONFIG = "boardwire.toml"
SYSTEMS = ("idf", "platformio", "arduino", "cargo", "make")


@dataclass
class Binding:
    """The board a project is bound to (any field may be empty)."""

    port: str | None = None
    id: str | None = None
    baud: int | None = None

    def to_dict(self) -> dict:
        return {k: v for k, v in (("port", self.port), ("id", self.id), ("baud", self.baud)) if v}


@dataclass
class Artifacts:
    """What a build produced: ``flash`` as (offset, file) pairs, the app image and its
    ELF, and the room the app has (bytes; None when unknown)."""

    flash: list[tuple[int, Path]] = field(default_factory=list)
    image: Path | None = None
    elf: Path | None = None
    limit: int | None = None
    limit_from: str | None = None


def read_toml(path: Path) -> dict:
    """A TOML file as a dict ({} when absent); raises InvalidArgs naming the file and
    TOML's message when it does not parse."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as e:
        raise InvalidArgs(f"{path.name}: {e}") from None


def detect_system(root: Path) -> str | None:
    cm = root / "CMakeLists.txt"
    if cm.is_file() and "project.cmake" in cm.read_text(errors="replace"):
        return "idf"
    if (root / "platformio.ini").is_file():
        return "platformio"
    if (root / f"{root.name}.ino").is_file():
        return "arduino"
    if (root / "Cargo.toml").is_file():
        return "cargo"
    if (root / "Makefile").is_file() or (root / "makefile").is_file():
        return "make"
    return None


@dataclass
class FirmwareProject:
    root: Path
    firmware: dict
    board: Binding
    system: str | None

    @classmethod
    def load(cls, root: Path) -> FirmwareProject:
        """The project in ``root``; raises NotFound when the folder does not exist."""
        if not root.is_dir():
            raise NotFound(f"no firmware project folder {root}", hint="Create one with fw.new.")
        cfg = read_toml(root / CONFIG)
        fw = cfg.get("firmware", {}) or {}
        b = cfg.get("board", {}) or {}
        system = fw.get("build") or detect_system(root)
        if system is not None and system not in SYSTEMS and "command" not in fw:
            raise InvalidArgs(f"{CONFIG}: [firmware] build = {system!r}; known: {', '.join(SYSTEMS)}")
        baud = b.get("baud")
        return cls(root, fw, Binding(b.get("port") or None, b.get("id") or None,
                                     int(baud) if baud else None), system)

    @property
    def chip(self) -> str | None:
        return self.firmware.get("chip")

    @property
    def configured(self) -> bool:
        return (self.root / CONFIG).is_file()

    def path(self, key: str) -> Path | None:
        v = self.firmware.get(key)
        return (self.root / v) if v else None

    def kicad(self) -> Path | None:
        return self.path("kicad")

    def artifacts(self) -> Artifacts:
        """The build's outputs as they are on disk now (files may not exist yet)."""
        out = Artifacts()
        if self.system == "idf":
            _idf_artifacts(self.root / "build", out)
        elif self.system == "arduino":
            base = self.root / "build" / f"{self.root.name}.ino"
            out.image, out.elf = Path(f"{base}.bin"), Path(f"{base}.elf")
            out.flash = [(0x10000, out.image)]
            parts = Path(f"{base}.partitions.bin")
            if parts.is_file():
                _limit_from_table(out, parts)
        elif self.system == "platformio":
            builds = sorted((self.root / ".pio" / "build").glob("*/firmware.elf"))
            if builds:
                out.elf = builds[0]
                out.image = builds[0].with_suffix(".bin")
                out.flash = [(0x10000, out.image)]
                parts = builds[0].parent / "partitions.bin"
                if parts.is_file():
                    _limit_from_table(out, parts)
        elif self.system == "cargo":
            elves = sorted(p for p in (self.root / "target").glob("*/release/*")
                           if p.is_file() and not p.suffix and _is_elf(p))
            if elves:
                out.elf = elves[0]
                out.image = elves[0].with_suffix(".bin")  # written by espflash save-image
        # explicit settings win over what the system implies
        if self.path("elf"):
            out.elf = self.path("elf")
        if self.path("image"):
            out.image = self.path("image")
            out.flash = [(parse_size(str(self.firmware.get("offset", "0x10000")), where="offset"), out.image)]
        if self.path("partitions"):
            _limit_from_table(out, self.path("partitions"))
        if self.firmware.get("max_size"):
            out.limit = parse_size(str(self.firmware["max_size"]), where="[firmware] max_size")
            out.limit_from = f"{CONFIG} [firmware] max_size"
        return out


def _is_elf(p: Path) -> bool:
    try:
        with open(p, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def _limit_from_table(out: Artifacts, table: Path) -> None:
    if not table.is_file():
        return
    app: Partition | None = app_partition(read_table(table))
    if app is not None:
        out.limit, out.limit_from = app.size, f"partition {app.name} of {table.name}"


def _idf_artifacts(build: Path, out: Artifacts) -> None:
    """ESP-IDF's build/flasher_args.json (the files and offsets ``idf.py flash`` writes)
    and build/project_description.json (the app ELF)."""
    args = build / "flasher_args.json"
    if args.is_file():
        data = json.loads(args.read_text())
        out.flash = sorted((int(off, 16), build / f) for off, f in data.get("flash_files", {}).items())
        app = data.get("app", {})
        if app.get("file"):
            out.image = build / app["file"]
    desc = build / "project_description.json"
    if desc.is_file():
        elf = json.loads(desc.read_text()).get("app_elf")
        if elf:
            out.elf = build / elf
    _limit_from_table(out, build / "partition_table" / "partition-table.bin")


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return json.dumps(str(v))  # a TOML basic string is a JSON string for these texts


def write_config(root: Path, firmware: dict, board: dict) -> Path:
    """Write ``boardwire.toml`` with the two tables (None values left out)."""
    lines = ["# boardwire firmware project (docs/firmware.md)", "[firmware]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in firmware.items() if v is not None]
    lines += ["", "[board]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in board.items() if v is not None]
    path = root / CONFIG
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
