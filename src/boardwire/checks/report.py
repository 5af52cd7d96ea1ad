"""Violations in the shape of KiCad's DRC report (``kicad-cli pcb drc --format json``).

A violation has KiCad's ``type`` (clearance, shorting_items, ...), ``severity``, a
``description`` worded as KiCad words it ("Clearance violation (netclass 'Default'
clearance 0.2000 mm; actual 0.1500 mm)"), and ``items``: uuid, description and
position of each item involved. Built-in violations also carry the distances:
``actual`` and ``required`` (nm), for feedback on edits.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# KiCad's titles (pcbnew/drc/drc_item.cpp) of the rules built in here.
TITLES = {
    "clearance": "Clearance violation",
    "shorting_items": "Items shorting two nets",
    "tracks_crossing": "Tracks crossing",
    "hole_clearance": "Hole clearance violation",
    "copper_edge_clearance": "Board edge clearance violation",
    "hole_to_hole": "Drilled hole too close to other hole",
    "holes_co_located": "Drilled holes co-located",
    "track_width": "Track width",
    "annular_width": "Annular width",
    "via_diameter": "Via diameter",
    "drill_out_of_range": "Hole size out of range",
    "microvia_drill_out_of_range": "Micro via hole size out of range",
    "courtyards_overlap": "Courtyards overlap",
    "unconnected_items": "Missing connection between items",
}


def mm_text(nm: float) -> str:
    """KiCad's way of printing a length in a message: ``0.2000 mm``."""
    return f"{nm / 1e6:.4f} mm"


@dataclass
class Violation:
    type: str
    severity: str
    detail: str
    items: list  # model records (Item, FootprintRec, Edge) in KiCad's order
    pos: tuple[float, float]
    actual: float | None = None
    required: float | None = None
    layer: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def description(self) -> str:
        title = TITLES.get(self.type, self.type)
        return f"{title} {self.detail}" if self.detail else title

    def key(self) -> tuple:
        """What makes two reports of the same violation equal: type and item ids."""
        return (self.type, frozenset(item_key(i) for i in self.items))

    def to_report(self, resolve: dict | None = None) -> dict:
        """KiCad's JSON shape (positions in mm). ``resolve`` (uuid -> record) shows each
        item as KiCad shows it: by looking its uuid up (`BoardGeometry.resolver`)."""
        rows = []
        for i in self.items:
            uid = getattr(i, "uuid", None)
            shown = (resolve or {}).get(uid, i) if uid else i
            rows.append({"uuid": uid or "00000000-0000-0000-0000-000000000000", "description": shown.desc,
                         "pos": {"x": _mm(shown.pos[0]), "y": _mm(shown.pos[1])}})
        return {"type": self.type, "severity": self.severity, "description": self.description,
                "items": rows}

    def to_feedback(self) -> dict:
        """A compact form for edit results: rule, items, distances in mm."""
        out = {"rule": self.type, "severity": self.severity, "description": self.description,
               "items": [{"id": getattr(i, "uuid", None), "description": i.desc,
                          "at": [_mm(i.pos[0]), _mm(i.pos[1])]} for i in self.items],
               "at": [_mm(self.pos[0]), _mm(self.pos[1])]}
        if self.actual is not None:
            out["actual_mm"] = _mm(max(self.actual, 0.0))
        if self.required is not None:
            out["required_mm"] = _mm(self.required)
        if self.layer:
            out["layer"] = self.layer
        return out


def _mm(nm) -> float:
    """nm (any number type) to mm as a plain float, to the nanometre."""
    return round(float(nm) / 1e6, 6)


def item_key(item) -> tuple:
    """A stable identity of a model record across model rebuilds: its uuid when it has
    one, else what it is and where."""
    uid = getattr(item, "uuid", None)
    kind = type(item).__name__
    if uid:
        return (kind, uid, getattr(item, "mask", 0))
    return (kind, getattr(item, "desc", ""), tuple(round(v) for v in item.pos))


def clearance_detail(name: str, required: float, actual: float) -> str:
    return f"({name} clearance {mm_text(required)}; actual {mm_text(max(actual, 0.0))})"
