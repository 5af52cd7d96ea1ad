"""Where a monitor session's bytes come from: a serial port (a device path or a
pyserial URL such as ``socket://host:port``), or a recording played back; and the
recorder.

A recording is JSON Lines: a header ``{"boardwire_recording": 1, "port", "baud",
"started"}``, then one ``{"t": seconds, "d": text}`` per chunk as it arrived (bytes
as Latin-1, so any byte survives). Played back, the same chunks arrive in the same
order (at the recorded pace times ``speed``, or at once with ``speed`` 0), so the
same reads give the same events.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Callable

from ...errors import BoardUnreachable, InvalidArgs
from ..esp import NEEDS_REPLUG, is_virtual, port_exists
from ..toolchain import require

OnData = Callable[[bytes, float], None]


class Recorder:
    def __init__(self, path: Path, port: str, baud: int) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._f = open(path, "w", encoding="utf-8")
        self._lock = threading.Lock()
        self._write({"boardwire_recording": 1, "port": port, "baud": baud, "started": time.time()})

    def _write(self, obj: dict) -> None:
        with self._lock:
            if not self._f.closed:
                self._f.write(json.dumps(obj, separators=(",", ":")) + "\n")
                self._f.flush()

    def chunk(self, data: bytes, t: float) -> None:
        # t as is (JSON keeps a float exactly): rounded here, events rounded again on
        # replay could differ from the live ones (0.05049 live is 0.05, recorded 0.0505 is 0.051)
        self._write({"t": t, "d": data.decode("latin-1")})

    def close(self) -> None:
        with self._lock:
            self._f.close()


def read_recording(path: Path) -> tuple[dict, list[tuple[float, bytes]]]:
    """(header, chunks) of a recording; raises InvalidArgs when it is not one."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0]) if lines else {}
        if header.get("boardwire_recording") != 1:
            raise ValueError("no boardwire_recording header")
        chunks = [(float(o["t"]), o["d"].encode("latin-1")) for o in map(json.loads, lines[1:]) if o]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InvalidArgs(f"{path.name} is not a monitor recording: {e}") from None
    return header, chunks


class SerialSource:
    """Reads a port in a thread. ``reset`` on start pulses EN through RTS (the classic
    DTR/RTS auto-reset circuit of ESP32 boards; nothing on sockets and ptys)."""

    def __init__(self, port: str, baud: int) -> None:
        self.port, self.baud = port, baud
        self._serial = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.t0 = time.monotonic()

    def start(self, on_data: OnData, on_end: Callable[[], None], *, reset: bool) -> bool:
        serial = require("serial")
        if not port_exists(self.port):
            raise BoardUnreachable(f"{self.port}: no such serial port; the board is not on the bus",
                                   needs_human=NEEDS_REPLUG, port=self.port)
        try:
            self._serial = serial.serial_for_url(self.port, baudrate=self.baud, timeout=0.05, do_not_open=True)
            if not is_virtual(self.port):
                self._serial.dtr = False
                self._serial.rts = False
            self._serial.open()
        except (serial.SerialException, OSError) as e:
            raise BoardUnreachable(f"{self.port}: {e}", needs_human=NEEDS_REPLUG, port=self.port) from None
        did_reset = self.reset() if reset else False
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(on_data, on_end), daemon=True,
                                        name=f"fw-monitor {self.port}")
        self._thread.start()
        return did_reset

    def _run(self, on_data: OnData, on_end) -> None:
        import serial

        s = self._serial
        try:
            while not self._stop.is_set():
                data = s.read(4096)
                if data:
                    on_data(data, time.monotonic() - self.t0)
        except (serial.SerialException, OSError, TypeError, AttributeError):
            pass  # the port went away (or was closed under us)
        finally:
            on_end()

    def reset(self) -> bool:
        if self._serial is None or is_virtual(self.port):
            return False
        try:
            self._serial.rts = True
            time.sleep(0.1)
            self._serial.rts = False
            return True
        except (OSError, ValueError):
            return False

    def write(self, data: bytes) -> int:
        if self._serial is None:
            return 0
        n = self._serial.write(data)
        self._serial.flush()
        return n or 0

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self._serial is not None:
            try:
                self._serial.close()
            except Exception:  # noqa: BLE001 - closing a dead port
                pass


class ReplaySource:
    """Plays a recording: its chunks with their recorded times (``speed`` 1 = the
    recorded pace, 0 = at once)."""

    def __init__(self, path: Path, speed: float = 0.0) -> None:
        self.header, self.chunks = read_recording(path)
        self.port = f"replay:{path.name}"
        self.baud = int(self.header.get("baud") or 115200)
        self.speed = speed
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, on_data: OnData, on_end: Callable[[], None], *, reset: bool) -> bool:
        self._thread = threading.Thread(target=self._run, args=(on_data, on_end), daemon=True, name="fw-replay")
        self._thread.start()
        return False

    def _run(self, on_data: OnData, on_end) -> None:
        t0 = time.monotonic()
        try:
            for t, data in self.chunks:
                if self.speed > 0:
                    delay = t / self.speed - (time.monotonic() - t0)
                    if delay > 0 and self._stop.wait(delay):
                        return
                if self._stop.is_set():
                    return
                on_data(data, t)
        finally:
            on_end()

    def reset(self) -> bool:
        return False

    def write(self, data: bytes) -> int:
        return 0

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
