"""The router's engine on problems built by hand (no KiCad, no documents): what it
emits keeps every clearance, avoids walls and keep-outs, and is the same twice."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import LineString, Point, box

from boardwire.layout.route import Keepout, Net, NetRule, Obstacle, Options, Piece, Problem, Rules, route
from boardwire.layout.route.engine import Router, joins_own_pads
from boardwire.layout.route.paths import split_at_tee
from boardwire.layout.route.verify import point_seg_dist, seg_dist

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


def _dangling(result, pads) -> list:
    """Tracks KiCad 9's DRC calls dangling (`CONNECTIVITY_DATA::TestTrackEndpointDangling`):
    every item of the net touching a track (within half its width) counts for the end it
    touches, or when it touches both, for the end nearer one of the item's ends (a
    track's) or its centre (a pad's, a via's); a track with an end nobody counts for
    dangles."""
    out = []
    for t in result.tracks:
        acc = t.width / 2
        near = []  # (hits start, hits end, distance to start, distance to end)
        for u in result.tracks:
            if u is not t and u.net == t.net and u.layer == t.layer \
                    and seg_dist(t.start, t.end, u.start, u.end) <= (t.width + u.width) / 2:
                def ends(p, u=u):
                    return min(math.dist(u.start, p), math.dist(u.end, p))
                near.append((point_seg_dist(t.start, u.start, u.end) <= u.width / 2 + acc,
                             point_seg_dist(t.end, u.start, u.end) <= u.width / 2 + acc,
                             ends(t.start), ends(t.end)))
        for v in result.vias:
            if v.net == t.net:
                near.append((math.dist(v.at, t.start) <= v.diameter / 2 + acc,
                             math.dist(v.at, t.end) <= v.diameter / 2 + acc,
                             math.dist(v.at, t.start), math.dist(v.at, t.end)))
        for net, shape, at in pads:
            if net == t.net:
                near.append((shape.distance(Point(t.start)) <= acc, shape.distance(Point(t.end)) <= acc,
                             math.dist(at, t.start), math.dist(at, t.end)))
        start = sum(1 for hs, he, ds, de in near if hs and (not he or ds < de))
        end = sum(1 for hs, he, ds, de in near if he and (not hs or ds >= de))
        if not (start and end):
            out.append(t)
    return out


# pads of one net (mm) whose routes met a track of the same net in its middle with a
# step shorter than the width: KiCad's DRC found the step dangling (before issue 15's
# fix: a StickHub track after autoplace)
TEES = [[(16.475, 18.171), (10.092, 18.475), (6.764, 2.809), (11.696, 2.033)],
        [(8.691, 9.539), (14.7, 1.531), (2.432, 3.657), (3.619, 2.663)],
        [(16.063, 8.304), (13.971, 17.824), (9.446, 5.403), (5.491, 13.701)],
        [(10.894, 11.412), (12.272, 18.109), (13.173, 6.59), (16.12, 9.729)],
        [(3.952, 16.893), (4.524, 18.378), (12.968, 12.498), (3.918, 2.428)],
        [(11.088, 15.577), (5.616, 4.556), (5.749, 11.972), (14.31, 8.193)],
        [(3.075, 15.677), (6.46, 7.563), (11.365, 12.984), (1.617, 7.192)]]


@pytest.mark.parametrize("pts", TEES)
def test_routes_meeting_a_track_leave_no_dangling_end(pts):
    clusters, obstacles, pads = [], [], []
    for k, (x, y) in enumerate(pts):
        shape = box((x - 0.4) * MM, (y - 0.4) * MM, (x + 0.4) * MM, (y + 0.4) * MM)
        at = (round(x * MM), round(y * MM))
        clusters.append([Piece("pad", (0,), shape, at, 0, f"P{k}")])
        obstacles.append(Obstacle(shape, (0,), 1, RULE.clearance))
        pads.append((1, shape, at))
    p = Problem(["F.Cu"], (0,), box(0, 0, 20 * MM, 20 * MM), obstacles, [], [Net(1, "N1", RULE, clusters)],
                Rules(min_clearance=0, edge_clearance=300_000), (0, 0, 20 * MM, 20 * MM))
    result = route(p, Options(seed=1))
    assert result.routed == result.total == 3
    assert not _dangling(result, pads)
    for t in result.tracks:  # the cut keeps 0/45/90 degrees
        dx, dy = abs(t.end[0] - t.start[0]), abs(t.end[1] - t.start[1])
        assert dx == 0 or dy == 0 or dx == dy


def _two_gaps() -> Problem:
    """One layer, 30 x 20 mm; a wall at x = 15 mm with two gaps one track wide: gap 1
    at y = 10 mm, gap 2 at y = 2 mm filled with copper of net A (A passes its own
    copper, B does not). B (pads at y = 10 mm) can only pass gap 1; A (pads at y = 12
    mm) is shorter through gap 1 and can also take gap 2."""
    wall = [box(14.5 * MM, 0, 15.5 * MM, 1.5 * MM), box(14.5 * MM, 2.5 * MM, 15.5 * MM, 9.5 * MM),
            box(14.5 * MM, 10.5 * MM, 15.5 * MM, 20 * MM)]
    obstacles = [Obstacle(w, (0,), 0, 0, kind="graphic") for w in wall]
    obstacles.append(Obstacle(box(14.5 * MM, 1.5 * MM, 15.5 * MM, 2.5 * MM), (0,), 1, RULE.clearance))
    nets = []
    for nid, y in ((1, 12), (2, 10)):
        clusters = []
        for k, x in enumerate((11, 19)):
            _, piece, obstacle = _pad(x * MM, y * MM, nid, f"{'AB'[nid - 1]}{k}")
            clusters.append([piece])
            obstacles.append(obstacle)
        nets.append(Net(nid, "AB"[nid - 1], RULE, clusters))
    return Problem(["F.Cu"], (0,), box(0, 0, 30 * MM, 20 * MM), obstacles, [], nets,
                   Rules(min_clearance=0, edge_clearance=300_000), (0, 0, 30 * MM, 20 * MM))


def test_repair_reroutes_the_net_in_the_way():
    """A routed first through gap 1 walls B off; repair routes B through A, rips A up
    and routes it again through gap 2."""
    p = _two_gaps()
    router = Router(p, Options(seed=1))
    router.nets = {n.id: n for n in p.nets}
    router.rank = {1: 0, 2: 1}
    assert router.route_net(router.nets[1], 0)[0] == 0
    assert router.route_net(router.nets[2], 0)[0] == 1, "gap 1 is taken: B has no way"
    assert max(y for _, geom, _ in router.placed[1] for _, y in geom) > 9 * MM  # A took gap 1
    router.repair(1.0)
    result = router._result(2)
    assert router.repaired["before"] == 1 and result.routed == result.total == 2
    assert min(y for t in result.tracks if t.net == 1 for y in (t.start[1], t.end[1])) < 3 * MM  # A: gap 2
    assert _gaps(result, p) >= RULE.clearance


def test_a_route_ending_one_step_from_a_track_end_cuts_the_track():
    """interf_u (seed 5, 60 s): a route came down a via and took one 0.127 mm step on
    F.Cu to a 0.4 mm track, a step from that track's end. The end was taken for a joint
    (within half the width), the track was not cut, and KiCad counted it for the
    step's other end: track_dangling. Now the track is cut where the route meets it."""
    track = ("track", ((122_809_000, 131_572_000), (120_904_000, 133_477_000)), 0)
    end = (121_031_000, 133_350_000)
    items = split_at_tee([track], end, 0, 400_000, 127_000)
    assert [geom for _, geom, _ in items] == [((122_809_000, 131_572_000), end), (end, (120_904_000, 133_477_000))]


def test_compiled_segment_distance_matches_shapely():
    """The exact checks of placed routes measure with `maze.seg_dist` (C): against
    shapely's distance on random segments of a 2 mm grid (crossing, touching,
    parallel, collinear, points)."""
    import random

    from boardwire.layout.route import maze

    rng = random.Random(7)
    for _ in range(3000):
        pts = [(rng.randint(-4, 4) * 250_000, rng.randint(-4, 4) * 250_000) for _ in range(4)]
        if rng.random() < 0.15:
            pts[1] = pts[0]
        a = LineString(pts[:2]) if pts[0] != pts[1] else Point(pts[0])
        b = LineString(pts[2:]) if pts[2] != pts[3] else Point(pts[2])
        want = a.distance(b)
        got = maze.seg_dist(*pts[0], *pts[1], *pts[2], *pts[3])
        assert abs(got - want) < 1e-3, (pts, got, want)
        assert abs(got - seg_dist(*pts)) < 1e-6


def test_nets_joining_pads_of_one_footprint_go_first():
    """A net joining two pads of one part (U1-25 to U1-28) is routed before a shorter
    net between two parts, within the same width; a net whose clusters are on
    different parts is not taken for one (U1-2 and U10-2: the reference is the whole
    label before the last dash)."""
    def net(nid, *labels):
        return Net(nid, f"N{nid}", RULE, [[_pad(i * 2 * MM, 0, nid, lab)[1]] for i, lab in enumerate(labels)])

    own = net(1, "U1-25", "C4-1", "U1-28")
    apart = net(2, "U1-2", "U10-2")
    assert joins_own_pads(own) and not joins_own_pads(apart)
    router = Router(Problem(["F.Cu"], (0,), None, [], [], [apart, own], Rules(), (0, 0, 10 * MM, 10 * MM)),
                    Options(time_limit=5))
    router.run()
    assert router.rank[1] < router.rank[2]
