"""A `land_patterns.LandPattern` as a KiCad 9 footprint file (``.kicad_mod``), laid out
as KiCad 9's own library files are (R_0603_1608Metric.kicad_mod of the installed
library): Reference on F.SilkS above the courtyard, Value on F.Fab below it,
``${REFERENCE}`` on F.Fab in the body, silkscreen lines, courtyard and fabrication
outlines, pads (rounded rectangles with KiCad's generator rule: radius a quarter of
the smaller side, at most 0.25 mm)."""

from __future__ import annotations

from .land_patterns import COURTYARD_WIDTH, FAB_WIDTH, SILK_WIDTH, LandPattern

FOOTPRINT_VERSION = 20241229  # KiCad 9.0's footprint format


def _n(v: float) -> str:
    text = f"{v:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(kind: str, name: str, value: str, x: float, y: float, layer: str, size: float, hide: bool = False) -> str:
    head = f"(property {_q(name)} {_q(value)}" if kind == "property" else f"(fp_text user {_q(value)}"
    return (f"\t{head}\n\t\t(at {_n(x)} {_n(y)} 0)\n\t\t(layer {_q(layer)})\n"
            + ("\t\t(hide yes)\n" if hide else "")
            + f"\t\t(effects\n\t\t\t(font\n\t\t\t\t(size {_n(size)} {_n(size)})\n"
              f"\t\t\t\t(thickness {_n(round(size * 0.15, 3))})\n\t\t\t)\n\t\t)\n\t)\n")


def _stroke(width: float) -> str:
    return f"\t\t(stroke\n\t\t\t(width {_n(width)})\n\t\t\t(type solid)\n\t\t)\n"


def _line(x1: float, y1: float, x2: float, y2: float, layer: str, width: float) -> str:
    return (f"\t(fp_line\n\t\t(start {_n(x1)} {_n(y1)})\n\t\t(end {_n(x2)} {_n(y2)})\n" + _stroke(width)
            + f"\t\t(layer {_q(layer)})\n\t)\n")


def _rect(x1: float, y1: float, x2: float, y2: float, layer: str, width: float) -> str:
    return (f"\t(fp_rect\n\t\t(start {_n(x1)} {_n(y1)})\n\t\t(end {_n(x2)} {_n(y2)})\n" + _stroke(width)
            + f"\t\t(fill no)\n\t\t(layer {_q(layer)})\n\t)\n")


def _poly(points: list[tuple[float, float]], layer: str, width: float) -> str:
    pts = " ".join(f"(xy {_n(x)} {_n(y)})" for x, y in points)
    return f"\t(fp_poly\n\t\t(pts {pts})\n" + _stroke(width) + f"\t\t(fill no)\n\t\t(layer {_q(layer)})\n\t)\n"


def _pad(pad) -> str:
    if pad.kind == "smd":
        layers = '"F.Cu" "F.Mask" "F.Paste"'
    else:
        layers = '"*.Cu" "*.Mask"'
    out = (f"\t(pad {_q(pad.number)} {pad.kind} {pad.shape}\n\t\t(at {_n(pad.x)} {_n(pad.y)})\n"
           f"\t\t(size {_n(pad.w)} {_n(pad.h)})\n")
    if pad.drill:
        out += f"\t\t(drill {_n(pad.drill)})\n"
    out += f"\t\t(layers {layers})\n"
    if pad.shape == "roundrect":
        out += f"\t\t(roundrect_rratio {_n(round(min(0.25, 0.25 / min(pad.w, pad.h)), 6))})\n"
    if pad.kind == "thru_hole":
        out += "\t\t(remove_unused_layers no)\n"
    return out + "\t)\n"


def footprint_text(p: LandPattern, generator_version: str = "9.0") -> bytes:
    """The ``.kicad_mod`` bytes of a finished land pattern (`land_patterns.finish`)."""
    cx1, cy1, cx2, cy2 = p.courtyard
    bx1, by1, bx2, by2 = p.body
    descr = p.description + (" (" + "; ".join(p.sources) + ")" if p.sources else "")
    fab_size = max(0.25, min(1.0, round(min(bx2 - bx1, by2 - by1) * 0.4 / 0.05) * 0.05))
    cx, cy = (bx1 + bx2) / 2, (by1 + by2) / 2
    out = (f"(footprint {_q(p.name)}\n\t(version {FOOTPRINT_VERSION})\n\t(generator \"boardwire\")\n"
           f"\t(generator_version {_q(generator_version)})\n\t(layer \"F.Cu\")\n"
           f"\t(descr {_q(descr)})\n\t(tags {_q(p.tags)})\n")
    out += _text("property", "Reference", "REF**", cx, round(cy1 - 0.7, 3), "F.SilkS", 1.0)
    out += _text("property", "Value", p.name, cx, round(cy2 + 0.7, 3), "F.Fab", 1.0)
    out += "\t(attr smd)\n" if p.smd else "\t(attr through_hole)\n"
    for x1, y1, x2, y2 in p.silk:
        out += _line(x1, y1, x2, y2, "F.SilkS", SILK_WIDTH)
    out += _rect(cx1, cy1, cx2, cy2, "F.CrtYd", COURTYARD_WIDTH)
    out += (_poly(p.fab, "F.Fab", FAB_WIDTH) if len(p.fab) != 4
            else _rect(bx1, by1, bx2, by2, "F.Fab", FAB_WIDTH))
    out += _text("fp_text", "", "${REFERENCE}", cx, cy, "F.Fab", fab_size)
    for pad in p.pads:
        out += _pad(pad)
    out += "\t(embedded_fonts no)\n)\n"
    return out.encode("utf-8")
