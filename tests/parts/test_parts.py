"""parts.*: the catalogue index over the real JLCPCB sample (src/boardwire/parts/sample/, the
jlcpcb-parts-database CSV format), the package table against the installed
footprints, compact tables against their JSON, and the KiCad libraries behind parts.

The four searches are the evidence of issue 21; their expected rows were named in the
issue before this code existed."""

from __future__ import annotations

import csv
import shutil
import sqlite3

import pytest

from boardwire.errors import InvalidArgs, NotFound
from boardwire.parts.catalogue import SAMPLE, Catalogue  # SAMPLE: the bundled sample; its source in SOURCE.txt beside it
from boardwire.parts.lines import decode, encode
from boardwire.parts.packages import CHIP_LIBRARY, CHIP_SIZES, FOOTPRINTS, footprint_for
from boardwire.parts.sources import read_source
from boardwire.parts.values import query_terms, text_values, value_word
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import FOOTPRINTS as FP_DIR, SYMBOLS, need



def q(session, cid, **args):
    return REGISTRY.call(cid, args, Context(session))


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    need(SAMPLE)
    root = tmp_path_factory.mktemp("parts")
    shutil.copy(SAMPLE, root / "sample.csv")
    session = Session(root)
    out = q(session, "parts.import", file="sample.csv")
    with open(SAMPLE, newline="", encoding="utf-8") as f:
        assert out["rows"] == sum(1 for _ in csv.DictReader(f))
    return session


def test_ams1117_first(imported):
    out = q(imported, "parts.search", query="AMS1117-3.3", format="json")
    assert out["rows"][0]["lcsc"] == "C6186" and out["chosen"] == 0
    assert out["rows"][0]["footprint"] == "Package_TO_SOT_SMD:SOT-223-3_TabPin2"


def test_10k_0402_in_first_five(imported):
    out = q(imported, "parts.search", query="10k resistor 0402", limit=5, format="json")
    assert "C25744" in [r["lcsc"] for r in out["rows"]]


def test_100nf_0603(imported):
    out = q(imported, "parts.search", query="100nF 0603 capacitor", format="json")
    assert "C14663" in [r["lcsc"] for r in out["rows"]]
    # the same part in another spelling of its value
    assert "C14663" in [r["lcsc"] for r in q(imported, "parts.search", query="0.1uF 0603", format="json")["rows"]]


@pytest.mark.kicad
def test_missing_part_offers_library_candidates(imported):
    need(SYMBOLS / "Connector.kicad_sym")
    out = q(imported, "parts.search", query="USB-C receptacle")
    assert out["missing"] is True and out["total"] == 0 and "not in the imported (180 parts) catalogue" in out["summary"]
    ids = [c["id"] for c in out["library_candidates"]]
    assert any("USB_C_Receptacle" in i for i in ids), ids


def test_compact_and_json_decode_to_the_same_rows(imported):
    for query in ("resistor", "capacitor 0603", "diode"):
        lines = q(imported, "parts.search", query=query, limit=8)
        js = q(imported, "parts.search", query=query, limit=8, format="json")
        table = decode(lines["table"], ints=("stock",), floats=("usd",))
        assert table["rows"] == js["rows"] and table["rows"]
        assert table["chosen"] == js["chosen"] == 0 and table["cut"] == js["cut"]


def test_ranking_basic_in_stock_cheapest(imported):
    rows = q(imported, "parts.search", query="resistor", limit=100, format="json")["rows"]
    order = {"basic": 0, "preferred": 1, "extended": 2}
    keys = [(order[r["tier"]], r["stock"] <= 0) for r in rows]
    assert keys == sorted(keys)
    basics = [r["usd"] for r in rows if r["tier"] == "basic" and r["stock"] > 0]
    assert basics == sorted(basics)


def test_filters_and_cut_line(imported):
    out = q(imported, "parts.search", query="resistor", package="0402", limit=1)
    table = decode(out["table"], ints=("stock",), floats=("usd",))
    assert all(r["package"] == "0402" for r in table["rows"])
    assert table["cut"] == out["total"] - 1
    assert out["table"].splitlines()[-1].startswith(f"+{table['cut']} row")


def test_values_in_one_spelling():
    assert value_word("4k7") == value_word("4.7k") == "4.7k"
    assert value_word("0.1uf") == value_word("100nf") == value_word("100n") == "100n"
    assert value_word("0402") is None  # a package, not a value
    assert text_values("10kΩ ±1% 100nF") == ["10k", "100n"]
    assert query_terms("Resistors 10K") == ["resistor", "10k"]


def test_encode_escapes_separator():
    text = encode(["a", "b"], [{"a": "x|y", "b": 3}], chosen=None, cut=2)
    assert decode(text, ints=("b",)) == {"columns": ["a", "b"], "rows": [{"a": "x/y", "b": 3}], "chosen": None, "cut": 2}


@pytest.mark.kicad
def test_package_table_names_installed_footprints():
    need(FP_DIR / "Resistor_SMD.pretty")
    for lib_name in set(FOOTPRINTS.values()) | {f"{lib}:{p}_{size}_{code}" for lib, p in CHIP_LIBRARY.values()
                                                  for size, code in CHIP_SIZES.items() if size in ("0402", "0603", "0805")}:
        lib, name = lib_name.split(":")
        assert (FP_DIR / f"{lib}.pretty" / f"{name}.kicad_mod").is_file(), lib_name
    assert footprint_for("0603", "resistor") == "Resistor_SMD:R_0603_1608Metric"
    assert footprint_for("SOT-223", "regulator") == "Package_TO_SOT_SMD:SOT-223-3_TabPin2"


@pytest.mark.kicad
def test_pins_of_a_catalogue_part(imported):
    need(SYMBOLS / "Regulator_Linear.kicad_sym")
    out = q(imported, "parts.pins", part="C6186", format="json")
    assert out["symbol"] == "Regulator_Linear:AMS1117-3.3"
    names = {r["name"]: r["pad"] for r in out["rows"]}
    assert names == {"GND": "1", "VO": "2", "VI": "3"}
    assert out["fields"]["LCSC"] == "C6186" and out["fields"]["MPN"] == "AMS1117-3.3"
    with pytest.raises(NotFound):
        q(imported, "parts.pins", part="C1")


def test_jlcparts_sqlite_source(tmp_path):
    """A jlcparts-style cache (its published table layout) reads as the same parts."""
    db = tmp_path / "cache.sqlite3"
    con = sqlite3.connect(db)
    con.executescript("""
      CREATE TABLE categories (id INTEGER PRIMARY KEY, category TEXT, subcategory TEXT);
      CREATE TABLE manufacturers (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE components (lcsc INTEGER PRIMARY KEY, category_id INTEGER, mfr TEXT, package TEXT,
        joints INTEGER, manufacturer_id INTEGER, basic INTEGER, description TEXT, datasheet TEXT,
        stock INTEGER, price TEXT, last_update INTEGER, extra TEXT, flag INTEGER, last_on_stock INTEGER,
        preferred INTEGER);
      INSERT INTO categories VALUES (1, 'Resistors', 'Chip Resistor - Surface Mount');
      INSERT INTO manufacturers VALUES (1, 'UNI-ROYAL(Uniroyal Elec)');
      INSERT INTO components VALUES (25744, 1, '0402WGF1002TCE', '0402', 2, 1, 1, '10kΩ ±1% 0402', '', 5,
        '[{"qFrom": 1, "qTo": null, "price": 0.001}]', 0, '{}', 0, 0, 0);""")
    con.commit()
    con.close()
    parts = list(read_source(db))
    assert [(p.lcsc, p.mpn, p.basic, p.price, p.stock) for p in parts] == [("C25744", "0402WGF1002TCE", True, 0.001, 5)]
    cat = Catalogue(tmp_path / "c.sqlite")
    cat.import_parts(parts, "cache")
    assert cat.search("10k 0402").rows[0]["lcsc"] == "C25744"


def test_not_a_catalogue(tmp_path):
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    with pytest.raises(InvalidArgs):
        list(read_source(tmp_path / "x.csv"))


# -- a working directory without an imported catalogue: the bundled sample (issue 34) ----

def test_an_empty_folder_searches_the_bundled_sample_until_one_is_imported(tmp_path, monkeypatch):
    """A blind model in an empty folder got "no catalogue imported" and could name no LCSC
    part, though boardwire carries a real sample: parts.search, parts.pins and
    design.check read it (and say so) until a catalogue is imported; then the imported
    one is used."""
    monkeypatch.setenv("BOARDWIRE_CACHE_DIR", str(tmp_path / "cache"))  # the sample indexed here, afresh
    work = tmp_path / "w"
    work.mkdir()
    session = Session(work)
    out = q(session, "parts.search", query="100nF 0603 capacitor", format="json")
    assert out["catalogue"] == "bundled sample (180 parts)" and "bundled sample" in out["summary"]
    assert "C14663" in [r["lcsc"] for r in out["rows"]]
    ldo = q(session, "parts.search", query="AMS1117-3.3", format="json")
    assert ldo["rows"][0]["lcsc"] == "C6186"
    assert not (work / ".boardwire").exists()  # nothing written into the working directory
    checked = q(session, "design.check", design={
        "name": "d", "components": [{"ref": "C1", "part": "C14663"}], "nets": {}})
    assert "unknown-part" not in {e["code"] for e in checked["errors"]}
    assert "C14663" in checked["components"]

    # a catalogue of two rows (neither a 100 nF capacitor), imported: it is the one read
    with open(SAMPLE, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows = [r for r in reader if r["lcsc"] in ("6186", "25744")]
        fields = reader.fieldnames
    with open(work / "mine.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    assert q(session, "parts.import", file="mine.csv")["total"] == 2
    out = q(session, "parts.search", query="100nF 0603 capacitor", format="json")
    assert out["catalogue"] == "imported (2 parts)" and out["total"] == 0
    assert q(session, "parts.search", query="AMS1117-3.3", format="json")["catalogue"] == "imported (2 parts)"
    checked = q(session, "design.check", design={
        "name": "d", "components": [{"ref": "C1", "part": "C14663"}], "nets": {}})
    assert "unknown-part" in {e["code"] for e in checked["errors"]}


@pytest.mark.kicad
def test_pins_of_a_sample_part_in_an_empty_folder(tmp_path):
    need(SYMBOLS / "Regulator_Linear.kicad_sym")
    out = q(Session(tmp_path), "parts.pins", part="C6186", format="json")
    assert out["symbol"] == "Regulator_Linear:AMS1117-3.3" and out["catalogue"] == "bundled sample (180 parts)"
    assert out["fields"]["LCSC"] == "C6186" and len(out["rows"]) == 3
