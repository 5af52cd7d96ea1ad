"""render.*: pictures of the in-memory board for a model (or a person) to look at."""

from __future__ import annotations

import base64
from typing import Literal

from pydantic import Field

from ..errors import CheckFailed, InvalidArgs, ServiceUnavailable
from ..kicad.cli import kicad_cli
from ..kicad.snapshot import snapshot
from ..registry import Context, command
from .common import DocArgs, Result

DEFAULT_LAYERS = ["F.Cu", "B.Cu", "F.SilkS", "B.SilkS", "F.Mask", "Edge.Cuts"]


class RenderArgs(DocArgs):
    view: Literal["2d", "3d"] = "2d"
    layers: list[str] | None = Field(None, max_length=64, description="2D: layers to draw (default copper, silk, mask, outline)")
    side: Literal["top", "bottom"] = Field("top", description="3D: which side to look at")
    width: int = Field(1024, ge=64, le=4096, description="Pixels")
    output: str | None = Field(None, max_length=4096, description="Write the image to this path in the working directory instead of returning it")


def _svg(ctx: Context, a: RenderArgs, folder, board) -> bytes:
    out = folder / "render.svg"
    layers = ",".join(a.layers or DEFAULT_LAYERS)
    r = kicad_cli().run(["pcb", "export", "svg", "--mode-single", "--exclude-drawing-sheet",
                         "--page-size-mode", "2", "-l", layers, "-o", str(out), str(board)],
                        cancel=ctx.cancel)
    if not out.exists():
        raise CheckFailed(f"kicad-cli svg export failed: {(r.stderr or r.stdout).strip()[-400:]}")
    return out.read_bytes()


def _png_from_svg(svg: bytes, width: int) -> bytes:
    try:
        import cairosvg
    except (ImportError, OSError) as e:  # cairosvg needs the system's libcairo
        raise ServiceUnavailable(f"PNG rendering needs cairosvg and libcairo ({e})",
                                 hint="pip install cairosvg, and install libcairo2.") from e
    return cairosvg.svg2png(bytestring=svg, output_width=width, background_color="white")


def _output(ctx: Context, output: str | None, suffix: str):
    """Where to write the image, checked before any work is done: inside the working
    directory, named ``*.png``/``*.svg``, not a folder (so never a KiCad file)."""
    if output is None:
        return None
    target = ctx.session.workspace.resolve(output)
    if target.suffix.lower() != suffix or target.is_dir():
        raise InvalidArgs(f"output must be a {suffix} file name, not {output!r}",
                          errors=[{"loc": "output", "msg": f"expected *{suffix}", "type": "value"}])
    return target


def _write(ctx: Context, target, data: bytes) -> str | None:
    if target is None:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return ctx.session.workspace.relative(target)


@command("render.png", kind="export", args=RenderArgs, result=Result, long=True,
         idempotent=True, examples=({"path": "board.kicad_pcb", "view": "3d"},
                                    {"path": "board.kicad_pcb", "layers": ["F.Cu", "Edge.Cuts"]}))
def png(ctx: Context, a: RenderArgs) -> dict:
    """A PNG of the board as it is in memory: chosen layers in 2D, or KiCad's 3D view of one side."""
    target = _output(ctx, a.output, ".png")
    od = ctx.session.get(a.path, "board", ctx.actor)
    with snapshot(ctx.session, od) as board:
        if a.view == "3d":
            out = board.parent / "render.png"
            height = max(64, a.width * 3 // 4)
            r = kicad_cli().run(["pcb", "render", "-o", str(out), "-w", str(a.width), "-h",
                                 str(height), "--side", a.side, "--background", "opaque",
                                 str(board)], cancel=ctx.cancel)
            if not out.exists():
                raise CheckFailed(f"kicad-cli pcb render failed: {(r.stderr or r.stdout).strip()[-400:]}")
            data = out.read_bytes()
        else:
            data = _png_from_svg(_svg(ctx, a, board.parent, board), a.width)
    written = _write(ctx, target, data)
    if written:  # written to a file: no need to send the picture back as well
        return {"summary": f"{a.view.upper()} render of {od.path} written to {written} "
                           f"({len(data)} bytes)", "output": written}
    return {"summary": f"{a.view.upper()} render of {od.path} ({len(data)} bytes PNG)",
            "image": {"mime_type": "image/png", "data": base64.b64encode(data).decode()}}


@command("render.svg", kind="export", args=RenderArgs, result=Result, long=True, idempotent=True)
def svg(ctx: Context, a: RenderArgs) -> dict:
    """An SVG of chosen layers of the board as it is in memory (KiCad's plotter)."""
    target = _output(ctx, a.output, ".svg")
    od = ctx.session.get(a.path, "board", ctx.actor)
    with snapshot(ctx.session, od) as board:
        data = _svg(ctx, a, board.parent, board)
    written = _write(ctx, target, data)
    return {"summary": f"SVG of {od.path}, {len(data)} bytes", "mime_type": "image/svg+xml",
            **({"output": written} if written else {"svg": data.decode("utf-8", "replace")})}
