"""Argument roles: which arguments of a command name files, and what the command does
with them, declared once on the argument model's types.

A role lives in the metadata of a field's type (``Annotated[str, Role(...)]``), not in
its JSON Schema (it costs the MCP tool list no tokens). The kinds:

* ``read`` (`DocPath`): a KiCad document the command reads (opens in the session);
* ``edit`` (`EditPath`): the document the command changes; an edit command's
  ``revision`` argument is checked against it (`Command.edits`);
* ``write`` (`OutputPath`): a file or folder the command writes (or creates);
* ``input`` (`InputPath`): a plain file or folder the command reads (a design JSON,
  a catalogue CSV, a Specctra session, a firmware project).

Every reader takes them from here: the registry (the revision check, the revision an
edit answers), the policy (`policy.check`: every path a call edits or writes, against
``[agent] paths``), the edit-feedback hook (the board an edit changes), the audit log
(the documents a call read and wrote) and the MCP completions (the documents offered
for an argument). A role says how its value resolves, as the command resolves it:
relative to the workspace unless `Role.beside`, `Role.within`, `Role.default` or
`Role.up` say otherwise. Roles are found in optional values, lists, dict values and
nested models (a value's owner is the model holding the field, so ``beside`` and
friends name a field of that model). A session.batch step is another command's call:
its roles apply when the step runs through the registry.

A flag that throws work away beyond undo when true carries `Destroys` (session.save
``force``, session.close ``discard``): the policy's ``[agent] destructive`` reads it.
"""

from __future__ import annotations

import os
import posixpath
import types
from dataclasses import dataclass
from functools import lru_cache
from inspect import isclass
from typing import Annotated, Any, Iterator, Union, get_args, get_origin

from pydantic import BaseModel

READ, EDIT, WRITE, INPUT = "read", "edit", "write", "input"
KINDS = (READ, EDIT, WRITE, INPUT)
DOCUMENTS = (".kicad_pcb", ".kicad_sch")  # what most commands take (session.open takes any KiCad file)


@dataclass(frozen=True)
class Role:
    """What a command does with the file or folder an argument names (see the module).

    ``kind``: one of `KINDS`. How the value resolves (default: relative to the
    workspace):
    ``beside``: relative to the folder of the document named by that field (a child
    sheet's file beside its parent sheet: `netlist.hierarchy.sheet_file_key`);
    ``within``: joined to the folder named by that field (fw.new's ``dir``/``name``);
    ``default``: when the value is absent, that field's value instead (project.new's
    folder, default a new folder NAME);
    ``up``: the folder that many levels above the value (design.rebuild writes the
    version folder's builds folder).
    ``suffixes``: the files it takes, for completion (empty: any).
    """

    kind: str
    beside: str | None = None
    within: str | None = None
    default: str | None = None
    up: int = 0
    suffixes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown role {self.kind!r}; one of {', '.join(KINDS)}")

    @property
    def writes(self) -> bool:
        """The call changes what the value names (an edited document, a written file)."""
        return self.kind in (EDIT, WRITE)

    def __str__(self) -> str:
        how = [f"{k}={getattr(self, k)}" for k in ("beside", "within", "default", "up") if getattr(self, k)]
        return self.kind + (f" ({', '.join(how)})" if how else "")


@dataclass(frozen=True)
class Destroys:
    """On a bool field: true throws work away beyond undo (the policy's ``[agent]
    destructive``); ``of``: the field naming the document whose work is lost, which the
    call then changes (the policy checks it against ``[agent] paths``)."""

    of: str | None = None

    def __str__(self) -> str:
        return "destroys" + (f" ({self.of})" if self.of else "")


DocPath = Annotated[str, Role(READ, suffixes=DOCUMENTS)]
EditPath = Annotated[str, Role(EDIT, suffixes=DOCUMENTS)]
OutputPath = Annotated[str, Role(WRITE)]
InputPath = Annotated[str, Role(INPUT)]
BoardPath = Annotated[str, Role(READ, suffixes=(".kicad_pcb",))]
SchematicPath = Annotated[str, Role(READ, suffixes=(".kicad_sch",))]


@dataclass(frozen=True)
class Slot:
    """Where a mark (`Role` or `Destroys`) is declared in an argument model: ``loc``,
    the field names from the model to it, ``"*"`` for the items of a list or dict."""

    loc: tuple[str, ...]
    mark: Role | Destroys

    @property
    def name(self) -> str:
        return ".".join(self.loc)


def _marks(annotation: Any, metadata: tuple, loc: tuple[str, ...], seen: frozenset) -> Iterator[Slot]:
    for m in metadata:
        if isinstance(m, (Role, Destroys)):
            yield Slot(loc, m)
    origin = get_origin(annotation)
    if origin is Annotated:
        base, *meta = get_args(annotation)
        yield from _marks(base, tuple(meta), loc, seen)
    elif origin is Union or origin is types.UnionType:
        for a in get_args(annotation):
            yield from _marks(a, (), loc, seen)
    elif origin in (list, tuple, set, frozenset, dict):
        inner = get_args(annotation)
        items = inner[1:2] if origin is dict else inner
        for a in dict.fromkeys(a for a in items if a is not Ellipsis):
            yield from _marks(a, (), loc + ("*",), seen)
    elif isclass(annotation) and issubclass(annotation, BaseModel) and annotation not in seen:
        for name, f in annotation.model_fields.items():
            yield from _marks(f.annotation, tuple(f.metadata), loc + (name,), seen | {annotation})


@lru_cache(maxsize=None)
def slots(model: type[BaseModel]) -> tuple[Slot, ...]:
    """Every `Role` and `Destroys` of an argument model, its nested models' included."""
    return tuple(s for name, f in model.model_fields.items()
                 for s in _marks(f.annotation, tuple(f.metadata), (name,), frozenset({model})))


def field_of(model: type[BaseModel], kind: str) -> str | None:
    """The top-level field of ``model`` with a ``kind`` role (the first), or None."""
    return next((s.loc[0] for s in slots(model)
                 if len(s.loc) == 1 and isinstance(s.mark, Role) and s.mark.kind == kind), None)


def values(args: BaseModel, slot: Slot) -> Iterator[tuple[BaseModel, Any]]:
    """(owner, value) for each value at ``slot`` in ``args`` (absent ones: None);
    owner is the model holding the field."""
    def inside(owner: BaseModel, value: Any, rest: tuple[str, ...]):
        if not rest:
            yield owner, value
        elif rest[0] == "*":
            items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple, set, frozenset)) else ()
            for v in items:
                yield from inside(owner, v, rest[1:])
        elif isinstance(value, BaseModel):
            yield from inside(value, getattr(value, rest[0], None), rest[1:])

    yield from inside(args, getattr(args, slot.loc[0], None), slot.loc[1:])


def resolve(role: Role, value: Any, owner: BaseModel, workspace) -> str | None:
    """The workspace-relative path (``"."`` for the workspace) ``value`` names in
    ``role`` as the command resolves it (see `Role`); None when there is none.
    Raises what ``workspace.resolve`` raises (``path-outside-workspace``,
    ``invalid-args``)."""
    if value is None and role.default:
        value = getattr(owner, role.default, None)
    if not isinstance(value, str) or not value:
        return None
    if role.up:
        value = value.rstrip("/")
        for _ in range(role.up):
            value = posixpath.dirname(value)
        value = value or "."
    if role.within:
        base = getattr(owner, role.within, None)
        if isinstance(base, str) and base:
            value = os.path.join(base, value)
    if role.beside:
        doc = getattr(owner, role.beside, None)
        if isinstance(doc, str) and doc:
            parent = workspace.relative(workspace.resolve(doc))
            value = posixpath.normpath(posixpath.join(posixpath.dirname(parent), value.replace("\\", "/")))
    return workspace.relative(workspace.resolve(value)) or "."


@dataclass(frozen=True)
class Named:
    """A file a call's arguments name: the argument (``loc``, dotted, ``*`` for the
    items of a list), its `Role` and the workspace-relative ``path``."""

    loc: str
    role: Role
    path: str


def named(args: BaseModel, workspace, *, strict: bool = True) -> list[Named]:
    """Every file the arguments ``args`` name, resolved (`resolve`), in field order; a
    true `Destroys` flag with ``of`` counts as an edit of that field's document.
    ``strict``: raise for a path that does not resolve, else leave it out."""
    out = []
    for slot in slots(type(args)):
        for owner, value in values(args, slot):
            loc, role = slot.name, slot.mark
            if isinstance(role, Destroys):
                if value is not True or not role.of:
                    continue
                loc, role, value = ".".join((*slot.loc[:-1], role.of)), Role(EDIT), getattr(owner, role.of, None)
            try:
                path = resolve(role, value, owner, workspace)
            except Exception:  # noqa: BLE001  (not strict: the command reports it)
                if strict:
                    raise
                continue
            if path is not None:
                out.append(Named(loc, role, path))
    return out


def destroys(args: BaseModel) -> bool | None:
    """Whether the call throws work away (a `Destroys` flag is true); None when the
    model declares no such flag."""
    flags = [s for s in slots(type(args)) if isinstance(s.mark, Destroys)]
    if not flags:
        return None
    return any(v is True for s in flags for _, v in values(args, s))


def table(model: type[BaseModel]) -> dict[str, str]:
    """``{field location: role}`` of a model, as text (docs and tests)."""
    out: dict[str, str] = {}
    for s in slots(model):
        out[s.name] = f"{out[s.name]}, {s.mark}" if s.name in out else str(s.mark)
    return out
