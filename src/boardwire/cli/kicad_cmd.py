"""``boardwire kicad``: the running KiCad editor (install the plugin, attach the bridge)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from .common import fail

kicad_app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                        help="KiCad's PCB editor, live (docs/bridge.md).")


@kicad_app.command("install-plugin")
def install_plugin(target: str = typer.Option(None, "--dir", help="Plugin folder (default: KiCad 9's user plugin folder)")):
    """Install the boardwire toolbar button into KiCad 9's PCB editor (an IPC API plugin)."""
    from ..kicad.ipc.plugin import install

    folder = install(target)
    print(f"installed {folder}\nRestart the PCB editor (Preferences > Plugins: enable the KiCad API); "
          f"the boardwire button then starts `boardwire kicad attach` on the open board.")


@kicad_app.command("attach")
def attach(host: str = typer.Option("127.0.0.1", "--host"),
           port: int = typer.Option(8766, "--port", min=0, max=65535),
           socket: str = typer.Option(None, "--kicad-socket", help="KiCad's API socket (default: KICAD_API_SOCKET, then $TMPDIR/kicad/api.sock)"),
           log: bool = typer.Option(False, "--log", help="Write diagnostics to .boardwire/bridge.log in the board's folder")):
    """Serve the bridge from the folder of the board open in KiCad, with that board attached."""
    from ..commands import REGISTRY
    from ..errors import BoardwireError
    from ..kicad.ipc.editor import Editor
    from ..protocols.bridge import run as run_bridge
    from ..session.live import attach as live_attach

    try:
        editor = Editor(socket).connect(wait_s=10)
        folder = Path(editor.board_path()).parent
        if log:
            (folder / ".boardwire").mkdir(exist_ok=True)
            sys.stderr = open(folder / ".boardwire" / "bridge.log", "a", buffering=1)

        def hook(session):
            live = live_attach(session, editor, registry=REGISTRY)
            return ["kicad.live"], live.detach

        run_bridge(root=str(folder), host=host, port=port, attach=hook)
    except BoardwireError as e:
        fail(e)
