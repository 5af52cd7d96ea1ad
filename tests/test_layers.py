"""Only the document layer touches S-expressions: no module of boardwire outside
``sexpr/`` and ``documents/`` imports ``boardwire.sexpr`` (see DEVELOPERS.md, Layers).

Every ``.py`` file of the package is parsed and every import in it is read: absolute
and relative, ``from boardwire import sexpr``, and imports inside functions, as well as
``importlib.import_module("boardwire.sexpr...")`` with a literal name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import boardwire

PACKAGE = Path(boardwire.__file__).parent
FORBIDDEN = "boardwire.sexpr"
ALLOWED = ("sexpr", "documents")  # the layers that may use it


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module or module.name) for every import in ``source``, the
    text of module ``module``."""
    package = module if is_package else module.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((node.lineno, target))
            out += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")):
            out.append((node.lineno, node.args[0].value))
    return out


def uses_sexpr(name: str) -> bool:
    return name == FORBIDDEN or name.startswith(FORBIDDEN + ".")


def offenders(folder: str) -> list[str]:
    """``file:line name`` of every import of boardwire.sexpr under ``folder`` (a
    top-level package of boardwire, or "" for the modules at the top)."""
    files = sorted((PACKAGE / folder).rglob("*.py")) if folder else sorted(PACKAGE.glob("*.py"))
    out = []
    for path in files:
        names = imported(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")
        out += [f"{path.relative_to(PACKAGE)}:{line} {name}" for line, name in names if uses_sexpr(name)]
    return sorted(set(out))


LAYERS = [""] + sorted(p.name for p in PACKAGE.iterdir()
                       if p.is_dir() and (p / "__init__.py").exists() and p.name not in ALLOWED)


@pytest.mark.parametrize("folder", LAYERS, ids=lambda f: f or "(top)")
def test_no_module_above_documents_imports_sexpr(folder):
    assert offenders(folder) == []


def test_every_layer_that_must_not_is_checked():
    for name in ("commands", "session", "kicad", "protocols", "api", "cli", "registry", "netlist"):
        assert name in LAYERS


@pytest.mark.parametrize("source, module", [
    ("from ..sexpr import atoms", "boardwire.commands.lib"),
    ("from ...sexpr.node import SList", "boardwire.documents.board.items"),
    ("from .. import sexpr", "boardwire.session.session"),
    ("import boardwire.sexpr.parse", "boardwire.cli.main"),
    ("from boardwire import sexpr", "boardwire.api.binding"),
    ("from boardwire.sexpr.atoms import quote as q", "boardwire.kicad.cli"),
    ("def f():\n    from ..sexpr.file import SexprFile\n    return SexprFile", "boardwire.commands.check"),
    ("import importlib\nm = importlib.import_module('boardwire.sexpr.atoms')", "boardwire.registry.docs"),
])
def test_every_form_of_import_is_seen(source, module):
    assert any(uses_sexpr(name) for _, name in imported(source, module))


@pytest.mark.parametrize("source, module", [
    ("from ..documents import units", "boardwire.commands.common"),
    ("from .sexpr_doc import make", "boardwire.documents.board"),  # documents/sexpr_doc, not sexpr/
    ("import boardwire.sexpression_tools", "boardwire.cli.main"),
])
def test_other_imports_are_not_taken_for_sexpr(source, module):
    assert not any(uses_sexpr(name) for _, name in imported(source, module))
