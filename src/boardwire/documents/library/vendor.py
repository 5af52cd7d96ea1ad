"""A vendor's KiCad library (a folder, or a .zip of one) made a project's: which library
files it holds, its archive extracted without letting an entry out of its folder, its
footprints' 3D model paths pointed at the models it ships, and the library table rows
that register it (``${KIPRJMOD}``-relative, as KiCad writes a project library).

KiCad's library formats: a symbol library is one ``.kicad_sym`` file; a footprint
library is a ``.pretty`` folder of ``.kicad_mod`` files; 3D models (``.step``,
``.stp``, ``.wrl``) are named by a footprint's ``(model "path")``. Vendor downloads
often hold loose ``.kicad_mod`` files: they are gathered into a ``.pretty`` folder.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ...errors import UnsafeArchive
from ...sexpr import atoms
from ..board import FootprintFile
from ..fileio import atomic_write
from .register import project_uri
from .tables import expand

SYMBOL_SUFFIX = ".kicad_sym"
FOOTPRINT_SUFFIX = ".kicad_mod"
MODEL_SUFFIXES = (".step", ".stp", ".wrl", ".wrz")
LIBRARY_SUFFIXES = (SYMBOL_SUFFIX, FOOTPRINT_SUFFIX, *MODEL_SUFFIXES)
# An archive bigger than these is no parts library (the whole of KiCad's footprint and
# 3D model libraries is about 7 GB in some 100,000 files; one vendor part is a few MB).
MAX_ENTRIES = 20_000
MAX_BYTES = 2 * 1024 ** 3


@dataclass
class VendorFiles:
    """The library files under a folder: symbol libraries, footprint libraries
    (``.pretty`` folders), loose footprints (``.kicad_mod`` outside a ``.pretty``),
    3D models, and what else it holds (``other``, relative paths)."""

    symbols: list[Path] = field(default_factory=list)
    footprint_dirs: list[Path] = field(default_factory=list)
    loose_footprints: list[Path] = field(default_factory=list)
    models: list[Path] = field(default_factory=list)
    other: list[str] = field(default_factory=list)


def _hidden(name: str) -> bool:
    return name.startswith(".") or name == "__MACOSX"


def find_files(folder: Path) -> VendorFiles:
    """The library files below ``folder`` (hidden files and macOS ``__MACOSX`` folders
    skipped; symbolic links not followed), each list sorted."""
    out = VendorFiles()
    for dirpath, dirs, files in os.walk(folder):
        here = Path(dirpath)
        dirs[:] = sorted(d for d in dirs if not _hidden(d))
        if here.suffix == ".pretty" and here != folder and any(f.endswith(FOOTPRINT_SUFFIX) for f in files):
            out.footprint_dirs.append(here)
        for name in sorted(files):
            if _hidden(name) or (here / name).is_symlink():
                continue
            low = name.lower()
            path = here / name
            if low.endswith(SYMBOL_SUFFIX):
                out.symbols.append(path)
            elif low.endswith(FOOTPRINT_SUFFIX):
                if here.suffix != ".pretty" or here == folder:
                    out.loose_footprints.append(path)
            elif low.endswith(MODEL_SUFFIXES):
                out.models.append(path)
            else:
                out.other.append(path.relative_to(folder).as_posix())
    return out


def nickname(stem: str) -> str:
    """A library nickname from a file or folder name: characters KiCad's library ids do
    not take (``:``, spaces, quotes, slashes...) become ``_``."""
    return re.sub(r"[^A-Za-z0-9_.+\-]", "_", stem).strip(".") or "lib"


def unsafe_entries(archive: zipfile.ZipFile) -> list[str]:
    """The entries of ``archive`` that could land outside the folder it is extracted
    into: absolute paths, Windows drives, ``..`` components (either separator), NUL
    characters, and symbolic links (Unix mode in the high bits of ``external_attr``)."""
    bad = []
    for info in archive.infolist():
        name = info.filename
        parts = re.split(r"[\\/]", name)
        mode = info.external_attr >> 16
        if (name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name) or ".." in parts
                or "\x00" in name or stat.S_ISLNK(mode)):
            bad.append(name)
    return bad


def extract(source: Path, dest: Path) -> list[str]:
    """Extract the library files (`LIBRARY_SUFFIXES`) of the zip archive ``source`` into
    the new folder ``dest``, keeping their relative paths; returns the entries left
    out (other files). Checks every entry first and extracts nothing from an archive
    with an unsafe one (`unsafe_entries`), more than `MAX_ENTRIES` entries or
    `MAX_BYTES` uncompressed: UnsafeArchive. ``dest`` appears whole or not at all (the
    files go to a hidden sibling first). Raises zipfile.BadZipFile for a file that is
    not a zip archive."""
    with zipfile.ZipFile(source) as archive:
        infos = archive.infolist()
        bad = unsafe_entries(archive)
        if bad:
            raise UnsafeArchive(f"{source.name}: {len(bad)} entr{'ies' if len(bad) != 1 else 'y'} would be "
                                f"extracted outside its folder, e.g. {bad[0]!r}", entries=bad[:20])
        size = sum(i.file_size for i in infos)
        if len(infos) > MAX_ENTRIES or size > MAX_BYTES:
            raise UnsafeArchive(f"{source.name}: {len(infos)} entries, {size} bytes uncompressed: more than a "
                                f"library holds ({MAX_ENTRIES} entries, {MAX_BYTES} bytes)", entries=[])
        tmp = dest.parent / f".{dest.name}.extracting"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        left = []
        try:
            for info in infos:
                if info.is_dir():
                    continue
                rel = PurePosixPath(info.filename.replace("\\", "/"))
                if any(_hidden(p) for p in rel.parts) or not rel.name.lower().endswith(LIBRARY_SUFFIXES):
                    left.append(info.filename)
                    continue
                target = tmp.joinpath(*rel.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(info) as src, open(target, "wb") as out:
                    shutil.copyfileobj(src, out)
            os.replace(tmp, dest)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return left


def gather_footprints(files: list[Path], pretty: Path, move: bool) -> None:
    """Put loose ``.kicad_mod`` files into the footprint library folder ``pretty``
    (moved, or copied when ``move`` is false: a folder the caller does not own).
    FileExistsError when two have one name."""
    pretty.mkdir(parents=True, exist_ok=True)
    for f in files:
        target = pretty / f.name
        if target.exists():
            raise FileExistsError(f"two footprints named {f.name}")
        if move:
            os.replace(f, target)
        else:
            shutil.copy2(f, target)


def relink_models(pretty: Path, models: list[Path], project_dir: Path) -> int:
    """Point the 3D models of the footprints in ``pretty`` that name a file which does
    not exist (a vendor's own disk: ``C:/Users/...``) at the model of the same file name
    among ``models`` (`project_uri`); returns how many model paths changed. A model
    found as named, or with no file of its name, is left as it is."""
    by_name = {m.name.lower(): m for m in models}
    changed = 0
    for mod in sorted(pretty.glob(f"*{FOOTPRINT_SUFFIX}")):
        doc = FootprintFile.load(mod)
        edits = 0
        for node in doc.root.lists("model"):
            vals = node.atoms()
            if not vals:
                continue
            named = atoms.text(vals[0])
            where = Path(expand(named, project_dir))
            if not where.is_absolute():
                where = pretty / where
            found = by_name.get(re.split(r"[\\/]", named)[-1].lower())
            if found is None or where.is_file():
                continue
            doc.set_atoms(node, [atoms.quote(project_uri(found, project_dir))] + vals[1:])
            edits += 1
        if edits:
            atomic_write(mod, doc.to_bytes())
            changed += edits
    return changed
