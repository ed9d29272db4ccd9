"""Regular expressions in a repo that match an old value.

`192.168.1.6[0-9]`, `192\\.168\\.1\\.\\d+`, `ana-ml\\d` in a relabel rule, an alert
or a scrub script stand for the old value without spelling it, so neither
the exact matcher nor a text substitution can follow them: no rewrite knows
what they should become. Each is reported (reason `pattern`) for a person to
decide.

A candidate is a run of regex-ish characters around a fragment of an old
value that holds unmistakable regex syntax (`\\d`, `\\w`, `[...]`, `{n}`, `.*`,
`.+`, `.?`); it is
compiled and must match the whole old value (a trailing `:port` aside).
Candidates hold no parentheses, so no nested quantifier can make the match
exponential, and they are short.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator
from dataclasses import dataclass

# Unmistakable regex syntax only: a bare `?`, `*` or `+` after a letter is prose ("ana-ml20?")
# or a glob whose reading as a regex differs ("ana-ml20*"), never evidence of a pattern.
_META = re.compile(rb"\\[dDwWsS]|\[[^\]\s]{1,40}\]|\{[0-9]{1,3}(?:,[0-9]{0,3})?\}|\.[*+?]|[*?]")
_TOKEN = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-\\[]{}+*?^$|,")
_MAX_TOKEN = 128
FEW = 256  # below this many starts (or stems), looking at each costs less than one whole-file regex


@dataclass(frozen=True)
class PatternHit:
    start: int
    end: int
    old: str  # the old value the pattern matches


def fragments(olds: list[str]) -> tuple[bytes, ...]:
    """What a pattern for one of `olds` almost surely spells literally: its first three characters."""
    return tuple(sorted({old[:3].encode() for old in olds if len(old) >= 3}))


def find_patterns(data: bytes, olds: list[str], starts: tuple[bytes, ...]) -> list[PatternHit]:
    """Regex-ish runs in `data` that match an old value in full, in file order.

    Each token around a start is tested for a meta character; a file with many starts is
    first searched for one as a whole (a token without one is no pattern), which costs one
    regex over every byte: for a few starts, looking at each is cheaper."""
    found = [pos for fragment in starts for pos in _positions(data, fragment)]
    if not found or (len(found) > FEW and not _META.search(data)):
        return []
    spans = {_token_around(data, pos) for pos in found}
    out = []
    for start, end in sorted(spans):
        token = data[start:end]
        if end - start > _MAX_TOKEN or not _META.search(token):
            continue
        old = _matched(token, olds)
        if old is not None:
            out.append(PatternHit(start, end, old))
    return out


def _positions(data: bytes, fragment: bytes) -> Iterator[int]:
    pos = data.find(fragment)
    while pos != -1:
        yield pos
        pos = data.find(fragment, pos + 1)


def _token_around(data: bytes, pos: int) -> tuple[int, int]:
    start = pos
    while start > 0 and data[start - 1] in _TOKEN and pos - start < _MAX_TOKEN:
        start -= 1
    end = pos
    while end < len(data) and data[end] in _TOKEN and end - pos < _MAX_TOKEN:
        end += 1
    # Separators and list punctuation around a value are no part of its pattern.
    while start < end and data[start] in b".,-|":
        start += 1
    while end > start and data[end - 1] in b".,-|":
        end -= 1
    return start, end


def _matched(token: bytes, olds: list[str]) -> str | None:
    text = token.decode("ascii", "replace")
    text = re.sub(r"^(?:\^|\\b)+|(?:\$|\\b)+$", "", text)
    candidates = [text]
    if "\\\\" in text:  # inside a JSON or C string: "192\\.168" is the regex 192\.168
        candidates.append(text.replace("\\\\", "\\"))
    globbed = "*" in text or "?" in text
    for candidate in candidates:
        regex = None
        if not globbed or _REGEX_ONLY.search(candidate):  # `web0*`, `192.0.2.1*`: a glob, read as one
            try:
                regex = re.compile(candidate)
            except (re.error, OverflowError, RecursionError):
                regex = None
        for old in olds:
            if candidate == old:
                continue
            if regex is not None and regex.fullmatch(old):
                return old
            if globbed and fnmatch.fnmatchcase(old, candidate):
                return old
    return None


_REGEX_ONLY = re.compile(r"\\[dDwWsS.]|\.[*+?]|\{[0-9]")  # marks that only a regex would hold
