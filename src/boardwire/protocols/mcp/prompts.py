"""The server's instructions and its prompts (MCP spec 2025-11-25, "Prompts").

Texts name tools by their MCP names; a test checks that every name exists."""

from __future__ import annotations

import mcp_types as types

from .tools import SHARED_ARGS
from .toolsets import ENABLE_TOOL, FAMILY_NOTES, families

INSTRUCTIONS = (
    "boardwire edits KiCad 9 boards and schematics in one in-memory session with undo; "
    "files change on disk only when you call session_save. Units: mm and degrees, KiCad axes "
    "(x right, y down). Arguments shared by most tools: "
    + "; ".join(f"`{k}` is {v}" for k, v in SHARED_ARGS.items())
    + ". The usual path: project_new or session_open; query_describe, then query_items, query_nets "
    "(paged with limit/offset); schematic: lib_search, sch_placeSymbol, sch_wire, sch_label, "
    "sch_annotate, check_erc; board: project_updatePcb, pcb_placeFootprint, pcb_move, pcb_route or "
    "pcb_autoroute, pcb_addZone and pcb_fillZones, check_drc (KiCad's own DRC on the in-memory "
    "board); render_png to look; fab_package for the factory; session_save. Every edit is one undo "
    "step (session_undo); session_batch groups steps. The tools listed are the designer's path; "
    f"{{ENABLE}} adds a family: {{FAMILIES}}. Errors come back as isError results with "
    "{error: {code, message, hint}}: follow the hint. Ask a person only when an error carries "
    "needs_human {action, message} (KiCad missing, a file open in KiCad, a board to plug in). Long calls "
    "(DRC, ERC, fills, renders, fab, autoroute, builds) not done within wait_s (default 25 s) answer "
    "{job, state: running}: call job_wait for the same result, job_cancel to stop. Open documents are resources "
    "(boardwire://doc/{path}/{view})."
).replace("{ENABLE}", ENABLE_TOOL).replace("{FAMILIES}", ", ".join(
    f"{name} ({FAMILY_NOTES.get(name, name + ' tools')})" for name in families()))

PROMPTS = {
    "design-workflow": (
        "The steps from a schematic to fabrication files, with the tools for each",
        [types.PromptArgument(name="board", description="Board file (path in the working directory)",
                              required=True)],
        """Work on {board} step by step, checking each step before the next:
1. Understand it: query_describe (size, layers, counts, unrouted), query_nets, query_netclasses.
2. Schematic: place symbols, wire them, annotate; check with check_erc when available.
3. Board update: bring new footprints over with pcb_placeFootprint (library ids Lib:Name) and pad nets with pcb_setPadNet.
4. Place: pcb_move, pcb_rotate, pcb_flip; keep courtyards apart; pcb_outline for the board edge.
5. Route: query_unrouted lists the missing connections; pcb_route (with layer changes and vias) or pcb_addTrack; pcb_addZone then pcb_fillZones for planes.
6. Check: check_drc; fix errors and unconnected items, re-run until clean. render_png to look.
7. Save: session_save. Use session_undo to step back at any time.""",
    ),
    "design-pipeline": (
        "From an intent to a fabricated board: brief, parts, check, build, verdict, fabrication",
        [types.PromptArgument(name="goal", description="What the board must do, e.g. 'USB-C 5 V to 3.3 V breakout'",
                              required=True)],
        """Design a board for: {goal}. Work in stages and check each answer before the next:
1. design_brief: the design document's schema, its checks, the build stages, an example.
2. Parts: parts_search for each part (value, package, part number); the row marked > is the one to use; when the catalogue lacks a part, take a KiCad symbol/footprint from its library candidates. parts_pins maps a part's pins to its symbol and footprint.
3. Write the design: components (ref, symbol or part, value, footprint), nets as REF.PIN lists (every pin in a net or in no_connect), power nets, board size, constraints (edge connectors, pinned parts).
4. design_check: fix every error it lists (each says how) until it is ok.
5. design_build: one call runs project, schematic, ERC, board update, outline, placement, routing, ground plane, DRC, verdict and fabrication into a new version folder.
6. Read the verdict: ERC and DRC errors, unconnected items, the rubric (decoupling distances, connectors at the edge). Change the design (or pin parts, or router settings with design_rebuild) and build again until clean; design_verdict judges a board you changed by hand the same way.
7. A clean build has fab/fab.zip with the BOM and placement files: report the version folder.""",
    ),
    "fix-drc": (
        "Fix the DRC violations of a board, one class at a time",
        [types.PromptArgument(name="board", description="Board file", required=True)],
        """Run check_drc on {board}. Group the violations by type and fix the most frequent type first:
- unconnected items: query_unrouted gives the pairs; route them with pcb_route or pcb_addTrack on the net named.
- clearance / shorting: move the track or footprint (pcb_move) or delete the offending item (pcb_delete with its id), then re-route.
- courtyard overlap: pcb_move one of the footprints clear of the other.
- silkscreen issues are warnings: fix only if asked.
After each group, run check_drc again and compare counts. Never hide a violation by editing design rules unless the user asks; say what you changed.""",
    ),
    "editor-chat": (
        "Serve the chat box of the live view (boardwire view): take requests, work, answer",
        [],
        """A person types requests in the chat box of boardwire's live view (the page shows the board and schematic as you edit). Serve it in a loop:
1. agent_chat with wait (up to 600 s) returns the pending requests [{chatId, text, path, at}]; each is yours until you finish it.
2. Do what it asks with the other tools, on its path when it names one. Every edit you make meanwhile is listed on the page's answer card with its undo, so make each change a command of its own.
3. Report as you go: agent_reply {chatId, progress, percent}; then agent_reply {chatId, text: what you did and what you found, done: true}, or {chatId, error} if you cannot.
4. Call agent_chat again for the next request.
(These tools are in the toolset `agent`: boardwire mcp --toolset all,agent.)""",
    ),
}


def list_prompts() -> list[types.Prompt]:
    return [types.Prompt(name=name, description=desc, arguments=args) for name, (desc, args, _) in PROMPTS.items()]


def get_prompt(name: str, arguments: dict | None) -> types.GetPromptResult:
    """Raises KeyError for an unknown prompt, ValueError for a missing argument."""
    desc, args, text = PROMPTS[name]
    values = dict(arguments or {})
    missing = [a.name for a in args if a.required and a.name not in values]
    if missing:
        raise ValueError(f"prompt {name} needs {', '.join(missing)}")
    return types.GetPromptResult(description=desc, messages=[types.PromptMessage(
        role="user", content=types.TextContent(text=text.format(**values)))])
