"""``boardwire log``: the workspace's audit log (.boardwire/session.jsonl) for people."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer

from ..errors import NotFound


def log_command(since: str = typer.Option(None, "--since", help="A span back (90s, 10m, 2h, 1d) or an ISO time"),
                command: str = typer.Option(None, "--command", help="A command id, or a prefix: pcb.* or pcb."),
                errors: bool = typer.Option(False, "--errors", help="Only failed calls"),
                as_json: bool = typer.Option(False, "--json", help="One JSON line per call, as logged"),
                root: str = typer.Option(".", "--root", help="The workspace whose log to read")):
    """Every call through every door (MCP, JSON-RPC, bridge, script API, CLI), oldest first."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from ..session import audit

    try:
        start = audit.parse_since(since) if since else None
    except ValueError as e:
        Console(stderr=True).print(f"[red]error[/red] usage: --since: {e}")
        raise typer.Exit(2)
    if not Path(root).is_dir():
        Console(stderr=True).print(f"[red]error[/red] not-found: no workspace folder {escape(root)}")
        raise typer.Exit(NotFound.exit_status)
    lines = audit.read(root, since=start, command=command, errors=errors)
    if as_json:
        for line in lines:
            print(json.dumps(line, ensure_ascii=False))
        return
    table = Table(show_edge=False, pad_edge=False)
    for name in ("time", "door", "client", "command", "s", "result"):
        table.add_column(name, justify="right" if name == "s" else "left", overflow="fold")
    def shown(text) -> str:  # what a client wrote, as text: no markup, no terminal control
        return escape(audit.printable(text))

    for x in lines:
        result = (f"[red]{shown(x['error'])}[/red] {shown(x.get('message') or '')}" if x.get("error")
                  else shown(x.get("summary") or ""))
        if x.get("state") == "started":
            result = "[yellow]no end logged[/yellow]: still running, or its process was killed"
        table.add_row(time.strftime("%m-%d %H:%M:%S", time.localtime(x.get("time", 0))), shown(x.get("door", "")),
                      shown(x.get("client") or x.get("actor") or ""),
                      shown(x.get("command", "") + (f" ({x['job']})" if x.get("job") else "")),
                      f"{x['seconds']:.2f}" if "seconds" in x else "", result)
    Console().print(table)
