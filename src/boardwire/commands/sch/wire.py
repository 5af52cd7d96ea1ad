"""sch.wire, labels, junctions, no-connect flags and bus entries: what connects things
on one sheet. Each is one undo step; coordinates mm, angles degrees.

Where a wire end connects, and where KiCad adds a junction, is the document layer's
(`documents.schematic.points`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ...documents.schematic import Schematic
from ...errors import InvalidArgs
from ...registry import Context, command
from ...services.schematic import editable
from ..common import EditArgs, Name, Point, mm_pt, pt
from ..results import Created
from .results import Labelled, NoConnect, Wired

UNITS = "mm, degrees"
Quarter = Literal[0, 90, 180, 270]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


class WireArgs(EditArgs):
    points: list[Point] = Field(min_length=2, max_length=1000,
                                description="Polyline [x, y] mm; one wire per segment, as KiCad draws them")
    allow_dangling: bool = Field(False, description="Allow ends that connect to nothing (reported)")
    bus: bool = Field(False, description="Draw a bus instead of a wire (ends are not checked)")


@command("sch.wire", kind="edit", args=WireArgs, result=Wired, units="mm",
         examples=({"path": "board.kicad_sch", "points": [[100, 50], [110, 50], [110, 60]]},))
def wire(ctx: Context, a: WireArgs) -> dict:
    """Draw wires through points, one per segment as KiCad does. Both ends of the polyline must land on a pin, a wire (end or middle), a label, a sheet pin, a junction or a no-connect flag, else invalid-args names the dangling end (unless allow_dangling, when the result lists it). Junctions are added (wires split) where KiCad adds them; the result lists them."""
    od = editable(ctx, a.path)
    doc: Schematic = od.doc
    points = [pt(p) for p in a.points]
    for i, (p, q) in enumerate(zip(points, points[1:])):
        if p == q:
            raise InvalidArgs(f"points {i} and {i + 1} are the same: a wire needs length",
                              errors=[{"loc": f"points.{i + 1}", "msg": "zero-length segment", "type": "value"}])
    dangling = []
    if not a.bus:
        where = doc.connection_points()
        for i in (0, len(points) - 1):
            p = points[i]
            if not where.what_is_at(p) and p not in points[1:-1] and not (points[0] == points[-1]):
                dangling.append({"index": i, "at": mm_pt(p)})
        if dangling and not a.allow_dangling:
            d = dangling[0]
            raise InvalidArgs(f"the wire's end {d['index']} at {d['at']} lands on no pin, wire, label, sheet pin "
                              "or no-connect: it would dangle",
                              errors=[{"loc": f"points.{d['index']}", "msg": "dangling end", "type": "value"}
                                      for d in dangling],
                              hint="Read pin positions with query.pins, or pass allow_dangling: true.")
    ids = [doc.add_wire([p, q], bus=a.bus).uuid for p, q in zip(points, points[1:])]
    ctx.created(*ids)
    junctions = [] if a.bus else doc.add_needed_junctions(points)
    ctx.created(*(j.uuid for j in junctions))
    out = {"summary": _plural(len(ids), f"{'bus' if a.bus else 'wire'} segment")
                      + (f", {_plural(len(junctions), 'junction')} added" if junctions else "")
                      + (f"; {_plural(len(dangling), 'dangling end')}" if dangling else ""),
           "ids": ids}
    if junctions:
        out["junctions"] = [mm_pt(j.position) for j in junctions]
    if dangling:
        out["dangling"] = dangling
    return out


class LabelArgs(EditArgs):
    text: Name = Field(description="Net name")
    at: Point = Field(description="Connection point [x, y] mm (on a wire or a pin)")
    angle: Quarter = Field(0, description="0: text to the right of the point, 180: to the left, 90 up, 270 down")

    @field_validator("text")
    @classmethod
    def _one_line(cls, text: str) -> str:
        """A label's text is its net's name, one line in KiCad (its label dialog has no
        line breaks); a line break would name a net no other label or pin can join."""
        if "\n" in text or "\r" in text:
            raise ValueError("a label is one line: no line breaks in its text")
        return text


class ShapedLabelArgs(LabelArgs):
    shape: Literal["input", "output", "bidirectional", "tri_state", "passive"] = "bidirectional"


def _label(ctx: Context, a: LabelArgs, kind: str) -> dict:
    od = editable(ctx, a.path)
    doc: Schematic = od.doc
    p = pt(a.at)
    on = doc.connection_points().what_is_at(p)
    lab = doc.add_label(a.text, p, a.angle, kind=kind, shape=getattr(a, "shape", "input"))
    ctx.created(lab.uuid)
    word = {"label": "label", "global_label": "global label", "hierarchical_label": "hierarchical label"}[kind]
    out = {"summary": f"{word} {a.text} at {a.at}" + ("" if on else " (connected to nothing yet)"),
           "id": lab.uuid, "connects": on}
    if not on:
        out["dangling"] = True
    return out


@command("sch.label", kind="edit", args=LabelArgs, result=Labelled, units=UNITS,
         examples=({"path": "board.kicad_sch", "text": "SDA", "at": [110.49, 50.8]},))
def label(ctx: Context, a: LabelArgs) -> dict:
    """Add a local net label (joins same-named labels on this sheet instance). The result says what the point connects to; a label on nothing is reported as dangling."""
    return _label(ctx, a, "label")


@command("sch.globalLabel", kind="edit", args=ShapedLabelArgs, result=Labelled, units=UNITS,
         examples=({"path": "board.kicad_sch", "text": "VBUS", "at": [110.49, 50.8], "shape": "input"},))
def global_label(ctx: Context, a: ShapedLabelArgs) -> dict:
    """Add a global label (joins same-named global labels and power nets on every sheet), with a shape: input, output, bidirectional, tri_state, passive."""
    return _label(ctx, a, "global_label")


@command("sch.hierarchicalLabel", kind="edit", args=ShapedLabelArgs, result=Labelled, units=UNITS,
         examples=({"path": "child.kicad_sch", "text": "IN", "at": [50.8, 50.8], "shape": "input"},))
def hierarchical_label(ctx: Context, a: ShapedLabelArgs) -> dict:
    """Add a hierarchical label: joins the sheet pin of the same name on the sheet symbol that places this sheet."""
    return _label(ctx, a, "hierarchical_label")


class AtArgs(EditArgs):
    at: Point


@command("sch.junction", kind="edit", args=AtArgs, result=Created, units="mm",
         examples=({"path": "board.kicad_sch", "at": [110.49, 50.8]},))
def junction(ctx: Context, a: AtArgs) -> dict:
    """Add a junction dot (connects wires crossing or touching there); wires passing through the point are split there, as KiCad does."""
    od = editable(ctx, a.path)
    p = pt(a.at)
    if p in {m.position for m in od.doc.junctions}:
        raise InvalidArgs(f"there is already a junction at {a.at}",
                          errors=[{"loc": "at", "msg": "junction exists", "type": "value"}])
    split = od.doc.break_wires_at(p)
    j = od.doc.add_junction(p)
    ctx.created(j.uuid)
    return {"summary": f"junction at {a.at}" + (f"; {_plural(split, 'wire')} split" if split else ""),
            "id": j.uuid}


@command("sch.noConnect", kind="edit", args=AtArgs, result=NoConnect, units="mm",
         examples=({"path": "board.kicad_sch", "at": [120.65, 80.01]},))
def no_connect(ctx: Context, a: AtArgs) -> dict:
    """Add a no-connect flag (on a pin left open on purpose: ERC then accepts it)."""
    od = editable(ctx, a.path)
    p = pt(a.at)
    on = od.doc.connection_points().pins.get(p, [])
    nc = od.doc.add_no_connect(p)
    ctx.created(nc.uuid)
    return {"summary": f"no-connect at {a.at}" + (f" on {', '.join(on)}" if on else " (on no pin)"),
            "id": nc.uuid, "pins": on}


class BusEntryArgs(EditArgs):
    at: Point = Field(description="The end on the bus [x, y] mm")
    size: Point = Field([2.54, 2.54], description="[dx, dy] mm to the wire end")


@command("sch.busEntry", kind="edit", args=BusEntryArgs, result=Created, units="mm",
         examples=({"path": "board.kicad_sch", "at": [101.6, 50.8], "size": [2.54, 2.54]},))
def bus_entry(ctx: Context, a: BusEntryArgs) -> dict:
    """Add a wire-to-bus entry from at to at + size."""
    od = editable(ctx, a.path)
    entry = od.doc.add_bus_entry(pt(a.at), pt(a.size))
    ctx.created(entry.uuid)
    return {"summary": f"bus entry at {a.at}", "id": entry.uuid}
