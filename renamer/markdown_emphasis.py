"""Markdown emphasis that closes right after a name (outside round 25, finding 10).

`Postgres runs as a **primary on hermes** with a **streaming replica on zeus**`: the `**` after
`hermes` closes the bold run opened three words before; it is no glob `hermes**`. The same with
italic (`*on zeus*`) and underscores (`__on hermes__`, `_on zeus_`). A run closes emphasis where
an opening run of the same characters and length stands earlier on the line (at the line's start
or after a blank or an opening bracket or quote, with no blank after it) and is not closed before
the name, and the closing run is followed by no name character (a blank, punctuation, the end).
A glob (`ls web01*`, `hermes**/`, `**/hermes**`) opens nothing before it on its line.

Pure: bytes and offsets in, a yes or a no out.
"""

from __future__ import annotations

import re

_NAME = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def closes(data: bytes, start: int, end: int, count: int, char: bytes = b"*") -> bool:
    """Does the run of `count` `char` at data[end:] close Markdown emphasis opened before the name
    at data[start:end], on the same line?"""
    if count < 1 or count > 3 or data[end:end + count] != char * count \
            or data[end + count:end + count + 1] == char:
        return False
    after = data[end + count:end + count + 1]
    if after and (after[0] in _NAME or after in (b"/", b"_", b"*", b"\\", b"{", b"[", b"(")):
        return False  # `hermes**/`, `web0*x`: a glob's wildcard inside a token
    line = data.rfind(b"\n", 0, start) + 1
    run = re.escape(char) + b"{" + str(count).encode() + b"}"
    edge = rb"(?<![" + re.escape(char) + rb"])" + run + rb"(?![" + re.escape(char) + rb"])"
    depth = 0
    for found in re.finditer(edge, data[line:start]):
        at = line + found.start()
        before = data[at - 1:at] if at > line else b""
        following = data[found.end() + line:found.end() + line + 1]
        opens = (not before or before in b" \t([\"'>") and following not in (b"", b" ", b"\t")
        closes_here = before not in (b"", b" ", b"\t")
        if opens and not (closes_here and depth):
            depth += 1
        elif closes_here and depth:
            depth -= 1
    return depth > 0


# a run of underscores closing right after a name character, followed by no name character
_UNDERSCORE_CLOSE = re.compile(rb"(?<=[A-Za-z0-9.-])_{1,3}(?![A-Za-z0-9_])")


def underscore_closers(data: bytes) -> list[tuple[int, int]]:
    """(where the run starts, its length) of each `_`/`__`/`___` run right after a name
    character that may close emphasis (`__on hermes__`): the caller asks `closes` with the name."""
    if b"_" not in data:
        return []
    return [(m.start(), m.end() - m.start()) for m in _UNDERSCORE_CLOSE.finditer(data)]
