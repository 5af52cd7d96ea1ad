"""lib.*: searching the installed and project libraries, one symbol, one footprint.

The installed-library tests read KiCad 9's own files as the oracle: pins through the
lossless SymbolLibrary reader (not the index's scan), pads through FootprintFile.
The first search in a process builds the library index (seconds without a disk cache).
"""

from __future__ import annotations

import pytest

from boardwire.documents import FootprintFile, SymbolLibrary
from boardwire.documents.library.index import LibraryIndex
from boardwire.errors import InvalidArgs, NotFound
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import FOOTPRINTS, SYMBOLS, need


def q(session, cid, **args):
    return REGISTRY.call(cid, args, Context(session))


def ids(result) -> list[str]:
    return [row["id"] for row in result["items"]]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    need(SYMBOLS / "Device.kicad_sym")
    need(FOOTPRINTS / "Resistor_SMD.pretty")
    return Session(tmp_path_factory.mktemp("empty"))


# -- search --------------------------------------------------------------------------

@pytest.mark.kicad
def test_search_0603_resistor(installed):
    top = ids(q(installed, "lib.search", query="0603 resistor", limit=5))
    assert "Resistor_SMD:R_0603_1608Metric" in top and "Device:R" in top, top


@pytest.mark.kicad
def test_search_lm358(installed):
    out = q(installed, "lib.search", query="LM358", limit=5)
    assert out["items"][0]["id"] == "Amplifier_Operational:LM358", ids(out)
    assert out["items"][0]["kind"] == "symbol" and out["items"][0]["pins"] == 8
    assert out["items"][0]["units"] == 3


@pytest.mark.kicad
def test_search_usb_c_receptacle(installed):
    out = q(installed, "lib.search", query="USB-C receptacle", limit=5)
    top = ids(out)
    assert any(i.startswith("Connector:USB_C_Receptacle") for i in top), top
    assert any(i.startswith("Connector_USB:USB_C_Receptacle_") for i in top), top
    # the same words spelt as the library spells them find the same first rows
    assert ids(q(installed, "lib.search", query="usb_c_receptacle", limit=5)) == top


@pytest.mark.kicad
def test_search_kind_and_paging(installed):
    first = q(installed, "lib.search", query="0603 resistor", kind="footprint", limit=5)
    assert {r["kind"] for r in first["items"]} == {"footprint"}
    assert first["items"][0]["id"] == "Resistor_SMD:R_0603_1608Metric"
    assert first["items"][0]["pads"] == 2 and "more with offset" in first["summary"]
    second = q(installed, "lib.search", query="0603 resistor", kind="footprint", limit=5, offset=5)
    assert second["total"] == first["total"] > 10
    assert set(ids(first)).isdisjoint(ids(second))
    whole = q(installed, "lib.search", query="0603 resistor", kind="footprint", limit=10)
    assert ids(whole) == ids(first) + ids(second)
    last = q(installed, "lib.search", query="0603 resistor", kind="footprint",
             offset=first["total"] - 1, limit=5)
    assert len(last["items"]) == 1 and "more" not in last["summary"]
    assert q(installed, "lib.search", query="zzqqxx qqzzyy")["total"] == 0


# -- one symbol ------------------------------------------------------------------------

def _file_pins(lib: str, name: str) -> tuple[int, set]:
    """Units and (number, name, type, unit) of body style 1, read with the lossless
    reader, following extends."""
    sym = SymbolLibrary.load(SYMBOLS / f"{lib}.kicad_sym").symbol(name)
    while sym.extends:
        sym = SymbolLibrary.load(SYMBOLS / f"{lib}.kicad_sym").symbol(sym.extends)
    units, pins = 1, set()
    for unit in sym.units():
        u, style = (int(x) for x in unit.atoms()[0].decode().strip('"').rsplit("_", 2)[1:])
        units = max(units, u)
        if style <= 1:
            for p in unit.lists("pin"):
                from boardwire.documents.schematic import LibPin

                pin = LibPin(None, p)
                pins.add((pin.number, pin.name, pin.electrical_type, u))
    return units, pins


@pytest.mark.kicad
@pytest.mark.parametrize("lib_id", ["Device:R", "Amplifier_Operational:LM358"])
def test_symbol_matches_file(installed, lib_id):
    lib, name = lib_id.split(":")
    out = q(installed, "lib.symbol", id=lib_id)
    units, pins = _file_pins(lib, name)
    assert out["units"] == units
    assert {(p["number"], p["name"], p["type"], p["unit"]) for p in out["pins"]} == pins
    assert len(out["pins"]) == len(pins)
    assert out["fields"]["Value"] == name and out["description"]


@pytest.mark.kicad
def test_symbol_details(installed):
    r = q(installed, "lib.symbol", id="Device:R")
    assert r["units"] == 1 and r["footprint_filters"] == ["R_*"] and "resistor" in r["keywords"]
    # pin 1 sits above the body: y down in the result (the file stores y up), and the
    # pin points down into the body
    pin1 = next(p for p in r["pins"] if p["number"] == "1")
    assert pin1["at"] == [0.0, -3.81] and pin1["orientation"] == 270.0
    lm = q(installed, "lib.symbol", id="Amplifier_Operational:LM358")
    assert lm["extends"] == "LM2904" and lm["units"] == 3 and "SOIC*3.9x4.9mm*P1.27mm*" in lm["footprint_filters"]
    assert {p["unit"] for p in lm["pins"]} == {1, 2, 3}
    assert "LM358" in lm["summary"] and "3 units" in lm["summary"]


# -- one footprint ---------------------------------------------------------------------

@pytest.mark.kicad
@pytest.mark.parametrize("lib_id", ["Resistor_SMD:R_0603_1608Metric", "Package_DIP:DIP-8_W7.62mm",
                                    "Connector_USB:USB_C_Receptacle_GCT_USB4085"])
def test_footprint_matches_file(installed, lib_id):
    lib, name = lib_id.split(":")
    path = need(FOOTPRINTS / f"{lib}.pretty" / f"{name}.kicad_mod")
    doc = FootprintFile.load(path)
    out = q(installed, "lib.footprint", id=lib_id)
    assert [p["number"] for p in out["pads"]] == [p.number for p in doc.pads]
    for row, pad in zip(out["pads"], doc.pads):
        assert row["type"] == pad.pad_type and row["shape"] == pad.shape
        assert row["at"] == [pad.position[0] / 1e6, pad.position[1] / 1e6]
        assert row["size"] == [pad.size[0] / 1e6, pad.size[1] / 1e6]
        assert row["layers"] == pad.layers
    assert out["description"] == doc.footprint.text_of("descr")
    assert "F.CrtYd" in out["courtyard"]


@pytest.mark.kicad
def test_footprint_courtyard_and_attributes(installed):
    r = q(installed, "lib.footprint", id="Resistor_SMD:R_0603_1608Metric")
    # (fp_rect (start -1.48 -0.73) (end 1.48 0.73) (layer "F.CrtYd"))
    assert r["courtyard"]["F.CrtYd"] == {"min": [-1.48, -0.73], "max": [1.48, 0.73], "size": [2.96, 1.46]}
    assert r["attributes"] == ["smd"] and r["tags"] == "resistor"
    dip = q(installed, "lib.footprint", id="Package_DIP:DIP-8_W7.62mm")
    assert dip["attributes"] == ["through_hole"] and all("drill" in p for p in dip["pads"])


# -- errors ---------------------------------------------------------------------------

@pytest.mark.kicad
def test_bad_ids(installed):
    for cid in ("lib.symbol", "lib.footprint"):
        for bad in ("R", "Device:", ":R", "a:b:c"):
            with pytest.raises(InvalidArgs):
                q(installed, cid, id=bad)
    with pytest.raises(InvalidArgs):
        q(installed, "lib.search", query="")
    with pytest.raises(InvalidArgs):
        q(installed, "lib.search", query="R", kind="part")
    with pytest.raises(InvalidArgs):
        q(installed, "lib.search", query="R", limit=0)
    with pytest.raises(NotFound) as e:
        q(installed, "lib.symbol", id="Devic:R")
    assert e.value.code == "not-found" and "Device" in e.value.hint
    with pytest.raises(NotFound) as e:
        q(installed, "lib.footprint", id="Resistor_SMDD:R_0603_1608Metric")
    assert "Resistor_SMD" in e.value.hint
    with pytest.raises(NotFound) as e:
        q(installed, "lib.footprint", id="Resistor_SMD:R_0603_1608")
    assert "R_0603_1608Metric" in e.value.message
    with pytest.raises(NotFound):
        q(installed, "lib.symbol", id="Device:NoSuchSymbolHere")


# -- a project's own libraries ---------------------------------------------------------

SYM_LIB = """(kicad_symbol_lib
	(version 20241209)
	(generator "kicad_symbol_editor")
	(generator_version "9.0")
	(symbol "Quux_Widget"
		(pin_names (offset 1.016))
		(exclude_from_sim no)
		(in_bom yes)
		(on_board yes)
		(property "Reference" "U" (at 0 0 0) (effects (font (size 1.27 1.27))))
		(property "Value" "Quux_Widget" (at 0 0 0) (effects (font (size 1.27 1.27))))
		(property "Footprint" "LocalFp:Quux_Pads" (at 0 0 0) (effects (font (size 1.27 1.27)) (hide yes)))
		(property "Datasheet" "" (at 0 0 0) (effects (font (size 1.27 1.27)) (hide yes)))
		(property "Description" "Frobnicating widget, two channels" (at 0 0 0) (effects (font (size 1.27 1.27)) (hide yes)))
		(property "ki_keywords" "frobnicator widget" (at 0 0 0) (effects (font (size 1.27 1.27)) (hide yes)))
		(property "ki_fp_filters" "Quux*" (at 0 0 0) (effects (font (size 1.27 1.27)) (hide yes)))
		(symbol "Quux_Widget_1_1"
			(pin input line (at -5.08 2.54 0) (length 2.54) (name "IN" (effects (font (size 1.27 1.27)))) (number "1" (effects (font (size 1.27 1.27)))))
			(pin output line (at 5.08 2.54 180) (length 2.54) (name "OUT" (effects (font (size 1.27 1.27)))) (number "2" (effects (font (size 1.27 1.27)))))
		)
		(symbol "Quux_Widget_2_1"
			(pin power_in line (at 0 -5.08 90) (length 2.54) (name "GND" (effects (font (size 1.27 1.27)))) (number "3" (effects (font (size 1.27 1.27)))))
		)
		(embedded_fonts no)
	)
	(symbol "Quux_Widget_Lite"
		(extends "Quux_Widget")
		(property "Reference" "U" (at 0 0 0) (effects (font (size 1.27 1.27))))
		(property "Value" "Quux_Widget_Lite" (at 0 0 0) (effects (font (size 1.27 1.27))))
		(property "Description" "Frobnicating widget, one channel" (at 0 0 0) (effects (font (size 1.27 1.27)) (hide yes)))
	)
)
"""

FP = """(footprint "Quux_Pads"
	(version 20241229)
	(generator "pcbnew")
	(layer "F.Cu")
	(descr "Pads for the frobnicating widget")
	(tags "quux frobnicator")
	(attr smd)
	(fp_circle (center 0 0) (end 2 0) (stroke (width 0.05) (type solid)) (fill no) (layer "F.CrtYd"))
	(pad "1" smd rect (at -1 0) (size 0.5 0.8) (layers "F.Cu" "F.Mask" "F.Paste"))
	(pad "2" smd rect (at 1 0 90) (size 0.5 0.8) (layers "F.Cu" "F.Mask" "F.Paste"))
	(pad "" np_thru_hole circle (at 0 1) (size 0.6 0.6) (drill 0.6) (layers "*.Cu" "*.Mask"))
)
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "libs").mkdir()
    (tmp_path / "libs" / "quux.kicad_sym").write_text(SYM_LIB)
    (tmp_path / "libs" / "quux.pretty").mkdir()
    (tmp_path / "libs" / "quux.pretty" / "Quux_Pads.kicad_mod").write_text(FP)
    (tmp_path / "sym-lib-table").write_text(
        '(sym_lib_table\n\t(version 7)\n\t(lib (name "Local")(type "KiCad")'
        '(uri "${KIPRJMOD}/libs/quux.kicad_sym")(options "")(descr ""))\n'
        '\t(lib (name "Gone")(type "KiCad")(uri "${KIPRJMOD}/libs/gone.kicad_sym")(options "")(descr ""))\n)\n')
    (tmp_path / "fp-lib-table").write_text(
        '(fp_lib_table\n\t(version 7)\n\t(lib (name "LocalFp")(type "KiCad")'
        '(uri "${KIPRJMOD}/libs/quux.pretty")(options "")(descr ""))\n)\n')
    return tmp_path


def test_project_library_is_searched(project):
    s = Session(project)
    out = q(s, "lib.search", query="frobnicating widget", limit=5)
    assert ids(out)[:1] in (["Local:Quux_Widget"], ["LocalFp:Quux_Pads"])
    assert {"Local:Quux_Widget", "Local:Quux_Widget_Lite", "LocalFp:Quux_Pads"} <= set(ids(out))
    assert "Gone" in out["skipped_libraries"]
    row = next(r for r in out["items"] if r["id"] == "Local:Quux_Widget_Lite")
    assert row == {"kind": "symbol", "id": "Local:Quux_Widget_Lite",
                   "description": "Frobnicating widget, one channel", "keywords": "frobnicator widget",
                   "pins": 3, "units": 2}
    exact = q(s, "lib.search", query="Quux_Widget", kind="symbol", limit=5)
    assert ids(exact)[0] == "Local:Quux_Widget"
    fp = q(s, "lib.search", query="quux", kind="footprint", limit=5)
    assert fp["items"][0] == {"kind": "footprint", "id": "LocalFp:Quux_Pads",
                              "description": "Pads for the frobnicating widget",
                              "keywords": "quux frobnicator", "pads": 2}
    # a library edited on disk is searched again
    lib = project / "libs" / "quux.kicad_sym"
    lib.write_text(SYM_LIB.replace("Quux_Widget_Lite", "Quux_Gadget_Lite"))
    assert "Local:Quux_Gadget_Lite" in ids(q(s, "lib.search", query="quux gadget", kind="symbol"))


def test_project_symbol_and_footprint(project):
    s = Session(project)
    r = q(s, "lib.symbol", id="Local:Quux_Widget_Lite")
    assert r["extends"] == "Quux_Widget" and r["units"] == 2
    assert r["description"] == "Frobnicating widget, one channel"
    assert r["fields"]["Footprint"] == "LocalFp:Quux_Pads"  # inherited from the parent
    assert r["footprint_filters"] == ["Quux*"] and r["keywords"] == "frobnicator widget"
    assert [(p["number"], p["name"], p["type"], p["unit"], p["at"], p["orientation"]) for p in r["pins"]] == [
        ("1", "IN", "input", 1, [-5.08, -2.54], 0.0), ("2", "OUT", "output", 1, [5.08, -2.54], 180.0),
        ("3", "GND", "power_in", 2, [0.0, 5.08], 90.0)]
    f = q(s, "lib.footprint", id="LocalFp:Quux_Pads")
    assert [p["number"] for p in f["pads"]] == ["1", "2", ""]
    assert f["pads"][1]["angle"] == 90.0 and f["pads"][2]["drill"] == 0.6
    assert f["courtyard"] == {"F.CrtYd": {"min": [-2.0, -2.0], "max": [2.0, 2.0], "size": [4.0, 4.0]}}
    assert "2 numbered" in f["summary"]
    with pytest.raises(NotFound) as e:
        q(s, "lib.symbol", id="Gone:X")
    assert "missing" in e.value.message
    # a project in a sub-folder
    sub = project / "sub"
    sub.mkdir()
    for name in ("sym-lib-table", "fp-lib-table"):
        (sub / name).write_text((project / name).read_text().replace("${KIPRJMOD}/libs", "${KIPRJMOD}/../libs"))
    (sub / "board.kicad_pcb").write_text("")
    assert q(s, "lib.symbol", id="Local:Quux_Widget", project="sub/board.kicad_pcb")["units"] == 2


def test_index_disk_cache(project, tmp_path, monkeypatch):
    monkeypatch.setattr(LibraryIndex, "CACHE_MIN_S", 0.0)  # cache even a tiny library
    cache = tmp_path / "cache"
    lib = project / "libs" / "quux.kicad_sym"
    folder = project / "libs" / "quux.pretty"
    first = LibraryIndex(cache)
    items = first.libraries([("symbol", lib), ("footprint", folder)])
    assert first.scanned == 2 and len(list(cache.glob("*.json"))) == 2
    assert [i.name for i in items[0].items] == ["Quux_Widget", "Quux_Widget_Lite"]
    second = LibraryIndex(cache)
    again = second.libraries([("symbol", lib), ("footprint", folder)])
    assert second.scanned == 0 and [i.to_row() for i in again[0].items] == [i.to_row() for i in items[0].items]
    (folder / "Quux_Two.kicad_mod").write_text(FP.replace("Quux_Pads", "Quux_Two"))
    third = LibraryIndex(cache)
    fps = third.library("footprint", folder)
    assert third.scanned == 1 and [i.name for i in fps.items] == ["Quux_Pads", "Quux_Two"]
    assert third.library("symbol", lib) is not None and third.scanned == 1  # still cached
    # in one process: a changed library is read again, an unchanged one is not
    lib.write_text(SYM_LIB.replace("Quux_Widget_Lite", "Quux_Widget_Max"))
    assert [i.name for i in third.library("symbol", lib).items][-1] == "Quux_Widget_Max"
    assert third.scanned == 2
    assert LibraryIndex(tmp_path / "nowhere").library("symbol", project / "missing.kicad_sym") is None
