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


# -- the floor plan: layers, cycles, command modules, KiCad's processes ------------------
#
# ../shared/LAYOUT.md and docs/layout.md: the tree reads as the data flow, bottom to top,
# and a layer imports only layers below it.

ORDER = ("errors", "sexpr", "documents", "geometry", "netlist", "checks", "layout", "parts", "design",
         "firmware", "kicad", "session", "services", "jobs", "registry", "commands", "protocols", "web",
         "api", "cli")


def modules() -> dict[str, Path]:
    """Every module of the package by name, with the compiled extensions (``_sexpr``,
    ``_maze``: a C file beside them) as modules of their own."""
    out = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    for c in PACKAGE.rglob("*.c"):
        out[module_name(c)] = c
    return out


def _type_checking_lines(tree: ast.AST) -> set[int]:
    """Lines inside ``if TYPE_CHECKING:`` blocks (imports for annotations only)."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            for sub in node.body:
                lines.update(range(sub.lineno, sub.end_lineno + 1))
    return lines


def dependencies(path: Path, module: str, known: dict[str, Path]) -> dict[str, int]:
    """The package's modules ``module`` imports (each with a line): ``from pkg import
    name`` depends on ``pkg.name`` when that is a module, else on ``pkg``; a module's
    own ancestors (Python imports them first anyway) and imports for type checking
    only are left out."""
    source = path.read_text(encoding="utf-8")
    skip = _type_checking_lines(ast.parse(source))
    by_line: dict[int, list[str]] = {}
    for line, name in imported(source, module, path.name == "__init__.py"):
        if line not in skip:
            by_line.setdefault(line, []).append(name)
    out: dict[str, int] = {}
    for line, names in by_line.items():
        target, members = names[0], names[1:]
        subs = [n for n in members if n in known]
        wanted = subs + ([target] if len(subs) < len(members) or not members else [])
        for name in wanted:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                out.setdefault(name, line)
    return out


def graph() -> dict[str, dict[str, int]]:
    known = modules()
    return {m: dependencies(p, m, known) for m, p in known.items() if p.suffix == ".py"}


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_package_has_its_place_in_the_order():
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages - {"examples"} <= set(ORDER), "add the new layer to ORDER (and docs/layout.md)"
    assert {p.stem for p in PACKAGE.glob("*.py")} <= {"__init__", "errors", "__main__"}


def test_no_layer_imports_a_layer_above_it():
    rank = {name: i for i, name in enumerate(ORDER)}
    upward = [f"{m} -> {d} (line {line})" for m, deps in graph().items() for d, line in deps.items()
              if layer(m) in rank and layer(d) in rank and rank[layer(d)] > rank[layer(m)]]
    assert upward == []


def cycles(g: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in g:
        if root in index:
            continue
        work = [(root, iter(g.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(g.get(w, ()))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_no_cycle_between_modules():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_cycles():
    g = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}, "e": {"e": 1}}
    assert cycles(g) == [["a", "b", "c"]]
    assert cycles({"a": {"b": 1}, "b": {}}) == []


def test_importing_a_submodule_is_not_importing_its_package():
    known = {"boardwire.netlist": Path("x"), "boardwire.netlist.nets": Path("y")}
    src = PACKAGE / "netlist" / "symbols.py"
    deps = dependencies(src, "boardwire.netlist.symbols", {**modules(), **known})
    assert "boardwire.netlist.nets" not in deps  # imported only under TYPE_CHECKING
    assert "boardwire.netlist" not in deps


SHARED = ("common", "args", "results")  # argument and result pieces a scope's modules share (commands/common.py, pcb/args.py, pcb/results.py...)


def test_command_modules_import_no_other_command_module():
    """A command module translates arguments to domain calls and results back: from
    commands/ it imports only the shared argument pieces (`SHARED`: the package's and
    its own scope's); what several families share lives in services/ or below."""
    bad = []
    for m, deps in graph().items():
        if layer(m) != "commands" or m == "boardwire.commands":
            continue
        scope = m.split(".")[2] if m.count(".") >= 3 else None
        for d, line in deps.items():
            parts = d.split(".")
            if layer(d) != "commands" or d == "boardwire.commands" and m.endswith(".docs"):
                continue
            own = len(parts) == 4 and parts[2] == scope and parts[3] in SHARED
            if not (len(parts) == 3 and parts[2] in SHARED) and not own:
                bad.append(f"{m} -> {d} (line {line})")
    assert bad == []


# Modules outside kicad/ that start processes, none of them KiCad: the firmware's
# toolchains and esptool, the live view's agent command, and an MCP client's own CLI
# (`boardwire mcp install`).
PROCESS_STARTERS = ("boardwire.firmware.", "boardwire.web.runner", "boardwire.protocols.mcp.install")
_SPAWN = {"subprocess", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "os.system",
          "os.popen", "os.execv", "os.execvp", "os.spawnv", "os.spawnvp", "pty.spawn"}


def _kicad_runs(tree: ast.AST) -> list[int]:
    """Lines that run kicad-cli outside kicad/: ``.run``/``.run_for`` on ``kicad_cli()``
    or on a name bound to it."""
    bound = {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
             and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "kicad_cli"
             for t in node.targets if isinstance(t, ast.Name)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("run", "run_for"):
            recv = node.func.value
            if (isinstance(recv, ast.Call) and getattr(recv.func, "id", None) == "kicad_cli") or \
                    (isinstance(recv, ast.Name) and recv.id in bound):
                out.append(node.lineno)
    return out


def test_only_kicad_starts_kicad():
    bad = []
    for m, p in modules().items():
        if p.suffix != ".py" or layer(m) == "kicad":
            continue
        source = p.read_text(encoding="utf-8")
        tree = ast.parse(source)
        spawns = [line for line, name in imported(source, m, p.name == "__init__.py")
                  if name in _SPAWN or name.startswith("subprocess.")]
        if spawns and not m.startswith(PROCESS_STARTERS):
            bad.append(f"{m}:{spawns[0]} starts processes")
        bad += [f"{m}:{line} runs kicad-cli" for line in _kicad_runs(tree)]
        if m.startswith(PROCESS_STARTERS):  # no KiCad program named in their code
            strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                       and not (n.value.count(" ") > 3)]  # docstrings and messages are prose
            bad += [f"{m} names {s!r}" for s in strings if s in ("kicad-cli", "pcbnew", "eeschema")]
    assert bad == []


def test_a_kicad_run_outside_kicad_is_seen():
    tree = ast.parse("cli = kicad_cli()\ncli.run_for(['pcb'], out)\nkicad_cli().run(['sch'])\nx.run()")
    assert _kicad_runs(tree) == [2, 3]
