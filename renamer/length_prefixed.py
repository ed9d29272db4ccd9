"""Strings that carry their own length in bytes before them, in every format the sweep knows.

A rename of another length inside such a string must carry the length with it, or the reader
rejects the record (break-it round 21, finding 28; outside pass t28, finding 18). The class is a
length prefix glued to a string, found by the shape each format gives it:

* PHP's serialize(): `s:17:"web01.lab.example";` (the text closed by `";`, or `"}` at an array's
  end);
* Redis's RESP (an append-only file, a `redis-cli --pipe` dump): `$17\\r\\nweb01.lab.example\\r\\n`;
* netstrings (qmail, daemontools-style configuration, SCGI): `17:web01.lab.example,` at a line's
  start or after another netstring's `,` or `:` (a netstring of netstrings). No leading zero.

* a length stated in a header of the message it measures (issue 27, round 23 finding 06): an HTTP
  request or response kept as a file (`Content-Length: 29` over a JSON body, `curl --data-binary
  @req.http`, `nc`), a MIME part, a WARC record, an LSP/DAP message, a STOMP frame: a
  `Content-Length:` header (any case) in a block of header lines, measuring the body after the
  block's blank line, which must end where the message does (the file's end, a final newline an
  editor added, a blank line, a NUL, a MIME boundary, or the next message).

* a body in chunked transfer encoding (issue 27, g31): after a header block saying
  `Transfer-Encoding: chunked`, each chunk's size line (hex, `1d` or `001D`, a `;ext` kept) measures
  the data after it, which ends with a line break; the last chunk is `0`. `hex_spans` gives those
  sizes; `unread_chunked` the bodies declared chunked whose chunks do not land (the sweep refuses
  an edit there: it cannot say which size line to fix).

A string is one only where its declared length lands on its format's closing bytes. Bencode's
`17:...` has no closing byte and stands inside `d...e`: no netstring. Pure: bytes in, spans out;
sweep/file_rules.with_lengths adds the length edits.
"""

from __future__ import annotations

import re

from renamer import lazy_re

# (prefix regex with the digits as `n`, the closings the text must land on)
_FORMATS: tuple[tuple[re.Pattern[bytes], tuple[bytes, ...]], ...] = (
    (re.compile(rb's:(?P<n>[0-9]{1,9}):"'), (b'";', b'"}')),
    (re.compile(rb"\$(?P<n>0|[1-9][0-9]{0,8})\r\n"), (b"\r\n",)),
    (re.compile(rb"(?m)(?:^|(?<=[,:]))(?P<n>0|[1-9][0-9]{0,8}):"), (b",",)),
)
_HINTS = (b':"', b"$", b":")

Span = tuple[int, int, int, int, int]  # digits start, digits end, text start, text end, length


_CONTENT_LENGTH = lazy_re.compile(rb"(?im)^content-length:[ \t]*(?P<n>0|[1-9][0-9]{0,8})[ \t]*\r?$")
# a header line, a request or status line (HTTP, SIP, RTSP, WARC's version line), a MIME boundary
_HEADER_LINE = lazy_re.compile(rb"[!#-'*+.0-9A-Z^_`a-z|~-]+:|[A-Z]+ [^ \r\n]+ [A-Z]+/[0-9.]+\r?$"
                          rb"|[A-Z]+/[0-9.]+(?: [0-9]{3}\b|\r?$)|--[^ \t\r\n]+\r?$")
# where a measured body may end: a blank line (WARC), a NUL (STOMP), a MIME boundary, the next
# message (an LSP stream, a second request)
_BODY_ENDS = (b"\r\n\r\n", b"\n\n", b"\0", b"\r\n--", b"\n--")
_NEXT_MESSAGE = lazy_re.compile(rb"\r?\n?(?:[A-Z]+ [^ \r\n]+ [A-Z]+/[0-9.]+|[A-Z]+/[0-9.]+ [0-9]{3}"
                           rb"|(?i:content-length):)")


def _body_start(data: bytes, found: re.Match[bytes]) -> int | None:
    """Where the body begins after the header line `found` (a line of a block of header lines, to
    its blank line), or None where `found` stands in no header block (prose that names it)."""
    lf, crlf = data.rfind(b"\n\n", 0, found.start()), data.rfind(b"\n\r\n", 0, found.start())
    block = max(lf + 2 if lf != -1 else 0, crlf + 3 if crlf != -1 else 0)  # after the last blank line
    lines = data[block:found.start()].split(b"\n")[:-1]
    if not all(_HEADER_LINE.match(line) for line in lines):
        return None  # prose that says Content-Length, not a header block
    at = found.end() + 1
    while True:  # the header lines after it, to the block's blank line
        end = data.find(b"\n", at)
        if end == -1:
            return None
        line = data[at:end]
        if line in (b"", b"\r"):
            return end + 1
        if not _HEADER_LINE.match(line) and line[:1] not in (b" ", b"\t"):
            return None
        at = end + 1


def _header_spans(data: bytes) -> list[Span]:
    """Each `Content-Length:` header whose number measures the body after its header block."""
    out: list[Span] = []
    for found in _CONTENT_LENGTH.finditer(data):
        begin = _body_start(data, found)
        if begin is None:
            continue
        length = int(found.group("n"))
        stop = begin + length
        if stop > len(data):
            continue
        rest = data[stop:]
        if rest in (b"", b"\n", b"\r\n") or rest.startswith(_BODY_ENDS) or _NEXT_MESSAGE.match(rest):
            out.append((found.start("n"), found.end("n"), begin, stop, length))
    return out


_CHUNKED = lazy_re.compile(rb"(?im)^transfer-encoding:[ \t]*(?:[^\r\n]*,[ \t]*)?chunked[ \t]*\r?$")
_CHUNK_SIZE = lazy_re.compile(rb"(?P<n>[0-9A-Fa-f]{1,8})(?:[ \t]*;[^\r\n]*)?(?P<eol>\r?\n)")


def _chunks(data: bytes, begin: int) -> list[Span] | None:
    """The chunks of a chunked body starting at `begin` (size digits, data, size), to the last
    chunk `0`; None where one does not land (a size over the file, data not followed by its line
    break, no last chunk)."""
    out: list[Span] = []
    at = begin
    while True:
        found = _CHUNK_SIZE.match(data, at)
        if found is None:
            return None
        size = int(found.group("n"), 16)
        if size == 0:
            return out
        start, stop = found.end(), found.end() + size
        eol = found.group("eol")
        if not data.startswith(eol, stop):
            return None
        out.append((found.start("n"), found.end("n"), start, stop, size))
        at = stop + len(eol)


def _chunked_bodies(data: bytes) -> list[tuple[int, list[Span] | None]]:
    """Each body a header block declares chunked: where it begins, and its chunks (None: unread)."""
    if b"hunked" not in data and b"HUNKED" not in data:
        return []
    out = []
    for found in _CHUNKED.finditer(data):
        begin = _body_start(data, found)
        if begin is not None:
            out.append((begin, _chunks(data, begin)))
    return out


def hex_spans(data: bytes) -> list[Span]:
    """Each chunk of a chunked body (its size line's hex digits, the data it measures)."""
    return [span for _, chunks in _chunked_bodies(data) for span in chunks or ()]


def chunked_bodies(data: bytes) -> list[list[Span]]:
    """The chunks of each chunked body that lands (for a reader of the joined data)."""
    return [chunks for _, chunks in _chunked_bodies(data) if chunks]


def unread_chunked(data: bytes) -> list[int]:
    """Where each body declared chunked begins whose chunks do not land on their line breaks."""
    return [begin for begin, chunks in _chunked_bodies(data) if chunks is None]


def spans(data: bytes) -> list[Span]:
    """Every length-prefixed string of `data` whose length lands on its format's closing bytes."""
    out: list[Span] = _header_spans(data) if b"ontent-" in data or b"ONTENT-" in data else []
    for (prefix, closings), hint in zip(_FORMATS, _HINTS, strict=True):
        if hint not in data:
            continue
        for found in prefix.finditer(data):
            length, begin = int(found.group("n")), found.end()
            if any(data.startswith(closing, begin + length) for closing in closings):
                out.append((found.start("n"), found.end("n"), begin, begin + length, length))
    return out
