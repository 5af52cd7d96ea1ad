"""The copper geometry of a board: shapes, design rules, and a spatial index kept in
step with edits. Reads boards through the documents layer only."""

from .model import BoardGeometry, cached_geometry, geometry_of
from .rules import Rules, build_rules

__all__ = ["BoardGeometry", "Rules", "build_rules", "cached_geometry", "geometry_of"]
