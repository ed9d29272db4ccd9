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

from renamer import lazy_re

# an opening run: at a line's start or after a blank, bracket or quote, a non-blank after it; a
# closing run: right after a non-blank
_OPENS = {(c, n): re.compile(rb"(?<![^\s(\[\"'>])" + re.escape(c) + b"{" + str(n).encode() + b"}"
                             + rb"(?![" + re.escape(c) + rb"\s])") for c in (b"*", b"_") for n in (1, 2, 3)}
_CLOSES = {(c, n): re.compile(rb"(?<=[^\s" + re.escape(c) + rb"])" + re.escape(c) + b"{" + str(n).encode()
                              + rb"}(?![" + re.escape(c) + rb"])") for c in (b"*", b"_") for n in (1, 2, 3)}
_REACH = 400  # how far back on the line an opener is looked for (a paragraph's sentence)
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
    low = max(0, start - _REACH)  # a hostile line is read in linear time
    newline = data.rfind(b"\n", low, start)
    line = newline + 1 if newline != -1 else low
    if data.find(char * count, line, start) == -1:
        return False  # nothing opened before it on the line
    opened = None
    for found in _OPENS[char, count].finditer(data, line, start):
        opened = found  # the last opener before the name
    if opened is None:
        return False
    return _CLOSES[char, count].search(data, opened.end(), start) is None  # not closed before it


# a run of underscores closing right after a name character, followed by no name character
_UNDERSCORE_CLOSE = lazy_re.compile(rb"_(?<=[A-Za-z0-9.-]_)_{0,2}(?![A-Za-z0-9_])")


def underscore_closers(data: bytes) -> list[tuple[int, int]]:
    """(where the run starts, its length) of each `_`/`__`/`___` run right after a name
    character that may close emphasis (`__on hermes__`): the caller asks `closes` with the name."""
    if b"_" not in data:
        return []
    return [(m.start(), m.end() - m.start()) for m in _UNDERSCORE_CLOSE.finditer(data)]
