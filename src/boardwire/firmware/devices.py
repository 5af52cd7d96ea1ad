"""Serial ports and the boards on them (fw.devices), and which port a call means.

Ports come from pyserial's ``serial.tools.list_ports`` (USB vendor and product ids,
serial number, description). A board id is the chip's MAC, known once fw.boardInfo
has read it on a port in this process (`remember`). Espressif's own USB interface
has vendor id 0x303A (USB-Serial/JTAG); common USB-UART bridges on ESP32 boards are
Silicon Labs CP210x (0x10C4), WCH CH34x (0x1A86) and FTDI (0x0403).
"""

from __future__ import annotations

import threading

from ..errors import InvalidArgs
from .esp import NEEDS_REPLUG

USB_VENDORS = {0x303A: "Espressif", 0x10C4: "Silicon Labs", 0x1A86: "WCH", 0x0403: "FTDI"}

_KNOWN: dict[str, dict] = {}  # port -> {id, chip}
_LOCK = threading.Lock()


def remember(port: str, info: dict) -> None:
    with _LOCK:
        _KNOWN[port] = {"id": info.get("mac"), "chip": info.get("chip")}


def known() -> dict[str, dict]:
    with _LOCK:
        return dict(_KNOWN)


def serial_ports() -> list[dict]:
    """USB serial ports (and any with a vendor id); built-in UARTs without one are left
    out: no ESP32 board sits on them."""
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    out = []
    for p in list_ports.comports():
        if p.vid is None:
            continue
        row = {"port": p.device, "vid": f"0x{p.vid:04x}", "pid": f"0x{p.pid:04x}" if p.pid is not None else None,
               "serial_number": p.serial_number, "description": p.description,
               "vendor": USB_VENDORS.get(p.vid)}
        if p.vid == 0x303A:
            row["interface"] = "USB-Serial/JTAG"
        out.append({k: v for k, v in row.items() if v})
    return out


def resolve(port: str | None, bound: dict) -> str:
    """The port a call means: ``port`` (a port, or a board id fw.boardInfo has seen),
    else the bound board's port (or the port its id was seen on), else the only
    attached board. Raises BoardUnreachable (replug) when none is attached and
    InvalidArgs when several are and none is named."""
    from ..errors import BoardUnreachable

    ids = {v["id"].lower(): p for p, v in known().items() if v.get("id")}
    if port:
        return ids.get(port.lower(), port)
    if bound.get("port"):
        return bound["port"]
    if bound.get("id") and bound["id"].lower() in ids:
        return ids[bound["id"].lower()]
    ports = [p["port"] for p in serial_ports()]
    if len(ports) == 1:
        return ports[0]
    if not ports:
        raise BoardUnreachable("no board is attached (no USB serial port found)", needs_human=NEEDS_REPLUG)
    raise InvalidArgs(f"{len(ports)} boards are attached ({', '.join(ports)}); name one with port",
                      hint="fw.devices lists them; bind one in the project's boardwire.toml [board].")
