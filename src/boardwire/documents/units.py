"""KiCad's internal unit at the boundary: millimetres to integer nanometres and back.

Documents hold coordinates as integer nanometres (1 mm = 1,000,000 nm, KiCad's IU in
pcbnew and, as a whole number of 100 nm steps, in eeschema); clients speak
millimetres. Rounding is KiCad's KiROUND (half away from zero), as when KiCad reads a
file (see `boardwire.sexpr.atoms`).
"""

from __future__ import annotations

from ..sexpr.atoms import IU_PER_MM, kiround

__all__ = ["IU_PER_MM", "mm", "nm"]


def nm(mm: float) -> int:
    """Millimetres to KiCad's integer nanometres, rounded like KiCad."""
    return kiround(mm * IU_PER_MM)


def mm(value_nm: int) -> float:
    """Nanometres to millimetres (6 decimals: exact for whole nanometres)."""
    return round(value_nm / IU_PER_MM, 6)
