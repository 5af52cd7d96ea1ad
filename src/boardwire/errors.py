"""Errors with stable codes, each defined once, each knowing its wire forms.

Every error boardwire raises on purpose is a `BoardwireError` subclass defined here,
carrying what every door needs:

* ``code``: the stable code (kebab-case, never renamed once published);
* ``hint``: what to do next (an instance may say more);
* ``exit_status``: the exit status of ``boardwire call`` and ``boardwire run``
  (fixed numbers, never reused: 0 success, `EXIT_BUG` (1) Python's own failures,
  `EXIT_USAGE` (2) bad command-line usage, `EXIT_CHECK_ERRORS` a check that found
  errors, 10 and up the codes, `EXIT_INTERRUPTED` (130, 128 + SIGINT) Ctrl-C);
* ``rpc_code``: the JSON-RPC 2.0 error number (section 5.1, "Error object": -32700
  parse error, -32600 invalid request, -32601 method not found, -32602 invalid params,
  -32603 internal error; the LSP base protocol's -32800 request cancelled; from -32001
  on, in the range the spec reserves for implementation-defined server errors, the
  others; never reused);
* ``not_found``: it names something that does not exist;
* ``http_status``: the HTTP status where the live view (`boardwire.web`) or the MCP
  HTTP door answers with one (RFC 9110 section 15: 400 by default, 404 for the
  ``not_found`` ones, 403 policy denied, 401 for a request without a valid key);
* ``close_code``: the WebSocket close code (RFC 6455 section 7.4: 7.4.1 defines 1000
  to 1015, 7.4.2 leaves 4000-4999 to applications) where the error closes a
  connection; None where it never does.

The wire forms, built here and only here (the doors call them):

* `BoardwireError.to_dict`: ``{code, message, hint?, data?, needs_human?}``, what the
  CLI (``--json``), ``boardwire run --json``, job status and the live view show;
* `BoardwireError.rpc_error`: the JSON-RPC 2.0 error object (section 5.1):
  ``{code: rpc_code, message, data: {code, hint, ...data}}``;
* `BoardwireError.tool_result`: the MCP tool result (spec 2025-11-25, "Tools / Error
  handling": a tool's failure is a result with ``isError``, not a protocol error) as a
  plain dict ``{content: [{type: "text", text}], structuredContent: {error:
  to_dict()}, isError: true}``; the MCP layer wraps it in the SDK's CallToolResult;
* `BoardwireError.resource_error`: a failed MCP resource read as a JSON-RPC error
  (spec 2025-11-25, "Resources / Error handling": -32002 "Resource not found" for a
  ``not_found`` error, -32603 otherwise), the stable code and hint in ``data``;
* `BridgeRefused.refusal`: the bridge's ``{"type": "refused", ...}`` message, sent
  before closing with its ``close_code`` and the stable code as the close reason.

Two families of codes. The registry's (`ALL_CODES`): what any command call can fail
with, each with its exit status and JSON-RPC number (docs/commands.md and
docs/jsonrpc.md show them). The doors' own (`DOOR_CODES`, `DoorError`): a message,
frame, connection or script refused around a call, never raised by a command: the
JSON-RPC framing errors, the bridge's handshake refusals, a script's end. `ALL_CODES`,
`EXIT_CODES`, `DOOR_CODES`, the JSON-RPC table (`boardwire.protocols.jsonrpc.codes`),
the bridge's close codes and the docs' error tables are all read from the classes.
Nothing else inspects message text, and no other module writes a code or a number
(tests/test_error_codes.py holds that).
"""

from __future__ import annotations

# JSON-RPC 2.0 (section 5.1) and LSP error numbers
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
REQUEST_CANCELLED = -32800
SERVER_ERROR = -32000  # the number of a code without one of its own
# MCP spec 2025-11-25, "Resources / Error handling": a resource that does not exist.
RESOURCE_NOT_FOUND = -32002

EXIT_BUG = 1  # an uncaught Python exception (the traceback goes to stderr)
EXIT_USAGE = 2  # the command line itself is wrong (click's usage errors)
EXIT_CHECK_ERRORS = 3
EXIT_INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as shells report it

ALL_CODES: dict[str, type[BoardwireError]] = {}
DOOR_CODES: dict[str, type[DoorError]] = {}


class BoardwireError(Exception):
    """Base of all deliberate errors (see the module). A bare instance is ``internal``."""

    code = "internal"
    hint = ""
    exit_status = 21
    rpc_code = INTERNAL_ERROR
    not_found = False
    http_status = 400
    close_code: int | None = None

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        if "code" in cls.__dict__:  # a new error: here, once
            if cls.__module__ != __name__:
                raise TypeError(f"{cls.__name__}: define errors with a code of their own in {__name__}")
            if cls.code in ALL_CODES or cls.code in DOOR_CODES:
                raise TypeError(f"error code {cls.code} defined twice")
            door = globals().get("DoorError")  # None while the registry's errors are defined
            (DOOR_CODES if door is not None and issubclass(cls, door) else ALL_CODES)[cls.code] = cls

    def __init__(self, message: str, *, hint: str | None = None, **data):
        super().__init__(message)
        self.message = message
        if hint is not None:
            self.hint = hint
        self.data = data

    def to_dict(self) -> dict:
        """``{code, message, hint?, data?, needs_human?}``: ``needs_human`` (from
        ``data``, see `needs_human`) lifted to the top so every door shows it."""
        out = {"code": self.code, "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        if self.data:
            out["data"] = self.data
            if isinstance(self.data.get("needs_human"), dict):
                out["needs_human"] = self.data["needs_human"]
        return out

    def rpc_error(self) -> dict:
        """The JSON-RPC 2.0 error object (section 5.1): ``{code: rpc_code, message,
        data: {code, hint?, ...data}}``."""
        data: dict = {"code": self.code}
        if self.hint:
            data["hint"] = self.hint
        data.update({k: v for k, v in self.data.items() if k not in ("code", "hint")})
        return {"code": self.rpc_code, "message": self.message, "data": data}

    def tool_result(self) -> dict:
        """The MCP tool result of this failure (spec 2025-11-25, "Tools / Error
        handling") as a plain dict: ``isError``, one text content (code, message, hint
        and what a person must do, for clients that read only text) and
        ``structuredContent`` ``{"error": to_dict()}``."""
        body = {"error": self.to_dict()}
        human = body["error"].get("needs_human")
        text = (f"{self.code}: {self.message}" + (f" ({self.hint})" if self.hint else "")
                + (f" NEEDS A PERSON: {human['message']}" if human else ""))
        return {"content": [{"type": "text", "text": text}], "structuredContent": body, "isError": True}

    def resource_error(self, otherwise: int = INTERNAL_ERROR) -> dict:
        """A failed MCP resource read as a JSON-RPC error object (resources have no
        isError): `RESOURCE_NOT_FOUND` (-32002, spec 2025-11-25, "Resources / Error
        handling") for a ``not_found`` error, ``otherwise`` for the others (-32603;
        the MCP layer passes -32602 when the URI's document cannot be opened);
        message ``"code: message"``, `to_dict` as ``data``."""
        return {"code": RESOURCE_NOT_FOUND if self.not_found else otherwise,
                "message": f"{self.code}: {self.message}", "data": self.to_dict()}


def needs_human(action: str, message: str) -> dict:
    """What an error carries (as ``needs_human=`` data) when only a person can resolve
    it: ``action`` a stable word (install_kicad, close_in_kicad, replug,
    download_mode), ``message`` what to do. Agents ask a person only then."""
    return {"action": action, "message": message}


class ParseError(BoardwireError):
    """A file KiCad could not read either: comment, unbalanced parenthesis, truncation.

    ``line`` and ``col`` are 1-based; ``col`` counts characters.
    """

    code = "parse-error"
    exit_status = 22
    rpc_code = -32009  # a KiCad file that does not parse (not the JSON: that is -32700)
    hint = "The file is not a well-formed KiCad file; fix it at the line and column given."

    def __init__(self, message: str, *, path: str | None = None, line: int = 0, col: int = 0):
        where = f"{path or '<data>'}:{line}:{col}"
        super().__init__(f"{where}: {message}", path=path, line=line, col=col)
        self.line = line
        self.col = col
        self.path = path
        self.detail = message  # the message without its place


class UnsupportedFormat(BoardwireError):
    code = "unsupported-format"
    exit_status = 23
    rpc_code = -32010
    hint = "boardwire reads KiCad 4 to 10 S-expression files and .kicad_pro JSON."


class FileChangedOnDisk(BoardwireError):
    code = "file-changed"
    exit_status = 24
    rpc_code = -32011
    hint = "Reload the document, or save with force=True to overwrite the other change."


class IOFailure(BoardwireError):
    code = "io-error"
    exit_status = 28
    rpc_code = -32015
    hint = "The file system refused the operation; the message says which file and why."


class ReadOnlyFile(BoardwireError):
    code = "read-only"
    exit_status = 25
    rpc_code = -32012
    hint = "Make the file (and its folder) writable, or save to another path."


# -- the registry's stable codes (C3). Each says what to do next. ------------------------

class UnknownCommand(BoardwireError):
    code = "unknown-command"
    exit_status = 10
    rpc_code = METHOD_NOT_FOUND
    hint = "See docs/commands.md (or call session.describe) for the command ids."


class InvalidArgs(BoardwireError):
    code = "invalid-args"
    exit_status = 11
    rpc_code = INVALID_PARAMS
    hint = "Fix the arguments listed in data.errors; the command's schema gives types and units."


class NoDocument(BoardwireError):
    code = "no-document"
    exit_status = 12
    rpc_code = -32001
    not_found = True
    http_status = 404
    hint = "Open the document first (session.open) or pass the path of an existing KiCad file."


class WrongKind(BoardwireError):
    code = "wrong-kind"
    exit_status = 13
    rpc_code = -32002
    hint = "This command works on another kind of document (board vs schematic); check the path."


class NotFound(BoardwireError):
    code = "not-found"
    exit_status = 14
    rpc_code = -32003
    not_found = True
    http_status = 404
    hint = "Query the document (query.items, query.describe) for the references and ids it has."


class StaleRevision(BoardwireError):
    code = "stale-revision"
    exit_status = 15
    rpc_code = -32004
    hint = "The document changed since you read it: query it again and re-plan against its revision."


class CheckFailed(BoardwireError):
    code = "check-failed"
    exit_status = 16
    rpc_code = -32005
    hint = "The check could not run to completion; the message says what KiCad reported."


class DrcErrors(BoardwireError):
    """KiCad's DRC found errors where a clean board is needed (fab.package); ``data``
    has the counts and the first violations."""

    code = "drc-errors"
    exit_status = 29
    rpc_code = -32016
    hint = "Fix the errors (check.drc lists them all), or pass force: true to produce the files anyway."


class DesignErrors(BoardwireError):
    """design.build (or design.rebuild) refused a design its check finds errors in;
    ``data.errors`` lists them as design.check does (code, where, message, fix)."""

    code = "design-errors"
    exit_status = 30
    rpc_code = -32017
    hint = "Fix each error in data.errors (design.check lists them, each with its fix), then build again."


class UnsafeArchive(BoardwireError):
    """An archive refused before anything is extracted (lib.add): an entry whose path
    leaves the folder it is extracted into (absolute, ``..``, a drive; "zip slip"), a
    symbolic link, or more entries or bytes than a library holds (``data.entries``:
    the entries refused)."""

    code = "unsafe-archive"
    exit_status = 31
    rpc_code = -32018
    hint = "Use an archive whose entries stay inside it (no absolute paths, no .., no links), or extract it yourself and pass the folder."


class ServiceUnavailable(BoardwireError):
    code = "service-unavailable"
    exit_status = 17
    rpc_code = -32006
    hint = "Install KiCad 9 (kicad-cli) or put it on PATH; `boardwire doctor` shows what is found."


class PathOutsideWorkspace(BoardwireError):
    code = "path-outside-workspace"
    exit_status = 18
    rpc_code = -32007
    hint = "Use a path relative to the working directory that stays inside it."


class PolicyDenied(BoardwireError):
    """A call, request or connection the server's policy refuses: 403 over HTTP, and a
    WebSocket refused before it opens is closed with 1008 (RFC 6455 section 7.4.1,
    "policy violation")."""

    code = "policy-denied"
    exit_status = 19
    rpc_code = -32008
    http_status = 403
    close_code = 1008
    hint = "The server's policy does not allow this call; ask the person who runs boardwire."


class KeyRequired(PolicyDenied):
    """``policy-denied`` for an HTTP request without a valid key (none, unknown or
    revoked): 401, which the door sends with a ``WWW-Authenticate: Bearer`` challenge
    (RFC 9110 section 15.5.2; RFC 6750 section 3)."""

    http_status = 401
    hint = "Send 'Authorization: Bearer KEY' with a key of `boardwire mcp keys add NAME`."


class Cancelled(BoardwireError):
    code = "cancelled"
    exit_status = 20
    rpc_code = REQUEST_CANCELLED
    hint = "The call was cancelled before it finished; nothing it started was kept."


class Internal(BoardwireError):
    code = "internal"
    exit_status = 21
    rpc_code = INTERNAL_ERROR
    hint = "This is a bug in boardwire; the document was left as it was before the call."


# -- the session's --------------------------------------------------------------------

class UnsavedChanges(BoardwireError):
    code = "unsaved-changes"
    exit_status = 26
    rpc_code = -32013
    hint = "Save it (session.save), or close with discard: true to drop the changes."


class NothingToUndo(BoardwireError):
    code = "nothing-to-undo"
    exit_status = 27
    rpc_code = -32014
    hint = "There is no earlier (or, for redo, later) change of this document."


# -- firmware (C7) -------------------------------------------------------------------

class BoardLeased(BoardwireError):
    """Another client holds the board's lease (``data``: board, holder, since)."""

    code = "board-leased"
    exit_status = 40
    rpc_code = -32040
    hint = "Another client is using this board; wait for its call to finish (fw.devices shows the holder) and retry."


class BoardUnreachable(BoardwireError):
    """The board did not answer or is not on the bus; ``data.needs_human`` says what a
    person has to do (``action``: download_mode or replug, ``message``)."""

    code = "board-unreachable"
    exit_status = 41
    rpc_code = -32041
    hint = "Only a person can fix this: do what data.needs_human says, then call again."


class BuildFailed(BoardwireError):
    """The firmware build failed (``data.diagnostics``: the compiler's messages)."""

    code = "build-failed"
    exit_status = 42
    rpc_code = -32042
    hint = "Fix the first error in data.diagnostics (file, line, column) and build again."


class ImageTooLarge(BoardwireError):
    """The built image does not fit its app partition; nothing was flashed."""

    code = "image-too-large"
    exit_status = 43
    rpc_code = -32043
    hint = "Make the image smaller or give the app partition more room (partition table), then build again."


class FlashFailed(BoardwireError):
    """esptool reached the board but the operation failed (``data.esptool``: its last lines)."""

    code = "flash-failed"
    exit_status = 45
    rpc_code = -32045
    hint = "Read data.esptool; retry, or erase (fw.erase, if the policy allows it) and flash again."


class ExpectFailed(BoardwireError):
    """A monitor read or fw.run met a rejected pattern, or its expectations did not all
    match in time (``data``: the events read, which pattern)."""

    code = "expect-failed"
    exit_status = 44
    rpc_code = -32044
    hint = "Read data.events (and fw.monitor.read since boot) to see what the board printed instead."


# -- the live editor (KiCad's PCB editor through its IPC API) -----------------------------

class EditorUnavailable(BoardwireError):
    """KiCad's PCB editor cannot be reached: not running, its API server disabled, no
    board open, or it closed mid-session (the session keeps its last state)."""

    code = "editor-unavailable"
    exit_status = 46
    rpc_code = -32046
    hint = ("Start KiCad's PCB editor with the board open and enable its API server "
            "(Preferences > Plugins > Enable KiCad API), then attach again; the session "
            "keeps every edit made meanwhile.")


class EditorBusy(BoardwireError):
    """The editor answered "busy" on every retry: an interactive tool or a modal
    dialog holds it."""

    code = "editor-busy"
    exit_status = 47
    rpc_code = -32047
    hint = "Finish or cancel the tool running in KiCad's window (Escape), then call again."


class EditorHoldsFile(BoardwireError):
    """KiCad has the file open (its lock file ``~NAME.lck`` is beside it): writing it
    would be overwritten by, or overwrite, the editor's copy."""

    code = "editor-holds-file"
    exit_status = 48
    rpc_code = -32048
    hint = ("Save or close the file in KiCad first (then revert here to read its version), "
            "or save with force=true to overwrite; a lock file left by a KiCad that crashed "
            "can be deleted.")


# -- the doors' own codes: a message, frame, connection or script, never a command -----

class DoorError(BoardwireError):
    """Base of the doors' own failures (see the module): in `DOOR_CODES`, not in
    `ALL_CODES` (no command raises one, so they have no place in the registry's
    tables). ``rpc_code`` None: never a JSON-RPC error; ``exit_status`` None: never
    the status of a process."""

    rpc_code: int | None = None
    exit_status: int | None = None


class InvalidJson(DoorError):
    """A JSON-RPC message that is not JSON (answered with id null)."""

    code = "invalid-json"
    rpc_code = PARSE_ERROR
    hint = "Send one JSON value per frame: UTF-8, no NaN or Infinity."


class BadFrame(DoorError):
    """A stream that is neither LSP base protocol frames nor one JSON value per line."""

    code = "bad-frame"
    rpc_code = PARSE_ERROR
    hint = "Frame messages with 'Content-Length: N\\r\\n\\r\\n' (LSP) or one JSON value per line."


class FrameTooLarge(DoorError):
    """A frame over the server's limit (dropped unread)."""

    code = "frame-too-large"
    rpc_code = INVALID_REQUEST
    hint = "Split the work into smaller calls (session.batch steps, paged queries)."


class PayloadTooLarge(DoorError):
    """A bridge message over the hello's maxPayloadSize (``data``: size,
    maxPayloadSize); the connection stays open."""

    code = "payload-too-large"
    rpc_code = INVALID_REQUEST
    hint = ("Send less per message: the hello's maxPayloadSize is the limit "
            "(split the work into smaller calls); the connection stays open.")


class InvalidRequest(DoorError):
    """JSON that is not a JSON-RPC 2.0 request (section 4)."""

    code = "invalid-request"
    rpc_code = INVALID_REQUEST
    hint = ("A request is an object with \"jsonrpc\": \"2.0\", a string \"method\", "
            "optional \"params\" (an object) and an optional string or number \"id\".")


class MissingCapability(DoorError):
    """A request the server answers only for clients that declare an extension (MCP
    Tasks, ``io.modelcontextprotocol/tasks``) from one that did not: the extension's
    "Missing Required Client Capability" error (its spec, "Error Handling")."""

    code = "missing-capability"
    rpc_code = -32021
    hint = "Declare the extension in the request's client capabilities (docs/mcp-tasks.md)."


class TooManySessions(DoorError):
    """The MCP HTTP server holds as many sessions as it may (``--max-sessions``): a
    request that would open one more is answered 503 (RFC 9110 section 15.6.4) with
    this error; open sessions are unaffected."""

    code = "too-many-sessions"
    rpc_code = SERVER_ERROR
    http_status = 503
    hint = ("Retry later, or close sessions you no longer use (DELETE with their Mcp-Session-Id); "
            "idle sessions are closed after the server's --session-idle.")


class BridgeRefused(DoorError):
    """The bridge refused a connection before its hello (or, `KeyRevoked`, at a
    message after it) (docs/bridge.md): it sends
    `refusal` and closes with ``close_code`` (RFC 6455 section 7.4.2: 4000-4999 are
    the application's) and the stable code as the reason."""

    def refusal(self) -> dict:
        """The bridge's ``{"type": "refused", "code": close code, "reason": stable
        code, "message"}``."""
        return {"type": "refused", "code": self.close_code, "reason": self.code, "message": self.message}


class BadHandshake(BridgeRefused):
    code = "bad-handshake"  # not JSON, not an object, a field missing or of the wrong type
    close_code = 4000
    hint = "Send the handshake of docs/bridge.md as the first message."


class WrongProtocol(BridgeRefused):
    code = "wrong-protocol"
    close_code = 4001
    hint = "This is a boardwire bridge: the handshake's protocol is boardwire.bridge."


class WrongClient(BridgeRefused):
    code = "wrong-client"
    close_code = 4002
    hint = "Name the client with one of the contract's clientName values (docs/bridge.md)."


class UnsupportedVersion(BridgeRefused):
    code = "unsupported-version"
    close_code = 4003
    hint = "Use a protocolVersion the server supports (the refusal's message lists them)."


class PairingRequired(BridgeRefused):
    code = "pairing-required"  # a token is configured and the client cannot pair
    close_code = 4004
    hint = "Answer the server's challenge with {\"type\": \"pair\", \"proof\": ...} (docs/bridge.md)."


class PairingFailed(BridgeRefused):
    code = "pairing-failed"
    close_code = 4005
    hint = "Pair with the token the server printed (boardwire bridge --pair)."


class KeyRevoked(BridgeRefused):
    """The key a live view's bridge connection was opened with (``boardwire mcp
    --http``, ``boardwire view --keys``) no longer opens it: revoked (or replaced)
    since. The key is checked on every message, so the first message after the
    revocation is not served: the connection gets the refusal and this close code."""

    code = "key-revoked"
    close_code = 4006
    hint = "Connect again with a valid key (boardwire mcp keys add NAME)."


class HandshakeTimeout(BridgeRefused):
    code = "handshake-timeout"
    close_code = 4008
    hint = "Send the handshake (and the pairing answer) as soon as the connection opens."


class Interrupted(DoorError):
    """A script (``boardwire run``) or the CLI stopped by Ctrl-C."""

    code = "interrupted"
    exit_status = EXIT_INTERRUPTED
    hint = "The script was stopped (Ctrl-C) before it finished; nothing was saved."

    def __init__(self, message: str = "interrupted", **data):
        super().__init__(message, **data)


class ScriptError(DoorError):
    """A script (``boardwire run``) raised an exception that is not a BoardwireError."""

    code = "script-error"
    exit_status = EXIT_BUG
    hint = "The script raised an exception (its traceback is on stderr); nothing was saved."


class ScriptExit(DoorError):
    """A script (``boardwire run``) called ``sys.exit`` with a non-zero status: the
    exit status is the script's (1 for a message instead of a number)."""

    code = "script-exit"
    exit_status = EXIT_BUG
    hint = "The script exited with a failure status; nothing was saved."

    def __init__(self, status: object):
        super().__init__(f"the script exited with status {status}")
        if isinstance(status, int):
            self.exit_status = status


# Process exit status of `boardwire call` for each code.
EXIT_CODES: dict[str, int] = {code: cls.exit_status for code, cls in ALL_CODES.items()}
