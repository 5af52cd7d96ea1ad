"""Python signatures, type hints and docstrings of the script API, read from the
registry's pydantic argument models (so `help()`, editors and the ``.pyi`` stubs show
what the registry validates).

Types are shown as a script passes them: any sequence where the registry takes a JSON
array (tuples are sent as arrays), a ``dict`` where it takes a nested object.
"""

from __future__ import annotations

import inspect
import os
import types
import typing
from typing import Annotated, Any, Literal, Sequence, Union

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

PATH_TYPE = Union[str, os.PathLike, None]

DOCUMENT_WORDS = {"board": "the board given by `--board` / `connect(board=...)`, else the only open board",
                  "schematic": "the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic",
                  "any": "the one document given by `--board`/`--schematic` (or `connect`), else the only open document"}

ERRORS_DOC = ("Raises:\n"
              "    BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,\n"
              "        stale-revision, service-unavailable...; see docs/commands.md); a failed edit\n"
              "        changes nothing.")


def clean(ann: Any) -> Any:
    """The type a script may pass for a pydantic field annotation: constraints dropped
    (the registry checks them), lists widened to sequences, models to dicts."""
    origin = typing.get_origin(ann)
    if origin is Annotated:
        return clean(typing.get_args(ann)[0])
    if origin in (Union, types.UnionType):
        return Union[tuple(clean(a) for a in typing.get_args(ann))]
    if origin in (list, tuple, set, frozenset, Sequence):
        args = typing.get_args(ann)
        return Sequence[clean(args[0]) if args else Any]
    if origin is dict:
        k, v = typing.get_args(ann) or (str, Any)
        return dict[clean(k), clean(v)]
    if origin is Literal:
        return ann
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return dict[str, Any]
    return ann


def type_text(ann: Any) -> str:
    """A cleaned type as stub text: ``Sequence[float] | None``."""
    origin = typing.get_origin(ann)
    if ann is type(None) or ann is None:
        return "None"
    if origin in (Union, types.UnionType):
        parts = [type_text(a) for a in typing.get_args(ann)]
        parts = sorted(set(parts), key=lambda p: (p == "None", parts.index(p)))
        return " | ".join(parts)
    if origin is Literal:
        return "Literal[" + ", ".join(repr(a) for a in typing.get_args(ann)) + "]"
    if origin is not None:
        name = {list: "list", dict: "dict", tuple: "tuple"}.get(origin) or getattr(origin, "__name__", str(origin))
        return f"{name}[" + ", ".join(type_text(a) for a in typing.get_args(ann)) + "]"
    if ann is Any:
        return "Any"
    if ann is os.PathLike:
        return "os.PathLike[str]"
    if isinstance(ann, type):
        return ann.__name__
    return str(ann).replace("typing.", "")


def _inner_description(ann: Any) -> str:
    """A description given inside a nested Annotated (``Size`` says ``mm``)."""
    for a in typing.get_args(ann):
        if isinstance(a, FieldInfo) and a.description:
            return a.description
        found = _inner_description(a)
        if found:
            return found
    return ""


def describe_field(field: FieldInfo) -> str:
    desc = (field.description or "").strip()
    inner = _inner_description(field.annotation)
    if inner and inner not in desc:
        desc = f"{desc} ({inner})" if desc else inner
    return desc


def default_of(field: FieldInfo) -> Any:
    """What the registry uses when the argument is left out (shown, never sent)."""
    if field.default is not PydanticUndefined:
        return field.default
    if field.default_factory is not None:
        try:
            return field.default_factory()  # type: ignore[call-arg]
        except TypeError:
            return None
    return None


def parameters(model: type[BaseModel], document: str | None) -> list[inspect.Parameter]:
    """Keyword-only parameters: the required arguments, then ``path`` (defaulting to
    ``document`` when given), then the optional ones."""
    required, optional, path = [], [], []
    for name, field in model.model_fields.items():
        if name == "path" and document is not None:
            path.append(inspect.Parameter("path", inspect.Parameter.KEYWORD_ONLY, default=None,
                                          annotation=PATH_TYPE))
        elif field.is_required():
            ann = clean(field.annotation)
            if name == "path":
                ann = Union[str, os.PathLike]
            required.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=ann))
        else:
            optional.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY,
                                              default=default_of(field), annotation=clean(field.annotation)))
    return required + path + optional


def signature(model: type[BaseModel], document: str | None) -> inspect.Signature:
    return inspect.Signature(parameters(model, document), return_annotation=dict[str, Any])


def _call_example(qualname: str, example: dict, document: str | None) -> str:
    args = {k: v for k, v in example.items() if not (k == "path" and document in ("board", "schematic"))}
    return f"{qualname}(" + ", ".join(f"{k}={v!r}" for k, v in args.items()) + ")"


def docstring(cmd, qualname: str, document: str | None) -> str:
    """The function's docstring: the command's description, its arguments with types,
    units and defaults, what it returns, what it raises, its examples as calls."""
    flags = [cmd.kind] + [f for f, on in (("read-only", cmd.read_only), ("destructive", cmd.destructive),
                                         ("long", cmd.long)) if on]
    lines = [cmd.summary, "", f"Registry command ``{cmd.id}`` ({', '.join(flags)}"
             + (f"; units: {cmd.units}" if cmd.units else "") + ")."]
    if cmd.kind == "edit":
        lines.append("One undo step (inside `transaction` it joins the transaction's step).")
    params = parameters(cmd.args, document)
    if params:
        lines += ["", "Args:"]
        fields = cmd.args.model_fields
        for p in params:
            desc = describe_field(fields[p.name])
            if p.name == "path" and document is not None:
                desc = f"{desc}; default: {DOCUMENT_WORDS[document]}"
            elif p.default is inspect.Parameter.empty:
                desc = f"{desc} (required)" if desc else "(required)"
            elif p.default not in (None, {}, []):
                desc = f"{desc} (default {p.default!r})".strip()
            lines.append(f"    {p.name} ({type_text(p.annotation)}): {desc}".rstrip())
    lines += ["", "Returns:",
              "    dict: the command's JSON result; ``summary`` is one line saying what happened"
              + ("; edits add ``revision`` and ``new_ids``." if cmd.kind == "edit" else "."),
              "", ERRORS_DOC]
    if cmd.examples:
        lines += ["", "Examples:"] + [f"    {_call_example(qualname, ex, document)}" for ex in cmd.examples]
    return "\n".join(lines)
