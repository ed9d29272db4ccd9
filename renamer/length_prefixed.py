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

A string is one only where its declared length lands on its format's closing bytes. Bencode's
`17:...` has no closing byte and stands inside `d...e`: no netstring. Pure: bytes in, spans out;
sweep/file_rules.with_lengths adds the length edits.
"""

from __future__ import annotations

import re

# (prefix regex with the digits as `n`, the closings the text must land on)
_FORMATS: tuple[tuple[re.Pattern[bytes], tuple[bytes, ...]], ...] = (
    (re.compile(rb's:(?P<n>[0-9]{1,9}):"'), (b'";', b'"}')),
    (re.compile(rb"\$(?P<n>0|[1-9][0-9]{0,8})\r\n"), (b"\r\n",)),
    (re.compile(rb"(?m)(?:^|(?<=[,:]))(?P<n>0|[1-9][0-9]{0,8}):"), (b",",)),
)
_HINTS = (b':"', b"$", b":")

Span = tuple[int, int, int, int, int]  # digits start, digits end, text start, text end, length


_CONTENT_LENGTH = re.compile(rb"(?im)^content-length:[ \t]*(?P<n>0|[1-9][0-9]{0,8})[ \t]*\r?$")
# a header line, a request or status line (HTTP, SIP, RTSP, WARC's version line), a MIME boundary
_HEADER_LINE = re.compile(rb"[!#-'*+.0-9A-Z^_`a-z|~-]+:|[A-Z]+ [^ \r\n]+ [A-Z]+/[0-9.]+\r?$"
                          rb"|[A-Z]+/[0-9.]+(?: [0-9]{3}\b|\r?$)|--[^ \t\r\n]+\r?$")
# where a measured body may end: a blank line (WARC), a NUL (STOMP), a MIME boundary, the next
# message (an LSP stream, a second request)
_BODY_ENDS = (b"\r\n\r\n", b"\n\n", b"\0", b"\r\n--", b"\n--")
_NEXT_MESSAGE = re.compile(rb"\r?\n?(?:[A-Z]+ [^ \r\n]+ [A-Z]+/[0-9.]+|[A-Z]+/[0-9.]+ [0-9]{3}"
                           rb"|(?i:content-length):)")


def _header_spans(data: bytes) -> list[Span]:
    """Each `Content-Length:` header whose number measures the body after its header block."""
    out: list[Span] = []
    for found in _CONTENT_LENGTH.finditer(data):
        lf, crlf = data.rfind(b"\n\n", 0, found.start()), data.rfind(b"\n\r\n", 0, found.start())
        block = max(lf + 2 if lf != -1 else 0, crlf + 3 if crlf != -1 else 0)  # after the last blank line
        lines = data[block:found.start()].split(b"\n")[:-1]
        if not all(_HEADER_LINE.match(line) for line in lines):
            continue  # prose that says Content-Length, not a header block
        at = found.end() + 1
        while True:  # the header lines after it, to the block's blank line
            end = data.find(b"\n", at)
            if end == -1:
                break
            line = data[at:end]
            if line in (b"", b"\r"):
                break
            if not _HEADER_LINE.match(line) and line[:1] not in (b" ", b"\t"):
                end = -1
                break
            at = end + 1
        if end == -1:
            continue
        begin, length = end + 1, int(found.group("n"))
        stop = begin + length
        if stop > len(data):
            continue
        rest = data[stop:]
        if rest in (b"", b"\n", b"\r\n") or rest.startswith(_BODY_ENDS) or _NEXT_MESSAGE.match(rest):
            out.append((found.start("n"), found.end("n"), begin, stop, length))
    return out


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
