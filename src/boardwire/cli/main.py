"""``boardwire`` on the command line.

Human verbs print for people (rich tables); ``--json`` prints the same data for
programs. Errors print one line with the stable code; exit statuses follow one rule
(`cli.common`: 0 success, 2 a wrong command line, 3 a check that found errors, the
code's status for an error, 130 Ctrl-C outside a command).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from ..errors import EXIT_INTERRUPTED, BoardwireError, Cancelled, IOFailure, NoDocument
from .common import exit_for, fail, print_json, run_command

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="boardwire: KiCad documents for agents and scripts.")


def _print_version(value: bool) -> None:
    if value:
        from .. import __version__

        print(f"boardwire {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                        help="Print the version and exit.")) -> None:
    """boardwire: KiCad documents for agents and scripts."""


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
        if not target.is_file():
            raise NoDocument(f"no file {path}", hint="Give the path of an existing KiCad file (or 'example').")
        doc = open_document(target)
        summary = doc.summary()
    except BoardwireError as e:
        fail(e, as_json)
    except OSError as e:
        fail(IOFailure(str(e)), as_json)
    summary = {"file": str(target), **summary}
    if as_json:
        print(json.dumps(summary, indent=2))
        return
    table = Table(title=target.name, show_header=False, title_justify="left")
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    for key, value in summary.items():
        if isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value)) if value else "-"
        elif isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items()) or "-"
        table.add_row(key.replace("_", " "), str(value))
    Console().print(table)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def parse_json_args(args: str) -> dict:
    """Command arguments from the command line: JSON text, or ``@file.json``. Strict
    JSON: NaN and Infinity are refused, and so is nesting deeper than Python can read."""
    from ..errors import InvalidArgs

    def bad(msg: str) -> InvalidArgs:
        return InvalidArgs(f"arguments: {msg}", errors=[{"loc": "(arguments)", "msg": msg, "type": "json"}])

    text = args
    if args.startswith("@"):
        try:
            text = Path(args[1:]).read_text()
        except (OSError, UnicodeDecodeError) as e:
            raise bad(f"cannot read {args[1:]}: {e}") from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        raise bad(f"not JSON ({str(e)[:200]})") from None


@app.command()
def call(command_id: str = typer.Argument(..., help="Command id, e.g. pcb.addTrack"),
         args: str = typer.Argument("{}", help="Arguments as a JSON object (or @file.json)"),
         no_save: bool = typer.Option(False, "--no-save", help="Do not save changed documents"),
         root: str = typer.Option(".", "--root", help="Working directory of the session")):
    """Run any registry command; the JSON result goes to stdout. Exit status: 0, 3 when
    a check it ran found errors (check.drc/check.erc with errors, design.check not ok,
    a build not clean), else the error code's (docs/commands.md).

    Each call is its own session: documents are read, changed, saved. Undo history and
    `revision` checks span the calls of one session (a server, or a script)."""
    try:
        result = run_command(command_id, parse_json_args(args), save=not no_save, root=root)
    except BoardwireError as e:
        fail(e, True)
    except OSError as e:  # saving: the file system said no
        fail(IOFailure(str(e)), True)
    except KeyboardInterrupt:  # Ctrl-C: said as the cancelled code, not a bare 130
        fail(Cancelled(f"{command_id}: interrupted before it ended; nothing was saved"), True)
    print_json(result)
    exit_for(command_id, result)


@app.command()
def drc(path: str = typer.Argument(..., help="Board file"),
        as_json: bool = typer.Option(False, "--json")):
    """KiCad's DRC of a board, summarised (the full report with --json)."""
    try:
        result = run_command("check.drc", {"path": path}, save=False, root=".")
    except BoardwireError as e:
        fail(e, as_json)
    if as_json:
        print_json(result)
        exit_for("check.drc", result)
        return
    Console().print(result["summary"])
    table = Table(show_header=True, title_justify="left")
    table.add_column("type")
    table.add_column("count", justify="right")
    for t, n in result["by_type"].items():
        table.add_row(t, str(n))
    Console().print(table)
    exit_for("check.drc", result)


@app.command()
def build(design: str = typer.Argument(..., help="A design JSON file (see `boardwire call design.brief`)"),
          out: str = typer.Option("builds", "--out", help="Folder of the version folders (OUT/NAME/vNNN)"),
          until: str = typer.Option(None, "--until", help="Stop after this stage"),
          as_json: bool = typer.Option(False, "--json", help="Print the whole result as JSON")):
    """Build a design document into a new version folder: schematic, ERC, board, placement, routing, DRC, verdict, fab."""
    args = {"file": design, "out": out} | ({"until": until} if until else {})
    try:
        result = run_command("design.build", args, save=True, root=".")
    except BoardwireError as e:
        fail(e, as_json)
    if as_json:
        print_json(result)
    else:
        table = Table(show_header=True, title=result["summary"], title_justify="left")
        for col in ("stage", "status", "seconds", "summary"):
            table.add_column(col)
        for st in result["stages"]:
            table.add_row(st["stage"], st["status"], f"{st['seconds']:.1f}", st["summary"][:100])
        Console().print(table)
    exit_for("design.build", result)


@app.command()
def render(path: str = typer.Argument(..., help="Board file"),
           output: str = typer.Option("render.png", "-o", "--output"),
           view: str = typer.Option("2d", help="2d or 3d"),
           layers: str = typer.Option("", help="2D layers, comma separated")):
    """Render a board to PNG (2D layers or 3D)."""
    args = {"path": path, "view": view, "output": output}
    if layers:
        args["layers"] = layers.split(",")
    try:
        result = run_command("render.png", args, save=False, root=".")
    except BoardwireError as e:
        fail(e)
    Console().print(f"{result['summary']} -> {result.get('output')}")


@app.command()
def doctor():
    """What boardwire finds of KiCad here (kicad-cli, pcbnew for zone filling)."""
    from ..kicad.cli import doctor as probe
    from ..kicad.cli import library_tables
    from ..kicad.pcbnew import pcbnew_python

    report = probe()
    report["pcbnew_python"] = pcbnew_python()
    report["library_tables"] = library_tables()
    print_json(report)


@app.command()
def serve(stdio: bool = typer.Option(False, "--stdio", help="Serve one client on stdin/stdout (the default)"),
          socket: str = typer.Option(None, "--socket", help="Serve many clients on this Unix socket instead"),
          open_: list[str] = typer.Option([], "--open", help="Open this document at start (repeatable)"),
          auto_save: bool = typer.Option(False, "--auto-save", help="Save each modified document after each call"),
          attach: bool = typer.Option(False, "--attach", help="Attach the board open in KiCad's PCB editor (IPC API; docs/bridge.md)"),
          root: str = typer.Option(".", "--root", help="Working directory of the session")):
    """JSON-RPC 2.0 server (docs/jsonrpc.md): every command is a method; LSP framing, or
    one JSON message per line when the client starts with { or [."""
    if stdio and socket:
        raise typer.BadParameter("choose --stdio or --socket, not both", param_hint="--socket")
    from ..protocols.jsonrpc import (
        run as serve_jsonrpc,  # lazy: `boardwire info` stays fast
    )

    try:
        hook = None
        if attach:
            from ..commands import REGISTRY
            from ..session.live import attach_hook
            hook = attach_hook(REGISTRY)
        serve_jsonrpc(root=root, socket_path=socket, open_paths=tuple(open_), auto_save=auto_save, attach=hook)
    except BoardwireError as e:
        fail(e)


@app.command()
def bridge(host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback by default)"),
           port: int = typer.Option(8766, "--port", min=0, max=65535, help="TCP port (0: any free port)"),
           open_: list[str] = typer.Option([], "--open", help="Open this document at start (repeatable)"),
           pair: bool = typer.Option(False, "--pair", help="Require pairing; prints a new pairing token once"),
           max_payload: int = typer.Option(None, "--max-payload", min=1024, help="Largest incoming message, bytes (default 16 MiB)"),
           allow_origin: list[str] = typer.Option([], "--allow-origin", help="An extra allowed browser Origin (repeatable)"),
           attach: bool = typer.Option(False, "--attach", help="Attach the board open in KiCad's PCB editor (IPC API)"),
           auto_save: bool = typer.Option(False, "--auto-save", help="Save each modified document after each call"),
           dev: bool = typer.Option(False, "--dev", help="Announce devMode in the hello"),
           root: str = typer.Option(".", "--root", help="Working directory of the session")):
    """WebSocket bridge for editor extensions (docs/bridge.md): a versioned handshake,
    then JSON-RPC 2.0 on every command, document.changed pushed."""
    from ..protocols.bridge import (
        run as run_bridge,  # lazy: `boardwire info` stays fast
    )

    try:
        hook = None
        if attach:
            from ..commands import REGISTRY
            from ..session.live import attach_hook
            hook = attach_hook(REGISTRY)
        run_bridge(root=root, host=host, port=port, open_paths=tuple(open_), pair=pair, max_payload=max_payload,
                   allow_origins=tuple(allow_origin), auto_save=auto_save, dev_mode=dev, attach=hook)
    except BoardwireError as e:
        fail(e)


@app.command()
def view(open_: list[str] = typer.Option([], "--open", help="Open this document at start (repeatable)"),
         host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback unless --keys)"),
         port: int = typer.Option(8767, "--port", min=0, max=65535, help="TCP port (0: any free port)"),
         keys: bool = typer.Option(False, "--keys", help="Require a key of `boardwire mcp keys add` (each key its own workspace)"),
         allow_origin: list[str] = typer.Option([], "--allow-origin", help="An extra allowed browser Origin (repeatable)"),
         agent_command: str = typer.Option(None, "--agent-command", help="Run this for chat requests no agent takes (request on stdin, its output the answer)"),
         toolset: str = typer.Option("all,agent", "--toolset", help="MCP tool groups served at /mcp"),
         browser: bool = typer.Option(False, "--browser", help="Open the page in the default browser"),
         root: str = typer.Option(".", "--root", help="Working directory of the session")):
    """The live view in the browser (board, schematic sheets, ratsnest, DRC markers, the
    agent chat box) and MCP over HTTP at /mcp on the same session."""
    from ..web.server import serve  # lazy: `boardwire info` stays fast

    if not keys and host not in ("127.0.0.1", "localhost", "::1"):
        from ..errors import PolicyDenied

        fail(PolicyDenied("without --keys the view is served on a loopback address only",
                          hint="Pass --keys (each client then needs a key of `boardwire mcp keys add`), or serve on 127.0.0.1."))

    def announce(url: str) -> None:
        if browser:
            import webbrowser
            webbrowser.open(f"{url}/view/")

    sets = [t.strip() for t in toolset.split(",") if t.strip()]
    try:
        serve(root, host=host, port=port, toolsets=sets, allow_origins=tuple(allow_origin), auth=keys,
              open_paths=tuple(open_), agent_command=agent_command, announce=announce)
    except BoardwireError as e:
        fail(e)


@app.command("run")
def run_script_command(
        script: str = typer.Argument(..., help="The Python script to run"),
        script_args: list[str] = typer.Argument(None, metavar="[-- ARGS]...", help="The script's sys.argv[1:] (after --)"),
        board: str = typer.Option(None, "--board", help="Open this board first; the default of board.*"),
        schematic: str = typer.Option(None, "--schematic", help="Open this schematic first; the default of sch.*"),
        no_save: bool = typer.Option(False, "--no-save", help="Do not save modified documents at the end"),
        as_json: bool = typer.Option(False, "--json", help="Print a JSON summary on stdout (the script's prints go to stderr)"),
        root: str = typer.Option(".", "--root", help="Working directory of the session")):
    """Run a Python script with a live session (`from boardwire.api import board, ...`).

    Every modified document is saved when the script ends, unless --no-save; if it
    raises, nothing is saved, the traceback goes to stderr and the exit status is the
    error's (a BoardwireError's code, 1 otherwise)."""
    from ..api.script import run_script  # lazy: `boardwire info` stays fast

    raise typer.Exit(run_script(script, list(script_args or ()), root=root, board=board, schematic=schematic,
                                save=not no_save, as_json=as_json))


@app.command()
def version():
    """Print boardwire's version."""
    from .. import __version__

    print(__version__)


@app.command()
def demo(out: str = typer.Option("boardwire-demo", "--out", help="Folder for the edited board, render and transcript."),
         as_json: bool = typer.Option(False, "--json", help="Print the transcript as JSON.")):
    """The main job: an MCP client drives `boardwire mcp` on a copy of KiCad's ecc83 demo board."""
    from .demo import run

    raise typer.Exit(run(Path(out).resolve(), as_json))


from .mcp_cmd import mcp_app  # noqa: E402 - registered after the app exists

app.add_typer(mcp_app, name="mcp")

from .parts_cmd import parts_app  # noqa: E402

app.add_typer(parts_app, name="parts")

from .kicad_cmd import kicad_app  # noqa: E402

app.add_typer(kicad_app, name="kicad")

from .log_cmd import log_command  # noqa: E402

app.command("log")(log_command)

from .worker_cmd import worker_command  # noqa: E402

app.command("worker")(worker_command)


def _one_line_summaries(typer_app: typer.Typer) -> None:
    """Each command's line in ``--help``: its docstring's first paragraph on one line
    (the docstrings are wrapped at 90 columns; the help table wraps them again)."""
    for info in typer_app.registered_commands:
        doc = (info.help or (info.callback.__doc__ if info.callback else None) or "").strip()
        if info.short_help is None and doc:
            info.short_help = " ".join(doc.split("\n\n")[0].split())
    for group in typer_app.registered_groups:
        _one_line_summaries(group.typer_instance)


_one_line_summaries(app)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    main()
