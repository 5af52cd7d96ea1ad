"""Finding library footprints and symbols the way KiCad does.

A library id ``Lib:Name`` is looked up in the project's library table (beside the
board or schematic), then the user's global table in KiCad's versioned configuration
folder (`config_dir`: ``~/.config/kicad/9.0/``, or ``$KICAD_CONFIG_HOME/9.0/``), then
KiCad's default table (the template KiCad copies on first run). Table URIs use KiCad's
path variables (`env_value`): ``${KIPRJMOD}`` is the project folder,
``${KICAD9_FOOTPRINT_DIR}``/``${KICAD9_SYMBOL_DIR}`` (and the KiCad 6-8 names) default to
the installed libraries, ``${KICAD9_3RD_PARTY}`` to the package manager's folder
(`third_party_dir`: ``~/.local/share/kicad/9.0/3rdparty`` on Linux), each unless the
environment or the user's ``kicad_common.json`` sets it.
"""

from __future__ import annotations

import json
import os
import re
import sys
from functools import lru_cache
from pathlib import Path

from ...errors import NotFound
from ...sexpr import atoms
from .lib_table import LibTable

SHARE_DIRS = [Path(os.environ.get("BOARDWIRE_KICAD_SHARE", "/usr/share/kicad")),
              Path("/usr/local/share/kicad"),
              Path("/Applications/KiCad/KiCad.app/Contents/SharedSupport"),
              Path(r"C:\Program Files\KiCad\9.0\share\kicad")]

# ${VAR} and $(VAR): the forms KiCad's ExpandEnvVarSubstitutions reads in a table's URI
_VAR = re.compile(r"\$(?:\{([^}]+)\}|\(([^)]+)\))")


def share_dir(sub: str) -> Path | None:
    for d in SHARE_DIRS:
        if (d / sub).is_dir():
            return d / sub
    return None


def documents_dir(version: str | None = None) -> Path:
    """KiCad's user documents folder for ``version`` (default `KICAD_CONFIG_VERSION`),
    as KiCad finds it (PATHS::GetDefaultUserDocumentsPath): ``$KICAD_DOCUMENTS_HOME``
    when set, else ``$XDG_DATA_HOME/kicad`` (``~/.local/share/kicad``) on Linux and
    ``~/Documents/KiCad`` elsewhere; then the version folder: ``~/.local/share/kicad/9.0``.
    The package manager (PCM) installs third-party libraries under its ``3rdparty``."""
    base = os.environ.get("KICAD_DOCUMENTS_HOME")
    if base:
        root = Path(base)
    elif sys.platform.startswith(("win", "darwin")):
        root = Path.home() / "Documents" / "KiCad"
    else:
        root = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "kicad"
    return root / (version or KICAD_CONFIG_VERSION)


def third_party_dir(version: str | None = None) -> Path:
    """Where KiCad's package manager installs libraries (``${KICAD9_3RD_PARTY}``,
    PATHS::GetDefault3rdPartyPath): `documents_dir` ``/3rdparty``, holding
    ``symbols/<package>/*.kicad_sym``, ``footprints/<package>/*.pretty`` and
    ``3dmodels/<package>/``."""
    return documents_dir(version) / "3rdparty"


def user_variables() -> dict[str, str]:
    """The path variables set in KiCad's Configure Paths dialog (``environment.vars``
    of ``kicad_common.json`` in `config_dir`); {} when there is none or it does not read."""
    path = config_dir() / "kicad_common.json"
    try:
        return _user_variables(str(path), path.stat().st_mtime_ns)
    except OSError:
        return {}


@lru_cache(maxsize=8)
def _user_variables(path: str, mtime: int) -> dict[str, str]:
    try:
        env = (json.loads(Path(path).read_text(encoding="utf-8")).get("environment") or {}).get("vars") or {}
    except (OSError, ValueError, AttributeError):
        return {}
    return {str(k): str(v) for k, v in env.items() if isinstance(v, str) and v} if isinstance(env, dict) else {}


def env_value(name: str, project_dir: Path | None) -> str | None:
    """The value of KiCad path variable ``name`` as KiCad resolves it: ``KIPRJMOD`` is
    the project folder; then the process environment, then the user's variables
    (`user_variables`), then KiCad's defaults: ``KICADn_SYMBOL_DIR``/``FOOTPRINT_DIR``/
    ``3DMODEL_DIR``/``TEMPLATE_DIR`` the installed libraries (`share_dir`),
    ``KICADn_3RD_PARTY`` the package manager's folder (`third_party_dir`; n 6-9 its
    version's folder). None for a variable KiCad would leave unexpanded."""
    if name == "KIPRJMOD":
        return str(project_dir) if project_dir else None
    if name in os.environ:
        return os.environ[name]
    user = user_variables()
    if name in user:
        return user[name]
    m = re.fullmatch(r"KICAD(\d*)_3RD_PARTY", name)
    if m:
        return str(third_party_dir(f"{m.group(1)}.0" if m.group(1) else None))
    m = re.fullmatch(r"KICAD\d*_(FOOTPRINT|SYMBOL|3DMODEL|TEMPLATE)_DIR", name)
    if m:
        sub = {"FOOTPRINT": "footprints", "SYMBOL": "symbols", "3DMODEL": "3dmodels",
               "TEMPLATE": "template"}[m.group(1)]
        d = share_dir(sub)
        return str(d) if d else None
    return None


def expand(uri: str, project_dir: Path | None) -> str:
    """``uri`` with its KiCad path variables (``${NAME}``, ``$(NAME)``) replaced by
    `env_value`; a variable without a value stays as written, as in KiCad."""
    def one(m: re.Match) -> str:
        return env_value(m.group(1) or m.group(2), project_dir) or m.group(0)

    return _VAR.sub(one, uri)


# ${KIPRJMOD}, $(KIPRJMOD) and $KIPRJMOD: the forms KiCad's ExpandEnvVarSubstitutions reads
_PROJECT_VAR = re.compile(r"\$(?:\{KIPRJMOD\}|\(KIPRJMOD\)|KIPRJMOD(?![A-Za-z0-9_]))")


def _rewrite_project_rows(data: bytes, folder: str) -> bytes:
    """``data`` (library table bytes) with ``${KIPRJMOD}`` in each row's URI replaced by
    ``folder``; other rows keep their bytes; a table that does not parse is returned as
    it is (KiCad reads it, or not, the same way then)."""
    if not _PROJECT_VAR.search(data.decode("utf-8", "replace")):
        return data
    try:
        table = LibTable(data, None)
    except Exception:  # not ours to judge here: kicad-cli will say what it makes of it
        return data
    for lib in table.root.lists("lib"):
        uri = lib.find("uri")
        vals = uri.atoms() if uri is not None else []
        if vals and _PROJECT_VAR.search(atoms.text(vals[0])):
            table.set_atoms(uri, [atoms.quote(_PROJECT_VAR.sub(lambda _: folder, atoms.text(vals[0])))])
    return table.to_bytes()


def anchor_table(data: bytes, project_dir: Path) -> bytes:
    """A library table (``fp-lib-table``/``sym-lib-table`` bytes) whose project-relative
    URIs (``${KIPRJMOD}/...``) name ``project_dir`` outright, so that the table read
    from a copy of the project elsewhere (a snapshot kicad-cli checks) finds the same
    libraries as in place. Other rows keep their bytes; a table that does not parse is
    returned as it is."""
    return _rewrite_project_rows(data, str(Path(project_dir).resolve()).replace("\\", "/"))


def rebase_table(data: bytes, project_dir: Path, new_dir: Path) -> bytes:
    """A library table of ``project_dir`` for a project in ``new_dir``: its
    ``${KIPRJMOD}/...`` URIs become ``${KIPRJMOD}/<new_dir to project_dir>/...`` (a
    build folder ``builds/NAME/v001`` reads ``${KIPRJMOD}/../../../lib.kicad_sym``), so
    they find the same libraries and the project stays movable with its folder; when no
    relative path joins them (two Windows drives), the folder outright (`anchor_table`).
    Other rows keep their bytes."""
    try:
        rel = os.path.relpath(Path(project_dir).resolve(), Path(new_dir).resolve()).replace("\\", "/")
    except ValueError:
        return anchor_table(data, project_dir)
    return _rewrite_project_rows(data, "${KIPRJMOD}" if rel == "." else "${KIPRJMOD}/" + rel)


def merge_tables(first: bytes, then: bytes) -> bytes:
    """Library table ``first`` with the rows of table ``then`` whose nicknames it lacks
    appended (KiCad takes the first row of a nickname). ValueError (parse-error) when
    either does not parse."""
    table = LibTable(first, None)
    names = {r.get("name") for r in table.libraries}
    for lib in LibTable(then, None).root.lists("lib"):
        name = lib.find("name")
        vals = name.atoms() if name is not None else []
        if vals and atoms.text(vals[0]) not in names:
            table.insert(table.root, lib)
            names.add(atoms.text(vals[0]))
    return table.to_bytes()


# KiCad's configuration folder is named after its major.minor version (GetMajorMinorVersion:
# "9.0" for every 9.0.x release); boardwire works with KiCad 9 (kicad.cli.MIN_MAJOR)
KICAD_CONFIG_VERSION = "9.0"


def config_dir() -> Path:
    """KiCad 9's user configuration folder, as KiCad finds it (PATHS::
    CalculateUserSettingsPath): ``$KICAD_CONFIG_HOME`` when set, else
    ``$XDG_CONFIG_HOME/kicad`` (``~/.config/kicad``), then the version folder
    (`KICAD_CONFIG_VERSION`): ``$KICAD_CONFIG_HOME/9.0/``. KiCad reads the global
    library tables there only, never from ``$KICAD_CONFIG_HOME`` itself."""
    base = os.environ.get("KICAD_CONFIG_HOME")
    root = Path(base) if base else Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "kicad"
    return root / KICAD_CONFIG_VERSION


def global_table(kind: str) -> Path:
    """Where KiCad 9 keeps the user's global ``{kind}-lib-table`` (kind "sym" or "fp")."""
    return config_dir() / f"{kind}-lib-table"


def missing_global_tables() -> dict[str, Path | None]:
    """Kinds ("sym", "fp") whose global table this machine lacks -> KiCad's default
    table (the template KiCad copies on first run; None if KiCad is not installed).

    Without a global table kicad-cli's ERC reports every placed symbol as "The current
    configuration does not include the symbol library" (lib_symbol_issues), and
    pcbnew's library checks do the same for footprints."""
    out = {}
    for kind in ("sym", "fp"):
        if not global_table(kind).is_file():
            template = share_dir("template")
            found = template / f"{kind}-lib-table" if template is not None else None
            out[kind] = found if found is not None and found.is_file() else None
    return out


@lru_cache(maxsize=64)
def _table_rows(path: str, mtime: float) -> tuple[tuple[str, str, str], ...]:
    table = LibTable.load(path)
    return tuple((r.get("name", ""), r.get("uri", ""), r.get("type", "")) for r in table.libraries)


def table_rows(kind: str, project_dir: Path | None) -> list[tuple[str, str]]:
    """(nickname, expanded uri) for ``kind`` "fp" or "sym", project rows first."""
    name = f"{kind}-lib-table"
    tables = []
    if project_dir is not None:
        tables.append(project_dir / name)
    tables.append(config_dir() / name)
    template = share_dir("template")
    if template is not None:
        tables.append(template / name)
    rows: list[tuple[str, str]] = []
    seen = set()
    for t in tables:
        if not t.is_file():
            continue
        for nick, uri, _ in _table_rows(str(t), t.stat().st_mtime):
            if nick not in seen:
                seen.add(nick)
                rows.append((nick, expand(uri, project_dir)))
        if t.parent != project_dir:
            break  # the first global table found wins, as in KiCad
    return rows


def footprint_path(lib_id: str, project_dir: Path | None) -> Path:
    """The ``.kicad_mod`` file of ``Lib:Name``; NotFound names what exists nearby."""
    lib, sep, name = lib_id.partition(":")
    if not sep or not lib or not name:
        raise NotFound(f"{lib_id!r} is not a library id; use Library:Footprint, e.g. "
                       "Resistor_SMD:R_0805_2012Metric")
    folders = [Path(uri) for nick, uri in table_rows("fp", project_dir) if nick == lib]
    default = share_dir("footprints")
    if default is not None:
        folders.append(default / f"{lib}.pretty")
    for folder in folders:
        candidate = folder / f"{name}.kicad_mod"
        if candidate.is_file():
            return candidate
    existing = next((f for f in folders if f.is_dir()), None)
    if existing is None:
        raise NotFound(f"no footprint library {lib!r} in the library tables",
                       hint="Check the library name with lib.search, or add it to fp-lib-table.")
    close = sorted(p.stem for p in existing.glob("*.kicad_mod") if name.lower()[:6] in p.stem.lower())[:5]
    raise NotFound(f"no footprint {name!r} in {lib}" + (f"; similar: {', '.join(close)}" if close else ""),
                   hint="Search the library with lib.search.")
