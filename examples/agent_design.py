"""An agent builds the USB-C 5 V -> 3.3 V breakout from an empty folder over MCP, in a
dozen tool calls: it chooses parts from a catalogue, writes a design document (parts
and which pin goes to which net, no coordinates), has it checked and built.

    python examples/agent_design.py [FOLDER] [CATALOGUE.csv]   # default ./usbc-agent

The catalogue is a user's JLCPCB parts file (jlcpcb-parts-database CSV format; the
default is the sample bundled in src/boardwire/parts/sample/, its source in SOURCE.txt there); it is copied into the new
folder, the server's working directory. Calls: parts_import, parts_search (regulator,
CC resistors, decoupling capacitor, a USB-C receptacle the catalogue lacks: KiCad
library candidates instead), parts_pins (the receptacle's pins on the chosen
footprint), design_brief, design_check, design_build. Every LCSC code in the design
comes from a search answer. Prints one row per call and the totals, counted as
examples/agent_blinker.py counts them.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agent_blinker import Agent, ToolError, print_calls  # noqa: E402

from boardwire.parts.catalogue import SAMPLE  # noqa: E402  the bundled sample
USB_FOOTPRINT = "Connector_USB:USB_C_Receptacle_GCT_USB4085"  # through-hole, USB 2.0 pads A/B


def chosen(answer: dict) -> str:
    """The LCSC code of the row a search marks as the build's choice (compact table)."""
    line = next(ln for ln in answer["table"].splitlines() if ln.startswith(">"))
    return line[1:].split("|", 1)[0]


async def build(folder: Path, catalogue: Path, server_cmd: list[str] | None = None) -> tuple[list[dict], dict]:
    from mcp import Client, StdioServerParameters

    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(catalogue, folder / catalogue.name)
    cmd = server_cmd or [sys.executable, "-m", "boardwire.cli.main", "mcp"]
    import os

    server = StdioServerParameters(command=cmd[0], args=cmd[1:], cwd=str(folder), env=dict(os.environ))
    async with Client(server, mode="auto") as client:
        call = Agent(client)
        # parts.import and parts.pins are in the parts family, outside the default tool set
        await call("toolset_enable", toolset="parts")
        await call("parts_import", file=catalogue.name)
        ldo = chosen(await call("parts_search", query="AMS1117-3.3"))
        r_cc = chosen(await call("parts_search", query="5.1k resistor", package="0603"))
        c_dec = chosen(await call("parts_search", query="100nF 0603 capacitor"))
        usb = await call("parts_search", query="USB-C receptacle")
        if not usb.get("missing"):
            raise ToolError("expected the sample catalogue to lack a USB-C receptacle")
        # the candidates name KiCad's Connector:USB_C_Receptacle family; its USB 2.0 (16-pin)
        # member suits a power-only board
        usb_symbol = "Connector:USB_C_Receptacle_USB2.0_16P"
        pins = await call("parts_pins", symbol=usb_symbol, footprint=USB_FOOTPRINT)
        if pins["pins_without_pad"]:
            raise ToolError(f"{USB_FOOTPRINT} lacks pads for {pins['pins_without_pad']}")
        await call("design_brief")
        r = "Resistor_SMD:R_0603_1608Metric"
        design = {
            "name": "usbc-3v3", "description": "USB-C 5 V in, AMS1117-3.3 out, power LED, 1x4 header with I2C pull-ups",
            "components": [
                {"ref": "J1", "symbol": usb_symbol, "footprint": USB_FOOTPRINT},
                {"ref": "R1", "part": r_cc}, {"ref": "R2", "part": r_cc}, {"ref": "U1", "part": ldo},
                {"ref": "C1", "symbol": "Device:C", "value": "10u", "footprint": "Capacitor_SMD:C_0805_2012Metric"},
                {"ref": "C2", "symbol": "Device:C", "value": "22u", "footprint": "Capacitor_SMD:C_0805_2012Metric"},
                {"ref": "C3", "part": c_dec},
                {"ref": "D1", "symbol": "Device:LED", "value": "green", "footprint": "LED_SMD:LED_0603_1608Metric"},
                {"ref": "R3", "symbol": "Device:R", "value": "1k", "footprint": r},
                {"ref": "R4", "symbol": "Device:R", "value": "4.7k", "footprint": r},
                {"ref": "R5", "symbol": "Device:R", "value": "4.7k", "footprint": r},
                {"ref": "J2", "symbol": "Connector_Generic:Conn_01x04", "value": "3V3 GND SDA SCL",
                 "footprint": "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical"}],
            "nets": {
                "VBUS": ["J1.A4", "J1.A9", "J1.B4", "J1.B9", "U1.3", "C1.1"],
                "GND": ["J1.A1", "J1.A12", "J1.B1", "J1.B12", "J1.S1", "R1.2", "R2.2", "U1.1", "C1.2", "C2.2",
                        "C3.2", "D1.1", "J2.2"],
                "+3V3": ["U1.2", "C2.1", "C3.1", "R3.1", "J2.1", "R4.1", "R5.1"],
                "CC1": ["J1.A5", "R1.1"], "CC2": ["J1.B5", "R2.1"],
                "LED": ["R3.2", "D1.2"], "SDA": ["J2.3", "R4.2"], "SCL": ["J2.4", "R5.2"]},
            "no_connect": ["J1.A6", "J1.A7", "J1.B6", "J1.B7", "J1.A8", "J1.B8"],
            "board": {"size": [40, 30], "rules": "jlcpcb"},
            "constraints": {"edge": ["J1", "J2"]}}
        checked = await call("design_check", design=design)
        if not checked["ok"]:
            raise ToolError(f"design_check: {checked['errors'][:5]}")
        built = await call("design_build", design=design)
        return call.rows, built


def main(argv: list[str]) -> int:
    import anyio

    folder = Path(argv[0] if argv else "usbc-agent")
    catalogue = Path(argv[1]) if len(argv) > 1 else SAMPLE
    if folder.exists() and any(folder.iterdir()):
        print(f"{folder} is not empty; give a new folder", file=sys.stderr)
        return 2
    try:
        rows, built = anyio.run(build, folder, catalogue)
    except ToolError as e:
        print(f"the build stopped: {e}", file=sys.stderr)
        return 1
    print_calls(rows, 16)
    print(f"; {built['summary']}")
    return 0 if (built.get("verdict") or {}).get("clean") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
