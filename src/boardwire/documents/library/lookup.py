"""One symbol or footprint of the libraries a project sees, by library id
(``Library:Name``), with errors that name what exists nearby.

Libraries come from the project's ``sym-lib-table``/``fp-lib-table``, then the global
tables, as KiCad resolves them (`index.table_libraries`); a library's items come
from the index (`index.INDEX`), and one symbol's definition is parsed from its
byte span only. A derived symbol (``extends``, KiCad's symbol inheritance) comes with
its chain of parents, each in the same library as KiCad requires.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from ...errors import InvalidArgs, NotFound
from ...sexpr.parse import parse_list_span
from ..schematic import LibSymbol, SymbolLibrary
from .index import INDEX, LibItem, table_libraries


def split_id(lib_id: str) -> tuple[str, str]:
    """(library nickname, name) of ``Library:Name``; InvalidArgs otherwise."""
    lib, sep, name = lib_id.partition(":")
    if not sep or not lib or not name or ":" in name:
        raise InvalidArgs(f"{lib_id!r} is not a library id",
                          hint="Use Library:Name, e.g. Device:R or Resistor_SMD:R_0603_1608Metric.")
    return lib, name


def similar_names(word: str, names: list[str], n: int = 5) -> list[str]:
    """Up to ``n`` of ``names`` close to ``word`` (spelling, then containing it)."""
    low = word.lower()
    near = difflib.get_close_matches(word, names, n=n, cutoff=0.6)
    near += [x for x in names if low in x.lower() and x not in near]
    return near[:n]


def find_library(kind: str, lib: str, where: Path) -> Path:
    """The path of ``kind`` ("symbol" or "footprint") library nickname ``lib`` as seen
    from folder ``where``; NotFound lists similar nicknames."""
    rows, skipped = table_libraries(kind, where)
    for nick, path in rows:
        if nick == lib:
            return path
    table = "sym-lib-table" if kind == "symbol" else "fp-lib-table"
    if lib in skipped:
        raise NotFound(f"{kind} library {lib!r} is in the library tables but its files are missing "
                       "or not a KiCad 6+ library",
                       hint=f"Fix the library's path in {table}, or install it.")
    close = similar_names(lib, [nick for nick, _ in rows])
    raise NotFound(f"no {kind} library {lib!r} in the library tables",
                   hint=(f"Similar libraries: {', '.join(close)}. " if close else "")
                   + f"Use lib.search to find the library, or add it to {table}.",
                   similar=close)


def library_item(kind: str, lib_id: str, where: Path) -> tuple[Path, LibItem, dict[str, LibItem]]:
    """(library path, the item, every item of that library by name) of ``lib_id``;
    NotFound names similar items."""
    lib, name = split_id(lib_id)
    path = find_library(kind, lib, where)
    index = INDEX.library(kind, path)
    items = {i.name: i for i in index.items} if index is not None else {}
    item = items.get(name)
    if item is None:
        close = similar_names(name, list(items))
        raise NotFound(f"no {kind} {name!r} in {lib}" + (f"; similar: {', '.join(close)}" if close else ""),
                       hint=f"Search with lib.search, e.g. {{\"query\": \"{name}\", \"kind\": \"{kind}\"}}.")
    return path, item, items


def _definition(path: Path, item: LibItem) -> LibSymbol:
    if item.span is not None:
        return LibSymbol(None, parse_list_span(path.read_bytes(), item.span[0], item.span[1], str(path)))
    return SymbolLibrary.load(path).symbol(item.name)


@dataclass
class SymbolDefinition:
    """A library symbol and its ``extends`` chain (``parents``: its parent, the
    parent's parent...)."""

    lib_id: str
    symbol: LibSymbol
    parents: list[LibSymbol]

    @property
    def base(self) -> LibSymbol:
        """The symbol the chain ends at: the one that holds the units and pins."""
        return self.parents[-1] if self.parents else self.symbol


def symbol_definition(lib_id: str, where: Path) -> SymbolDefinition:
    """The definition of symbol ``lib_id`` as seen from folder ``where``, with its
    ``extends`` chain. Errors: InvalidArgs (not Library:Name), NotFound (library,
    symbol or a parent missing)."""
    path, item, items = library_item("symbol", lib_id, where)
    sym = _definition(path, item)
    parents, chain, cur = [], [item.name], sym
    while cur.extends:
        parent = items.get(cur.extends)
        if parent is None or parent.name in chain:
            raise NotFound(f"{lib_id} extends {cur.extends!r}, which is not in its library")
        chain.append(parent.name)
        cur = _definition(path, parent)
        parents.append(cur)
    return SymbolDefinition(lib_id, sym, parents)
