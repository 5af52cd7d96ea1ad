"""Compact line tables: big row lists in a result, written for a model's context.

A command declares the result fields that are tables (lists of row objects); with
``format: "table"`` (the default over MCP, see `Context.tables`) each becomes one
string, and ``format: "json"`` keeps the row objects. The text:

- line 1: the column names, separated by ``|`` (columns in order of first appearance);
- one line per row: its cells separated by ``|``. An absent key is an empty cell. A
  string is written bare when it could not be read as JSON, holds no ``|`` or line
  break, does not start with ``"``, ``+``, ``[`` or ``{``, and is not empty; every other value is compact JSON
  (numbers, integral ones without ``.0``; ``null``, ``true``, lists, objects, and the
  strings not written bare);
- grouped tables (DRC/ERC findings): rows equal in every column but the grouping one
  share a line. The header starts with ``x`` and each line with its row count; the
  last column holds a JSON list with each row's value of the grouping column, in order;
- last, when the list stops short of all rows: ``+N more rows`` (and where to page).

`decode` reads the text back to the row objects (grouped tables expand to one row per
finding, in group order); tests decode every table to the JSON rows.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field

SEP = "|"
GROUP = "x"  # the first header cell of a grouped table


class TableFormat(BaseModel):
    """Mixed into the arguments of commands that declare tables."""

    format: Literal["table", "json"] | None = Field(
        None, description="table: one line per row under a line of column names (default over MCP); "
                          "json: row objects")


def _short(value):
    """Integral floats as integers (6.0 is 6: JSON numbers have no such difference)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        return int(value)
    if isinstance(value, list):
        return [_short(v) for v in value]
    if isinstance(value, dict):
        return {k: _short(v) for k, v in value.items()}
    return value


# First characters of text json.loads may read (whitespace, numbers, literals with
# Python's NaN and Infinity, strings, lists, objects): other strings are bare at once.
_MAYBE_JSON = frozenset(' \t\r\n0123456789-"[{tfnNI')


def _cell(value) -> str:
    if isinstance(value, str):
        if value and SEP not in value and "\n" not in value and "\r" not in value and value[0] not in '"+[{':
            if value[0] not in _MAYBE_JSON:
                return value
            try:
                json.loads(value)
            except ValueError:
                return value
    elif value is None:
        return "null"
    elif isinstance(value, bool):
        return "true" if value else "false"
    elif isinstance(value, int):
        return str(value)
    return json.dumps(_short(value), separators=(",", ":"), ensure_ascii=False)


def _value(cell: str):
    try:
        return json.loads(cell)
    except ValueError:
        return cell


def _split(line: str) -> list[str]:
    """Cells of a line: ``|`` separates, except inside a JSON string, list or object."""
    cells, start, depth, in_string, escaped = [], 0, 0, False, False
    for i, ch in enumerate(line):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"' and (i == start or depth):  # bare strings never start with " [ {
            in_string = True
        elif ch in "[{" and (i == start or depth):
            depth += 1
        elif ch in "]}" and depth:
            depth -= 1
        elif ch == SEP and not depth:
            cells.append(line[start:i])
            start = i + 1
    cells.append(line[start:])
    return cells


def encode(rows: list[dict], more: int = 0, *, group_by: str | None = None, page: str = "") -> str:
    """``rows`` as a line table; ``more`` rows were left out (``page`` says how to get
    them, e.g. "offset=200"); ``group_by``: the column whose rows are grouped."""
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    lines = []
    if group_by is not None:
        keys = [c for c in columns if c != group_by]
        groups: dict[tuple, list] = {}
        for row in rows:
            key = tuple(_cell(row[c]) if c in row else "" for c in keys)
            groups.setdefault(key, []).append(row.get(group_by))
        lines.append(SEP.join([GROUP, *keys, group_by]))
        for key, values in groups.items():
            lines.append(SEP.join([str(len(values)), *key, _cell(values)]))
    else:
        if columns[:1] == [GROUP]:  # "x" first would read as a grouped table
            columns = columns[1:] + columns[:1]
        lines.append(SEP.join(columns))
        lines.extend(SEP.join(_cell(row[c]) if c in row else "" for c in columns) for row in rows)
    if more > 0:
        lines.append(f"+{more} more rows" + (f" ({page})" if page else ""))
    return "\n".join(lines) if rows or more else ""


def decode(text: str) -> tuple[list[dict], int]:
    """The row objects of a line table and how many rows it says were left out.

    Raises ValueError for a line whose cell count differs from the header's."""
    lines = text.split("\n") if text else []
    more = 0
    if lines and lines[-1].startswith("+"):
        more = int(lines.pop()[1:].split(" ", 1)[0])
    if not lines:
        return [], more
    header = lines[0].split(SEP)
    grouped = header[0] == GROUP
    rows = []
    for n, line in enumerate(lines[1:], 2):
        cells = _split(line)
        if len(cells) != len(header):
            raise ValueError(f"line {n} has {len(cells)} cells, the header {len(header)}")
        row = {c: _value(v) for c, v in zip(header, cells) if v != ""}
        if grouped:
            count, values = row.pop(GROUP), row.pop(header[-1])
            if len(values) != count:
                raise ValueError(f"line {n}: {count} rows but {len(values)} {header[-1]}")
            for v in values:
                rows.append({**{c: row[c] for c in header[1:-1] if c in row},
                             **({header[-1]: v} if v is not None else {})})
        else:
            rows.append({c: row[c] for c in header if c in row})
    return rows, more


def grouped_order(rows: list[dict], group_by: str) -> list[dict]:
    """``rows`` in the order a grouped table decodes to: by group, groups in order of
    first appearance."""
    first: dict[str, int] = {}
    keyed = []
    for row in rows:
        key = json.dumps({k: v for k, v in row.items() if k != group_by}, sort_keys=True)
        first.setdefault(key, len(first))
        keyed.append((first[key], row))
    return [row for _, row in sorted(keyed, key=lambda kr: kr[0])]


def shape(out: dict, tables: tuple[str, ...], grouped: tuple[str, ...]) -> dict:
    """``out`` with each table field written as a line table. Rows left out are counted
    from ``total`` (less ``offset`` and the rows shown) for a result with one table, or
    from ``counts[field]``."""
    out = dict(out)
    for name in tables:
        rows = out.get(name)
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            continue
        page = ""
        if "total" in out and len(tables) == 1:
            shown_to = out.get("offset", 0) + len(rows)
            more = out["total"] - shown_to
            page = f"offset={shown_to}"
        else:
            more = (out.get("counts") or {}).get(name, len(rows)) - len(rows)
            page = "raise limit" if more > 0 else ""
        out[name] = encode(rows, max(more, 0), group_by="items" if name in grouped else None, page=page)
    return out
