"""The type stubs of `boardwire.api` (``src/boardwire/api/__init__.pyi``), generated
from the registry: ``python -m boardwire.api.stubs > src/boardwire/api/__init__.pyi``.

A function returns its command's result model as a TypedDict (`typed_dicts`: one per
model, named ``_`` + the model's name, stub-only; keys a result may lack are
``NotRequired``, descriptions are comments); a command whose result is open
(`commands.common.Result`) returns ``dict[str, Any]``.

tests/api/test_api.py fails when the file on disk differs from what this prints (a
command was added or changed without regenerating).
"""

from __future__ import annotations

import inspect
import keyword
import types
import typing
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel

from ..commands import REGISTRY
from ..commands.common import Result
from .names import plan
from .signature import describe_field, docstring, parameters, type_text

HEADER = '''"""Type stubs of boardwire.api, generated from the registry by
`python -m boardwire.api.stubs > src/boardwire/api/__init__.pyi`; do not edit."""

import os
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Literal, NotRequired, Sequence, TypedDict

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
    return f"    def {entry.name}({', '.join(params)}) -> {_returns(cmd.result)}:\n{doc}\n        ..."


def _typed(model) -> bool:
    return isinstance(model, type) and issubclass(model, BaseModel) and model is not Result


def _returns(model) -> str:
    return f"_{model.__name__}" if _typed(model) else "dict[str, Any]"


def _models(ann: Any) -> list[type[BaseModel]]:
    """The models a field's annotation names (nested in lists, unions, dicts)."""
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return [ann]
    return [m for a in typing.get_args(ann) for m in _models(a)]


def _ann(ann: Any) -> str:
    """A result field's annotation as stub text (models by their TypedDict's name)."""
    origin = typing.get_origin(ann)
    if origin is Annotated:
        return _ann(typing.get_args(ann)[0])
    if ann is type(None) or ann is None:
        return "None"
    if ann is Any:
        return "Any"
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return f"_{ann.__name__}"
    if origin in (Union, types.UnionType):
        return " | ".join(_ann(a) for a in typing.get_args(ann))
    if origin is Literal:
        return "Literal[" + ", ".join(repr(a) for a in typing.get_args(ann)) + "]"
    if origin in (list, dict):
        return f"{origin.__name__}[" + ", ".join(_ann(a) for a in typing.get_args(ann)) + "]"
    return ann.__name__


def _typed_dict(model: type[BaseModel]) -> str:
    """``model`` as a TypedDict: class syntax, or the functional one when a key is no
    Python name (``from``)."""
    name = f"_{model.__name__}"
    doc = " ".join((model.__dict__.get("__doc__") or "").split())
    rows = []
    for field_name, field in sorted(model.model_fields.items(), key=lambda kv: kv[0] != "summary"):
        key = field.alias or field_name
        ann = _ann(field.annotation)
        rows.append((key, ann if field.is_required() else f"NotRequired[{ann}]", describe_field(field)))
    if all(k.isidentifier() and not keyword.iskeyword(k) for k, _, _ in rows):
        lines = [f"class {name}(TypedDict):"] + ([f'    """{doc}"""'] if doc else [])
        lines += [f"    {k}: {t}" + (f"  # {d}" if d else "") for k, t, d in rows]
        return "\n".join(lines)
    lines = ([f"# {doc}"] if doc else []) + [f"{name} = TypedDict({name!r}, {{"]
    lines += [f"    {k!r}: {t}," + (f"  # {d}" if d else "") for k, t, d in rows]
    return "\n".join(lines + ["})"])


def typed_dicts(models) -> dict[str, str]:
    """The TypedDicts of ``models`` and of every model their fields name: stub text by
    name, in name order. Raises ValueError for two models of one name."""
    seen: dict[str, type[BaseModel]] = {}
    todo = [m for m in models if _typed(m)]
    while todo:
        m = todo.pop()
        if seen.setdefault(m.__name__, m) is not m:
            raise ValueError(f"two result models are named {m.__name__}: {m.__module__}, {seen[m.__name__].__module__}")
        todo += [n for f in m.model_fields.values() for n in _models(f.annotation) if n.__name__ not in seen]
    return {f"_{n}": _typed_dict(seen[n]) for n in sorted(seen)}


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
    for name, text in typed_dicts(c.result for c in REGISTRY.all()).items():
        if name in {class_name(ns) for ns in by_ns}:
            raise ValueError(f"the result model {name[1:]} takes the name of the namespace class {name}")
        out.append(f"\n{text}")
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
