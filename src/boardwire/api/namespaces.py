"""The namespaces of the script API (``board``, ``sch``, ``query``...), filled with one
function per `names.plan` entry, each generated from its registry command."""

from __future__ import annotations

from typing import Any, Callable

from ..commands import REGISTRY
from ..errors import InvalidArgs
from . import binding
from .names import Entry, plan, snake
from .signature import docstring, signature


class Namespace:
    """A group of generated functions, e.g. ``board``. ``commands`` maps each function
    name to its registry command id. A camelCase verb (``query.sheetTree``) finds the
    snake_case function too."""

    def __init__(self, name: str, doc: str = ""):
        self._name = name
        self.__doc__ = doc or f"boardwire.api.{name}: functions generated from the registry."
        self.commands: dict[str, str] = {}

    def _add(self, name: str, fn: Callable, command_id: str) -> None:
        setattr(self, name, fn)
        self.commands[name] = command_id

    def _clear(self) -> None:
        for name in self.commands:
            delattr(self, name)
        self.commands = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        alias = snake(name)
        if alias != name and alias in self.commands:
            return getattr(self, alias)
        raise AttributeError(f"boardwire.api.{self._name} has no {name!r}; it has: "
                             + ", ".join(sorted(self.commands)))

    def __dir__(self) -> list[str]:
        return sorted(self.commands) + ["commands"]

    def __repr__(self) -> str:
        return f"<boardwire.api.{self._name}: {', '.join(sorted(self.commands))}>"


def make_function(entry: Entry) -> Callable[..., dict]:
    """The function ``namespace.name``: keyword arguments are the command's arguments;
    returns its JSON result; raises its BoardwireError."""
    cmd = REGISTRY.get(entry.command)
    qualname = f"{entry.namespace}.{entry.name}"
    command_id, document = entry.command, entry.document

    def fn(*args: Any, **kwargs: Any) -> dict:
        if args:
            raise InvalidArgs(f"{qualname}() takes keyword arguments only (the names of {command_id}'s arguments)",
                              errors=[{"loc": "(arguments)", "msg": "positional arguments given", "type": "type"}])
        return binding.call(command_id, kwargs, document)

    fn.__name__ = entry.name
    fn.__qualname__ = qualname
    fn.__module__ = "boardwire.api"
    fn.__doc__ = docstring(cmd, qualname, document)
    fn.__signature__ = signature(cmd.args, document)  # type: ignore[attr-defined]
    fn.command_id = command_id  # type: ignore[attr-defined]
    return fn


def build(namespaces: dict[str, Namespace]) -> dict[str, Namespace]:
    """(Re)fill ``namespaces`` from the registry; a namespace is created for any scope
    not there yet. Returns the namespaces."""
    for ns in namespaces.values():
        ns._clear()
    for entry in plan([c.id for c in REGISTRY.all()]):
        ns = namespaces.setdefault(entry.namespace, Namespace(entry.namespace))
        ns._add(entry.name, make_function(entry), entry.command)
    return namespaces
