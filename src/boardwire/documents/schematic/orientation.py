"""A placed symbol's orientation: KiCad's transform matrix, pin positions, and the
eight rotation/mirror combinations in the form KiCad writes them.

Source: KiCad's eeschema TRANSFORM and ``SCH_SYMBOL::SetOrientation`` /
``GetOrientation``, and the schematic file format
(dev-docs.kicad.org/en/file-formats/sexpr-schematic/): library pins are stored y up;
KiCad flips y on load, then rotates, then mirrors. Of the eight rotation/mirror
combinations KiCad writes only 0/90/180/270, ``mirror x`` at 0, 90 and 270 and
``mirror y`` at 0 (``GetOrientation`` returns the first match): `orientation_of`.
Coordinates are integer nanometres, angles degrees counter-clockwise.
"""

from __future__ import annotations

from ..views import Point

Transform = tuple[int, int, int, int]

# KiCad's symbol orientations as TRANSFORM(x1, y1, x2, y2): world = (x1*x + y1*y,
# x2*x + y2*y) for a library point (x, y) read with y flipped to point down, as KiCad's
# parser stores it.
_ORIENT = {0: (1, 0, 0, 1), 90: (0, 1, -1, 0), 180: (-1, 0, 0, -1), 270: (0, -1, 1, 0)}
MIRROR = {"x": (1, 0, 0, -1), "y": (-1, 0, 0, 1)}  # about the X axis (top-bottom), the Y axis

# (angle, mirror) in the order KiCad's GetOrientation tries them, restricted to the forms
# its files hold.
_CANONICAL = [(0, None), (90, None), (180, None), (270, None), (0, "x"), (90, "x"),
              (270, "x"), (0, "y")]


def compose(outer: Transform, inner: Transform) -> Transform:
    """The transform that applies ``inner`` then ``outer`` (the matrix product)."""
    a1, b1, a2, b2 = outer
    x1, y1, x2, y2 = inner
    return (a1 * x1 + b1 * x2, a1 * y1 + b1 * y2, a2 * x1 + b2 * x2, a2 * y1 + b2 * y2)


def symbol_transform(angle: float, mirror: str | None) -> Transform:
    """KiCad's transform matrix for a placed symbol: orientation first, then mirror
    (``"x"`` or ``"y"``) composed on the right, as the schematic parser does."""
    t = _ORIENT.get(int(round(angle)) % 360, _ORIENT[0])
    m = MIRROR.get(mirror or "")
    return t if m is None else compose(m, t)


def orientation_of(t: Transform) -> tuple[int, str | None]:
    """The (angle, mirror) KiCad writes for transform ``t``."""
    for a, m in _CANONICAL:
        if symbol_transform(a, m) == t:
            return a, m
    raise AssertionError(f"not a symbol transform: {t}")


def canonical_orientation(angle: float, mirror: str | None) -> tuple[int, str | None]:
    """The (angle, mirror) KiCad writes for a symbol turned ``angle`` degrees (a
    multiple of 90) and mirrored about ``mirror`` ("x", "y" or None)."""
    return orientation_of(symbol_transform(angle, mirror))


def rotated(angle: float, mirror: str | None, by: float) -> tuple[int, str | None]:
    """The orientation of a symbol at (angle, mirror) turned by ``by`` degrees more
    (as KiCad's Rotate: about the anchor, a mirrored symbol stays mirrored)."""
    return orientation_of(compose(symbol_transform(by, None), symbol_transform(angle, mirror)))


def mirrored(angle: float, mirror: str | None, axis: str) -> tuple[int, str | None]:
    """The orientation of a symbol at (angle, mirror) after KiCad's Mirror X
    (``axis`` "x": top-bottom) or Mirror Y ("y": left-right)."""
    return orientation_of(compose(MIRROR[axis], symbol_transform(angle, mirror)))


def apply(t: Transform, v: Point) -> Point:
    x1, y1, x2, y2 = t
    return (x1 * v[0] + y1 * v[1], x2 * v[0] + y2 * v[1])


def inverse(t: Transform) -> Transform:
    x1, y1, x2, y2 = t  # orthogonal: the inverse is the transpose
    return (x1, x2, y1, y2)


def pin_world(at: Point, transform: Transform, lib: Point) -> Point:
    """World position (nm, y down) of a library pin at ``lib`` (nm, y up in the file)."""
    x1, y1, x2, y2 = transform
    x, y = lib[0], -lib[1]
    return (at[0] + x1 * x + y1 * y, at[1] + x2 * x + y2 * y)
