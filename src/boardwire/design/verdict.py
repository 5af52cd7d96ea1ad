"""The verdict on a build (or on a caller's own board): KiCad's ERC and DRC counts,
unrouted connections, and a rubric a person would look at:

* decoupling: each decoupling capacitor, the IC pin it serves (the design's
  ``constraints.decouple``, else assigned by the placer's one rule,
  `layout.place.decoupling.assign`), its distance to that pin (mm, copper edge to
  edge), its target and whether it is beyond it: pcb.scorePlacement's own rows, so the
  verdict and the placer measure alike (none on a board without an outline);
* connectors at the edge: each connector's pad nearest to the outline, its distance
  to the outline's box (mm);
* silk over pads: DRC's silkscreen findings (``silk_over_copper``, ``silk_overlap``...);
* board area used: footprint courtyards over the outline's area (when known);
* schematic overlaps: boxes of labels, fields and symbols that overlap (from sch.connect
  or documents/schematic/extent);
* a render of the board (``board.png`` in the build folder; the verdict names it
  relative to that folder, so a rebuild's verdict is the same file).

``clean`` is ERC 0 errors, DRC 0 errors, 0 unconnected items, 0 parity issues.
"""

from __future__ import annotations

from ..errors import BoardwireError

CONNECTOR_PREFIXES = ("J", "P", "CN", "USB")


def _pads(call, pcb: str) -> list[dict]:
    out, offset = [], 0
    while True:
        page = call("query.pads", {"path": pcb, "offset": offset, "limit": 1000})
        out += page["pads"]
        offset += len(page["pads"])
        if offset >= page["total"] or not page["pads"]:
            return out


def outline_box(call, pcb: str) -> tuple[float, float, float, float] | None:
    """The outline's bounding box (mm) from query.describe."""
    box = call("query.describe", {"path": pcb}).get("outline_bbox")
    return tuple(box) if box else None


def decoupling(call, pcb: str, decouple: dict[str, str] | None = None) -> list[dict]:
    """Each decoupling capacitor measured to its pin (see the module): rows ref, pin,
    net, distance_mm, target_mm, beyond."""
    args = {"path": pcb, **({"decouple": decouple} if decouple else {})}
    try:
        rows = call("pcb.scorePlacement", args)["decoupling"]
    except BoardwireError:  # no outline to judge a placement in
        return []
    return [{"ref": d["capacitor"], "pin": d["pin"], "net": d["net"], "distance_mm": d["distance"],
             "target_mm": d["target"], "beyond": d["beyond"]} for d in rows]


def rubric(call, pcb: str, outline: tuple | None, courtyard_area: float | None,
           decouple: dict[str, str] | None = None) -> dict:
    pads = _pads(call, pcb)
    by_ref: dict[str, list[dict]] = {}
    for p in pads:
        by_ref.setdefault(p["reference"], []).append(p)
    edge = []
    if outline is not None:
        x1, y1, x2, y2 = outline
        for ref, ps in sorted(by_ref.items()):
            if ref.rstrip("0123456789").startswith(CONNECTOR_PREFIXES):
                d = min(min(p["at"][0] - x1, x2 - p["at"][0], p["at"][1] - y1, y2 - p["at"][1]) for p in ps)
                edge.append({"ref": ref, "mm": round(d, 2)})
    out = {"decoupling": decoupling(call, pcb, decouple), "connectors_to_edge": edge}
    if outline is not None and courtyard_area:
        area = (outline[2] - outline[0]) * (outline[3] - outline[1])
        out["area_used"] = round(courtyard_area / area, 3) if area else None
    return out


def judge(call, pcb: str, sch: str, design, report, counts: dict, folder: str, outline=None,
          courtyard_area: float | None = None, overlaps: int | None = None) -> dict:
    """The verdict dict (see the module); ``counts`` holds the erc, drc and route counts
    of the build (missing ones are run here)."""
    if "erc" not in counts:
        counts["erc"] = call("check.erc", {"path": sch, "limit": 0})["counts"]
    if "drc" not in counts:
        drc = call("check.drc", {"path": pcb, "schematic_parity": True, "limit": 0})
        counts["drc"], counts["drc_by_type"] = drc["counts"], drc.get("by_type", {})
    erc, drc = counts["erc"], counts["drc"]
    silk = sum(n for t, n in counts.get("drc_by_type", {}).items() if t and t.startswith("silk"))
    decouple = dict(design.constraints.decouple) if design is not None else None
    rub = rubric(call, pcb, outline or outline_box(call, pcb), courtyard_area, decouple)
    rub["silk_findings"] = silk
    if overlaps is not None:
        rub["schematic_overlaps"] = overlaps
    clean = erc["errors"] == 0 and drc["errors"] == 0 and drc["unconnected"] == 0 and drc.get("parity", 0) == 0
    render = f"{folder}/board.png"
    try:
        call("render.png", {"path": pcb, "output": render})
    except Exception as e:  # a render is a courtesy: the verdict stands without it
        render = f"not rendered: {e}"
    route = counts.get("route", {})
    v = {"clean": clean, "erc": {"errors": erc["errors"], "warnings": erc["warnings"]},
         "drc": {"errors": drc["errors"], "warnings": drc["warnings"], "unconnected": drc["unconnected"],
                 "parity": drc.get("parity", 0)},
         "unrouted": (route["total"] - route["routed"]) if route else drc["unconnected"],
         "rubric": rub, "render": render.rsplit("/", 1)[-1] if not render.startswith("not rendered") else render}
    v["summary"] = (("clean" if clean else "NOT clean") + f": ERC {erc['errors']} errors; DRC {drc['errors']} errors, "
                    f"{drc['unconnected']} unconnected, {drc.get('parity', 0)} parity; {v['unrouted']} unrouted")
    return v
