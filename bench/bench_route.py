"""Autorouters judged by KiCad 9, as ROUTING-NOTES sets the protocol.

Each board has its tracks, vias and copper zones stripped; each engine routes a copy;
``kicad-cli pcb drc --format json --severity-all`` runs on the stripped and the routed
board, and "new" violations are those the stripped board did not have. Engines:

- boardwire: pcb.autoroute (this project);
- freeroute (PyPI, GPL-3.0: run only as a separate program): pcb.exportDsn, then
  ``freeroute --engine exact``, its session's ``(resolution um 10)`` label fixed to
  ``um 1`` (its numbers are micrometres), then pcb.importSes;
- tscircuit: @tscircuit/capacity-autorouter (npm, Node 22) as an engine of the router
  seam (`boardwire.layout.route.engines`, registered in the child as "tscircuit" and
  run by ``pcb.autoroute engine=tscircuit``): the routing problem pcb.autoroute builds
  is fed to it as its SimpleRouteJson (obstacles as rectangles, each net's pads to
  connect, the narrowest class's width, clearance and via), its traces come back as
  the engine's result, checked by the seam and written by pcb.autoroute.

Each engine runs in a child process (seconds and peak RSS are the child's). Engines
that are not installed are left out of the run and say so.

    python bench/bench_route.py [--engines boardwire,freeroute,tscircuit] [--timeout 600]
        [--boards NAME ...] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from tests.inputs import CORPUS, DEMOS  # noqa: E402
from tests.layout.judge import drc, new_violations, strip_board, unconnected  # noqa: E402

BOARDS = {
    "ecc83-pp": DEMOS / "ecc83/ecc83-pp.kicad_pcb",
    "pic_programmer": DEMOS / "pic_programmer/pic_programmer.kicad_pcb",
    "interf_u": DEMOS / "interf_u/interf_u.kicad_pcb",
    "StickHub": DEMOS / "stickhub/StickHub.kicad_pcb",
    "topology_mismatch (4 layers)": CORPUS / "KiCad__kicad-source-mirror/qa/data/pcbnew/issue21739/topology_mismatch.kicad_pcb",
    "qspimux2 (4 layers)": CORPUS / "felixheld__qspimux/qspimux2/qspimux2.kicad_pcb",
    "RVPC_Rev_B": CORPUS / "OLIMEX__RVPC/HARDWARE/RVPC_Rev.B/RVPC_Rev_B.kicad_pcb",
    "V0-UmbilicalBoard": CORPUS / "VoronDesign__Voron-Hardware/V0-Umbilical/Kicad/Frame_PCB/V0-UmbilicalBoard.kicad_pcb",
    "sao_proto": CORPUS / "Hack-a-Day__2024-Supercon-8-Add-On-Badge/hardware/sao/i2c_proto_petal/sao_proto.kicad_pcb",
    "RP2040-Guide": CORPUS / "Sleepdealr__RP2040-designguide/PCB/RP2040-Guide.kicad_pcb",
}
NODE = REPO / ".ci/node/node_modules/.bin/node"
TSC_DIR = Path(os.environ.get("BOARDWIRE_TSCIRCUIT_DIR", "/tmp/tsc"))  # where npm installed it


def freeroute_bin() -> str | None:
    return shutil.which("freeroute") or next(
        (str(p) for p in (Path("/tmp/frenv/bin/freeroute"),) if p.exists()), None)


def node_bin() -> str | None:
    for c in (os.environ.get("BOARDWIRE_NODE22"), str(NODE), "/work/main/.ci/node/node_modules/.bin/node"):
        if c and Path(c).exists():
            return c
    return None


def tscircuit_ok() -> bool:
    return node_bin() is not None and (TSC_DIR / "node_modules/@tscircuit/capacity-autorouter").is_dir()


# -- the engines (each runs in a child process: python bench_route.py --child ENGINE BOARD) --

def child_boardwire(board: Path, timeout: float) -> dict:
    from boardwire.commands import REGISTRY
    from boardwire.registry import Context
    from boardwire.session import Session

    s = Session(board.parent)
    r = REGISTRY.call("pcb.autoroute", {"path": board.name, "time_limit": timeout}, Context(s))
    s.save(board.name)
    return {"note": r["summary"]}


def child_freeroute(board: Path, timeout: float) -> dict:
    from boardwire.commands import REGISTRY
    from boardwire.registry import Context
    from boardwire.session import Session

    s = Session(board.parent)
    REGISTRY.call("pcb.exportDsn", {"path": board.name, "output": "in.dsn"}, Context(s))
    ses = board.parent / "out.ses"
    try:
        subprocess.run([freeroute_bin(), str(board.parent / "in.dsn"), "-o", str(ses), "--engine", "exact"],
                       capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"note": f"no session after {timeout:.0f} s"}
    if not ses.is_file() or "(routes" not in ses.read_text():
        return {"note": "no session written"}
    # freeroute labels micrometres as tenths of a micrometre: KiCad would shrink all 10x
    ses.write_text(ses.read_text().replace("(resolution um 10)", "(resolution um 1)"))
    r = REGISTRY.call("pcb.importSes", {"path": board.name, "session": "out.ses"}, Context(s))
    s.save(board.name)
    return {"note": r["summary"]}


_TSC_SCRIPT = r"""
import { AutoroutingPipelineSolver } from "@tscircuit/capacity-autorouter"
import fs from "node:fs"
const input = JSON.parse(fs.readFileSync(process.argv[2], "utf8"))
const deadline = Date.now() + Number(process.argv[4]) * 1000
const solver = new AutoroutingPipelineSolver(input)
while (!solver.solved && !solver.failed && Date.now() < deadline) solver.step()
const out = solver.solved ? solver.getOutputSimpleRouteJson() : { traces: [] }
fs.writeFileSync(process.argv[3], JSON.stringify({ solved: solver.solved, failed: solver.failed,
  error: String(solver.error ?? ""), traces: out.traces ?? [] }))
"""


def tscircuit_engine(problem, options, progress=None):
    """An engine of the router seam: ``problem`` as tscircuit's SimpleRouteJson (y up,
    mm), the Node solver run until solved, failed or ``options.time_limit``, its wire
    and via steps back as a `layout.route.Result` (its own count: every connection
    when it says solved, else none; the bench counts KiCad's)."""
    from boardwire.layout.route import Result, Track, Via

    p = problem
    names = ["top"] + [f"inner{i}" for i in range(1, len(p.layers) - 1)] + ["bottom"]
    mm = 1e-6
    obstacles, connections = [], []
    net_of = {n.id: n for n in p.nets}
    for o in p.obstacles:
        x0, y0, x1, y1 = o.shape.bounds
        conn = [net_of[o.net].name] if o.net in net_of else []
        obstacles.append({"type": "rect", "layers": [names[i] for i in o.layers],
                          "center": {"x": (x0 + x1) / 2 * mm, "y": -(y0 + y1) / 2 * mm},
                          "width": (x1 - x0) * mm, "height": (y1 - y0) * mm, "connectedTo": conn})
    for n in p.nets:
        pts = [{"x": q.at[0] * mm, "y": -q.at[1] * mm, "layers": [names[i] for i in q.layers]}
               for c in n.clusters for q in c[:1] if q.at]
        connections.append({"name": n.name, "pointsToConnect": pts})
    total = sum(len(n.clusters) - 1 for n in p.nets)
    if not p.nets:
        return Result([], [], 0, 0, [], 0.0, 0)
    rule = min((n.rule for n in p.nets), key=lambda r: r.width)
    x0, y0, x1, y1 = p.bounds
    srj = {"layerCount": len(p.layers), "minTraceWidth": rule.width * mm, "nominalTraceWidth": rule.width * mm,
           "minViaDiameter": rule.via_diameter * mm,
           "defaultObstacleMargin": max(rule.clearance, p.rules.min_clearance) * mm,
           "obstacles": obstacles, "connections": connections,
           "bounds": {"minX": x0 * mm, "maxX": x1 * mm, "minY": -y1 * mm, "maxY": -y0 * mm}}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tscircuit-") as tmp:
        work = Path(tmp)
        (work / "in.json").write_text(json.dumps(srj))
        (TSC_DIR / "run_bench.mjs").write_text(_TSC_SCRIPT)
        try:
            subprocess.run([node_bin(), str(TSC_DIR / "run_bench.mjs"), str(work / "in.json"),
                            str(work / "out.json"), str(options.time_limit)], capture_output=True,
                           timeout=options.time_limit + 60, check=False, cwd=TSC_DIR)
        except subprocess.TimeoutExpired:
            pass
        out_file = work / "out.json"
        out = json.loads(out_file.read_text()) if out_file.is_file() else {"solved": False, "traces": []}
    by_name = {n.name: n for n in p.nets}
    layer_of = {name: i for i, name in enumerate(names)}
    tracks, vias = [], []
    for trace in out["traces"]:
        tid = trace.get("connection_name") or trace.get("pcb_trace_id", "")
        net = by_name.get(tid) or next((n for name, n in by_name.items() if tid.startswith(name + "_")), None)
        if net is None:
            continue
        route = trace.get("route", [])
        for a, b in zip(route, route[1:]):
            if a.get("route_type") == "wire" and b.get("route_type") == "wire" and a["layer"] == b["layer"]:
                pa = (round(a["x"] / mm), round(-a["y"] / mm))
                pb = (round(b["x"] / mm), round(-b["y"] / mm))
                if pa != pb:
                    tracks.append(Track(pa, pb, round(a.get("width", rule.width * mm) / mm), layer_of[a["layer"]],
                                        net.id))
        for v in route:
            if v.get("route_type") == "via":
                vias.append(Via((round(v["x"] / mm), round(-v["y"] / mm)), rule.via_diameter, rule.via_drill, net.id))
    routed = total if out["solved"] else 0
    return Result(tracks, vias, total, routed, [], time.monotonic() - started, 0,
                  {"solved": out["solved"], "failed": out.get("failed"), "error": str(out.get("error", ""))[:80]})


def child_tscircuit(board: Path, timeout: float) -> dict:
    from boardwire.commands import REGISTRY
    from boardwire.layout.route import engines
    from boardwire.registry import Context
    from boardwire.session import Session

    engines.register("tscircuit", tscircuit_engine)
    s = Session(board.parent)
    r = REGISTRY.call("pcb.autoroute", {"path": board.name, "engine": "tscircuit", "time_limit": timeout,
                                        "refill_zones": False}, Context(s))
    s.save(board.name)
    return {"note": f"{r['summary']}; {len(r['violations'])} flagged by the seam's check"}


CHILDREN = {"boardwire": child_boardwire, "freeroute": child_freeroute, "tscircuit": child_tscircuit}


def run_child(engine: str, board: Path, timeout: float) -> dict:
    """Run one engine on ``board`` in a child process: its result, seconds, peak RSS."""
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, __file__, "--child", engine, str(board), str(timeout)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout + 300)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    seconds = time.monotonic() - start
    try:
        info = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        info = {"note": "failed: " + (err.strip().splitlines() or ["?"])[-1][:120]}
    info["seconds"] = seconds
    return info


def _peak_rss_mb() -> float:
    """This process's peak RSS, or its largest child's (freeroute, node), in MB."""
    import resource

    return max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
               resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024


def copper_stats(board: Path) -> tuple[int, float]:
    """(vias, total track length mm) of a board file."""
    from boardwire.documents import open_document

    doc = open_document(board)
    length = sum(math.dist(t.start, t.end) for t in doc.tracks) / 1e6
    return len(doc.vias), length


def bench(names: list[str], engines: list[str], timeout: float) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-route-") as tmp:
        for name in names:
            src = BOARDS[name]
            if not src.is_file():
                print(f"skip {name}: {src} missing", file=sys.stderr)
                continue
            _, human_len = copper_stats(src)
            stripped = strip_board(src, Path(tmp) / name / "stripped")
            before = drc(stripped)
            total = unconnected(before)
            for engine in engines:
                work = strip_board(src, Path(tmp) / name / engine)
                info = run_child(engine, work, timeout)
                after = drc(work)
                left = unconnected(after)
                new = new_violations(before, after)
                vias, length = copper_stats(work)
                row = {"board": name, "engine": engine, "total": total, "routed": total - left,
                       "completion": 100.0 * (total - left) / total if total else 100.0,
                       "new": len(new), "new_types": dict(Counter(v["type"] for v in new)),
                       "vias": vias, "length": length, "human_length": human_len, **info}
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
    return rows


def markdown(rows: list[dict]) -> str:
    out = ["| board | engine | routed (KiCad) | new violations | vias | length mm (human) | s | peak RSS MB |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        types = ", ".join(f"{k} {v}" for k, v in sorted(r["new_types"].items()))
        rss = f"{r['rss_mb']:.0f}" if r.get("rss_mb") else "-"
        out.append(f"| {r['board']} | {r['engine']} | {r['routed']}/{r['total']} ({r['completion']:.1f}%) | "
                   f"{r['new']}{' (' + types + ')' if types else ''} | {r['vias']} | "
                   f"{r['length']:.0f} ({r['human_length']:.0f}) | {r['seconds']:.1f} | {rss} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--child", nargs=3, metavar=("ENGINE", "BOARD", "TIMEOUT"))
    ap.add_argument("--engines", default="boardwire,freeroute,tscircuit")
    ap.add_argument("--boards", nargs="*", default=list(BOARDS))
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    if a.child:
        engine, board, timeout = a.child
        info = CHILDREN[engine](Path(board), float(timeout))
        info["rss_mb"] = _peak_rss_mb()
        print(json.dumps(info))
        return
    engines = []
    for e in a.engines.split(","):
        ok = {"boardwire": True, "freeroute": freeroute_bin() is not None, "tscircuit": tscircuit_ok()}[e]
        if ok:
            engines.append(e)
        else:
            print(f"{e} is not installed here: left out of this run", file=sys.stderr)
    rows = bench(a.boards, engines, a.timeout)
    print(markdown(rows) if a.markdown else json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
