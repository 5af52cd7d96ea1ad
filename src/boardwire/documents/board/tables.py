"""A board's tables: its nets and its layers."""

from __future__ import annotations

# The longest net name boardwire's commands accept (characters). KiCad sets no limit
# (a wxString); the longest in the corpus and the KiCad 9 demos is far below this, and
# a bound keeps a runaway argument from reaching files, nets tables and tool results.
MAX_NET_NAME = 1000


def bounded_net_name(name: str) -> str:
    """``name`` if it is at most `MAX_NET_NAME` characters; ValueError otherwise (an
    argument validator: the registry reports it as invalid-args naming the argument)."""
    if len(name) > MAX_NET_NAME:
        raise ValueError(f"a net name is at most {MAX_NET_NAME} characters, not {len(name)}")
    return name


class Net:
    __slots__ = ("number", "name")

    def __init__(self, number: int, name: str):
        self.number, self.name = number, name

    def __repr__(self) -> str:
        return f"Net({self.number}, {self.name!r})"


class Layer:
    """One entry of the board's layer table: ``(0 "F.Cu" signal "top_copper")``."""

    __slots__ = ("ordinal", "name", "type", "user_name")

    def __init__(self, ordinal: int, name: str, type_: str, user_name: str | None):
        self.ordinal, self.name, self.type, self.user_name = ordinal, name, type_, user_name

    @property
    def is_copper(self) -> bool:
        # By type, not name: KiCad 5 boards may rename copper layers ("C1F").
        return self.type in ("signal", "power", "mixed", "jumper")

    def __repr__(self) -> str:
        return f"Layer({self.ordinal}, {self.name!r}, {self.type!r})"


