"""Compact line tables: many rows for few tokens, and the JSON they stand for.

    cols: lcsc|mpn|package|tier|stock|usd|footprint|description
    >C6186|AMS1117-3.3|SOT-223|basic|949581|0.209|Package_TO_SOT_SMD:SOT-223-3_TabPin2|...
    C6187|...
    +12 rows cut

The first line names the columns once; each following line is one row, its values in
that order, separated by ``|`` (a ``|`` inside a value is written ``/``; line breaks as
spaces); ``>`` marks the row a build would choose; the last line, when rows were left
out, says how many. `decode` reads it back: integer and float columns (``INT``,
``FLOAT``) as numbers, an empty value as None, everything else as text, so a table and
the JSON rows of the same answer decode to the same rows.
"""

from __future__ import annotations

import re

SEP = "|"
MARK = ">"
_CUT = re.compile(r"^\+(\d+) rows? cut")


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return f"{value:.6g}"
    return " ".join(str(value).split()).replace(SEP, "/")


def json_value(value):
    """A value as the table carries it (what `decode` gives back): text without ``|``
    and line breaks (empty text is None), floats to 6 significant digits."""
    if isinstance(value, float):
        return float(f"{value:.6g}")
    if isinstance(value, str):
        text = " ".join(value.split()).replace(SEP, "/")
        return text or None
    return value


def encode(columns: list[str], rows: list[dict], chosen: int | None = None, cut: int = 0) -> str:
    """The table of ``rows`` (dicts with the ``columns`` keys); ``chosen`` is the index
    of the marked row; ``cut`` the number of rows left out."""
    lines = ["cols: " + SEP.join(columns)]
    for i, row in enumerate(rows):
        lines.append((MARK if i == chosen else "") + SEP.join(_cell(row.get(c)) for c in columns))
    if cut:
        lines.append(f"+{cut} row{'s' if cut != 1 else ''} cut")
    return "\n".join(lines)


def decode(text: str, ints: tuple[str, ...] = (), floats: tuple[str, ...] = ()) -> dict:
    """``{"columns", "rows", "chosen", "cut"}`` from a table made by `encode`."""
    lines = text.split("\n")
    if not lines or not lines[0].startswith("cols: "):
        raise ValueError("a compact table starts with 'cols: '")
    columns = lines[0][len("cols: "):].split(SEP)
    rows, chosen, cut = [], None, 0
    for line in lines[1:]:
        m = _CUT.match(line)
        if m:
            cut = int(m.group(1))
            continue
        if line.startswith(MARK):
            chosen, line = len(rows), line[len(MARK):]
        cells = line.split(SEP)
        row = {}
        for c, v in zip(columns, cells):
            if v == "":
                row[c] = None
            elif c in ints:
                row[c] = int(v)
            elif c in floats:
                row[c] = float(v)
            else:
                row[c] = v
        rows.append(row)
    return {"columns": columns, "rows": rows, "chosen": chosen, "cut": cut}
