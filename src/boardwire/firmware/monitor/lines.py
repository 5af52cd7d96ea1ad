"""What a line of an ESP32's serial output is, as ESP-IDF and the ROM print them.

* The ROM's first lines after a reset: a banner (``ets Jun  8 2016 00:22:57`` on
  ESP32, ``ESP-ROM:esp32c3-api1-20210207`` on later chips) and
  ``rst:0xN (REASON),boot:0xM (MODE)`` (reasons are the ROM's ``RESET_REASON`` enum,
  ``components/esp_rom/include/<chip>/rom/rtc.h``, printed by name).
* ESP-IDF log lines ``L (MS) TAG: TEXT`` with L one of E W I D V
  (``components/log``), often wrapped in ANSI colours.
* The panic handler (``docs/en/api-guides/fatal-errors.rst``): ``Guru Meditation
  Error: Core N panic'ed (REASON).``, a register dump (``Core N register dump:``,
  ``MEPC : 0x...`` on RISC-V, ``PC : 0x...`` on Xtensa), ``Backtrace: PC:SP ...``,
  ``Stack memory:``, ``ELF file SHA256:``, ``Rebooting...``; ``abort() was called at
  PC 0x... on core N``, ``assert failed: ...``, ``Stack smashing protect failure!``,
  ``CORRUPT HEAP: ...``.
* ``Brownout detector was triggered`` and the task watchdog's ``Task watchdog got
  triggered.`` (``components/esp_system/task_wdt``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ROM_BANNER = re.compile(r"^(?:ets [A-Z][a-z]{2} [ \d]\d \d{4}|ESP-ROM:\S+)")
RST = re.compile(r"^rst:0x(?P<code>[0-9a-fA-F]+) \((?P<reason>[^)]*)\)(?:,\s*boot:0x(?P<boot>[0-9a-fA-F]+)"
                 r"(?: \((?P<mode>[^)]*)\))?)?")
IDF_LOG = re.compile(r"^(?P<level>[EWIDV]) \((?P<ms>\d+)\) (?P<tag>[^:]{1,40}): ?(?P<text>.*)$")
GURU = re.compile(r"Guru Meditation Error: Core\s+(?P<core>\d+) panic'ed \((?P<reason>[^)]*)\)")
ABORT = re.compile(r"abort\(\) was called at PC (?P<pc>0x[0-9a-fA-F]+)(?: on core (?P<core>\d+))?")
ASSERT = re.compile(r"^(?:assert failed: |assertion \".*\" failed)")
PANIC_OTHER = re.compile(r"^(?:Stack smashing protect failure!|CORRUPT HEAP:|\*\*\*ERROR\*\*\* A stack overflow)")
PANIC_END = re.compile(r"^(?:Rebooting\.\.\.|ELF file SHA256:|CPU halted\.|Entering gdb stub now\.)")
BROWNOUT = re.compile(r"Brownout detector was triggered")
TASK_WDT = re.compile(r"Task watchdog got triggered")

LEVELS = {"E": "error", "W": "warn", "I": "info", "D": "debug", "V": "verbose"}
LEVEL_RANK = {"verbose": 0, "trace": 0, "debug": 1, "info": 2, "warn": 3, "error": 4}


@dataclass
class Line:
    """One line as read: ``seq`` (its cursor), ``t`` (seconds since the session
    began), the text without colours, and what it is: ``kind`` line, rom, boot (the
    rst: line), panic (the first line of a panic), brownout, watchdog; ``level`` and
    ``tag`` for ESP-IDF log lines; ``boot``: the number of the boot it belongs to."""

    seq: int
    t: float
    text: str
    kind: str = "line"
    level: str | None = None
    tag: str | None = None
    boot: int = 0

    def to_dict(self) -> dict:
        out = {"seq": self.seq, "t": round(self.t, 3), "text": self.text}
        if self.kind != "line":
            out["kind"] = self.kind
        if self.level:
            out["level"] = self.level
        return out


def classify(seq: int, t: float, raw: str) -> Line:
    text = ANSI.sub("", raw).rstrip()
    line = Line(seq, t, text)
    m = IDF_LOG.match(text)
    if m:
        line.level, line.tag = LEVELS[m["level"]], m["tag"].strip()
    if ROM_BANNER.match(text):
        line.kind = "rom"
    elif RST.match(text):
        line.kind = "boot"
    elif GURU.search(text) or ABORT.search(text) or ASSERT.match(text) or PANIC_OTHER.match(text):
        line.kind, line.level = "panic", "error"
    elif BROWNOUT.search(text):
        line.kind, line.level = "brownout", "error"
    elif TASK_WDT.search(text):
        line.kind, line.level = "watchdog", "error"
    return line


def reset_category(reason: str) -> str:
    """What kind of reset a ROM reason name is: power_on, watchdog, brownout, software
    (a panic's restart or esp_restart), deep_sleep, usb (a tool reset through USB),
    external (the EN pin) or other."""
    r = reason.upper()
    if "BROWN" in r:
        return "brownout"
    if "WDT" in r:
        return "watchdog"
    if "POWERON" in r:
        return "power_on"
    if "DEEPSLEEP" in r:
        return "deep_sleep"
    if "USB" in r:
        return "usb"
    if "SW" in r:
        return "software"
    if "EXT" in r or r in ("CHIP_RESET", "SYS_RESET"):
        return "external"
    return "other"
