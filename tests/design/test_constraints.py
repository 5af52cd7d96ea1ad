"""design.build honours the design's placement constraints: a pinned connector keeps
its pose exactly, a connector bound to the left edge ends flush with it, and no
courtyard enters a keep-out. The design is examples/designs/blinker555.json with a
second connector and KiCad's own libraries (no catalogue), built until placement."""

from __future__ import annotations

import json

import pytest
import shapely

from boardwire.design.document import Constraints
from boardwire.design.placement import autoplace_args
from boardwire.geometry import geometry_of
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import FOOTPRINTS, REPO, SYMBOLS, need

pytestmark = [pytest.mark.kicad]

BLINKER = json.loads((REPO / "examples" / "designs" / "blinker555.json").read_text())
for _c in BLINKER["components"]:  # KiCad's libraries only: no catalogue in this workspace
    if _c.get("part"):
        _c.update(symbol="Device:C", value="100n", footprint="Capacitor_SMD:C_0805_2012Metric")
        del _c["part"]
HEADER = "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical"
DESIGN = {**BLINKER, "name": "pinned",
          "components": BLINKER["components"] + [
              {"ref": "J2", "symbol": "Connector_Generic:Conn_01x02", "value": "out", "footprint": HEADER}],
          "nets": {**BLINKER["nets"], "OUT": BLINKER["nets"]["OUT"] + ["J2.1"], "GND": BLINKER["nets"]["GND"] + ["J2.2"]},
          "board": {"size": [40, 30]},
          # J1 pinned turned on the right; J2 on the left edge; nothing in the middle band
          "constraints": {"pinned": {"J1": {"at": [34.5, 12.25], "angle": 90}}, "edge": {"J2": "left"},
                          "keepouts": [[14, 6, 22, 30]]}}
ORIGIN = 100.0  # the outline's top-left corner on the board (design.pipeline.ORIGIN)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    need(SYMBOLS / "Timer.kicad_sym")
    need(FOOTPRINTS / "Connector_PinHeader_2.54mm.pretty")
    session = Session(tmp_path_factory.mktemp("constraints"))
    out = REGISTRY.call("design.build", {"design": DESIGN, "until": "placement"}, Context(session))
    assert [s["status"] for s in out["stages"]] == ["ok"] * 6, out["stages"]
    doc = session.get(out["board"], "board").doc
    return doc, geometry_of(doc)


def _courtyard(model, ref: str):
    rec = next(r for r in model.footprints if r is not None and r.reference == ref)
    return rec.courtyard["front"]


def test_pinned_connector_keeps_its_pose(built):
    doc, _ = built
    j1 = doc.footprint("J1")
    assert j1.position == (134_500_000, 112_250_000) and j1.orientation == 90 and j1.side == "front"


def test_edge_connector_flush_with_its_edge(built):
    _, model = built
    left = model.outline().bounds[0]
    x1 = _courtyard(model, "J2").bounds[0]
    assert left == ORIGIN * 1e6 and 0 <= x1 - left <= 1_000_000, (x1 - left) / 1e6


def test_no_courtyard_in_the_keepout(built):
    doc, model = built
    k = DESIGN["constraints"]["keepouts"][0]
    keepout = shapely.box(*((ORIGIN + v) * 1e6 for v in k))
    inside = [fp.reference for fp in doc.footprints if _courtyard(model, fp.reference).intersection(keepout).area > 0]
    assert inside == []


def test_constraints_mapped_to_autoplace_once():
    c = Constraints.model_validate({"pinned": {"U1": {"at": [5, 6.5], "angle": 180}}, "edge": ["J1", "J2", "J3", "J4", "J5"],
                                    "keepouts": [[0, 0, 3, 4]]})
    assert autoplace_args(c, (100.0, 100.0)) == {
        "pinned": {"U1": {"at": [105.0, 106.5], "angle": 180, "side": "front"}},
        "edges": {"J1": "left", "J2": "right", "J3": "top", "J4": "bottom", "J5": "left"}, "keepouts": [[100.0, 100.0, 103.0, 104.0]]}
    assert autoplace_args(Constraints.model_validate({"edge": {"J1": "top"}}), (0, 0)) == {"edges": {"J1": "top"}}
    assert autoplace_args(Constraints(), (100.0, 100.0)) == {}
    with pytest.raises(ValueError, match="x1 < x2"):
        Constraints.model_validate({"keepouts": [[5, 0, 3, 4]]})
