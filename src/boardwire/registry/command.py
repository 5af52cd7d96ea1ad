"""How a command is declared: once, with everything every door needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pydantic import BaseModel, Field

from . import roles

DEFAULT_WAIT_S = 25.0


class LongArgs(BaseModel):
    """Mixed into the arguments of long commands (``long=True``): how long the call
    waits before answering with a job (boardwire.jobs)."""

    wait_s: float | None = Field(None, ge=0, le=3600, description="s; then a job")

KINDS = ("query", "edit", "check", "export", "session")


@dataclass(frozen=True)
class Command:
    """One registry entry.

    ``id`` is ``scope.verb``; ``kind`` one of `KINDS`; ``args`` the pydantic model of
    the arguments (its JSON Schema is the command's input schema) and ``result`` the
    model of its result; ``summary`` the one-paragraph description; ``units`` says what
    numbers mean; ``examples`` are argument objects (at most three).
    The files its arguments name, and what it does with each, are their types'
    roles (`roles`): ``edits`` is derived from them.
    ``tables``: result fields that are lists of rows, written as line tables unless
    ``format: "json"`` (registry/tables.py); ``grouped``: those of them whose rows
    are grouped by their ``items`` (DRC/ERC findings).
    ``finds_errors``: for a command that checks something, whether its result says the
    check found errors (`boardwire call` then prints the result and exits with
    `errors.EXIT_CHECK_ERRORS`); None for the others.
    ``long``: the call may take long: it takes ``wait_s`` (`LongArgs`) and, called
    through an agent's door, answers with a job when not done by then.
    """

    id: str
    kind: str
    summary: str
    args: type[BaseModel]
    result: type[BaseModel] | None
    handler: Callable[..., Any]
    units: str = ""
    examples: tuple[dict, ...] = ()
    destructive: bool = False
    idempotent: bool = False
    long: bool = False
    tables: tuple[str, ...] = ()
    grouped: tuple[str, ...] = ()
    finds_errors: Callable[[dict], bool] | None = None

    @property
    def edits(self) -> str | None:
        """The argument naming the document the command changes (its `roles.EditPath`;
        an edit's ``revision`` argument is checked against it), or None."""
        return roles.field_of(self.args, roles.EDIT)

    def edited(self, args: BaseModel, workspace) -> list[str]:
        """The workspace-relative documents a call with arguments ``args`` changes, by
        their roles (`roles.named`; a path that does not resolve is left out: the
        command reports it)."""
        return [n.path for n in roles.named(args, workspace, strict=False) if n.role.kind == roles.EDIT]

    @property
    def read_only(self) -> bool:
        return self.kind in ("query", "check", "export") or (self.kind == "session" and not self.edits
                                                              and self.idempotent)

    @property
    def scope(self) -> str:
        return self.id.split(".", 1)[0]

    def input_schema(self) -> dict:
        return compact_schema(self.args.model_json_schema())

    def output_schema(self) -> dict | None:
        """The JSON Schema of the result (`compact_schema`): a key a result may leave
        out is not ``required`` (its model's default, None, is no value it sends)."""
        if self.result is None:
            return None
        return compact_schema(self.result.model_json_schema(), drop_null_defaults=True)


def compact_schema(schema: dict, drop_null_defaults: bool = False) -> dict:
    """Drop what costs tokens and tells a model nothing: pydantic's generated
    ``title`` of every property (the property name says it) and of the model, and
    with ``drop_null_defaults`` every ``default: null``."""
    if isinstance(schema, dict):
        return {k: compact_schema(v, drop_null_defaults) for k, v in schema.items()
                if not (k == "title" and isinstance(v, str)) and not (drop_null_defaults and k == "default" and v is None)}
    if isinstance(schema, list):
        return [compact_schema(v, drop_null_defaults) for v in schema]
    return schema
