"""An agent builds a 555 LED blinker from an empty folder, only through MCP tool calls.

Spawns ``boardwire mcp`` with the official MCP SDK client over stdio, as an agent's
host would, and drives it the way an agent does: it states the circuit (parts and
which net each pin is on) and a floor plan, and reads every coordinate it needs
(pin and pad positions, net names, references) from the tools' results.

    python examples/agent_blinker.py [--auto] [FOLDER]   # default ./blinker555 (must be new)

Steps: project.new -> lib.search and lib.symbol for the timer -> schematic (symbols
from KiCad's libraries, a wire stub per pin ending in a label or a power symbol,
PWR_FLAGs) -> sch.annotate -> check.erc ->
project.updatePcb -> outline, placement, routing on F.Cu/B.Cu, a GND zone on B.Cu
filled by KiCad's filler -> check.drc with schematic parity -> save -> fab.package.
With ``--auto`` the board has no floor plan and no routes: after the outline,
pcb.autoplace (the power header on the left edge) and pcb.autoroute do that part.
Prints one row per call and the totals: calls, and tokens of the requests plus the
results (counted as `boardwire mcp --tools` counts). tests/test_end_to_end.py runs
it and judges the files with kicad-cli.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

NAME = "blinker555"
SMD_R, SMD_C = "Resistor_SMD:R_0805_2012Metric", "Capacitor_SMD:C_0805_2012Metric"

# The circuit: role -> (symbol, value, footprint, {pin: net}). A 555 astable (R1, R2, C1
# set ~0.7 Hz) driving an LED through R3; J1 brings 5 V in.
PARTS = {
    "U1": (None, None, None,  # found with lib_search: the first "555 timer DIP-8" symbol
           {"1": "GND", "2": "THR", "3": "OUT", "4": "VCC", "5": "CV", "6": "THR", "7": "DIS", "8": "VCC"}),
    "R1": ("Device:R", "1k", SMD_R, {"1": "VCC", "2": "DIS"}),
    "R2": ("Device:R", "10k", SMD_R, {"1": "DIS", "2": "THR"}),
    "R3": ("Device:R", "470", SMD_R, {"1": "OUT", "2": "LED"}),
    "C1": ("Device:C", "10u", SMD_C, {"1": "THR", "2": "GND"}),
    "C2": ("Device:C", "10n", SMD_C, {"1": "CV", "2": "GND"}),
    "C3": ("Device:C", "100n", SMD_C, {"1": "VCC", "2": "GND"}),
    "D1": ("Device:LED", "red", "LED_SMD:LED_0805_2012Metric", {"1": "GND", "2": "LED"}),
    "J1": ("Connector_Generic:Conn_01x02", "5V in", "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
           {"1": "VCC", "2": "GND"}),
}
TIMER_QUERY = "555 timer DIP-8"
POWER = {"VCC": "power:VCC", "GND": "power:GND"}

# Schematic floor plan (mm, on KiCad's 1.27 mm grid): roles of a prefix placed left to
# right, so that annotation (by X, then Y) numbers them in this order.
SCH_AT = {"J1": (50.8, 88.9), "U1": (101.6, 88.9), "R1": (139.7, 63.5), "R2": (160.02, 63.5),
          "R3": (180.34, 63.5), "C1": (139.7, 114.3), "C2": (160.02, 114.3), "C3": (180.34, 114.3),
          "D1": (200.66, 88.9)}
STUB = 2.54  # wire from each pin to its label / power symbol

# Board floor plan: mm relative to ORIGIN (U1 pin 1), footprint anchor and angle.
ORIGIN = (115.0, 95.0)
OUTLINE = (-14.0, -8.0, 19.0, 13.0)  # x1, y1, x2, y2
BOARD_AT = {"U1": (0, 0, 0), "J1": (-10, -3.5, 0), "C3": (13, 0, 0), "R1": (13, 2.54, 180),
            "R2": (10.3, 3.4525, 270), "C1": (13, 5.9925, 270), "C2": (10.3, 8.5325, 270),
            "R3": (-4.5, 5.08, 180), "D1": (-5.4125, 7.9, 90)}
# Routes: polylines whose points are pads ("U1.8") or board points relative to ORIGIN;
# one layer per route. Widths: power 0.4 mm, signals 0.25 mm. GND pads of the SMD parts
# drop to the B.Cu zone through a via at the route's end.
ROUTES = [
    ("F.Cu", 0.4, ["J1.1", (-2, -3.5), (7.62, -3.5), "U1.8"]),
    ("F.Cu", 0.4, ["U1.8", "C3.1"]),
    ("F.Cu", 0.4, ["R1.1", (16, 2.54), (16, -3.5), (7.62, -3.5)]),
    ("B.Cu", 0.4, ["U1.4", (-2, 7.62), (-2, -3.5)]),          # reset to VCC under the board
    ("F.Cu", 0.25, ["U1.7", "R2.1", "R1.2"]),
    ("F.Cu", 0.25, ["U1.6", (10.3, 5.08), "C1.1"]),
    ("F.Cu", 0.25, [(10.3, 5.08), "R2.2"]),
    ("B.Cu", 0.25, ["U1.2", (3.81, 2.54), (3.81, 5.08), "U1.6"]),  # trigger = threshold
    ("F.Cu", 0.25, ["U1.5", "C2.1"]),
    ("F.Cu", 0.25, ["U1.3", "R3.1"]),
    ("F.Cu", 0.25, ["R3.2", "D1.2"]),
    ("F.Cu", 0.4, ["C3.2", (13.9125, -1.6)]),
    ("F.Cu", 0.4, ["C1.2", (13, 8.5)]),
    ("F.Cu", 0.4, ["C2.2", (10.3, 11.0)]),
    ("F.Cu", 0.4, ["D1.1", (-5.4125, 10.4)]),
]
VIAS = [((-2, -3.5), "U1.4"), ((13.9125, -1.6), "C3.2"), ((13, 8.5), "C1.2"),
        ((10.3, 11.0), "C2.2"), ((-5.4125, 10.4), "D1.1")]  # (where, pad whose net it takes)


class ToolError(RuntimeError):
    pass


@dataclass
class Agent:
    """The MCP client side: every call is logged with its time and token cost."""

    client: object
    rows: list = field(default_factory=list)

    async def __call__(self, tool: str, **args) -> dict:
        from boardwire.protocols.mcp.tools import measured_tokens

        t0 = time.perf_counter()
        r = await self.client.call_tool(tool, args)
        while not r.is_error and (r.structured_content or {}).get("state") == "running":  # a long call's job
            r = await self.client.call_tool("job_wait", {"job": r.structured_content["job"]})
        ms = (time.perf_counter() - t0) * 1000
        body = r.structured_content or {}
        wire_in = {"name": tool, "arguments": args}
        wire_out = {"content": [c.model_dump(exclude_none=True) for c in r.content], "structuredContent": body}
        n_in, how = measured_tokens(wire_in)
        n_out, _ = measured_tokens(wire_out)
        self.rows.append({"tool": tool, "ms": round(ms, 1), "tokens_in": n_in, "tokens_out": n_out, "counted": how,
                          "ok": not r.is_error, "summary": (body.get("error") or {}).get("message") or body.get("summary", "")})
        if r.is_error:
            raise ToolError(f"{tool}: {json.dumps(body.get('error', body))}")
        return body


def rows(table: str) -> list[dict]:
    """The rows of a compact line table (a model reads them off the text)."""
    from boardwire.registry.tables import decode

    return decode(table)[0]


def _outward(pin: tuple[float, float], anchor: tuple[float, float]) -> tuple[int, int]:
    """The direction a pin points away from its symbol's body (pins sit on the body's edge)."""
    dx, dy = pin[0] - anchor[0], pin[1] - anchor[1]
    if abs(dx) >= abs(dy):
        return (1 if dx > 0 else -1), 0
    return 0, (1 if dy > 0 else -1)


LABEL_ANGLE = {(1, 0): 0, (-1, 0): 180, (0, -1): 90, (0, 1): 270}
POWER_ANGLE = {"VCC": {(0, -1): 0, (0, 1): 180, (-1, 0): 90, (1, 0): 270},
               "GND": {(0, 1): 0, (0, -1): 180, (1, 0): 90, (-1, 0): 270}}


async def schematic(call: Agent, sch: str) -> dict[str, str]:
    """Place, wire and annotate; returns role -> reference."""
    ids = {}
    found = await call("lib_search", query=TIMER_QUERY, kind="symbol", limit=3)
    timer = await call("lib_symbol", id=rows(found["items"])[0]["id"])
    chosen = {"U1": (timer["id"], timer["fields"]["Value"], timer["fields"]["Footprint"])}
    for role, (symbol, value, footprint, nets) in PARTS.items():
        symbol, value, footprint = chosen.get(role, (symbol, value, footprint))
        at = SCH_AT[role]
        placed = await call("sch_placeSymbol", path=sch, symbol=symbol, at=list(at), value=value, footprint=footprint)
        ids[placed["id"]] = role
        steps = []
        for pin in placed["pins"]:
            net = nets[pin["number"]]
            d = _outward(pin["at"], at)
            end = [round(pin["at"][0] + d[0] * STUB, 4), round(pin["at"][1] + d[1] * STUB, 4)]
            if net in POWER:
                steps.append({"command": "sch.power", "args": {"path": sch, "symbol": POWER[net], "at": end,
                                                                "angle": POWER_ANGLE[net][d]}})
                if role == "J1":  # the connector is where power comes in: tell ERC
                    steps.append({"command": "sch.power", "args": {"path": sch, "symbol": "power:PWR_FLAG", "at": end,
                                                                    "angle": 0 if net == "VCC" else 180}})
            else:
                steps.append({"command": "sch.label", "args": {"path": sch, "text": net, "at": end, "angle": LABEL_ANGLE[d]}})
            steps.append({"command": "sch.wire", "args": {"path": sch, "points": [pin["at"], end]}})
        await call("session_batch", steps=steps, label=f"wire {role}")
    done = await call("sch_annotate", path=sch)
    refs = {ids[c["id"]]: c["to"] for c in done["changes"] if c["id"] in ids}
    if refs != {role: role for role in PARTS}:  # the floor plan is laid out for these names
        raise ToolError(f"annotation gave {refs}")
    return refs


def _rel(p) -> list[float]:
    return [round(ORIGIN[0] + p[0], 4), round(ORIGIN[1] + p[1], 4)]


async def board(call: Agent, pcb: str) -> None:
    """Outline, placement, routing, GND zone."""
    x1, y1, x2, y2 = OUTLINE
    await call("pcb_outline", path=pcb, rect=_rel((x1, y1)) + _rel((x2, y2)))
    steps = []
    for ref, (dx, dy, angle) in BOARD_AT.items():
        steps.append({"command": "pcb.move", "args": {"path": pcb, "reference": ref, "at": _rel((dx, dy))}})
        if angle:
            steps.append({"command": "pcb.rotate", "args": {"path": pcb, "reference": ref, "angle": angle}})
    await call("session_batch", steps=steps, label="placement")

    pads = {}  # every pad of the board in one call (a compact table, one line a pad)
    for p in rows((await call("query_pads", path=pcb, limit=1000))["pads"]):
        pads[f"{p['reference']}.{p['number']}"] = (p["at"], p.get("net") or "")

    def point(p):
        return list(pads[p][0]) if isinstance(p, str) else _rel(p)

    steps = []
    for layer, width, points in ROUTES:
        net = next(pads[p][1] for p in points if isinstance(p, str))
        steps.append({"command": "pcb.route", "args": {"path": pcb, "points": [point(p) for p in points],
                                                       "layers": [layer], "width": width, "net": net}})
    for where, pad in VIAS:
        steps.append({"command": "pcb.addVia", "args": {"path": pcb, "at": _rel(where), "net": pads[pad][1]}})
    await call("session_batch", steps=steps, label="routing")
    gnd = pads["U1.1"][1]
    inset = 0.5
    zone = [_rel((x1 + inset, y1 + inset)), _rel((x2 - inset, y1 + inset)),
            _rel((x2 - inset, y2 - inset)), _rel((x1 + inset, y2 - inset))]
    await call("pcb_addZone", path=pcb, outline=zone, layer="B.Cu", net=gnd, name="GND plane")
    await call("pcb_fillZones", path=pcb)


async def board_auto(call: Agent, pcb: str) -> None:
    """Outline, then the placer and the router: no coordinate but the outline's."""
    x1, y1, x2, y2 = OUTLINE
    await call("pcb_outline", path=pcb, rect=_rel((x1, y1)) + _rel((x2, y2)))
    await call("pcb_autoplace", path=pcb, seed=1, edges={"J1": "left"})
    await call("pcb_autoroute", path=pcb, seed=1)


async def build(folder: Path, server_cmd: list[str] | None = None, auto: bool = False) -> list[dict]:
    """Build the board in ``folder`` (the server's working directory); the call log.
    ``auto``: placed and routed by pcb.autoplace and pcb.autoroute."""
    from mcp import Client, StdioServerParameters

    folder.mkdir(parents=True, exist_ok=True)
    cmd = server_cmd or [sys.executable, "-m", "boardwire.cli.main", "mcp"]
    server = StdioServerParameters(command=cmd[0], args=cmd[1:], cwd=str(folder), env=dict(os.environ))
    async with Client(server, mode="auto") as client:
        call = Agent(client)
        made = await call("project_new", name=NAME, template="2layer-starter", folder=".")
        sch, pcb = made["schematic"], made["board"]
        await schematic(call, sch)
        erc = await call("check_erc", path=sch)
        if erc["counts"]["errors"]:
            raise ToolError(f"ERC: {erc['counts']} {erc.get('violations', [])[:5]}")
        await call("session_save", path=sch)
        await call("project_updatePcb", schematic=sch, board=pcb)
        await (board_auto if auto else board)(call, pcb)
        drc = await call("check_drc", path=pcb, schematic_parity=True, severity="error")
        if drc["counts"]["errors"] or drc["counts"]["unconnected"] or drc["counts"]["parity"]:
            raise ToolError(f"DRC: {drc['counts']} {drc.get('violations', [])[:5]} {drc.get('unconnected', [])[:5]}")
        await call("session_save", path=pcb)
        await call("fab_package", path=pcb, output="fab")
        return call.rows


def totals(rows: list[dict]) -> dict:
    return {"calls": len(rows), "tokens_in": sum(r["tokens_in"] for r in rows),
            "tokens_out": sum(r["tokens_out"] for r in rows),
            "tokens": sum(r["tokens_in"] + r["tokens_out"] for r in rows),
            "counted_with": rows[0]["counted"] if rows else "", "seconds": round(sum(r["ms"] for r in rows) / 1000, 1)}


def print_calls(rows: list[dict], width: int = 20) -> dict:
    """One line per call, then the totals line's start; returns `totals`."""
    for i, r in enumerate(rows, 1):
        print(f"{i:3} {r['tool']:<{width}} {r['ms']:8.1f} ms {r['tokens_in']:6} + {r['tokens_out']:6} tok  {r['summary']}")
    t = totals(rows)
    print(f"{t['calls']} calls, {t['tokens']} tokens ({t['tokens_in']} requests + {t['tokens_out']} results, "
          f"{t['counted_with']}), {t['seconds']} s in calls", end="")
    return t


def main(argv: list[str]) -> int:
    import anyio

    auto = "--auto" in argv
    argv = [a for a in argv if a != "--auto"]
    folder = Path(argv[0] if argv else NAME)
    if folder.exists() and any(folder.iterdir()):
        print(f"{folder} is not empty; give a new folder", file=sys.stderr)
        return 2
    try:
        rows = anyio.run(build, folder, None, auto)
    except ToolError as e:  # e.g. service-unavailable: kicad-cli is needed for ERC, DRC and fab
        print(f"the build stopped: {e}", file=sys.stderr)
        return 1
    print_calls(rows)
    print(f"; files in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
