"""The results of fw.* (see `boardwire.commands.results`): seconds, bytes."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..results import Row, Seconds, Typed


class Lease(Row):
    holder: str
    since: float = Field(description="Unix time")


class MonitorHolder(Row):
    session: str
    holder: str


class Device(Row):
    port: str
    vid: str = None
    pid: str = None
    serial_number: str = None
    description: str = None
    vendor: str = None
    board_id: str = Field(None, description="The MAC, once read")
    chip: str = None
    lease: Lease = None
    monitors: list[MonitorHolder] = None


class Devices(Typed):
    devices: list[Device]


class BoardInfo(Typed):
    port: str
    chip: str
    description: str
    features: list[str]
    crystal_mhz: float
    mac: str
    board_id: str = Field(description="The MAC")
    revision: str = None
    flash_size: str | None = None


class Boot(Row):
    boot: int = Field(description="Boot number (0: before the first seen)")
    seq: int = Field(description="Its first line")
    t: Seconds
    cause: str
    reason: str = None
    reset: str = Field(None, description="The reason's category")
    rom: str = None
    panic: str = None


class Written(Row):
    offset: str = Field(description="Hex")
    file: str
    bytes: int


class ImageSize(Row):
    image: str
    bytes: int
    limit: int = Field(None, description="Bytes of the app partition")
    free: int = None
    used_percent: float = None
    limit_from: str = None


class Diagnostic(Row):
    level: str = Field(description="error, warning, note")
    message: str
    file: str = None
    line: int = None
    column: int = None
    code: str = None
    rendered: str = None


class BuildBrief(Row):
    summary: str
    size: ImageSize = None
    diagnostics: list[Diagnostic] = None


class Flashed(Typed):
    chip: str
    written: list[Written]
    esptool: list[str] = Field(description="esptool's last lines")
    boot: Boot | None = Field(None, description="The boot that followed, null if none within 3 s")
    build: BuildBrief = None


class Erased(Typed):
    chip: str
    esptool: list[str]


class Reset(Typed):
    port: str
    reset: bool
    note: str = Field(None, description="Why not")
    boot: Boot | None = Field(None, description="The boot that followed, null if none within 3 s")


class SessionInfo(Row):
    session: str
    port: str
    holder: str
    lines: int = Field(description="Lines read so far")
    boots: int
    ended: bool
    recording: str = None


class MonitorInfo(Typed, SessionInfo):
    reset: bool = Field(None, description="The board was reset at the start")


class ResetLoop(Row):
    cause: str
    boots: int


class MonitorRead(Typed):
    session: str
    events: list[dict[str, Any]] = Field(description="Lines: seq, t, kind, text, level; repeats counted; panics decoded")
    text: str = Field(description="The events as text")
    next: int = Field(description="The cursor to read on from")
    boots: list[Boot]
    boot_summary: str
    ended: bool
    reset_loop: ResetLoop = None
    truncated: bool = None
    matched: dict[str, Any] = Field(None, description="The until pattern or the expectations matched")


class FlashBrief(Row):
    chip: str
    written: list[Written]


class Ran(MonitorRead):
    flash: FlashBrief
    build: BuildBrief = None


class MonitorWritten(Typed):
    session: str
    bytes: int


class Tool(Row):
    tool: str
    found: bool
    for_: str = Field(alias="for", description="What it is for")
    path: str = None
    version: str = None


class Doctor(Typed):
    tools: list[Tool]
    bare_metal_esp32c3: bool = Field(description="The bare-metal ESP32-C3 template builds here")


class Mcu(Row):
    reference: str
    value: str = None
    lib_id: str = None


class McuPin(Row):
    number: str
    name: str
    type: str
    gpio: int = None
    net: str = None
    power: bool = None
    on_net: list[str] = Field(None, description="What is on the net, one phrase per part")
    parts: list[str] = Field(None, description="REF.PIN of the other pins on the net")


class McuPins(Typed):
    schematic: str
    mcu: Mcu
    pins: list[McuPin]
    lines: list[str] = Field(description="One line per pin that is not power")


class FirmwareCreated(Typed):
    dir: str
    framework: str
    files: list[str] = Field(description="The first 50")
    bound: dict[str, str] = Field(description="port, id")


class FirmwareBuilt(Typed):
    ok: bool
    command: list[str]
    seconds: Seconds
    diagnostics: list[Diagnostic] = Field(description="The first 50")
    size: ImageSize = None
    elf: str = None
