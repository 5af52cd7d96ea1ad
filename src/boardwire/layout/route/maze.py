"""The compiled inner loops (``_maze.c``): A* over the layered grid, capsule
stamping and the segment-to-segment distance of the exact checks. `pip install -e .`
builds them (setup.py declares the extension)."""

from __future__ import annotations

from ...errors import ServiceUnavailable

try:
    from ._maze import search, seg_dist, stamp  # noqa: F401
except ImportError as e:  # pragma: no cover - only without a build
    _missing = e

    def _unbuilt(*_args, **_kw):
        raise ServiceUnavailable(
            f"the router's compiled part is not built ({_missing})",
            hint="Run `pip install -e .` in the boardwire checkout (it needs gcc and Python's "
                 "headers) to build boardwire.layout.route._maze.")

    search = stamp = seg_dist = _unbuilt
