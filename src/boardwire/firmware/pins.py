"""The MCU's pins from the board's schematic (fw.pins): each pin's GPIO number, the
net it is on (KiCad's name) and what else is on that net, said the way a firmware
author needs it: an LED through a resistor, a pull-up or pull-down, a button to
ground, a capacitor, another chip's pin, a connector pin.

Input is `boardwire.netlist.schematic.SchematicConnectivity` (KiCad 9's connectivity
rules); the MCU is the symbol named, else the one whose value or library id names an
ESP32/ESP8266, else the one with the most ``GPIO`` pins. Parts are recognised by
KiCad's reference designator conventions (R, C, L, D/LED, SW/S/BUT, J/P/CON/UEXT)
and library ids (``Device:LED``, ``Switch:SW_Push``).
"""

from __future__ import annotations

import re

from ..errors import NotFound
from ..netlist.net_names import POWER_NAME as _POWER_NAME
from ..netlist.schematic import Net, PinNode, PlacedSymbol, SchematicConnectivity, natural_key

_MCU = re.compile(r"ESP32|ESP8266|ESP-?WROOM|ESP-?WROVER", re.I)
_GPIO = re.compile(r"(?:^|[/(\s])(?:GPIO|GPI|IO)(\d{1,2})(?=$|[/)\s_])")


def _ref_class(s: PlacedSymbol) -> str:
    ref = re.sub(r"\d.*$", "", s.reference).upper()
    lib = s.view.lib_id.upper()
    if "LED" in lib or ref in ("LED", "D") and "LED" in (s.view.value or "").upper():
        return "led"
    if ref in ("SW", "S", "BUT", "BTN", "KEY") or re.search(r"SW_PUSH|BUTTON|SWITCH", lib):
        return "button"
    if ref in ("R", "RN", "RA") or lib.startswith("DEVICE:R"):
        return "resistor"
    if ref == "C" or lib.startswith("DEVICE:C"):
        return "capacitor"
    if ref in ("L", "FB") or lib.startswith("DEVICE:L"):
        return "inductor"
    if ref == "D":
        return "diode"
    if ref in ("J", "P", "CON", "CN", "UEXT", "X") or "CONN" in lib:
        return "connector"
    if ref in ("Y", "XTAL", "Q") and "CRYSTAL" in lib:
        return "crystal"
    return "part"


def power_nets(conn: SchematicConnectivity) -> set[str]:
    names = {p.net.name for p in conn.pins if p.is_power and p.net is not None}
    return names | {n.name for n in conn.nets if _POWER_NAME.search(n.name)}


def find_mcu(conn: SchematicConnectivity, reference: str | None = None) -> str:
    """The MCU's reference; raises NotFound."""
    refs = {s.reference: s for s in conn.symbols if s.in_netlist}
    if reference is not None:
        if reference not in refs:
            raise NotFound(f"no symbol {reference!r} in the schematic", hint="query.symbols lists them.")
        return reference
    named = [r for r, s in refs.items() if _MCU.search(f"{s.view.value} {s.view.lib_id}")]
    gpio_count = {r: sum(1 for p in conn.pins if p.reference == r and gpio_of(p.name) is not None) for r in refs}
    pool = named or [r for r, n in gpio_count.items() if n >= 4]
    if not pool:
        raise NotFound("no ESP32-class MCU in the schematic (no symbol names ESP32 or has GPIO pins)",
                       hint="Name the MCU's reference.")
    return max(pool, key=lambda r: (gpio_count[r], r))


def gpio_of(name: str) -> int | None:
    m = _GPIO.search(name)
    return int(m[1]) if m else None


def _label(s: PlacedSymbol) -> str:
    return f"{s.reference} ({s.view.value})" if s.view.value and s.view.value != s.reference else s.reference


def _other_net(s: PlacedSymbol, via: Net, conn_pins: dict[int, list[PinNode]]) -> Net | None:
    others = [p.net for p in conn_pins.get(id(s), []) if p.net is not None and p.net is not via]
    return others[0] if len(set(map(id, others))) == 1 else None


def describe_net(net: Net, mcu: str, conn_pins: dict[int, list[PinNode]], power: set[str]) -> list[str]:
    """What is on ``net`` besides the MCU, one phrase per part."""
    out = []
    seen = set()
    for p in net.netlist_pins:
        s = p.symbol
        if s.reference == mcu or s.reference in seen:
            continue
        seen.add(s.reference)
        kind = _ref_class(s)
        far = _other_net(s, net, conn_pins) if kind in ("resistor", "capacitor", "button", "led",
                                                           "inductor", "diode") else None
        far_name = far.name if far is not None else None
        if kind == "resistor" and far is not None:
            leds = [q.symbol for q in far.netlist_pins if q.symbol is not s and _ref_class(q.symbol) == "led"]
            if far_name in power:
                up = not re.search(r"GND|VSS", far_name, re.I)
                out.append(f"{'pull-up' if up else 'pull-down'} {_label(s)} to {far_name}")
            elif leds:
                out.append(f"LED {leds[0].reference} through {_label(s)}")
            else:
                out.append(f"{_label(s)} to {far_name}")
        elif kind == "button":
            out.append(f"button {_label(s)}" + (f" to {far_name}" if far_name else ""))
        elif kind == "led":
            out.append(f"LED {_label(s)}" + (f" to {far_name}" if far_name else ""))
        elif kind in ("capacitor", "inductor", "diode") and far_name:
            out.append(f"{kind} {_label(s)} to {far_name}")
        else:
            names = sorted({f"{q.reference}.{q.number}" + (f" {q.name}" if q.name not in ("", "~", q.number) else "")
                            for q in net.netlist_pins if q.symbol is s}, key=natural_key)
            out.append(f"{kind if kind != 'part' else s.view.value} {', '.join(names)}")
    return out


def mcu_pins(conn: SchematicConnectivity, reference: str | None = None, *, gpio_only: bool = False) -> dict:
    """{mcu: {reference, value, lib_id}, pins: [{number, name, gpio?, type, net,
    on_net: [phrases], parts: [REF.PIN]}]} in pin-number order."""
    ref = find_mcu(conn, reference)
    by_symbol: dict[int, list[PinNode]] = {}
    for p in conn.pins:
        by_symbol.setdefault(id(p.symbol), []).append(p)
    power = power_nets(conn)
    rows, seen = [], set()
    sym = None
    for p in conn.pins:
        if p.reference != ref or (p.number in seen):
            continue
        sym = p.symbol
        seen.add(p.number)
        g = gpio_of(p.name)
        if gpio_only and g is None:
            continue
        row = {"number": p.number, "name": p.name, "type": p.type}
        if g is not None:
            row["gpio"] = g
        net = p.net
        if net is not None:
            row["net"] = net.name
            if net.name in power:
                row["power"] = True
            else:
                row["on_net"] = describe_net(net, ref, by_symbol, power)
                row["parts"] = [n for n in net.nodes if not n.startswith(f"{ref}.")]
        rows.append(row)
    rows.sort(key=lambda r: natural_key(r["number"]))
    head = {"reference": ref}
    if sym is not None:
        head.update(value=sym.view.value, lib_id=sym.view.lib_id)
    return {"mcu": head, "pins": rows}


def markdown(table: dict) -> str:
    """The pins as a Markdown table (AGENTS.md)."""
    m = table["mcu"]
    lines = [f"MCU {m['reference']} {m.get('value', '')} ({m.get('lib_id', '')})", "",
             "| pin | GPIO | net | on the net |", "|---|---:|---|---|"]
    for r in table["pins"]:
        if r.get("power") or r.get("net", "").startswith("unconnected-"):
            continue
        lines.append(f"| {r['number']} {r['name'].split('/')[0]} | {r.get('gpio', '')} | {r.get('net', '')} "
                     f"| {'; '.join(r.get('on_net', []))} |")
    return "\n".join(lines)
