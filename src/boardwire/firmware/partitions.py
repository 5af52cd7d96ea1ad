"""ESP-IDF partition tables, CSV and binary, and the app partition an image must fit.

Formats as ESP-IDF's ``components/partition_table/gen_esp32part.py`` defines them:

* CSV rows ``Name, Type, SubType, Offset, Size, Flags``; ``#`` starts a comment; sizes
  and offsets in bytes, hex (``0x10000``) or with ``K``/``M`` suffixes; an empty
  offset follows the previous partition (aligned to 0x10000 for apps, 4 bytes
  otherwise), the first one at 0x9000 (after the table at 0x8000);
* binary: 32-byte entries starting with the magic bytes ``AA 50``: type, subtype,
  offset and size (little-endian 32-bit), a 16-byte label and 32-bit flags; an entry
  starting ``EB EB`` is the table's MD5 and ``FF FF`` ends it.

Type ``app`` (0) is an app partition; ``factory`` (subtype 0x00) is preferred, then
the first ``ota_N``/``test`` one.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path

from ..errors import InvalidArgs

TABLE_OFFSET = 0x8000
_TYPES = {"app": 0, "data": 1}
_APP_SUBTYPES = {"factory": 0x00, "test": 0x20, **{f"ota_{i}": 0x10 + i for i in range(16)}}


@dataclass(frozen=True)
class Partition:
    name: str
    type: int
    subtype: int
    offset: int
    size: int

    @property
    def is_app(self) -> bool:
        return self.type == 0


def parse_size(text: str, *, where: str = "size") -> int:
    """``0x10000``, ``65536``, ``64K`` or ``1M`` in bytes; raises InvalidArgs."""
    t = text.strip().upper()
    m = re.fullmatch(r"(0X[0-9A-F]+|\d+)\s*([KM]?)", t)
    if not m:
        raise InvalidArgs(f"{where}: {text!r} is not a size (0x10000, 65536, 64K or 1M)")
    n = int(m[1], 16) if m[1].startswith("0X") else int(m[1])
    return n * {"": 1, "K": 1024, "M": 1024 * 1024}[m[2]]


def read_csv(text: str) -> list[Partition]:
    parts: list[Partition] = []
    offset = TABLE_OFFSET + 0x1000
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        cells = [c.strip() for c in line.split(",")] + [""] * 6
        name, ptype, sub, off, size = cells[:5]
        where = f"partition table line {n}"
        t = _TYPES.get(ptype.lower(), None)
        if t is None:
            t = parse_size(ptype, where=where) if ptype else 1
        s = _APP_SUBTYPES.get(sub.lower(), None) if t == 0 else None
        if s is None:
            try:
                s = parse_size(sub, where=where) if sub and sub[0].isdigit() else 0
            except InvalidArgs:
                s = 0
        align = 0x10000 if t == 0 else 4
        start = parse_size(off, where=where) if off else (offset + align - 1) // align * align
        length = parse_size(size, where=where)
        parts.append(Partition(name, t, s, start, length))
        offset = start + length
    return parts


def read_binary(data: bytes) -> list[Partition]:
    parts = []
    for i in range(0, len(data) - 31, 32):
        entry = data[i:i + 32]
        if entry[:2] != b"\xaa\x50":
            break  # MD5 entry (EB EB) or the end (FF FF)
        ptype, sub, off, size = struct.unpack_from("<BBII", entry, 2)
        label = entry[12:28].split(b"\0", 1)[0].decode("ascii", "replace")
        parts.append(Partition(label, ptype, sub, off, size))
    return parts


def read_table(path: Path) -> list[Partition]:
    """A table from a ``.csv`` or a binary ``.bin`` file."""
    if path.suffix.lower() == ".csv":
        return read_csv(path.read_text(encoding="utf-8", errors="replace"))
    return read_binary(path.read_bytes())


def app_partition(parts: list[Partition]) -> Partition | None:
    apps = [p for p in parts if p.is_app]
    factory = [p for p in apps if p.subtype == 0]
    return (factory or apps or [None])[0]
