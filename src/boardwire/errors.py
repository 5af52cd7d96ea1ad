"""Errors with stable codes.

Every error boardwire raises on purpose is a `BoardwireError` carrying a stable ``code``
(kebab-case, never renamed once published), a message, and a hint that says what to do
next. Protocol doors map the code to their own wire form; nothing else inspects message
text.
"""

from __future__ import annotations


class BoardwireError(Exception):
    """Base of all deliberate errors. ``code`` is stable; ``hint`` says what to do next."""

    code = "internal"
    hint = ""

    def __init__(self, message: str, *, hint: str | None = None, **data):
        super().__init__(message)
        self.message = message
        if hint is not None:
            self.hint = hint
        self.data = data

    def to_dict(self) -> dict:
        out = {"code": self.code, "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        if self.data:
            out["data"] = self.data
        return out


class ParseError(BoardwireError):
    """A file KiCad could not read either: comment, unbalanced parenthesis, truncation.

    ``line`` and ``col`` are 1-based; ``col`` counts characters.
    """

    code = "parse-error"
    hint = "The file is not a well-formed KiCad file; fix it at the line and column given."

    def __init__(self, message: str, *, path: str | None = None, line: int = 0, col: int = 0):
        where = f"{path or '<data>'}:{line}:{col}"
        super().__init__(f"{where}: {message}", path=path, line=line, col=col)
        self.line = line
        self.col = col
        self.path = path


class UnsupportedFormat(BoardwireError):
    code = "unsupported-format"
    hint = "boardwire reads KiCad 4 to 9 S-expression files and .kicad_pro JSON."


class FileChangedOnDisk(BoardwireError):
    code = "file-changed"
    hint = "Reload the document, or save with force=True to overwrite the other change."
