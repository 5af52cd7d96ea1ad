"""The router's engine on problems built by hand (no KiCad, no documents): what it
emits keeps every clearance, avoids walls and keep-outs, and is the same twice."""

from __future__ import annotations

import math

from shapely.geometry import LineString, Point, box

from boardwire.layout.route import Keepout, Net, NetRule, Obstacle, Options, Piece, Problem, Rules, route
from boardwire.layout.route.verify import seg_dist

MM = 1_000_000
RULE = NetRule(width=250_000, clearance=200_000, via_diameter=600_000, via_drill=300_000)


def _pad(x, y, net, label):
    shape = box(x - 0.5 * MM, y - 0.5 * MM, x + 0.5 * MM, y + 0.5 * MM)
    return shape, Piece("pad", (0,), shape, (x, y), 0, label), Obstacle(shape, (0,), net, RULE.clearance)


def _problem(layers=("F.Cu",), keepout=None) -> Problem:
    """Two nets that must cross: N1 edge to edge (its pads too near the edges to pass),
    N2 likewise bottom to top; a wall across
    the middle with a gap, the board 20 x 20 mm."""
    nets, obstacles = [], []
    for nid, (a, b) in enumerate((((1 * MM, 10 * MM), (19 * MM, 10 * MM)),
                                  ((10 * MM, 19 * MM), (10 * MM, 1 * MM))), start=1):
        clusters = []
        for k, (x, y) in enumerate((a, b)):
            _, piece, obstacle = _pad(x, y, nid, f"N{nid}-{k}")
            clusters.append([piece])
            obstacles.append(obstacle)
        nets.append(Net(nid, f"N{nid}", RULE, clusters))
    wall = box(5 * MM, 4 * MM, 5.5 * MM, 16 * MM)  # no net: a wall at x = 5 mm
    obstacles.append(Obstacle(wall, tuple(range(len(layers))), 0, 0, kind="graphic"))
    keepouts = [keepout] if keepout else []
    outline = box(0, 0, 20 * MM, 20 * MM)
    return Problem(list(layers), tuple(range(len(layers))), outline, obstacles, keepouts, nets,
                   Rules(min_clearance=0, edge_clearance=300_000), (0, 0, 20 * MM, 20 * MM))


def _gaps(result, problem):
    """Smallest copper-to-copper gap between items of different nets (nm)."""
    worst = math.inf
    tracks = result.tracks
    for i, t in enumerate(tracks):
        line = LineString([t.start, t.end])
        for o in problem.obstacles:
            if o.net != t.net and t.layer in o.layers:
                worst = min(worst, line.distance(o.shape) - t.width / 2)
        for u in tracks[i + 1:]:
            if u.net != t.net and u.layer == t.layer:
                worst = min(worst, seg_dist(t.start, t.end, u.start, u.end) - t.width / 2 - u.width / 2)
    for v in result.vias:
        for t in tracks:
            if t.net != v.net:
                worst = min(worst, LineString([t.start, t.end]).distance(Point(v.at)) - t.width / 2 - v.diameter / 2)
    return worst


def test_two_layers_cross_with_a_via_and_keep_clearances():
    p = _problem(("F.Cu", "B.Cu"))
    result = route(p, Options(seed=1))
    assert result.routed == result.total == 2
    assert result.vias, "two nets crossing need a layer change"
    assert _gaps(result, p) >= RULE.clearance
    for t in result.tracks:  # 0/45/90 degrees
        dx, dy = abs(t.end[0] - t.start[0]), abs(t.end[1] - t.start[1])
        assert dx == 0 or dy == 0 or dx == dy
        assert not LineString([t.start, t.end]).buffer(t.width / 2).intersects(box(5 * MM, 4 * MM, 5.5 * MM, 16 * MM))


def test_one_layer_crossing_is_reported_not_forced():
    p = _problem(("F.Cu",))
    result = route(p, Options(seed=1))
    assert result.routed == 1 and len(result.unrouted) == 1
    assert result.unrouted[0].reason and _gaps(result, p) >= RULE.clearance


def test_keepout_is_respected():
    ko = Keepout(box(8 * MM, 0, 12 * MM, 20 * MM), (0, 1), tracks=True, vias=True)
    p = _problem(("F.Cu", "B.Cu"), keepout=ko)
    result = route(p, Options(seed=1))
    for t in result.tracks:  # the strip spans the board: N1 cannot cross it
        assert LineString([t.start, t.end]).buffer(t.width / 2).disjoint(ko.polygon)
    assert all(Point(v.at).buffer(v.diameter / 2).disjoint(ko.polygon) for v in result.vias)
    assert result.routed < result.total


def test_same_seed_same_result():
    a = route(_problem(("F.Cu", "B.Cu")), Options(seed=4))
    b = route(_problem(("F.Cu", "B.Cu")), Options(seed=4))
    assert [(t.start, t.end, t.layer) for t in a.tracks] == [(t.start, t.end, t.layer) for t in b.tracks]
