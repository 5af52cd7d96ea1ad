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


class IOFailure(BoardwireError):
    code = "io-error"
    hint = "The file system refused the operation; the message says which file and why."


class ReadOnlyFile(BoardwireError):
    code = "read-only"
    hint = "Make the file (and its folder) writable, or save to another path."


# -- the registry's stable codes (C3). Each says what to do next. ------------------------

class UnknownCommand(BoardwireError):
    code = "unknown-command"
    hint = "See docs/commands.md (or call session.describe) for the command ids."


class InvalidArgs(BoardwireError):
    code = "invalid-args"
    hint = "Fix the arguments listed in data.errors; the command's schema gives types and units."


class NoDocument(BoardwireError):
    code = "no-document"
    hint = "Open the document first (session.open) or pass the path of an existing KiCad file."


class WrongKind(BoardwireError):
    code = "wrong-kind"
    hint = "This command works on another kind of document (board vs schematic); check the path."


class NotFound(BoardwireError):
    code = "not-found"
    hint = "Query the document (query.items, query.describe) for the references and ids it has."


class StaleRevision(BoardwireError):
    code = "stale-revision"
    hint = "The document changed since you read it: query it again and re-plan against its revision."


class CheckFailed(BoardwireError):
    code = "check-failed"
    hint = "The check could not run to completion; the message says what KiCad reported."


class DrcErrors(BoardwireError):
    """KiCad's DRC found errors where a clean board is needed (fab.package); ``data``
    has the counts and the first violations."""

    code = "drc-errors"
    hint = "Fix the errors (check.drc lists them all), or pass force: true to produce the files anyway."


class ServiceUnavailable(BoardwireError):
    code = "service-unavailable"
    hint = "Install KiCad 9 (kicad-cli) or put it on PATH; `boardwire doctor` shows what is found."


class PathOutsideWorkspace(BoardwireError):
    code = "path-outside-workspace"
    hint = "Use a path relative to the working directory that stays inside it."


class PolicyDenied(BoardwireError):
    code = "policy-denied"
    hint = "The server's policy does not allow this call; ask the person who runs boardwire."


class Cancelled(BoardwireError):
    code = "cancelled"
    hint = "The call was cancelled before it finished; nothing it started was kept."


class Internal(BoardwireError):
    code = "internal"
    hint = "This is a bug in boardwire; the document was left as it was before the call."


ALL_CODES = {cls.code: cls for cls in (
    UnknownCommand, InvalidArgs, NoDocument, WrongKind, NotFound, StaleRevision, CheckFailed,
    DrcErrors, ServiceUnavailable, PathOutsideWorkspace, PolicyDenied, Cancelled, Internal, ParseError,
    UnsupportedFormat, FileChangedOnDisk, ReadOnlyFile, IOFailure)}


# Process exit status of `boardwire call` for each code: fixed numbers, never reused
# (0 success, 1 Python's own failures, 2 bad command-line usage, 3 checks that found
# errors).
EXIT_CODES = {
    "unknown-command": 10, "invalid-args": 11, "no-document": 12, "wrong-kind": 13,
    "not-found": 14, "stale-revision": 15, "check-failed": 16, "service-unavailable": 17,
    "path-outside-workspace": 18, "policy-denied": 19, "cancelled": 20, "internal": 21,
    "parse-error": 22, "unsupported-format": 23, "file-changed": 24, "read-only": 25,
    "unsaved-changes": 26, "nothing-to-undo": 27, "io-error": 28,
    "drc-errors": 29,
}
EXIT_CHECK_ERRORS = 3
