"""An ESP32-C3 image built from the bare-metal template with Debian's RISC-V
compiler, flashed with esptool into the mock ROM bootloader over loopback TCP and a
pseudo-terminal, and read back identical; board info; an image too large for its
room fails before anything is written."""

from __future__ import annotations

import pytest

from boardwire.errors import BoardUnreachable, ImageTooLarge
from boardwire.firmware import esp
from boardwire.firmware.project import FirmwareProject

from .conftest import call, context


def _new(ctx, port: str, name: str = "blinky") -> dict:
    return call(ctx, "fw.new", {"name": name, "port": port, "framework": "baremetal"})


@pytest.mark.parametrize("transport", ["mock_tcp", "mock_pty"])
def test_bare_metal_image_flashes_and_reads_back_identical(fw_tools, ws, transport, request):
    port = request.getfixturevalue(transport)
    ctx = context(ws)
    _new(ctx, port)
    flashed = call(ctx, "fw.flash", {"dir": "blinky"})
    image = (ws / "blinky" / "build" / "app.bin").read_bytes()
    elf = (ws / "blinky" / "build" / "app.elf").read_bytes()
    assert elf[:4] == b"\x7fELF" and elf[18] == 0xF3  # e_machine 243: RISC-V
    assert image[0] == 0xE9  # the ESP image magic byte (esptool's ESPLoader.ESP_IMAGE_MAGIC)
    assert flashed["written"] == [{"offset": "0x0", "file": "app.bin", "bytes": len(image)}]
    assert flashed["build"]["size"]["bytes"] == len(image)
    assert esp.read_back(port, 0, len(image)) == image


def test_board_info_against_the_mock(fw_tools, ws, mock_tcp):
    import re
    import subprocess
    import sys

    ctx = context(ws)
    _new(ctx, mock_tcp)
    info = call(ctx, "fw.boardInfo", {"dir": "blinky"})
    # The oracle: esptool's own command line on the same mock.
    cli = subprocess.run([sys.executable, "-m", "esptool", "--chip", "esp32c3", "--port", mock_tcp,
                          "--before", "no-reset", "--after", "no-reset", "flash-id"],
                         capture_output=True, text=True, timeout=120).stdout
    assert info["mac"] == re.search(r"MAC:\s+([0-9a-f:]{17})", cli)[1]
    assert f"{info['crystal_mhz']}MHz" == re.search(r"Crystal frequency:\s+(\d+MHz)", cli)[1]
    assert info["flash_size"] == re.search(r"Detected flash size:\s+(\S+)", cli)[1]
    assert info["chip"] == "ESP32-C3" and info["description"] in cli
    devices = call(ctx, "fw.devices", {})["devices"]
    assert [d["board_id"] for d in devices if d["port"] == mock_tcp] == [info["mac"]]


def test_an_image_too_large_fails_before_flashing(fw_tools, ws, mock_tcp):
    ctx = context(ws)
    _new(ctx, mock_tcp)
    cfg = ws / "blinky" / "boardwire.toml"
    cfg.write_text(cfg.read_text().replace('max_size = "48K"', 'max_size = "4K"'))
    with pytest.raises(ImageTooLarge) as e:
        call(ctx, "fw.flash", {"dir": "blinky"})
    size = e.value.data["size"]
    assert size["limit"] == 4096 and size["bytes"] > 4096
    assert esp.read_back(mock_tcp, 0, 64) == b"\xff" * 64  # nothing reached the board


def test_the_size_is_measured_against_the_partition_table(fw_tools, ws, mock_tcp):
    ctx = context(ws)
    _new(ctx, mock_tcp)
    root = ws / "blinky"
    (root / "partitions.csv").write_text("# Name, Type, SubType, Offset, Size, Flags\n"
                                         "nvs, data, nvs, 0x9000, 0x6000,\nfactory, app, factory, 0x10000, 1M,\n")
    cfg = root / "boardwire.toml"
    cfg.write_text(cfg.read_text().replace('max_size = "48K"\n', 'partitions = "partitions.csv"\n'))
    built = call(ctx, "fw.build", {"dir": "blinky"})
    assert built["size"]["limit"] == 1024 * 1024
    assert built["size"]["limit_from"] == "partition factory of partitions.csv"
    assert built["size"]["bytes"] == (root / "build" / "app.bin").stat().st_size


def test_a_port_that_does_not_exist_needs_a_person_to_replug(fw_tools, ws, tmp_path):
    ctx = context(ws)
    gone = str(tmp_path / "ttyUSB9")
    _new(ctx, gone)
    with pytest.raises(BoardUnreachable) as e:
        call(ctx, "fw.flash", {"dir": "blinky"})
    assert e.value.data["needs_human"]["action"] == "replug"


def test_a_bootloader_that_does_not_answer_needs_download_mode(fw_tools, ws):
    import os
    import pty

    master, slave = pty.openpty()  # a port where nothing answers
    try:
        ctx = context(ws)
        _new(ctx, os.ttyname(slave))
        with pytest.raises(BoardUnreachable) as e:
            call(ctx, "fw.boardInfo", {"dir": "blinky"})
        assert e.value.data["needs_human"]["action"] == "download_mode"
    finally:
        os.close(master)
        os.close(slave)


def test_the_project_is_bound_and_names_its_build(fw_tools, ws, mock_tcp):
    ctx = context(ws)
    out = _new(ctx, mock_tcp)
    p = FirmwareProject.load(ws / "blinky")
    assert out["framework"] == "baremetal" and p.system == "make" and p.chip == "esp32c3"
    assert p.board.port == mock_tcp
    assert "AGENTS.md" in out["files"]


def test_run_builds_flashes_and_watches(fw_tools, ws, mock_tcp):
    from boardwire.errors import ExpectFailed

    ctx = context(ws)
    _new(ctx, mock_tcp)
    out = call(ctx, "fw.run", {"dir": "blinky", "timeout_s": 0.5})
    image = (ws / "blinky" / "build" / "app.bin").read_bytes()
    assert out["flash"]["written"][0]["bytes"] == len(image)
    assert out["events"] == []  # the mock runs no firmware: the session stays silent
    assert call(ctx, "fw.devices", {})["devices"][0]["monitors"][0]["session"] == out["session"]
    with pytest.raises(ExpectFailed) as e:  # the same session, a pattern that never comes
        call(ctx, "fw.run", {"dir": "blinky", "build": False, "expect": ["blinky started"], "timeout_s": 0.5})
    assert e.value.data["missing"] == ["blinky started"]
    call(ctx, "fw.monitor.stop", {})  # the mock serves one connection at a time
    assert esp.read_back(mock_tcp, 0, len(image)) == image
