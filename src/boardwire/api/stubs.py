"""The type stubs of `boardwire.api` (``src/boardwire/api/__init__.pyi``), generated
from the registry: ``python -m boardwire.api.stubs > src/boardwire/api/__init__.pyi``.

tests/api/test_api.py fails when the file on disk differs from what this prints (a
command was added or changed without regenerating).
"""

from __future__ import annotations

import inspect

from ..commands import REGISTRY
from .names import plan
from .signature import docstring, parameters, type_text

HEADER = '''"""Type stubs of boardwire.api, generated from the registry by
`python -m boardwire.api.stubs > src/boardwire/api/__init__.pyi`; do not edit."""

import os
from contextlib import AbstractContextManager
from typing import Any, Literal, Sequence

from boardwire.errors import BoardwireError as BoardwireError
from boardwire.session import Session

class Transaction:
    label: str
    new_ids: list[str]

class Namespace:
    commands: dict[str, str]

def connect(root: str | os.PathLike[str] = ".", *, board: str | os.PathLike[str] | None = None,
            schematic: str | os.PathLike[str] | None = None) -> Session: ...
def use(session: Session, *, board: str | os.PathLike[str] | None = None,
        schematic: str | os.PathLike[str] | None = None) -> Session: ...
def current() -> Session: ...
def save(*, force: bool = False, session: Session | None = None) -> list[str]: ...
def run(command_id: str, args: dict[str, Any] | None = None, /, **kwargs: Any) -> dict[str, Any]: ...
def transaction(label: str = "script transaction") -> AbstractContextManager[Transaction]: ...
def refresh() -> None: ...

namespaces: dict[str, Namespace]
'''

SIMPLE = (type(None), bool, int, float, str)


def _default(value) -> str:
    return repr(value) if isinstance(value, SIMPLE) else "..."


def _docstring(text: str, indent: str) -> str:
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines = text.split("\n")
    body = "\n".join((indent + line) if line else "" for line in lines[1:])
    return f'{indent}"""{lines[0]}\n{body}\n{indent}"""' if len(lines) > 1 else f'{indent}"""{lines[0]}"""'


def _method(entry) -> str:
    cmd = REGISTRY.get(entry.command)
    params = ["self", "*"] if cmd.args.model_fields else ["self"]
    for p in parameters(cmd.args, entry.document):
        text = f"{p.name}: {type_text(p.annotation)}"
        if p.default is not inspect.Parameter.empty:
            text += f" = {_default(p.default)}"
        params.append(text)
    doc = _docstring(docstring(cmd, f"{entry.namespace}.{entry.name}", entry.document), "        ")
    return f"    def {entry.name}({', '.join(params)}) -> dict[str, Any]:\n{doc}\n        ..."


def class_name(namespace: str) -> str:
    return "_" + "".join(part.title() for part in namespace.split("_"))


def render() -> str:
    entries = plan([c.id for c in REGISTRY.all()])
    by_ns: dict[str, list] = {}
    for e in entries:
        by_ns.setdefault(e.namespace, []).append(e)
    for ns in ("board", "sch", "project", "lib", "query", "session", "check", "render"):
        by_ns.setdefault(ns, [])  # always there, possibly empty (project before any project.*)
    out = [HEADER]
    for ns in sorted(by_ns):
        out.append(f"\nclass {class_name(ns)}(Namespace):")
        out.append(f'    """boardwire.api.{ns}: generated from the registry."""')
        for e in by_ns[ns]:
            out.append("")
            out.append(_method(e))
    out.append("")
    for ns in sorted(by_ns):
        out.append(f"{ns}: {class_name(ns)}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(render(), end="")
