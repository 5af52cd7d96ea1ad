"""``.kicad_pro`` and ``.kicad_prl``: a project's settings (JSON)."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path

from ...errors import ParseError
from ..base import Document

# net class sizes (mm): a width, a diameter or a drill must be above 0
_POSITIVE = ("track_width", "via_diameter", "via_drill")
_SIZES = ("clearance", "track_width", "via_diameter", "via_drill", "microvia_diameter", "microvia_drill",
          "diff_pair_width", "diff_pair_gap", "diff_pair_via_gap")


class Project(Document):
    """A ``.kicad_pro`` (or ``.kicad_prl``) JSON file.

    KiCad writes it with two-space indentation and shortest round-trip numbers, which
    ``json.dumps(indent=2)`` reproduces, so an edit changes only the edited lines."""

    kind = "project"

    def __init__(self, data: bytes, path: str | Path | None = None):
        super().__init__(data, path)
        try:
            self.data = json.loads(data.decode("utf-8")) if data.strip() else {}
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            line, col = (getattr(e, "lineno", 0), getattr(e, "colno", 0))
            raise ParseError(f"not valid JSON: {getattr(e, 'msg', e)}",
                             path=str(path) if path else None, line=line, col=col) from e
        if not isinstance(self.data, dict):
            raise ParseError("a KiCad project file is a JSON object", path=str(path) if path else None)

    def _bad(self, what: str) -> ParseError:
        return ParseError(f"{what} (KiCad's project file format: pcbnew's BOARD_DESIGN_SETTINGS, "
                          f"common/project/net_settings.cpp)", path=str(self.path) if self.path else None)

    def _object(self, *keys: str) -> dict:
        """``data[k1][k2]...``, {} where absent; ParseError where it is not an object."""
        node = self.data
        for i, key in enumerate(keys):
            node = node.get(key, {})
            if not isinstance(node, dict):
                raise self._bad(f"{'.'.join(keys[:i + 1])} is not an object")
        return node

    def _sizes(self, values: dict, where: str, positive: tuple[str, ...]) -> dict:
        """``values`` with its rule sizes checked: numbers (mm), not negative, and more
        than 0 for the keys in ``positive`` (a width or a drill)."""
        for key, v in values.items():
            sized = key in positive or key in _SIZES or key.startswith("min_")
            if not sized or v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v < 0 \
                    or (key in positive and v == 0):
                need = "a number above 0" if key in positive else "a number, 0 or more"
                raise self._bad(f"{where}.{key} is {json.dumps(v)}, not {need} (mm)")
        return values

    def to_bytes(self) -> bytes:
        if self.edits == 0:
            return self.original
        return (json.dumps(self.data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")

    @property
    def net_classes(self) -> list[dict]:
        """``net_settings.classes``: each class with its name and rule values (mm)."""
        classes = self._object("net_settings").get("classes", [])
        if not isinstance(classes, list) or not all(isinstance(c, dict) for c in classes):
            raise self._bad("net_settings.classes is not a list of objects")
        return [self._sizes(c, f"net class {c.get('name')!r}", _POSITIVE) for c in classes]

    def net_class(self, net: str | None) -> dict:
        """The class ``net`` belongs to: that of the first ``net_settings.
        netclass_patterns`` entry whose pattern (``*`` and ``?`` wildcards) matches
        it, else ``Default``; {} when the project has neither."""
        settings = self._object("net_settings")
        classes = {c.get("name"): c for c in self.net_classes}
        patterns = settings.get("netclass_patterns") or []
        if not isinstance(patterns, list) or not all(isinstance(p, dict) for p in patterns):
            raise self._bad("net_settings.netclass_patterns is not a list of objects")
        for p in patterns:
            if net and fnmatch.fnmatchcase(net, str(p.get("pattern", ""))) and p.get("netclass") in classes:
                return classes[p["netclass"]]
        return classes.get("Default", {})

    def checked(self) -> dict:
        """The data, once its net classes, net class patterns and design rules have
        the shapes and sizes KiCad writes (ParseError naming the first that does not:
        a rule engine fed a string or a negative clearance fails far from the cause)."""
        self.net_class(None)
        self.design_rules
        return self.data

    @property
    def design_rules(self) -> dict:
        """``board.design_settings.rules``: the board's minimum constraints (mm)."""
        return self._sizes(dict(self._object("board", "design_settings", "rules")), "board.design_settings.rules", ())

    def summary(self) -> dict:
        meta = self.data.get("meta", {})
        return {"kind": self.kind, "version": meta.get("version"),
                "net_classes": [c.get("name") for c in self.net_classes],
                "sections": sorted(self.data)}
