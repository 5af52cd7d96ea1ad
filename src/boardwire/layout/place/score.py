"""Judging poses: ratsnest length, a routability estimate and decoupling distances
(courtyard overlaps and parts off the board are judged on the board itself, by
`checks.courtyards` and the outline: see `layout.place_board`).

- Ratsnest: per net, the minimum spanning tree over its pad centres (Prim), as the
  ratsnest of an unrouted board; tracks are ignored.
- Routability: RUDY (Spindler and Johannes, "Fast and accurate routing demand
  estimation", DATE 2007): each net spreads its wire length (its spanning tree) evenly
  over its pins' bounding box; the demand per bin (mm of track per mm²) is set against
  a capacity of ``layers / track_pitch`` halved (pads, vias and turns take the rest).
  The estimate is the share of the demand that fits: 1.0 when no bin overflows.
- Crossings: how many pairs of ratsnest lines of different nets cross, over the
  spanning trees of the nets of at most `CROSSING_PINS` pins (grounds and supplies
  are poured more than routed); a placement whose connections cross less leaves the
  router fewer layer changes and detours. On StickHub after autoplace (seeds 1-3 and
  a variant) the routed share fell as crossings rose (91, 94, 121, 163 crossings:
  85.8, 68.1, 73.0, 51.8%) while RUDY's estimate did not follow it.
- Decoupling: per capacitor, the distance (pad edge to pad edge, mm) from its supply
  pad to the nearest pad of the pin it serves (`decoupling.assign`), its target and
  whether it is beyond it.
"""

from __future__ import annotations

import numpy as np

from .poses import pad_boxes_of, pads_at
from .problem import Problem

USABLE = 0.5
BINS = 48
CROSSING_PINS = 8


def net_pins(problem: Problem, poses) -> dict[int, np.ndarray]:
    """Net id -> (k, 2) pad centres (nm) at ``poses`` (index -> pose; others as now)."""
    pins: dict[int, list] = {}
    for i, part in enumerate(problem.parts):
        pose = poses.get(i, part.pose)
        at = pads_at(part, pose)
        for k, net in enumerate(part.pad_nets):
            if net >= 0:
                pins.setdefault(net, []).append(at[k])
    return {n: np.array(v) for n, v in pins.items() if len(v) > 1}


def spanning_edges(points: np.ndarray) -> np.ndarray:
    """The (n - 1, 4) edges (x1, y1, x2, y2) of the Euclidean minimum spanning tree over
    ``points`` (Prim)."""
    n = len(points)
    inside = np.zeros(n, dtype=bool)
    inside[0] = True
    best = np.hypot(*(points - points[0]).T)
    parent = np.zeros(n, dtype=int)
    out = []
    for _ in range(n - 1):
        j = int(np.where(inside, np.inf, best).argmin())
        out.append((*points[parent[j]], *points[j]))
        inside[j] = True
        d = np.hypot(*(points - points[j]).T)
        parent[d < best] = j
        best = np.minimum(best, d)
    return np.array(out, dtype=float).reshape(-1, 4)


def spanning_length(points: np.ndarray) -> float:
    """Length of the Euclidean minimum spanning tree over ``points``."""
    e = spanning_edges(points)
    return float(np.hypot(e[:, 2] - e[:, 0], e[:, 3] - e[:, 1]).sum())


def crossings(pins: dict[int, np.ndarray]) -> int:
    """Pairs of spanning-tree edges of different nets (of at most `CROSSING_PINS` pins)
    that cross properly (touching ends do not count)."""
    edges, owner = [], []
    for net, p in pins.items():
        if len(p) <= CROSSING_PINS:
            e = spanning_edges(p)
            edges.append(e)
            owner += [net] * len(e)
    if not edges:
        return 0
    e = np.concatenate(edges)
    own = np.array(owner)
    ax, ay, bx, by = (e[:, k] for k in range(4))

    def side(px, py, qx, qy, rx, ry):
        return np.sign((qx - px) * (ry - py) - (qy - py) * (rx - px))

    count = 0
    for i in range(len(e) - 1):
        r = slice(i + 1, None)
        s1 = side(ax[i], ay[i], bx[i], by[i], ax[r], ay[r]) * side(ax[i], ay[i], bx[i], by[i], bx[r], by[r])
        s2 = side(ax[r], ay[r], bx[r], by[r], ax[i], ay[i]) * side(ax[r], ay[r], bx[r], by[r], bx[i], by[i])
        count += int(((s1 < 0) & (s2 < 0) & (own[r] != own[i])).sum())
    return count


def pad_gap(a: np.ndarray, b: np.ndarray) -> float:
    """The smallest distance between boxes (x1, y1, x2, y2) of ``a`` (k, 4) and ``b``
    (m, 4): 0 where they touch or overlap."""
    dx = np.maximum(0.0, np.maximum(a[:, None, 0] - b[None, :, 2], b[None, :, 0] - a[:, None, 2]))
    dy = np.maximum(0.0, np.maximum(a[:, None, 1] - b[None, :, 3], b[None, :, 1] - a[:, None, 3]))
    return float(np.hypot(dx, dy).min())


def decap_distance(problem: Problem, d, poses: dict) -> float:
    """Decoupling ``d``'s distance (nm): its capacitor's supply pad to the nearest pad of
    its pin, copper edge to copper edge (pad centres when the parts have no pad boxes)."""
    cap_part, ic_part = problem.parts[d.cap], problem.parts[d.ic]
    cp, ip = poses.get(d.cap, cap_part.pose), poses.get(d.ic, ic_part.pose)
    if len(cap_part.pad_boxes) and len(ic_part.pad_boxes):
        g = problem.pad_margin
        a = pad_boxes_of(cap_part, cp[2], cp[3])[[d.cap_pad]] + (cp[0] + g, cp[1] + g, cp[0] - g, cp[1] - g)
        b = pad_boxes_of(ic_part, ip[2], ip[3])[d.ic_pads] + (ip[0] + g, ip[1] + g, ip[0] - g, ip[1] - g)
        return pad_gap(a, b)
    cap = pads_at(cap_part, cp)[d.cap_pad]
    ic = pads_at(ic_part, ip)[d.ic_pads]
    return float(np.hypot(*(ic - cap).T).min())


def score(problem: Problem, poses: dict) -> dict:
    """Ratsnest length (mm), routability (0-1, and the worst bin's demand over its
    capacity), ratsnest crossings, decoupling distances (mm) for ``poses``."""
    pins = net_pins(problem, poses)
    lengths = {n: spanning_length(p) for n, p in pins.items()}
    x1, y1, x2, y2 = problem.region.bounds
    step = max(x2 - x1, y2 - y1) / BINS
    nx, ny = int(np.ceil((x2 - x1) / step)) + 1, int(np.ceil((y2 - y1) / step)) + 1
    demand = np.zeros((ny, nx))
    floor = problem.track_pitch
    for n, p in pins.items():
        lo, hi = p.min(axis=0), p.max(axis=0)
        w, h = max(hi[0] - lo[0], floor), max(hi[1] - lo[1], floor)
        density = lengths[n] / (w * h)  # nm of track per nm²
        i1, i2 = np.clip([int((lo[0] - x1) // step), int((hi[0] - x1) // step)], 0, nx - 1)
        j1, j2 = np.clip([int((lo[1] - y1) // step), int((hi[1] - y1) // step)], 0, ny - 1)
        demand[j1:j2 + 1, i1:i2 + 1] += density
    capacity = problem.layers / problem.track_pitch * USABLE
    total = float(demand.sum())
    over = float(np.maximum(demand - capacity, 0).sum())
    decoupling = []
    for d in problem.decoupling:
        mm = round(decap_distance(problem, d, poses) / 1e6, 3)
        ic = problem.parts[d.ic].ref
        decoupling.append({"capacitor": problem.parts[d.cap].ref, "ic": ic, "pin": f"{ic}.{d.pin}", "net": d.net,
                           "distance": mm, "target": round(d.target / 1e6, 3), "beyond": mm > d.target / 1e6})
    return {"ratsnest_length": round(sum(lengths.values()) / 1e6, 2),
            "routability": round(1.0 - over / total, 4) if total else 1.0,
            "peak_demand": round(float(demand.max()) / capacity, 3) if total else 0.0,
            "crossings": crossings(pins),
            "decoupling": decoupling}
