"""Firmware for the board on the desk (C7): ESP32-class boards.

Build systems (`project`, `build`, `diagnostics`, `partitions`, `scaffold`), the
flashing tool (`esp`: esptool), serial ports (`devices`), leases shared through a hub
socket (`leases`), the agent policy for boards (`policy`), the serial monitor shaped for
a model (`monitor`: events, panics decoded against the ELF, boots and reset loops,
recordings) and the MCU's pins read from the KiCad schematic (`pins`).

A layer of its own: it imports `errors` and `netlist` below it, never `commands`,
`protocols` or `session`. Child processes run in their own process group
(`process`), so cancelling a build kills everything it started.
"""
