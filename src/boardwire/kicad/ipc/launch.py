"""Start KiCad's PCB editor on a board, isolated and headless (Xvfb), with its API on.

For tests, demos and CI: the editor gets its own ``HOME``, ``KICAD_CONFIG_HOME`` and
``TMPDIR`` (so its API socket is ``TMPDIR/kicad/api.sock``, the only way to choose it
in KiCad 9), the two config files without which first-run dialogs block start-up
(``kicad_common.json`` with the API server enabled, an empty ``fp-lib-table``), and
an X display from ``Xvfb`` (Debian package ``xvfb``). Ready means a real call answers
(``get_board``): the socket file appears long before the board is loaded.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from ...errors import ServiceUnavailable


def _free_display() -> int:
    for n in range(90, 200):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise ServiceUnavailable("no free X display number between :90 and :199")


def write_config(config_home: Path) -> None:
    """KiCad 9's config with the API server enabled and no first-run dialogs."""
    d = config_home / "9.0"
    d.mkdir(parents=True, exist_ok=True)
    (d / "kicad_common.json").write_text(json.dumps({"api": {"enable_server": True},
                                                     "do_not_show_again": {"update_check_prompt": True}}))
    (d / "fp-lib-table").write_text("(fp_lib_table\n\t(version 7)\n)\n")
    (d / "sym-lib-table").write_text("(sym_lib_table\n\t(version 7)\n)\n")


class PcbEditor:
    """A PCB editor process (and its Xvfb) under ``home``; use as a context manager."""

    def __init__(self, board: Path, home: Path, *, api: bool = True):
        self.board = Path(board)
        self.home = Path(home)
        self.api = api
        self.display: int | None = None
        self.xvfb: subprocess.Popen | None = None
        self.proc: subprocess.Popen | None = None

    @property
    def socket(self) -> Path:
        return self.home / "tmp" / "kicad" / "api.sock"

    @property
    def env(self) -> dict:
        env = dict(os.environ, HOME=str(self.home), KICAD_CONFIG_HOME=str(self.home / "config"),
                   TMPDIR=str(self.home / "tmp"), DISPLAY=f":{self.display}")
        env.pop("KICAD_API_SOCKET", None)
        return env

    def start(self, timeout_s: float = 60.0) -> PcbEditor:
        """Start Xvfb and the editor; returns once the board answers through the API
        (or, with ``api=False``, once the window is up). Raises service-unavailable."""
        for tool in ("Xvfb", "pcbnew"):
            if shutil.which(tool) is None:
                raise ServiceUnavailable(f"{tool} is not installed", hint="apt-get install xvfb kicad")
        (self.home / "tmp").mkdir(parents=True, exist_ok=True)
        write_config(self.home / "config")
        if not self.api:
            common = self.home / "config" / "9.0" / "kicad_common.json"
            common.write_text(json.dumps({"api": {"enable_server": False},
                                          "do_not_show_again": {"update_check_prompt": True}}))
        self.display = _free_display()
        self.xvfb = subprocess.Popen(["Xvfb", f":{self.display}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{self.display}").exists():
            if time.monotonic() > deadline or self.xvfb.poll() is not None:
                self.stop()
                raise ServiceUnavailable(f"Xvfb did not start on :{self.display}")
            time.sleep(0.05)
        self.proc = subprocess.Popen(["pcbnew", str(self.board)], cwd=self.board.parent, env=self.env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        if self.api:
            self.wait_ready(timeout_s)
        return self

    def wait_ready(self, timeout_s: float) -> None:
        from kipy import KiCad

        deadline = time.monotonic() + timeout_s
        last = ""
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            if self.socket.exists():
                try:
                    KiCad(socket_path=f"ipc://{self.socket}", kicad_token="", timeout_ms=2000).get_board()
                    return
                except Exception as e:  # "not ready" until the board is loaded
                    last = str(e)
            time.sleep(0.2)
        self.stop()
        raise ServiceUnavailable(f"the PCB editor did not answer through its API in {timeout_s:g} s ({last})")

    def screenshot(self, out: Path) -> Path:
        """A PNG of the whole X screen (ImageMagick's ``import``)."""
        subprocess.run(["import", "-window", "root", str(out)], env=self.env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        return out

    def stop(self) -> None:
        """SIGTERM the editor (unsaved edits are discarded without a prompt), then Xvfb."""
        for p in (self.proc, self.xvfb):
            if p is not None and p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                    p.wait(10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    try:
                        os.killpg(p.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
        self.proc = self.xvfb = None

    def __enter__(self) -> PcbEditor:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
