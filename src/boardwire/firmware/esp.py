"""The board through esptool's Python API (esptool 5, ``esptool.cmds``): board info,
flash, erase, reset, read back.

One esptool operation runs at a time in a process (esptool's logger is
process-global); its output is captured, never printed (stdout may be a protocol).
Failures to reach the board become `BoardUnreachable` with ``needs_human``:

* the port does not exist or cannot be opened -> ``replug`` (plug the board in with a
  data cable, or replug it);
* the ROM bootloader does not answer, also after one retry at 115200 baud ->
  ``download_mode`` (hold BOOT, tap RESET, release BOOT).

Ports: a device path (``/dev/ttyUSB0``) or a pyserial URL (``socket://host:port``,
``rfc2217://``). Over a socket or a pseudo-terminal the reset lines do nothing, so
esptool connects without resetting (``no-reset``): the board must already be in its
bootloader, as the mock bootloader always is.
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from ..errors import BoardUnreachable, FlashFailed, needs_human
from .toolchain import require

ROM_BAUD = 115200
_LOCK = threading.Lock()

NEEDS_DOWNLOAD_MODE = needs_human("download_mode", "Hold BOOT, tap RESET, release BOOT, then call again.")
NEEDS_REPLUG = needs_human("replug", "Plug the board in, or unplug and replug it, with a data cable; then call again.")


def is_virtual(port: str) -> bool:
    """A port without reset lines: a pyserial URL or a pseudo-terminal."""
    if "://" in port:
        return True
    try:
        return os.path.realpath(port).startswith("/dev/pts/")
    except OSError:
        return False


def connect_mode(port: str) -> str:
    return "no-reset" if is_virtual(port) else "default-reset"


def port_exists(port: str) -> bool:
    return "://" in port or os.path.exists(port)


def unreachable_port(port: str) -> BoardUnreachable:
    return BoardUnreachable(f"{port}: no such serial port; the board is not on the bus",
                            needs_human=NEEDS_REPLUG, port=port)


class _Capture:
    """esptool's logger while we run it: lines kept, progress bars forwarded."""

    def __init__(self, progress: Callable[[float, str], None] | None):
        from esptool.logger import TemplateLogger

        outer = self

        class Logger(TemplateLogger):
            def print(self, *args, **kwargs):
                text = " ".join(str(a) for a in args).strip()
                if text:
                    outer.lines.append(text)

            def note(self, message):
                outer.lines.append(f"Note: {message}")

            def warning(self, message):
                outer.lines.append(f"Warning: {message}")

            def error(self, message):
                outer.lines.append(f"Error: {message}")

            def stage(self, finish=False):
                pass

            def progress_bar(self, cur_iter, total_iters, prefix="", suffix="", bar_length=30):
                if outer.progress is not None and total_iters:
                    outer.progress(cur_iter / total_iters, f"{prefix.strip()} {cur_iter}/{total_iters}".strip())

            def set_verbosity(self, verbosity):
                pass

        self.lines: list[str] = []
        self.progress = progress
        self.logger = Logger()


@contextmanager
def _esptool(progress=None):
    require("esptool")
    from esp_pylib.logger import EspLog
    from esptool.logger import log

    with _LOCK:
        cap = _Capture(progress)
        before = EspLog.instance
        log.set_logger(cap.logger)
        try:
            yield cap
        finally:
            EspLog.instance = before


def _connect(port: str, baud: int | None, cap):
    """An ESPLoader on ``port``; one retry at the ROM's 115200 baud."""
    import serial
    from esptool.cmds import detect_chip
    from esptool.util import FatalError

    if not port_exists(port):
        raise unreachable_port(port)
    last = None
    for attempt_baud in dict.fromkeys([baud or ROM_BAUD, ROM_BAUD]):
        try:
            return detect_chip(port, baud=attempt_baud, connect_mode=connect_mode(port), connect_attempts=3)
        except serial.SerialException as e:
            if not port_exists(port) or "could not open" in str(e).lower():
                raise BoardUnreachable(f"{port}: {e}", needs_human=NEEDS_REPLUG, port=port) from None
            last = e
        except (FatalError, OSError) as e:
            last = e
    raise BoardUnreachable(f"{port}: the bootloader did not answer ({last})",
                           needs_human=NEEDS_DOWNLOAD_MODE, port=port, esptool=cap.lines[-5:])


def _close(esp) -> None:
    try:
        esp._port.close()
    except Exception:  # noqa: BLE001 - closing a dead port
        pass


def _wrap(port: str, cap, e: Exception) -> Exception:
    import serial
    from esptool.util import FatalError

    if isinstance(e, serial.SerialException) and not port_exists(port):
        return unreachable_port(port)
    if isinstance(e, (FatalError, serial.SerialException, OSError)):
        return FlashFailed(f"{port}: esptool: {e}", port=port, esptool=cap.lines[-8:])
    return e


def board_info(port: str, *, baud: int | None = None, stub: bool = True) -> dict:
    """{chip, description, revision, features, crystal_mhz, mac, flash_size, port}."""
    from esptool.cmds import attach_flash, detect_flash_size

    with _esptool() as cap:
        esp = _connect(port, baud, cap)
        try:
            out = {"port": port, "chip": esp.CHIP_NAME, "description": esp.get_chip_description(),
                   "features": list(esp.get_chip_features()), "crystal_mhz": esp.get_crystal_freq(),
                   "mac": ":".join(f"{b:02x}" for b in esp.read_mac())}
            try:
                out["revision"] = f"v{esp.get_major_chip_version()}.{esp.get_minor_chip_version()}"
            except Exception:  # noqa: BLE001 - older chips have no minor revision
                pass
            if stub:
                esp = esp.run_stub()
            attach_flash(esp)
            out["flash_size"] = detect_flash_size(esp)
            return out
        except Exception as e:  # noqa: BLE001
            raise _wrap(port, cap, e) from e
        finally:
            _close(esp)


def flash(port: str, files: list[tuple[int, Path]], *, baud: int | None = None, stub: bool = True,
          erase_all: bool = False, reset: bool = True, progress=None) -> dict:
    """Write ``files`` ((offset, path) pairs) and verify each by its MD5 (esptool's own
    check); hard-reset afterwards when ``reset``. Returns {chip, written: [{offset,
    file, bytes}], esptool: last lines}."""
    from esptool.cmds import attach_flash, reset_chip, write_flash

    with _esptool(progress) as cap:
        esp = _connect(port, baud, cap)
        try:
            chip = esp.CHIP_NAME
            if stub:
                esp = esp.run_stub()
            attach_flash(esp)
            write_flash(esp, [(off, str(p)) for off, p in files], erase_all=erase_all)
            if reset and not is_virtual(port):
                reset_chip(esp, "hard-reset")
            return {"chip": chip, "written": [{"offset": hex(off), "file": p.name, "bytes": p.stat().st_size}
                                              for off, p in files], "esptool": cap.lines[-6:]}
        except Exception as e:  # noqa: BLE001
            raise _wrap(port, cap, e) from e
        finally:
            _close(esp)


def erase(port: str, *, baud: int | None = None, progress=None) -> dict:
    """Erase the whole flash (needs the stub flasher, as esptool does)."""
    from esptool.cmds import attach_flash, erase_flash

    with _esptool(progress) as cap:
        esp = _connect(port, baud, cap)
        try:
            chip = esp.CHIP_NAME
            esp = esp.run_stub()
            attach_flash(esp)
            erase_flash(esp)
            return {"chip": chip, "esptool": cap.lines[-4:]}
        except Exception as e:  # noqa: BLE001
            raise _wrap(port, cap, e) from e
        finally:
            _close(esp)


def read_back(port: str, offset: int, size: int, *, baud: int | None = None) -> bytes:
    """``size`` bytes of flash from ``offset``, read by the ROM bootloader (no stub)."""
    from esptool.cmds import attach_flash, read_flash

    with _esptool() as cap:
        esp = _connect(port, baud, cap)
        try:
            attach_flash(esp)
            return read_flash(esp, offset, size, no_progress=True)
        except Exception as e:  # noqa: BLE001
            raise _wrap(port, cap, e) from e
        finally:
            _close(esp)


def hard_reset(port: str) -> dict:
    """Reset the board through the serial lines (EN low through RTS, as esptool's
    classic reset does): no bootloader needed. Over a socket or a pseudo-terminal
    there are no lines; ``reset`` is then false."""
    import time

    serial = require("serial")
    if not port_exists(port):
        raise unreachable_port(port)
    if is_virtual(port):
        return {"port": port, "reset": False, "note": "no reset lines on a socket or pseudo-terminal"}
    try:
        with serial.serial_for_url(port, do_not_open=True) as s:
            s.dtr = False
            s.rts = True
            s.open()
            time.sleep(0.1)
            s.rts = False
    except serial.SerialException as e:
        raise BoardUnreachable(f"{port}: {e}", needs_human=NEEDS_REPLUG, port=port) from None
    return {"port": port, "reset": True}
