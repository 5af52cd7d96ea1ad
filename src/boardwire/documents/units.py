"""KiCad's internal unit at the boundary: millimetres to integer nanometres and back.

Documents hold coordinates as integer nanometres (1 mm = 1,000,000 nm, KiCad's IU in
pcbnew and, as a whole number of 100 nm steps, in eeschema); clients speak
millimetres. Rounding is KiCad's KiROUND (half away from zero), as when KiCad reads a
file (see `boardwire.sexpr.atoms`).
"""

from __future__ import annotations

import math

from ..sexpr.atoms import IU_PER_MM, kiround

__all__ = ["IU_PER_MM", "mm", "nm", "rotate"]


def nm(mm: float) -> int:
    """Millimetres to KiCad's integer nanometres, rounded like KiCad."""
    return kiround(mm * IU_PER_MM)


def mm(value_nm: int) -> float:
    """Nanometres to millimetres (6 decimals: exact for whole nanometres)."""
    return round(value_nm / IU_PER_MM, 6)


def rotate(p: tuple[int, int], degrees: float) -> tuple[int, int]:
    """Rotate a footprint-local point (nm) as KiCad does (y down, positive = counter-
    clockwise on screen), rounding to the nanometre like KiCad's RotatePoint."""
    if not degrees:
        return p
    r = math.radians(degrees)
    c, s = math.cos(r), math.sin(r)
    x, y = p
    return kiround(x * c + y * s), kiround(-x * s + y * c)
