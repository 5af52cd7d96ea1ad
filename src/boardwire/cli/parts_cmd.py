"""``boardwire parts``: import a catalogue file into the working directory's catalogue,
and search it from the shell."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from ..errors import BoardwireError
from .common import fail, print_json, run_command

parts_app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                        help="The parts catalogue (.boardwire/parts.sqlite in the working directory; "
                             "until one is imported, the bundled sample).")


@parts_app.command("import")
def import_cmd(file: str = typer.Argument(..., help="A jlcpcb-parts-database CSV or a jlcparts cache.sqlite3"),
               root: str = typer.Option(".", "--root", help="Working directory whose catalogue receives the rows")):
    """Index a catalogue file (a person's own command: the file may be anywhere)."""
    from ..errors import IOFailure, NotFound
    from ..parts.catalogue import import_file
    from ..session.audit import Audit

    path, t0, audit = Path(file), time.monotonic(), Audit(root)

    def record(**kw):  # the person's command is in the workspace's audit log like any call
        audit.record(door="cli", client="cli", actor="cli", command="parts.import", args={"file": file},
                     seconds=time.monotonic() - t0, **kw)
        audit.close()

    try:
        if not path.is_file():
            raise NotFound(f"no file {file}", hint="Give the path of a catalogue file (a jlcpcb-parts-database CSV or a jlcparts SQLite).")
        n = import_file(Path(root), path)
    except (BoardwireError, OSError) as e:
        err = e if isinstance(e, BoardwireError) else IOFailure(str(e))
        if Path(root).is_dir():
            record(error=err)
        fail(err, True)
    out = {"summary": f"{n['rows']} rows from {path.name}; {n['total']} in the catalogue", **n}
    record(result=out)
    print_json(out)


@parts_app.command("search")
def search_cmd(query: str = typer.Argument(...), limit: int = typer.Option(10, "--limit"),
               root: str = typer.Option(".", "--root")):
    """Search the catalogue; prints the compact table."""
    try:
        out = run_command("parts.search", {"query": query, "limit": limit}, save=False, root=root)
    except BoardwireError as e:
        fail(e, True)
    typer.echo(out["summary"])
    typer.echo(out.get("table") or "\n".join(f"{c['kind']} {c['id']}: {c['description']}"
                                             for c in out.get("library_candidates", [])))
