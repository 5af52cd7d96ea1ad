"""render.*: pictures of the in-memory board or schematic for a model (or a person) to
look at."""

from __future__ import annotations

import base64
from typing import Literal

from pydantic import Field

from ..errors import InvalidArgs, ServiceUnavailable
from ..kicad.plots import board_3d_png, board_svg, paint_order, schematic_page_svg
from ..kicad.snapshot import hierarchy_snapshot, snapshot
from ..registry import Context, command
from .common import DocArgs, OutputPath
from .results import Png, Svg

DEFAULT_LAYERS = ["F.Cu", "B.Cu", "F.SilkS", "B.SilkS", "F.Mask", "Edge.Cuts"]


class RenderArgs(DocArgs):
    view: Literal["2d", "3d"] = "2d"
    layers: list[str] | None = Field(None, max_length=64, description="2D: layers to draw (default copper, silk, mask, outline)")
    side: Literal["top", "bottom"] = Field("top", description="3D: which side to look at")
    width: int = Field(1024, ge=64, le=4096, description="Pixels")
    output: OutputPath | None = Field(None, max_length=4096, description="Write the image to this path in the working directory instead of returning it")
    page: str | None = Field(None, max_length=32, description="Schematic: the page to draw (default: the root sheet's)")


def _sch_svg(ctx: Context, a: RenderArgs, od) -> bytes:
    """One sheet of a schematic hierarchy as KiCad plots it, from a snapshot of the
    whole hierarchy as it is in memory."""
    from ..services.schematic import connectivity_of, sheet_files

    if a.view == "3d":
        raise InvalidArgs("a schematic has no 3D view", errors=[{"loc": "view", "msg": "2d only", "type": "value"}])
    sheets = connectivity_of(ctx, od.path).sheets
    pages = [s.page for s in sheets]
    if a.page is not None and a.page not in pages:
        raise InvalidArgs(f"no page {a.page!r} in this hierarchy; pages: {', '.join(pages)}",
                          errors=[{"loc": "page", "msg": "no such page", "type": "value"}])
    wanted = next((s for s in sheets if s.page == a.page), sheets[0]) if a.page else sheets[0]
    with hierarchy_snapshot(ctx.session, od, sheet_files(ctx, od.path)) as root:
        ctx.progress(0.2, f"KiCad plotting page {a.page or '1'}")
        return schematic_page_svg(root, wanted.path, cancel=ctx.cancel)


def _board_svg(ctx: Context, a: RenderArgs, board) -> bytes:
    layers = a.layers or DEFAULT_LAYERS
    ctx.progress(0.2, "KiCad plotting " + ",".join(paint_order(layers)))
    return board_svg(board, layers, cancel=ctx.cancel)


def _picture(ctx: Context, a: RenderArgs, svg_only: bool) -> tuple[object, bytes, str]:
    """(the document, the image, its kind) for render.png / render.svg."""
    od = ctx.session.get(a.path, ("board", "schematic"), ctx.actor)
    ctx.progress(0.05, f"writing a snapshot of {od.path} for KiCad")
    if od.kind == "schematic":
        data = _sch_svg(ctx, a, od)
        return od, data if svg_only else _png_from_svg(ctx, data, a.width), "schematic"
    with snapshot(ctx.session, od) as board:
        if svg_only:
            return od, _board_svg(ctx, a, board), "2D"
        if a.view == "3d":
            ctx.progress(0.2, f"KiCad 3D render of the {a.side}")
            return od, board_3d_png(board, a.width, a.side, cancel=ctx.cancel), "3D"
        return od, _png_from_svg(ctx, _board_svg(ctx, a, board), a.width), "2D"


def _png_from_svg(ctx: Context, svg: bytes, width: int) -> bytes:
    try:
        import cairosvg
    except (ImportError, OSError) as e:  # cairosvg needs the system's libcairo
        raise ServiceUnavailable(f"PNG rendering needs cairosvg and libcairo ({e})",
                                 hint="pip install cairosvg, and install libcairo2.") from e
    ctx.progress(0.8, f"drawing the PNG ({width} px wide)")
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


@command("render.png", kind="export", args=RenderArgs, result=Png, long=True,
         idempotent=True, examples=({"path": "board.kicad_pcb", "view": "3d"},
                                    {"path": "board.kicad_pcb", "layers": ["F.Cu", "Edge.Cuts"]}))
def png(ctx: Context, a: RenderArgs) -> dict:
    """A PNG of the board as it is in memory (chosen layers in 2D, or KiCad's 3D view of one side), or of one schematic sheet."""
    target = _output(ctx, a.output, ".png")
    od, data, what = _picture(ctx, a, svg_only=False)
    ctx.progress(1.0, "done")
    written = _write(ctx, target, data)
    if written:  # written to a file: no need to send the picture back as well
        return {"summary": f"{what} render of {od.path} written to {written} "
                           f"({len(data)} bytes)", "output": written}
    return {"summary": f"{what} render of {od.path} ({len(data)} bytes PNG)",
            "image": {"mime_type": "image/png", "data": base64.b64encode(data).decode()}}


@command("render.svg", kind="export", args=RenderArgs, result=Svg, long=True, idempotent=True)
def svg(ctx: Context, a: RenderArgs) -> dict:
    """An SVG of chosen layers of the board, or of one schematic sheet, as it is in memory (KiCad's plotter)."""
    target = _output(ctx, a.output, ".svg")
    od, data, _ = _picture(ctx, a, svg_only=True)
    ctx.progress(1.0, "done")
    written = _write(ctx, target, data)
    return {"summary": f"SVG of {od.path}, {len(data)} bytes", "mime_type": "image/svg+xml",
            **({"output": written} if written else {"svg": data.decode("utf-8", "replace")})}
