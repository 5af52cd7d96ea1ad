"""Which tools a client sees: the default set, the families, and the in-band tool
that adds a family to a running session.

Tool choice degrades past 30 to 50 tools and clients without tool search send every
schema on every turn (shared/MCP-NOTES.md), so `boardwire mcp` serves the designer's
path by default (DEFAULT_TOOLS, at most DEFAULT_MAX_TOOLS tools and
DEFAULT_TOKEN_BUDGET tokens, both enforced by tests/protocols/test_mcp.py) and every
other command stays one call away: ``--toolset NAME,...`` at start, or the
``toolset_enable`` tool, after which the server sends
``notifications/tools/list_changed`` (MCP spec 2025-11-25, "Tools / List Changed
Notification").

Families group command scopes (FAMILY_SCOPES); a scope no family names is a family
of its own, named after the scope, so a new command family is reachable without
touching this file. A new command joins the default set only when its id is added
to DEFAULT_TOOLS, here and nowhere else.
"""

from __future__ import annotations

import threading

from ...registry.command import Command
from .tools import _by_name, tool_dict

# The designer's path: open, describe, query, the common edits, checks, the design
# pipeline and its parts, a look, fabrication (pcb.addTrack is left to pcb.route, which
# does the same and changes layer). The only declaration of the default set; ids, in the order listed.
DEFAULT_TOOLS: tuple[str, ...] = (
    "session.open", "session.save", "session.undo", "session.batch",
    "query.describe", "query.items", "query.nets", "query.pads", "query.unrouted",
    "lib.search", "lib.symbol",
    "project.new", "project.updatePcb",
    "sch.placeSymbol", "sch.wire", "sch.label", "sch.power", "sch.annotate",
    "pcb.placeFootprint", "pcb.move", "pcb.rotate", "pcb.delete", "pcb.outline",
    "pcb.route", "pcb.addVia", "pcb.addZone", "pcb.fillZones", "pcb.autoplace", "pcb.autoroute",
    "check.erc", "check.drc",
    "parts.search", "design.brief", "design.check", "design.build",
    "render.png",
    "fab.package", "job.wait", "job.cancel",
)
DEFAULT_MAX_TOOLS = 40
DEFAULT_TOKEN_BUDGET = 10_000  # the default set with toolset_enable, Claude tokenizer (tools.count_tokens)

# Families: groups of command scopes. Scopes not named here are families of their own.
FAMILY_SCOPES: dict[str, tuple[str, ...]] = {
    "core": ("session", "query", "check", "render"),
    "board": ("pcb",),
    "schematic": ("sch",),
    "library": ("lib",),
    "project": ("project", "fab"),
    "firmware": ("fw",),
}
# What each family is for, in the enable tool's description (a family without a line
# here is described by its scope).
FAMILY_NOTES: dict[str, str] = {
    "core": "sessions, undo, queries, DRC/ERC, renders",
    "board": "every PCB edit: net classes (track width, clearance), design rules, fields, text, graphics, Specctra",
    "schematic": "every schematic edit: sheets, buses, labels, fields, mirror",
    "library": "symbol and footprint libraries",
    "project": "projects, back-annotation, fabrication: Gerbers, drill, bill of materials, pick and place",
    "firmware": "build, flash, serial monitor, pins",
    "parts": "import a parts catalogue file (JLCPCB CSV, jlcparts), a part's pins",
    "design": "design versions: rebuild with changed settings",
    "agent": "the live view's chat box: agent_chat waits for a person's request, agent_reply answers",
}
ENABLE_TOOL = "toolset_enable"
DEFAULT = "default"
ALL = "all"


def families() -> dict[str, tuple[str, ...]]:
    """Every family: FAMILY_SCOPES, then one per registry scope no family names."""
    out = dict(FAMILY_SCOPES)
    named = {s for scopes in FAMILY_SCOPES.values() for s in scopes}
    for cmd in _by_name().values():
        if cmd.scope not in named:
            out.setdefault(cmd.scope, (cmd.scope,))
            named.add(cmd.scope)
    return out


def family_of(cmd: Command) -> str:
    return next(name for name, scopes in families().items() if cmd.scope in scopes)


def known() -> list[str]:
    return [DEFAULT, ALL, *families()]


def select(toolsets: list[str] | None) -> list[Command]:
    """Registry commands of the named toolsets, in registry order: "default" (also for
    None or []) is DEFAULT_TOOLS, "all" every command, any other name a family.

    Raises ValueError naming the known toolsets for an unknown name."""
    toolsets = list(toolsets or [DEFAULT])
    unknown = [t for t in toolsets if t not in known()]
    if unknown:
        raise ValueError(f"unknown toolset {', '.join(unknown)}; known: {', '.join(known())}")
    commands = list(_by_name().values())
    if ALL in toolsets:
        return commands
    fams = families()
    scopes = {s for t in toolsets if t != DEFAULT for s in fams[t]}
    default = set(DEFAULT_TOOLS) if DEFAULT in toolsets else set()
    return [c for c in commands if c.scope in scopes or c.id in default]


def enable_tool(toolsets: list[str] | None = None) -> dict:
    """The MCP tool that adds a family to the session's tool list (its enum names the
    families not yet served in full)."""
    served = {c.id for c in select(toolsets)}
    fams = families()
    missing = [f for f in fams if any(c.id not in served for c in _by_name().values() if c.scope in fams[f])]
    notes = "; ".join(f"{f}: {FAMILY_NOTES.get(f, f + ' tools')}" for f in missing)
    return {
        "name": ENABLE_TOOL,
        "description": f"Add a family of tools to this session, then list tools again. {notes}; all: every tool.",
        "inputSchema": {"type": "object", "properties": {"toolset": {"type": "string", "enum": [*missing, ALL]}},
                        "required": ["toolset"]},
        "annotations": {"readOnlyHint": True},
    }


def tool_list(toolsets: list[str] | None = None) -> list[dict]:
    """The tools served for ``toolsets`` (see `select`), plus ``toolset_enable`` unless
    every command is served. Raises ValueError for an unknown toolset."""
    commands = select(toolsets)
    out = [tool_dict(c) for c in commands]
    if len(commands) < len(_by_name()):
        out.append(enable_tool(toolsets))
    return out


class Served:
    """The toolsets one workspace serves (the tool list is computed once per change);
    ``enable`` adds one. Thread-safe."""

    def __init__(self, toolsets: list[str] | None = None) -> None:
        self.toolsets = list(toolsets or [DEFAULT])
        self._lock = threading.Lock()
        self._refresh()  # raises ValueError for an unknown name

    def _refresh(self) -> None:
        self.tools = tool_list(self.toolsets)
        self.names = frozenset(t["name"] for t in self.tools)

    def enable(self, toolset: str) -> list[str]:
        """Add ``toolset``; returns the tool names it added (empty if all were served).
        Raises ValueError for an unknown toolset."""
        if toolset not in known():
            raise ValueError(f"unknown toolset {toolset}; known: {', '.join(known())}")
        with self._lock:
            before = self.names
            if toolset not in self.toolsets:
                self.toolsets.append(toolset)
                self._refresh()
            return [t["name"] for t in self.tools if t["name"] not in before]


def family_hint(name: str) -> str | None:
    """The family that has tool ``name`` (None for no such tool)."""
    cmd = _by_name().get(name)
    return family_of(cmd) if cmd is not None else None
