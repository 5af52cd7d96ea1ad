"""Building a firmware project with its own build system (`project.FirmwareProject`):
the command, streamed progress, diagnostics, and the image size against its room."""

from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass, field

from ..errors import BuildFailed, ImageTooLarge, ServiceUnavailable
from . import diagnostics
from .process import run_streaming
from .project import Artifacts, FirmwareProject
from .toolchain import which

_NINJA = re.compile(r"^\[(\d+)/(\d+)\]")
_PERCENT = re.compile(r"^\[\s*(\d+)%\]")


@dataclass
class BuildResult:
    ok: bool
    command: list[str]
    diagnostics: list[diagnostics.Diagnostic]
    artifacts: Artifacts
    seconds: float = 0.0
    tail: list[str] = field(default_factory=list)

    def size(self) -> dict | None:
        """{bytes, limit, free, used_percent, limit_from} of the app image, or None."""
        img = self.artifacts.image
        if img is None or not img.is_file():
            return None
        n = img.stat().st_size
        out = {"image": img.name, "bytes": n}
        lim = self.artifacts.limit
        if lim:
            out.update(limit=lim, free=lim - n, used_percent=round(100.0 * n / lim, 1),
                       limit_from=self.artifacts.limit_from)
        return out


def command_for(project: FirmwareProject) -> list[str]:
    """The build command: ``[firmware] command`` or the system's own; raises
    ServiceUnavailable naming the missing tool (fw.doctor lists them)."""
    fw = project.firmware
    if fw.get("command"):
        cmd = fw["command"]
        return list(cmd) if isinstance(cmd, list) else ["sh", "-c", str(cmd)]
    system = project.system
    tools = {"idf": ("idf.py",), "platformio": ("pio", "platformio"), "arduino": ("arduino-cli",),
             "cargo": ("cargo",), "make": ("make",)}
    if system is None:
        raise BuildFailed(f"no build system found in {project.root.name}: no CMakeLists.txt (ESP-IDF), "
                          "platformio.ini, sketch, Cargo.toml or Makefile",
                          hint="Create the project with fw.new, or set [firmware] build or command in boardwire.toml.")
    exe = which(tools[system])
    if exe is None:
        raise ServiceUnavailable(f"{system} project, but {tools[system][0]} is not installed",
                                 hint="fw.doctor lists the firmware tools this machine has.")
    if system == "idf":
        return ([sys.executable, exe] if exe.endswith(".py") and not os.access(exe, os.X_OK) else [exe]) + ["build"]
    if system == "platformio":
        return [exe, "run"]
    if system == "arduino":
        fqbn = fw.get("fqbn") or f"esp32:esp32:{project.chip or 'esp32'}"
        return [exe, "compile", "--fqbn", fqbn, "--output-dir", "build", "."]
    if system == "cargo":
        return [exe, "build", "--release"]
    return [exe]


def _progress_of(line: str) -> float | None:
    m = _NINJA.match(line)
    if m and int(m[2]):
        return int(m[1]) / int(m[2])
    m = _PERCENT.match(line)
    return int(m[1]) / 100 if m else None


def build(project: FirmwareProject, *, cancel=None, progress=None, timeout: float = 3600) -> BuildResult:
    """Run the build; returns a BuildResult whether it succeeded or not (``ok``).
    ``progress(fraction, message)`` gets each output line; cancelling (``cancel``)
    kills the build's process group and raises Cancelled."""
    import time

    argv = command_for(project)
    env = dict(os.environ, PYTHON=sys.executable)
    t0 = time.monotonic()
    state = {"f": 0.02}

    def on_line(line: str) -> None:
        f = _progress_of(line)
        if f is not None:
            state["f"] = max(state["f"], min(0.95, f))
        if progress is not None:
            progress(state["f"], line[:200])

    fin = run_streaming(argv, cwd=str(project.root), env=env, cancel=cancel, on_line=on_line, timeout=timeout)
    lines = fin.lines
    ok = fin.returncode == 0
    if ok and project.system == "cargo" and not project.firmware.get("command"):
        ok, lines = _cargo_image(project, env, cancel, lines)
    diags = diagnostics.parse(lines)
    return BuildResult(ok, argv, diags, project.artifacts(), round(time.monotonic() - t0, 2), lines[-20:])


def _cargo_image(project: FirmwareProject, env: dict, cancel, lines: list[str]) -> tuple[bool, list[str]]:
    """espflash save-image: the app image of a Rust ELF (its size is checked)."""
    art = project.artifacts()
    espflash = shutil.which("espflash")
    if art.elf is None or espflash is None or not project.chip:
        return True, lines
    fin = run_streaming([espflash, "save-image", "--chip", project.chip, str(art.elf), str(art.image)],
                        cwd=str(project.root), env=env, cancel=cancel)
    return fin.returncode == 0, lines + fin.lines


def failure(result: BuildResult) -> BuildFailed:
    """The error of a failed build: the first error and where, the diagnostics."""
    first = diagnostics.first_error(result.diagnostics)
    where = f": {diagnostics.where(first)}: {first.message}" if first else ""
    return BuildFailed(f"build failed{where}",
                       diagnostics=[d.to_dict() for d in result.diagnostics[:50]],
                       tail=result.tail, command=result.command)


def check_fits(result: BuildResult) -> dict | None:
    """The image size; raises ImageTooLarge when it exceeds the app's room."""
    size = result.size()
    if size and size.get("limit") and size["bytes"] > size["limit"]:
        raise ImageTooLarge(f"{size['image']} is {size['bytes']} bytes, {size['bytes'] - size['limit']} more than "
                            f"the {size['limit']} bytes of {size['limit_from']}; nothing was flashed", size=size)
    return size


