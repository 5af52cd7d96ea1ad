"""lib.add: a vendor's library (a .zip or a folder) registered in the project's library
tables, judged by kicad-cli: the ERC of a design built with the vendor's symbol and
footprint finds the library (no lib_symbol_issues), and the board gets the footprint.
Refusals: a source outside the working directory, a nickname the tables already have,
an archive with an entry that leaves its folder (zip slip) — each with its stable code
and nothing written.

The vendor's parts are real KiCad items: ``Device:R`` (its bytes in the installed
Device.kicad_sym) and the installed R_0603_1608Metric footprint, whose 3D model path
is made a vendor's disk path (``C:/Users/...``) as vendor downloads have it."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from boardwire.documents.library.index import INDEX
from boardwire.errors import InvalidArgs, PathOutsideWorkspace, UnsafeArchive
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import FOOTPRINTS, SYMBOLS, need

FOOTPRINT = "R_0603_1608Metric"


def c(session, cid, **args):
    return REGISTRY.call(cid, args, Context(session))


def symbol_library(name: str) -> bytes:
    """A symbol library holding the installed Device:R, byte for byte."""
    source = need(SYMBOLS / "Device.kicad_sym")
    item = next(i for i in INDEX.library("symbol", source).items if i.name == name)
    data = source.read_bytes()
    return data[:data.index(b"(symbol ")] + data[item.span[0]:item.span[1]] + b"\n)\n"


def footprint() -> bytes:
    text = need(FOOTPRINTS / "Resistor_SMD.pretty" / f"{FOOTPRINT}.kicad_mod").read_text()
    return text.replace("${KICAD9_3DMODEL_DIR}/Resistor_SMD.3dshapes/R_0603_1608Metric.step",
                        "C:/Users/vendor/models/R_0603_1608Metric.wrl").encode()


def vendor_zip(path: Path, extra: dict[str, bytes] | None = None) -> Path:
    """What a parts site's download holds: the symbol library, a loose footprint, its
    3D model, a datasheet, in a top folder."""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("AcmeR/KiCad/AcmeParts.kicad_sym", symbol_library("R"))
        z.writestr(f"AcmeR/KiCad/{FOOTPRINT}.kicad_mod", footprint())
        z.writestr("AcmeR/3D/R_0603_1608Metric.wrl", b"#VRML V2.0 utf8\n")
        z.writestr("AcmeR/datasheet.pdf", b"%PDF-1.4\n")
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return path


def design(sym: str, fp: str) -> dict:
    return {"name": "vendor", "components": [
        {"ref": "R1", "symbol": sym, "footprint": fp, "value": "10k"},
        {"ref": "R2", "symbol": sym, "footprint": fp, "value": "1k"}],
        "nets": {"A": ["R1.1", "R2.1"], "B": ["R1.2", "R2.2"]}}


def erc_issues(kicad_cli: str, sch: Path) -> list[str]:
    report = sch.with_suffix(".erc.json")
    subprocess.run([kicad_cli, "sch", "erc", "--format", "json", "--severity-all", "-o", str(report), str(sch)],
                   capture_output=True, timeout=600)
    return [v["type"] for sheet in json.loads(report.read_text())["sheets"] for v in sheet["violations"]]


@pytest.mark.kicad
def test_a_vendor_zip_is_extracted_registered_and_built_with(tmp_path, kicad_cli):
    work = tmp_path / "w"
    (work / "downloads").mkdir(parents=True)
    vendor_zip(work / "downloads" / "AcmeR.zip")
    s = Session(work)
    out = c(s, "lib.add", source="downloads/AcmeR.zip")
    assert out["nicknames"] == ["AcmeParts", "AcmeR"]
    assert out["libraries"] == [
        {"nickname": "AcmeParts", "kind": "symbol", "uri": "${KIPRJMOD}/libs/AcmeR/AcmeR/KiCad/AcmeParts.kicad_sym",
         "items": 1},
        {"nickname": "AcmeR", "kind": "footprint", "uri": "${KIPRJMOD}/libs/AcmeR/AcmeR.pretty", "items": 1}]
    assert out["tables"] == ["sym-lib-table", "fp-lib-table"] and out["folder"] == "libs/AcmeR"
    assert out["models"] == 1 and out["models_relinked"] == 1 and out["left_out"] == ["AcmeR/datasheet.pdf"]
    assert '(uri "${KIPRJMOD}/libs/AcmeR/AcmeR.pretty")' in (work / "fp-lib-table").read_text()
    mod = (work / "libs/AcmeR/AcmeR.pretty" / f"{FOOTPRINT}.kicad_mod").read_text()
    assert '(model "${KIPRJMOD}/libs/AcmeR/AcmeR/3D/R_0603_1608Metric.wrl"' in mod
    # boardwire's lookups find the parts
    assert c(s, "lib.symbol", id="AcmeParts:R")["pins"]
    assert c(s, "lib.footprint", id=f"AcmeR:{FOOTPRINT}")["models"] == [
        "${KIPRJMOD}/libs/AcmeR/AcmeR/3D/R_0603_1608Metric.wrl"]
    # kicad-cli reads the tables: the built schematic's ERC finds the vendor's library
    built = c(s, "design.build", design=design("AcmeParts:R", f"AcmeR:{FOOTPRINT}"), until="update")
    assert [st["status"] for st in built["stages"]] == ["ok"] * 4, built["stages"]
    board = s.get(built["board"]).doc
    assert sorted(fp.lib_id for fp in board.footprints) == [f"AcmeR:{FOOTPRINT}"] * 2
    sch = next((work / built["version"]).glob("*.kicad_sch"))
    issues = erc_issues(kicad_cli, sch)
    assert "lib_symbol_issues" not in issues, issues
    # ... which it reports when the row is gone (the check can fail)
    (work / built["version"] / "sym-lib-table").write_text("(sym_lib_table\n\t(version 7)\n)\n")
    assert "lib_symbol_issues" in erc_issues(kicad_cli, sch)


def test_a_folder_is_registered_in_place(tmp_path):
    """A folder inside the working directory: its .kicad_sym and .pretty rows point
    at it (``${KIPRJMOD}/../``: beside the project folder); nothing is copied."""
    work = tmp_path / "w"
    lib = work / "vendor" / "acme"
    (lib / "Acme.pretty").mkdir(parents=True)
    (lib / "Acme.kicad_sym").write_bytes(symbol_library("R"))
    (lib / "Acme.pretty" / f"{FOOTPRINT}.kicad_mod").write_bytes(footprint())
    (work / "board").mkdir()
    s = Session(work)
    out = c(s, "lib.add", source="vendor/acme", project="board")
    assert [(r["nickname"], r["uri"]) for r in out["libraries"]] == [
        ("Acme", "${KIPRJMOD}/../vendor/acme/Acme.kicad_sym"), ("Acme", "${KIPRJMOD}/../vendor/acme/Acme.pretty")]
    assert out["tables"] == ["board/sym-lib-table", "board/fp-lib-table"] and "folder" not in out
    assert out["models"] == 0 and out["models_relinked"] == 0
    assert not (work / "board" / "libs").exists()
    assert c(s, "lib.symbol", id="Acme:R", project="board")["units"] == 1


def test_refusals_write_nothing(tmp_path):
    work = tmp_path / "w"
    work.mkdir()
    vendor_zip(work / "AcmeR.zip")
    outside = vendor_zip(tmp_path / "Outside.zip")
    s = Session(work)
    with pytest.raises(PathOutsideWorkspace):
        c(s, "lib.add", source=str(outside))
    with pytest.raises(PathOutsideWorkspace):
        c(s, "lib.add", source="../Outside.zip")
    # zip slip: one entry leaves the folder (../, absolute, a drive): nothing is extracted
    for i, evil in enumerate(("../../evil.kicad_sym", "/tmp/evil.kicad_sym", "C:\\evil.kicad_sym",
                              "AcmeR/..\\..\\evil.kicad_sym")):
        bad = vendor_zip(work / f"Bad{i}.zip", {evil: b"(kicad_symbol_lib)"})
        with pytest.raises(UnsafeArchive) as e:
            c(s, "lib.add", source=bad.name)
        assert e.value.code == "unsafe-archive" and evil in e.value.data["entries"]
    link = work / "Link.zip"
    with zipfile.ZipFile(vendor_zip(link), "a") as z:
        info = zipfile.ZipInfo("AcmeR/link.kicad_sym")
        info.external_attr = 0o120777 << 16  # a symbolic link to /etc/passwd
        z.writestr(info, "/etc/passwd")
    with pytest.raises(UnsafeArchive):
        c(s, "lib.add", source="Link.zip")
    assert not (work / "libs").exists() or not any((work / "libs").iterdir())
    assert not (tmp_path / "evil.kicad_sym").exists() and not (work / "sym-lib-table").exists()
    # a nickname the tables already have: the installed Device library, or one added before
    (work / "Device.kicad_sym").write_bytes(symbol_library("R"))
    if (SYMBOLS / "Device.kicad_sym").exists():
        with pytest.raises(InvalidArgs) as e:
            c(s, "lib.add", source=".", name="x")
        assert e.value.code == "invalid-args" and "Device" in e.value.message
    (work / "Device.kicad_sym").unlink()
    c(s, "lib.add", source="AcmeR.zip")
    before = (work / "sym-lib-table").read_bytes()
    shutil.copy(work / "AcmeR.zip", work / "Again.zip")
    with pytest.raises(InvalidArgs) as e:
        c(s, "lib.add", source="Again.zip")
    assert "AcmeParts" in e.value.message
    assert (work / "sym-lib-table").read_bytes() == before and not (work / "libs" / "Again").exists()
