"""``boardwire`` on the command line.

Human verbs print for people (rich tables); ``--json`` prints the same data for
programs. Errors print one line with the stable code and exit 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from ..errors import BoardwireError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="boardwire: KiCad documents for agents and scripts.")
err = Console(stderr=True, soft_wrap=True, highlight=False)


def example_board() -> Path:
    """The small board bundled with the package (used by the README's first command)."""
    return Path(__file__).resolve().parent.parent / "examples" / "blinker" / "blinker.kicad_pcb"


@app.command()
def info(path: str = typer.Argument(..., help="A KiCad file, or 'example' for the bundled board."),
         as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")):
    """One-screen summary of a board, schematic, library, rules, table or project."""
    from ..documents import open_document

    target = example_board() if path == "example" else Path(path)
    try:
        doc = open_document(target)
        summary = doc.summary()
    except BoardwireError as e:
        err.print(f"[red]error[/red] {e.code}: {e.message}")
        raise typer.Exit(2)
    except OSError as e:
        err.print(f"[red]error[/red] io-error: {e}")
        raise typer.Exit(2)
    summary = {"file": str(target), **summary}
    if as_json:
        print(json.dumps(summary, indent=2))
        return
    table = Table(title=target.name, show_header=False, title_justify="left")
    for key, value in summary.items():
        if isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value)) if value else "-"
        elif isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items()) or "-"
        table.add_row(key.replace("_", " "), str(value))
    Console().print(table)


@app.command()
def version():
    """Print boardwire's version."""
    from .. import __version__

    print(__version__)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
