"""design.build's stages, from a checked design to a judged, fabricated board.

Stages, in order: project, schematic (symbols arranged by layout/sch_layout, connected
by sch.connect, annotated), erc, update (KiCad's Update PCB from Schematic), outline,
placement (pcb.autoplace when the registry has it, given the design's pinned poses,
edge connectors and keep-outs; else the marked fallback of design/placement.py), route (pcb.autoroute unless the
design leaves routing to the caller), zones (a ground plane on B.Cu joining its pads solidly,
filled by KiCad's filler), save, drc (kicad-cli with schematic parity), verdict, fab (fab.package, JLCPCB
preset, only after a clean DRC).

The stages act through registry commands, passed in as ``call(command_id, args)`` (this
layer does not import the registry), so each is the same command a caller could run
itself and is judged the same way. Paths are relative to the working directory.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from ..errors import BoardwireError
from ..layout.sch_layout import Item, arrange
from .check import Report
from .document import Design
from .placement import autoplace_args, default_size, shelf_place

STAGES = ("project", "schematic", "erc", "update", "outline", "placement", "route", "zones", "save",
          "drc", "verdict", "fab")
ORIGIN = (100.0, 100.0)  # the outline's top-left corner on the board, mm
OUT = {0: (-1, 0), 90: (0, 1), 180: (1, 0), 270: (0, -1)}  # lib.symbol orientation (into the body) -> outward


@dataclass
class Stage:
    name: str
    status: str = "ok"  # ok, failed, skipped
    seconds: float = 0.0
    summary: str = ""
    data: dict = field(default_factory=dict)

    def row(self) -> dict:
        return {"stage": self.name, "status": self.status, "seconds": round(self.seconds, 2), "summary": self.summary,
                **({"data": self.data} if self.data else {})}


class StageFailed(Exception):
    pass


class Build:
    """One build of ``design`` into ``folder``; ``call`` runs a registry command,
    ``has`` says whether one exists, ``progress(fraction, message)`` reports."""

    def __init__(self, design: Design, report: Report, folder: str, call: Callable[[str, dict], dict],
                 has: Callable[[str], bool], progress: Callable[[float, str], None], until: str | None = None,
                 created: str | None = None, record: Callable[[list[dict]], None] | None = None):
        self.d, self.r, self.folder = design, report, folder.rstrip("/")
        # record(rows): the stages so far, the one starting last with status "running"
        # (the version folder's build.json, so a killed build says where it stopped)
        self.record = record
        self.created = created  # stamped into the fab files (a rebuild passes the first build's)
        self.call, self.has, self.progress, self.until = call, has, progress, until
        self.stages: list[Stage] = []
        self.sch = self.pcb = ""
        self.outline = (0.0, 0.0, 0.0, 0.0)
        self.counts: dict = {}

    # -- driver ---------------------------------------------------------------------

    def run(self) -> list[Stage]:
        for i, name in enumerate(STAGES):
            self.progress(i / len(STAGES), name)
            if self.record is not None:
                self.record([*(s.row() for s in self.stages), {"stage": name, "status": "running"}])
            stage = Stage(name)
            t0 = time.perf_counter()
            try:
                stage.summary = getattr(self, f"_{name}")(stage) or ""
            except StageFailed as e:
                stage.status, stage.summary = "failed", str(e)
            except BoardwireError as e:  # a command of the stage failed: the build stops there, saying why
                if e.code == "cancelled":
                    raise
                stage.status, stage.summary = "failed", f"{e.code}: {e.message}"
                stage.data = {"hint": e.hint} if e.hint else {}
            stage.seconds = time.perf_counter() - t0
            self.stages.append(stage)
            if stage.status == "failed" or name == self.until:
                break
        self.progress(1.0, "done")
        return self.stages

    # -- stages -----------------------------------------------------------------------

    def _project(self, st: Stage) -> str:
        # the working directory's project libraries, which design.check resolved the design's symbols and
        # footprints from, are the build's too (its sym-lib-table/fp-lib-table, paths rewritten)
        made = self.call("project.new", {"name": self.d.name, "template": "2layer-starter", "folder": self.folder,
                                         "library_tables_from": "."})
        self.sch, self.pcb = made["schematic"], made["board"]
        if self.d.board.rules == "jlcpcb":  # JLCPCB's published 1-2 layer capabilities: 5 mil spacing
            self.call("pcb.setDesignRules", {"path": self.pcb, "min_clearance": 0.127, "min_track_width": 0.127})
            self.call("pcb.setNetclass", {"path": self.pcb, "name": "Default", "clearance": 0.127, "track_width": 0.2})
        return made["summary"] + f"; rules {self.d.board.rules}"

    def _items(self) -> list[Item]:
        net_of = {p: n for n, pins in self.d.nets.items() for p in pins}
        items = []
        for ref, comp in self.r.components.items():
            sym = self.call("lib.symbol", {"id": comp.symbol})
            for unit in range(1, comp.units + 1):
                pins = [(net_of.get(f"{ref}.{p['number']}"), (round(p["at"][0] * 1e6), round(p["at"][1] * 1e6)),
                         OUT.get(p["orientation"], (1, 0)))
                        for p in sym["pins"] if p["unit"] in (0, unit) and not p.get("hidden")]
                fed = {net_of.get(f"{ref}.{p['number']}") for p in sym["pins"]
                       if p["unit"] in (0, unit) and p.get("type") == "power_in"} - {None}
                items.append(Item(ref if comp.units == 1 else f"{ref}:{unit}", ref, pins, self.r.power, comp.symbol, fed,
                                  comp.value or comp.symbol.split(":")[-1]))
        return items

    def _schematic(self, st: Stage) -> str:
        arr = arrange(self._items())
        if arr.anchors:
            self.call("sch.setPaper", {"path": self.sch, "paper": arr.paper})
        for key, (x, y) in arr.anchors.items():
            ref, _, unit = key.partition(":")
            comp = self.r.components[ref]
            self.call("sch.placeSymbol", {"path": self.sch, "symbol": comp.symbol, "at": [x / 1e6, y / 1e6],
                                          "reference": ref, "unit": int(unit or 1), "value": comp.value,
                                          "footprint": comp.footprint, "fields": comp.fields})
        out = self.call("sch.connect", {"path": self.sch, "nets": self.d.nets, "power": sorted(self.r.power),
                                        "no_connect": self.d.no_connect})
        self.call("sch.annotate", {"path": self.sch})
        self.call("session.save", {"path": self.sch})
        blocks = [f"{name} ({', '.join(refs)})" for name, _, refs, _ in arr.blocks]
        st.data = {"overlaps": len(out["overlaps"]) + len(out["unplaced"]), "paper": arr.paper}
        if out.get("flags_missing"):  # ERC would fail on it: stop here, saying so
            raise StageFailed(f"no room on the schematic for the PWR_FLAG of {', '.join(out['flags_missing'])} "
                              f"(ERC would find its power inputs undriven); {out['summary']}")
        problems = []
        if not arr.fits:
            problems.append(f"the blocks do not fit on {arr.paper}")
        for what, rows in (("could not be placed cleanly", out["unplaced"]), ("overlap", out["overlaps"]),
                           ("lie off the page", out.get("off_page") or [])):
            if rows:
                problems.append(f"{len(rows)}{'+' if len(rows) >= 20 else ''} {what}: {'; '.join(rows)}")
        if problems:
            raise StageFailed("schematic drawn with " + " and ".join(problems))
        return (f"{len(arr.anchors)} symbols on {arr.paper} in {len(blocks)} blocks: {'; '.join(blocks)}; "
                + out["summary"])

    def _erc(self, st: Stage) -> str:
        erc = self.call("check.erc", {"path": self.sch, "limit": 20})
        self.counts["erc"] = erc["counts"]
        errors = [v for v in erc.get("violations", []) if v.get("severity") == "error"]
        st.data = {"violations": errors[:10]}
        if erc["counts"].get("errors"):  # ok only with none
            raise StageFailed(f"{erc['summary']}: " + "; ".join(
                f"{v.get('type')}: {v.get('description')}" for v in errors[:10]))
        return erc["summary"]

    def _update(self, st: Stage) -> str:
        return self.call("project.updatePcb", {"schematic": self.sch, "board": self.pcb})["summary"]

    def _courtyards(self) -> dict[str, tuple[float, float, float, float]]:
        sizes, cache = {}, {}
        for ref, comp in self.r.components.items():
            if comp.footprint not in cache:
                fp = self.call("lib.footprint", {"id": comp.footprint})
                crt = fp["courtyard"].get("F.CrtYd") or next(iter(fp["courtyard"].values()), None)
                if crt is None:
                    xs = [p["at"][0] for p in fp["pads"]] or [0]
                    ys = [p["at"][1] for p in fp["pads"]] or [0]
                    crt = {"min": [min(xs) - 1, min(ys) - 1], "max": [max(xs) + 1, max(ys) + 1]}
                cache[comp.footprint] = (*crt["min"], *crt["max"])
            sizes[ref] = cache[comp.footprint]
        return sizes

    def _outline(self, st: Stage) -> str:
        self.sizes = self._courtyards()
        b = self.d.board
        if b.outline:
            pts = [[ORIGIN[0] + x, ORIGIN[1] + y] for x, y in b.outline]
            self.call("pcb.outline", {"path": self.pcb, "polygon": pts})
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            self.outline = (min(xs), min(ys), max(xs), max(ys))
        else:
            if b.size:
                w, h = b.size
            else:
                w, h = default_size(self.sizes)
            self.outline = (ORIGIN[0], ORIGIN[1], ORIGIN[0] + w, ORIGIN[1] + h)
            self.call("pcb.outline", {"path": self.pcb, "rect": list(self.outline)})
        x1, y1, x2, y2 = self.outline
        return f"outline {x2 - x1:g} x {y2 - y1:g} mm"

    def _placement(self, st: Stage) -> str:
        pinned = self.d.constraints.pinned
        if self.has("pcb.autoplace"):  # pinned poses, edges and keep-outs passed on (placement.autoplace_args)
            out = self.call("pcb.autoplace", {"path": self.pcb, **autoplace_args(self.d.constraints, ORIGIN)})
            st.data = {"engine": "pcb.autoplace"}
            if out.get("off_board") or out.get("unplaced"):
                raise StageFailed(f"{out['summary']}; unplaced: {', '.join(out.get('unplaced') or []) or 'none'}; "
                                  "give board.size larger")
            return out["summary"]
        steps, taken = [], []
        for ref, p in pinned.items():
            at = [ORIGIN[0] + p.at[0], ORIGIN[1] + p.at[1]]
            steps.append({"command": "pcb.move", "args": {"path": self.pcb, "reference": ref, "at": at}})
            if p.angle:
                steps.append({"command": "pcb.rotate", "args": {"path": self.pcb, "reference": ref, "angle": p.angle}})
            c = self.sizes[ref]
            taken.append((at[0] + c[0], at[1] + c[1], at[0] + c[2], at[1] + c[3]))
        if steps:
            self.call("session.batch", {"steps": steps, "label": "pinned placement"})
        free = {r: s for r, s in self.sizes.items() if r not in pinned}
        if not free:
            return f"{len(pinned)} footprints placed as pinned"
        # FALLBACK (until pcb.autoplace is in the registry): shelves, no wire-length goal
        st.data = {"engine": "fallback shelf placement (design/placement.py)"}
        keep = [(ORIGIN[0] + k[0], ORIGIN[1] + k[1], ORIGIN[0] + k[2], ORIGIN[1] + k[3]) for k in self.d.constraints.keepouts]
        signal = {}
        for net, pins in self.d.nets.items():
            if net not in self.r.power:
                for p in pins:
                    signal.setdefault(p.split(".")[0], set()).add(net)
        at = shelf_place(self.outline, free, [r for r in self.d.constraints.edges() if r in free], taken + keep, signal)
        missing = sorted(set(free) - set(at))
        if missing:
            raise StageFailed(f"no room on the board for {', '.join(missing)}; give board.size larger")
        self.call("session.batch", {"steps": [{"command": "pcb.move", "args": {"path": self.pcb, "reference": r, "at": list(p)}}
                                              for r, p in sorted(at.items())], "label": "placement"})
        return f"{len(at)} footprints placed by the fallback shelf placement" + (f", {len(pinned)} pinned" if pinned else "")

    def _route(self, st: Stage) -> str:
        if self.d.constraints.routing == "none":
            st.status = "skipped"
            return "routing left to the caller"
        out = self.call("pcb.autoroute", {"path": self.pcb, **self.d.constraints.router.model_dump()})
        self.counts["route"] = {"routed": out["routed"], "total": out["total"], "vias": out["vias"]}
        return out["summary"]

    def _zones(self, st: Stage) -> str:
        net = self.d.board.ground_plane
        if not net or net not in self.d.nets:
            st.status = "skipped"
            return "no ground plane"
        x1, y1, x2, y2 = self.outline
        inset = 0.3
        poly = [[x1 + inset, y1 + inset], [x2 - inset, y1 + inset], [x2 - inset, y2 - inset], [x1 + inset, y2 - inset]]
        self.call("pcb.addZone", {"path": self.pcb, "outline": poly, "layer": "B.Cu", "net": net, "name": f"{net} plane",
                                  "clearance": 0.3, "pads": "solid"})  # no spokes to starve between routed tracks
        return self.call("pcb.fillZones", {"path": self.pcb})["summary"]

    def _save(self, st: Stage) -> str:
        pro = self.pcb[: -len(".kicad_pcb")] + ".kicad_pro"  # rules and net classes live there
        for path in (pro, self.pcb, self.sch):
            self.call("session.save", {"path": path})
        return "saved"

    def _drc(self, st: Stage) -> str:
        drc = self.call("check.drc", {"path": self.pcb, "schematic_parity": True, "limit": 20})
        self.counts["drc"] = drc["counts"]
        self.counts["drc_by_type"] = drc.get("by_type", {})
        st.data = {"errors": [v for v in drc.get("violations", []) if v.get("severity") == "error"][:10],
                   "unconnected": drc.get("unconnected", [])[:10]}
        return drc["summary"]

    def _verdict(self, st: Stage) -> str:
        from .verdict import judge

        area = sum((c[2] - c[0]) * (c[3] - c[1]) for c in self.sizes.values())
        overlaps = next((s.data.get("overlaps") for s in self.stages if s.name == "schematic"), None)
        self.verdict = judge(self.call, self.pcb, self.sch, self.d, self.r, self.counts, self.folder,
                             outline=self.outline, courtyard_area=area, overlaps=overlaps)
        return self.verdict["summary"]

    def _fab(self, st: Stage) -> str:
        if not self.verdict.get("clean"):
            st.status = "skipped"
            return "not clean: no fabrication outputs"
        out = self.call("fab.package", {"path": self.pcb, "output": f"{self.folder}/fab", "preset": "jlcpcb",
                                        **({"created": self.created} if self.created else {})})
        st.data = {"files": out.get("files", [])}
        return out["summary"]
