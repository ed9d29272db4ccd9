"""Strings that carry their own length in bytes before them, in every format the sweep knows.

A rename of another length inside such a string must carry the length with it, or the reader
rejects the record (break-it round 21, finding 28; outside pass t28, finding 18). The class is a
length prefix glued to a string, found by the shape each format gives it:

* PHP's serialize(): `s:17:"web01.lab.example";` (the text closed by `";`, or `"}` at an array's
  end);
* Redis's RESP (an append-only file, a `redis-cli --pipe` dump): `$17\\r\\nweb01.lab.example\\r\\n`;
* netstrings (qmail, daemontools-style configuration, SCGI): `17:web01.lab.example,` at a line's
  start or after another netstring's `,` or `:` (a netstring of netstrings). No leading zero.

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


def spans(data: bytes) -> list[Span]:
    """Every length-prefixed string of `data` whose length lands on its format's closing bytes."""
    out: list[Span] = []
    for (prefix, closings), hint in zip(_FORMATS, _HINTS, strict=True):
        if hint not in data:
            continue
        for found in prefix.finditer(data):
            length, begin = int(found.group("n")), found.end()
            if any(data.startswith(closing, begin + length) for closing in closings):
                out.append((found.start("n"), found.end("n"), begin, begin + length, length))
    return out
