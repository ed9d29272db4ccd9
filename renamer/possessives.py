"""An English possessive after a name ending in `s` (outside round 25, finding 14).

`it holds hermes' 192.168.0.0/24` under `hermes -> apollo` became `it holds apollo' ...`: the
apostrophe alone makes a possessive only after an `s`. Where the old name ends in `s` and the new
one does not, a possessive apostrophe right after the name becomes `'s` (`apollo's`); the match
then spans the apostrophe too.

The apostrophe is a possessive only in prose: followed by a blank (or the end of the line) and not
closing a quoted string opened before it on the line (an odd count of quotes before it, an
apostrophe inside a word like `it's` not counted; `'on hermes'` is a string). Pure.
"""

from __future__ import annotations

import bisect
from dataclasses import replace

from renamer import lazy_re
from renamer.occurrences import Match

# a quote that opens or closes a string: not between two letters (`it's`, `don't` are words), nor
# another possessive (`Zeus' disks`: an `s`, the apostrophe, a blank)
_QUOTE = lazy_re.compile(rb"(?<![A-Za-z])'|(?<![sS])'(?![A-Za-z])|(?<=[sS])'(?![A-Za-z \t])")


def might_hold(data: bytes) -> bool:
    return b"s' " in data or b"S' " in data or b"s'\n" in data or b"s'\r" in data


def rewritten(data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each possessive host name's apostrophe spelled for its new name."""
    out = []
    line = _Line()
    for m in matches:
        if m.kind == "host" and m.refused is None and m.kept is None and m.old[-1:] in "sS" \
                and m.new[-1:] not in "sS" and data[m.end:m.end + 1] == b"'" \
                and data[m.end + 1:m.end + 2] in (b" ", b"\t", b"\r", b"\n", b"") \
                and data[m.start - 1:m.start] not in (b"'", b'"') and line.outside_quotes(data, m.start):
            m = replace(m, end=m.end + 1, old=m.old + "'", new=m.new + "'s")
        out.append(m)
    return out


class _Line:
    """The quotes of the line last asked, read once for all its matches (a hostile line of many
    names is read in linear time)."""

    def __init__(self) -> None:
        self.start = self.end = -1
        self.single: list[int] = []
        self.double: list[int] = []

    def outside_quotes(self, data: bytes, pos: int) -> bool:
        if not self.start <= pos <= self.end:
            self.start = data.rfind(b"\n", 0, pos) + 1
            end = data.find(b"\n", pos)
            self.end = len(data) if end == -1 else end
            self.single = [q.start() for q in _QUOTE.finditer(data, self.start, self.end)]
            self.double = [self.start + i for i, c in enumerate(data[self.start:self.end]) if c == 0x22]
        return bisect.bisect_left(self.single, pos) % 2 == 0 and bisect.bisect_left(self.double, pos) % 2 == 0
