"""Libraries a design's working directory lists in its own library tables
(sym-lib-table, fp-lib-table beside the design, ``${KIPRJMOD}`` paths), and KiCad's
global tables in its versioned configuration folder (issue 34).

A blind model's design passed design.check with a project-local symbol library and
failed design.build ("no symbol library 'Espressif'"): the build folder
(builds/NAME/vNNN) had project.new's tables, not the working directory's. And boardwire
read ``$KICAD_CONFIG_HOME/sym-lib-table`` where KiCad 9 reads
``$KICAD_CONFIG_HOME/9.0/sym-lib-table``.

The libraries here are real KiCad items copied into the test's folder: ``Device:R``'s
definition (its byte span in the installed Device.kicad_sym) and the installed
R_0603_1608Metric footprint."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from boardwire.documents.library.index import INDEX
from boardwire.documents.library.lookup import find_library, symbol_definition
from boardwire.documents.library.tables import config_dir, global_table, merge_tables, missing_global_tables, rebase_table
from boardwire.errors import NotFound
from boardwire.registry import REGISTRY, Context
from boardwire.session import Session
from tests.inputs import FOOTPRINTS, SYMBOLS, need

FOOTPRINT = "R_0603_1608Metric"


def c(session, cid, **args):
    return REGISTRY.call(cid, args, Context(session))


def one_symbol_library(source: Path, name: str, target: Path) -> Path:
    """A symbol library holding ``name`` of the installed library ``source``, byte for
    byte (a symbol that extends no other)."""
    item = next(i for i in INDEX.library("symbol", source).items if i.name == name)
    data = source.read_bytes()
    head = data[:data.index(b"(symbol ")]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(head + data[item.span[0]:item.span[1]] + b"\n)\n")
    return target


def table(kind: str, rows: dict[str, str]) -> str:
    body = "".join(f'  (lib (name "{n}")(type "KiCad")(uri "{u}")(options "")(descr ""))\n' for n, u in rows.items())
    return f"({kind}_lib_table\n  (version 7)\n{body})\n"


@pytest.fixture
def local(tmp_path) -> Path:
    """A working directory with its own libraries: libs/Local.kicad_sym (R) and
    libs/Local.pretty (R_0603_1608Metric), listed by ${KIPRJMOD} in its tables."""
    need(SYMBOLS / "Device.kicad_sym")
    work = tmp_path / "w"
    one_symbol_library(SYMBOLS / "Device.kicad_sym", "R", work / "libs" / "Local.kicad_sym")
    (work / "libs" / "Local.pretty").mkdir()
    shutil.copy(need(FOOTPRINTS / "Resistor_SMD.pretty" / f"{FOOTPRINT}.kicad_mod"), work / "libs" / "Local.pretty")
    (work / "sym-lib-table").write_text(table("sym", {"Local": "${KIPRJMOD}/libs/Local.kicad_sym"}))
    (work / "fp-lib-table").write_text(table("fp", {"Local": "${KIPRJMOD}/libs/Local.pretty"}))
    return work


DESIGN = {"name": "local", "components": [
    {"ref": "R1", "symbol": "Local:R", "footprint": f"Local:{FOOTPRINT}", "value": "10k"},
    {"ref": "R2", "symbol": "Local:R", "footprint": f"Local:{FOOTPRINT}", "value": "1k"}],
    "nets": {"A": ["R1.1", "R2.1"], "B": ["R1.2", "R2.2"]}}


@pytest.mark.kicad
def test_a_build_carries_the_working_directorys_library_tables(local):
    s = Session(local)
    assert c(s, "design.check", design=DESIGN)["ok"]
    out = c(s, "design.build", design=DESIGN, until="update")
    stages = {st["stage"]: st for st in out["stages"]}
    assert [st["status"] for st in out["stages"]] == ["ok"] * 4, out["stages"]
    assert "0 errors" in stages["erc"]["summary"]  # kicad-cli found the symbols' library in the build's table
    folder = local / out["version"]
    sym = (folder / "sym-lib-table").read_text()
    assert '(uri "${KIPRJMOD}/../../../libs/Local.kicad_sym")' in sym
    assert '(uri "${KIPRJMOD}/../../../libs/Local.pretty")' in (folder / "fp-lib-table").read_text()
    # boardwire, from the build folder, finds the same files
    assert find_library("symbol", "Local", folder).resolve() == (local / "libs" / "Local.kicad_sym").resolve()
    assert symbol_definition("Local:R", folder).lib_id == "Local:R"
    board = s.get(out["board"]).doc  # updated in the session (saved by a later stage)
    assert sorted(fp.lib_id for fp in board.footprints) == [f"Local:{FOOTPRINT}"] * 2


def test_project_new_takes_a_folders_tables_after_its_own_rows_are_rebased(local, tmp_path, monkeypatch):
    config = tmp_path / "config"
    (config / "9.0").mkdir(parents=True)
    for kind in ("sym", "fp"):  # a machine with global tables: project.new's own tables are empty
        (config / "9.0" / f"{kind}-lib-table").write_text(table(kind, {}))
    monkeypatch.setenv("KICAD_CONFIG_HOME", str(config))
    s = Session(local)
    out = c(s, "project.new", name="p", folder="sub/p", library_tables_from=".")
    assert "the project libraries of ./sym-lib-table" in out["library_tables"]["sym-lib-table"]
    assert '"${KIPRJMOD}/../../libs/Local.kicad_sym"' in (local / "sub/p/sym-lib-table").read_text()
    with pytest.raises(NotFound):
        c(s, "project.new", name="q", library_tables_from="nowhere")
    assert not (local / "q").exists()


def test_rebase_and_merge_tables(tmp_path):
    work = tmp_path / "w"
    t = table("sym", {"A": "${KIPRJMOD}/a.kicad_sym", "B": "/abs/b.kicad_sym", "C": "$(KIPRJMOD)/c.kicad_sym"}).encode()
    out = rebase_table(t, work, work / "builds" / "x" / "v001").decode()
    assert '"${KIPRJMOD}/../../../a.kicad_sym"' in out and '"/abs/b.kicad_sym"' in out
    assert '"${KIPRJMOD}/../../../c.kicad_sym"' in out
    assert rebase_table(t, work, work) == t.replace(b"$(KIPRJMOD)", b"${KIPRJMOD}")
    merged = merge_tables(t, table("sym", {"A": "/other/a.kicad_sym", "D": "/d.kicad_sym"}).encode()).decode()
    assert merged.count("(lib ") == 4 and "/other/a.kicad_sym" not in merged and "/d.kicad_sym" in merged


def test_global_tables_are_read_from_kicads_versioned_folder(local, tmp_path, monkeypatch):
    """KiCad 9 reads $KICAD_CONFIG_HOME/9.0/sym-lib-table (kicad-cli makes that folder);
    a table in $KICAD_CONFIG_HOME itself is none of KiCad's, and none of boardwire's."""
    config = tmp_path / "config"
    monkeypatch.setenv("KICAD_CONFIG_HOME", str(config))
    lib = str(local / "libs" / "Local.kicad_sym")
    (local / "sym-lib-table").unlink()
    other = tmp_path / "o"
    other.mkdir()
    config.mkdir()
    (config / "sym-lib-table").write_text(table("sym", {"Global": lib}))  # where boardwire looked before
    assert config_dir() == config / "9.0" and global_table("sym") == config / "9.0" / "sym-lib-table"
    assert "sym" in missing_global_tables()
    with pytest.raises(NotFound):
        find_library("symbol", "Global", other)
    (config / "9.0").mkdir()
    (config / "9.0" / "sym-lib-table").write_text(table("sym", {"Global": lib}))
    assert "sym" not in missing_global_tables()
    assert find_library("symbol", "Global", other) == Path(lib)
    monkeypatch.delenv("KICAD_CONFIG_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_dir() == tmp_path / "xdg" / "kicad" / "9.0"


# -- KiCad's package manager (PCM) libraries --------------------------------------------

PCM_PACKAGE = "com_github_vendor_parts"


@pytest.fixture
def pcm(tmp_path, monkeypatch) -> Path:
    """A machine where KiCad's package manager installed a library package: its files
    under $XDG_DATA_HOME/kicad/9.0/3rdparty (KiCad's default on Linux), rows
    ``${KICAD9_3RD_PARTY}/...`` in the global tables (as the PCM's auto-add writes
    them, nicknames PCM_...), the installed libraries' rows beside them. Returns an
    empty working directory."""
    need(SYMBOLS / "Device.kicad_sym")
    data, config = tmp_path / "data", tmp_path / "config"
    monkeypatch.delenv("KICAD_DOCUMENTS_HOME", raising=False)
    monkeypatch.delenv("KICAD9_3RD_PARTY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setenv("KICAD_CONFIG_HOME", str(config))
    third = data / "kicad" / "9.0" / "3rdparty"
    one_symbol_library(SYMBOLS / "Device.kicad_sym", "R", third / "symbols" / PCM_PACKAGE / "Vendor.kicad_sym")
    (third / "footprints" / PCM_PACKAGE / "Vendor.pretty").mkdir(parents=True)
    shutil.copy(need(FOOTPRINTS / "Resistor_SMD.pretty" / f"{FOOTPRINT}.kicad_mod"),
                third / "footprints" / PCM_PACKAGE / "Vendor.pretty")
    (config / "9.0").mkdir(parents=True)
    for kind, rows in (("sym", {"Device": "${KICAD9_SYMBOL_DIR}/Device.kicad_sym",
                                "PCM_Vendor": f"${{KICAD9_3RD_PARTY}}/symbols/{PCM_PACKAGE}/Vendor.kicad_sym"}),
                       ("fp", {"Resistor_SMD": "${KICAD9_FOOTPRINT_DIR}/Resistor_SMD.pretty",
                               "PCM_Vendor": f"$(KICAD9_3RD_PARTY)/footprints/{PCM_PACKAGE}/Vendor.pretty"})):
        (config / "9.0" / f"{kind}-lib-table").write_text(table(kind, rows))
    work = tmp_path / "w"
    work.mkdir()
    return work


def test_pcm_libraries_are_found_through_kicad9_3rd_party(pcm, tmp_path, monkeypatch):
    third = tmp_path / "data" / "kicad" / "9.0" / "3rdparty"
    assert find_library("symbol", "PCM_Vendor", pcm) == third / "symbols" / PCM_PACKAGE / "Vendor.kicad_sym"
    assert find_library("footprint", "PCM_Vendor", pcm) == third / "footprints" / PCM_PACKAGE / "Vendor.pretty"
    assert symbol_definition("PCM_Vendor:R", pcm).symbol.name == "R"
    s = Session(pcm)
    assert c(s, "lib.footprint", id=f"PCM_Vendor:{FOOTPRINT}")["pads"]
    assert "PCM_Vendor:R" in [r["id"] for r in c(s, "lib.search", query="R", kind="symbol", limit=200)["items"]]
    # KICAD_DOCUMENTS_HOME moves the documents folder; a variable set in KiCad's
    # Configure Paths (kicad_common.json) or the environment wins over the default
    docs = tmp_path / "docs"
    shutil.copytree(third, docs / "9.0" / "3rdparty")
    monkeypatch.setenv("KICAD_DOCUMENTS_HOME", str(docs))
    assert find_library("symbol", "PCM_Vendor", pcm) == docs / "9.0" / "3rdparty" / "symbols" / PCM_PACKAGE / "Vendor.kicad_sym"
    (tmp_path / "config" / "9.0" / "kicad_common.json").write_text(
        json.dumps({"environment": {"vars": {"KICAD9_3RD_PARTY": str(third)}}}))
    assert find_library("symbol", "PCM_Vendor", pcm).parent.parent.parent == third


@pytest.mark.kicad
def test_a_design_builds_with_pcm_parts(pcm):
    """design.build names a symbol and a footprint of a PCM package: kicad-cli's ERC (in
    the build) loads the symbol through the same global table, and the board gets the
    footprint."""
    design = {"name": "pcm", "components": [
        {"ref": "R1", "symbol": "PCM_Vendor:R", "footprint": f"PCM_Vendor:{FOOTPRINT}", "value": "10k"},
        {"ref": "R2", "symbol": "PCM_Vendor:R", "footprint": f"PCM_Vendor:{FOOTPRINT}", "value": "1k"}],
        "nets": {"A": ["R1.1", "R2.1"], "B": ["R1.2", "R2.2"]}}
    s = Session(pcm)
    out = c(s, "design.build", design=design, until="update")
    stages = {st["stage"]: st for st in out["stages"]}
    assert [st["status"] for st in out["stages"]] == ["ok"] * 4, out["stages"]
    assert "0 errors" in stages["erc"]["summary"]
    board = s.get(out["board"]).doc
    assert sorted(fp.lib_id for fp in board.footprints) == [f"PCM_Vendor:{FOOTPRINT}"] * 2
