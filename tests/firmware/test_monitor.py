"""The monitor on a scripted serial device (a pseudo-terminal playing ESP-IDF's boot
logs and panics, tests/firmware/logs.py): boots with reset reasons, repeats
collapsed, a reset loop, a panic decoded against the test image's ELF with source
lines, watchdog and brown-out named, until/expect/reject, and a recording replayed."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import time

import pytest

from boardwire.errors import ExpectFailed

from . import logs
from .conftest import call, context


class Device:
    """The board's side of a pseudo-terminal: what it writes, the monitor reads."""

    def __init__(self) -> None:
        self.master, self.slave = pty.openpty()
        self.port = os.ttyname(self.slave)

    def play(self, text: str, pause: float = 0.0) -> None:
        data = text.encode()
        for i in range(0, len(data), 512):
            os.write(self.master, data[i:i + 512])
            if pause:
                time.sleep(pause)

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def device():
    d = Device()
    yield d
    d.close()


def start(ctx, device, **kw) -> str:
    return call(ctx, "fw.monitor.start", {"port": device.port, **kw})["session"]


def read(ctx, **kw) -> dict:
    return call(ctx, "fw.monitor.read", kw)


def rst_lines(text: str) -> list[str]:
    return re.findall(r"^rst:0x[0-9a-f]+ \(([^)]+)\)", text, re.M)


def test_boots_are_numbered_with_their_reset_reasons(ws, device):
    ctx = context(ws)
    start(ctx, device)
    played = logs.ESP32_TWO_RESETS + logs.ESP32_BOOT
    device.play(played)
    out = read(ctx, since="start", until="Enabling RNG")
    assert [b["reason"] for b in out["boots"]] == rst_lines(played)
    assert [b["reset"] for b in out["boots"]] == ["power_on", "watchdog", "power_on"]
    assert out["boots"][1]["cause"] == "watchdog (RTCWDT_RTC_RESET)"
    texts = [e["text"] for e in out["events"]]
    assert "\x1b" not in "".join(texts)  # colours gone
    assert "I (30) boot: compile time 09:31:02" in texts
    assert next(e for e in out["events"] if "compile time" in e["text"])["level"] == "info"
    assert out["matched"]["text"].endswith("Enabling RNG early entropy source...")


def test_repeated_lines_collapse_with_a_count(ws, device):
    ctx = context(ws)
    start(ctx, device)
    device.play(logs.C3_ROM_BANNER + logs.C3_RST_POWERON
                + "".join(f"I ({1000 * i}) app: sensor idle\n" for i in range(1, 8)) + "I (9000) app: done\n")
    out = read(ctx, since="start", until="app: done")
    idle = [e for e in out["events"] if "sensor idle" in e["text"]]
    assert len(idle) == 1 and idle[0]["count"] == 7
    assert "sensor idle  x7" in out["text"]


def _image(ctx, ws) -> tuple:
    """The test image: the bare-metal template built; (ELF, main.c, {symbol: address})."""
    call(ctx, "fw.new", {"name": "blinky", "framework": "baremetal", "port": "/dev/null"})
    call(ctx, "fw.build", {"dir": "blinky"})
    elf = ws / "blinky" / "build" / "app.elf"
    nm = subprocess.run(["riscv64-unknown-elf-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    syms = {parts[2]: int(parts[0], 16) for parts in (ln.split() for ln in nm.splitlines()) if len(parts) == 3}
    return elf, ws / "blinky" / "main.c", syms


def test_a_reset_loop_is_named_and_the_panic_decoded_with_source_lines(fw_tools, ws, device):
    ctx = context(ws)
    elf, main_c, syms = _image(ctx, ws)
    start(ctx, device, dir="blinky")
    panic = logs.c3_panic(syms["main"], syms["snprintf"])
    device.play(logs.C3_ROM_BANNER + logs.C3_RST_POWERON + "blinky started\n" + panic
                + (logs.C3_ROM_BANNER + logs.C3_RST_SW_CPU + panic) * 3
                + logs.C3_ROM_BANNER + logs.C3_RST_SW_CPU + "blinky started\n")
    out = read(ctx, since="start", expect=["Rebooting"] * 4 + ["blinky started"])
    assert [b["cause"] for b in out["boots"]] == ["power_on"] + ["panic (Load access fault)"] * 4
    assert out["reset_loop"] == {"cause": "panic (Load access fault)", "boots": 4}
    assert "RESET LOOP" in out["boot_summary"]
    panics = [e for e in out["events"] if e.get("panic")]
    assert len(panics) == 4 and all("MEPC" not in e["text"] for e in out["events"])  # dumps folded
    frames = panics[0]["panic"]["frames"]
    assert [f["function"] for f in frames] == ["main", "snprintf"]
    top = frames[0]
    assert top["file"] == "main.c" and len(top["source"]) == 7
    marked = [s for s in top["source"] if s.startswith(">")]
    assert len(marked) == 1 and int(marked[0][1:6]) == top["line"]
    body = main_c.read_text().splitlines()
    assert "main(void)" in body[top["line"] - 1] or "main(void)" in body[top["line"] - 2]
    assert "source" not in frames[1]  # picolibc's, not the project's


def test_watchdog_and_brownout_are_named(ws, device):
    ctx = context(ws)
    start(ctx, device)
    device.play(logs.C3_ROM_BANNER + logs.C3_RST_POWERON + logs.TASK_WDT
                + logs.C3_ROM_BANNER + logs.C3_RST_RTCWDT + logs.BROWNOUT
                + logs.C3_ROM_BANNER + logs.C3_RST_POWERON + "up\n")
    out = read(ctx, since="start", until="^up$")
    assert [b["cause"] for b in out["boots"]] == ["power_on", "task watchdog", "brownout"]
    kinds = {e.get("kind") for e in out["events"]}
    assert {"watchdog", "brownout", "boot", "rom"} <= kinds


def test_until_expect_reject_and_wait(ws, device):
    ctx = context(ws)
    start(ctx, device)
    device.play("alpha\nbeta\nready\ngamma\n")
    out = read(ctx, since="start", until="ready")
    assert [e["text"] for e in out["events"]] == ["alpha", "beta", "ready"]
    assert [e["text"] for e in read(ctx)["events"]] == ["gamma"]  # since new: after the last read
    assert read(ctx, since="start", expect=["beta", "ready"])["matched"]["expect"] == ["beta", "ready"]
    with pytest.raises(ExpectFailed) as e:
        read(ctx, since="start", expect=["ready", "beta"], wait_s=0.5)  # out of order
    assert e.value.data["missing"] == ["beta"]
    t0 = time.monotonic()
    assert read(ctx, wait_s=0.4)["events"] == []  # nothing new: waits, then returns empty
    assert time.monotonic() - t0 >= 0.4
    device.play(logs.c3_panic(0x42001234, 0x42005678))
    with pytest.raises(ExpectFailed) as e:
        read(ctx, reject=["Guru Meditation"], wait_s=5)
    assert e.value.data["rejected"]["pattern"] == "Guru Meditation"
    assert e.value.data["events"][0]["panic"]["reason"] == "Load access fault"


def test_level_and_pattern_filters(ws, device):
    ctx = context(ws)
    start(ctx, device)
    device.play(logs.ESP32_BOOT + "\x1b[0;33mW (50) app: low battery\x1b[0m\nD (60) app: detail\n")
    out = read(ctx, since="start", until="detail", level="warn")
    texts = [e["text"] for e in out["events"]]
    assert "W (50) app: low battery" in texts and not any("compile time" in t for t in texts)
    assert any(t.startswith("rst:") for t in texts)  # boots always pass
    out = read(ctx, since="start", pattern="boot:", wait_s=0.2)
    assert all("boot:" in e["text"] or e.get("kind") for e in out["events"])


def test_a_recording_replays_identically(fw_tools, ws, device):
    ctx = context(ws)
    elf, _, syms = _image(ctx, ws)
    start(ctx, device, dir="blinky", record="logs/run.jsonl")
    device.play(logs.C3_ROM_BANNER + logs.C3_RST_POWERON + "blinky started\n"
                + "".join(f"blink {i % 2}\n" for i in range(6)), pause=0.05)
    device.play("blink 0\n" * 4 + logs.c3_panic(syms["main"], syms["snprintf"]) + logs.C3_ROM_BANNER
                + logs.C3_RST_SW_CPU + "blinky started\n")
    live = read(ctx, since="start", expect=["Rebooting", "blinky started"])
    call(ctx, "fw.monitor.stop", {})
    call(ctx, "fw.monitor.start", {"dir": "blinky", "replay": "logs/run.jsonl"})
    replayed = read(ctx, since="start", expect=["Rebooting", "blinky started"])
    for key in ("events", "boots", "boot_summary", "text"):
        assert replayed[key] == live[key], key
    assert live["boots"][-1]["cause"] == "panic (Load access fault)"
