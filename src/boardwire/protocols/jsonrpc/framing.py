"""Message framing: the LSP base protocol, or newline-delimited JSON.

* LSP base protocol (Language Server Protocol specification, "Base Protocol"): a
  header part of ``Name: value`` lines ended by ``\\r\\n``, an empty line, then a
  content part of exactly ``Content-Length`` bytes of UTF-8 JSON. ``Content-Type`` is
  accepted and ignored.
* Newline-delimited JSON: one message per line. A client whose first byte (after any
  whitespace) is ``{`` or ``[`` speaks it for the whole connection, so
  ``echo '{...}' | boardwire serve`` works; replies use the client's framing.
* Messages: a transport that carries whole messages (a WebSocket, RFC 6455) passes
  ``mode="message"``; each chunk fed is one frame.

`FrameReader` knows nothing of sockets or pipes: bytes go in as they arrive (a frame
split across reads is reassembled), whole frames and framing errors come out. A frame
over ``max_frame`` bytes is dropped as it streams past and reported once, so a client
that sends too much gets an error instead of a dead connection.
"""

from __future__ import annotations

import re

from dataclasses import dataclass

from ...errors import BadFrame, DoorError, FrameTooLarge, PayloadTooLarge

MAX_FRAME = 64 * 1024 * 1024
MAX_HEADER = 8192  # LSP headers are two short lines; more is not a header
WHITESPACE = b" \t\r\n"


@dataclass
class FrameError:
    """A framing failure to answer with an error (id null). ``fatal``: the stream
    cannot be resynchronised and the connection ends after the reply."""

    error: DoorError  # FrameTooLarge, BadFrame or PayloadTooLarge (its data: the limit and the size)
    fatal: bool = False
    id: object = None  # the request's id when it could be read (payload-too-large)

    @property
    def code(self) -> str:
        return self.error.code

    @property
    def message(self) -> str:
        return self.error.message


_HEADER_LINE = re.compile(rb"^[A-Za-z][A-Za-z0-9-]*:")  # an LSP header field, e.g. Content-Length:


class FrameReader:
    def __init__(self, max_frame: int = MAX_FRAME, mode: str | None = None):
        self.max_frame = max_frame
        self.mode: str | None = mode  # "lsp" | "ndjson", fixed by the first byte; or "message"
        self._buf = bytearray()
        self._scan = 0  # NDJSON: bytes of _buf already searched for a newline
        self._need: int | None = None  # LSP: length of the body being read
        self._skip = 0  # LSP: bytes of an oversize body still to drop
        self._discard = False  # NDJSON: dropping an oversize line up to its newline
        self._dead = False

    def feed(self, data: bytes) -> list[bytes | FrameError]:
        if self._dead:
            return []
        if self.mode is None:
            data = data.lstrip(WHITESPACE)
            if not data:
                return []
            self.mode = "ndjson" if data[:1] in (b"{", b"[") else "lsp"
        if self.mode == "message":
            if len(data) > self.max_frame:
                return [FrameError(PayloadTooLarge(f"a message of {len(data)} bytes exceeds the "
                                                   f"server's limit of {self.max_frame} bytes",
                                                   size=len(data), maxPayloadSize=self.max_frame),
                                   id=sniff_id(data))]
            return [data]
        if self.mode == "ndjson":
            return self._feed_lines(data)
        return self._feed_lsp(data)

    def eof(self) -> list[bytes | FrameError]:
        """The peer closed: a last NDJSON line without its newline still counts; half
        an LSP frame is an error."""
        if self._dead:
            return []
        self._dead = True
        rest = bytes(self._buf).strip(WHITESPACE)
        self._buf.clear()
        if self.mode == "ndjson" and rest and not self._discard:
            return [rest]
        if self.mode == "lsp" and (rest or self._need is not None):
            return [FrameError(BadFrame("the stream ended in the middle of a frame"))]
        return []

    # -- newline-delimited JSON ------------------------------------------------------

    def _feed_lines(self, data: bytes) -> list[bytes | FrameError]:
        out: list[bytes | FrameError] = []
        if self._discard:
            nl = data.find(b"\n")
            if nl < 0:
                return out
            self._discard = False
            data = data[nl + 1:]
        self._buf += data
        while True:
            nl = self._buf.find(b"\n", self._scan)
            if nl < 0:
                self._scan = len(self._buf)
                if len(self._buf) > self.max_frame:
                    out.append(self._too_large(len(self._buf), "a line of more than"))
                    self._buf.clear()
                    self._scan = 0
                    self._discard = True
                return out
            line = bytes(self._buf[:nl]).strip(WHITESPACE)
            del self._buf[:nl + 1]
            self._scan = 0
            if len(line) > self.max_frame:
                out.append(self._too_large(len(line)))
            elif line:
                out.append(line)

    # -- LSP base protocol -----------------------------------------------------------

    def _feed_lsp(self, data: bytes) -> list[bytes | FrameError]:
        out: list[bytes | FrameError] = []
        if self._skip:
            dropped = min(self._skip, len(data))
            self._skip -= dropped
            data = data[dropped:]
        self._buf += data
        while not self._dead:
            if self._need is None:
                start = 0  # blank lines between frames are tolerated
                while start < len(self._buf) and self._buf[start] in WHITESPACE:
                    start += 1
                del self._buf[:start]
                end = self._buf.find(b"\r\n\r\n")
                nl = self._buf.find(b"\n")
                first = bytes(self._buf[:nl if nl >= 0 else len(self._buf)])
                if (nl >= 0 or len(self._buf) > MAX_HEADER) and not _HEADER_LINE.match(first):
                    # a first line that is no header: say so now rather than wait for one
                    self._dead = True
                    out.append(FrameError(BadFrame(f"not JSON (a message starts with {{ or [) and not an "
                                                   f"LSP header (Content-Length: N): {first[:40]!r}"), fatal=True))
                    return out
                if end < 0:
                    if len(self._buf) > MAX_HEADER:
                        self._dead = True
                        out.append(FrameError(BadFrame("no LSP header (Content-Length: N) "
                                                       "and not newline-delimited JSON"), fatal=True))
                    return out
                header = bytes(self._buf[:end])
                del self._buf[:end + 4]
                length = _content_length(header)
                if isinstance(length, FrameError):
                    out.append(length)
                    continue
                if length > self.max_frame:
                    out.append(self._too_large(length))
                    dropped = min(length, len(self._buf))
                    del self._buf[:dropped]
                    self._skip = length - dropped
                    if self._skip:
                        return out
                    continue
                self._need = length
            if len(self._buf) < self._need:
                return out
            out.append(bytes(self._buf[:self._need]))
            del self._buf[:self._need]
            self._need = None
        return out

    def _too_large(self, size: int, what: str = "a frame of") -> FrameError:
        return FrameError(FrameTooLarge(f"{what} {size} bytes exceeds the server's limit of {self.max_frame} bytes"))


_ID = re.compile(rb'^\s*\{.{0,4096}?"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")\s*[,}]', re.S)


def sniff_id(message: bytes):
    """The ``id`` of a JSON-RPC request too large to parse, read from its first bytes
    (a number or a string), so the error answers that call; None when not found."""
    import json

    m = _ID.match(message[:8192])
    if m is None:
        return None
    try:
        return json.loads(m.group(1))
    except ValueError:
        return None


def _content_length(header: bytes) -> int | FrameError:
    length = None
    for line in header.split(b"\r\n"):
        name, sep, value = line.partition(b":")
        if not sep:
            return FrameError(BadFrame(f"malformed LSP header line {line[:80]!r}"))
        if name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                length = -1
            if length < 0:
                return FrameError(BadFrame(f"bad Content-Length {value.strip()[:40]!r}"))
    if length is None:
        return FrameError(BadFrame("LSP header without Content-Length"))
    return length


def encode(message: bytes, mode: str | None) -> bytes:
    """One JSON message in the client's framing (LSP unless it spoke NDJSON)."""
    if mode == "message":
        return message
    if mode == "ndjson":
        return message + b"\n"
    return b"Content-Length: %d\r\n\r\n" % len(message) + message
