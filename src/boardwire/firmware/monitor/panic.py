"""Panics decoded against the project's ELF: each code address of the register dump
(``MEPC``/``RA`` on RISC-V, ``PC``/``A0`` on Xtensa), the ``Backtrace:`` and ``abort()
was called at PC`` becomes a frame with function, file and line (Espressif's
``esp_idf_panic_decoder.PcAddressDecoder``: addr2line on the addresses that fall in an
executable section of the ELF), and frames in the project's own files carry seven
numbered source lines, the frame's line marked with ``>``."""

from __future__ import annotations

import re
from pathlib import Path

from ..toolchain import addr2line_for

_ADDR = re.compile(r"0x[0-9a-fA-F]{8}")
_REG = re.compile(r"\b(MEPC|RA|PC|A0)\s*: (0x[0-9a-fA-F]{8})")
_CONTEXT = 3  # lines each side: seven in all


def code_addresses(lines: list[str]) -> list[str]:
    """Candidate code addresses of a panic block, in the order that reads best: the
    faulting PC and return address, the backtrace, the abort site."""
    out: list[str] = []
    for text in lines:
        if text.startswith("Backtrace:"):
            out += [pair.split(":")[0] for pair in text.split()[1:] if pair.startswith("0x")]
        elif "abort() was called at PC" in text:
            out += _ADDR.findall(text)[:1]
        else:
            out += [v for _, v in _REG.findall(text)]
    seen, uniq = set(), []
    for a in out:
        a = a.lower()
        if a not in seen and a != "0x00000000":
            seen.add(a)
            uniq.append(a)
    return uniq


def source_lines(path: Path, line: int) -> list[str]:
    """Seven numbered lines around ``line`` of ``path`` (``>`` marks it)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    lo, hi = max(1, line - _CONTEXT), min(len(text), line + _CONTEXT)
    return [f"{'>' if n == line else ' '}{n:5d}  {text[n - 1]}" for n in range(lo, hi + 1)]


def _inside(root: Path | None, file: str) -> Path | None:
    if root is None or not file or file in ("??", "ROM"):
        return None
    p = Path(file)
    p = p if p.is_absolute() else root / p
    try:
        p = p.resolve()
        p.relative_to(root.resolve())
    except (OSError, ValueError):
        return None
    return p if p.is_file() else None


def decode(lines: list[str], elf: Path | None, chip: str | None, root: Path | None) -> list[dict]:
    """Frames [{address, function, file, line, inlined_by?, source?}] of the addresses
    the ELF knows; [] without an ELF or addr2line."""
    if elf is None or not elf.is_file():
        return []
    addr2line = addr2line_for(chip)
    if addr2line is None:
        return []
    addrs = code_addresses(lines)
    if not addrs:
        return []
    from esp_idf_panic_decoder import PcAddressDecoder

    prefix = addr2line[: -len("addr2line")]
    decoder = PcAddressDecoder(prefix, str(elf))
    frames = []
    for addr, trace in decoder.translate_addresses(" ".join(addrs)):
        if not trace:
            continue
        top = trace[0]
        frame = {"address": addr, "function": top.func, "file": top.path,
                 "line": int(top.line) if str(top.line).isdigit() else None}
        if len(trace) > 1:
            frame["inlined_by"] = [f"{t.func} at {t.path}:{t.line}" for t in trace[1:]]
        local = _inside(root, top.path)
        if local is not None and frame["line"]:
            frame["source"] = source_lines(local, frame["line"])
            if root is not None:
                frame["file"] = local.relative_to(root.resolve()).as_posix()
        frames.append(frame)
    return frames
