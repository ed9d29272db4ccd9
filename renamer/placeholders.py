"""Placeholders over an old value's digits: `web0X`, `web0N`, `web0<n>`, `web0{n}`, `web##`,
`10.0.0.7x` (break-it round 23, #15).

A runbook writes the set a machine belongs to as its name with a placeholder for the number: "web0X
are the web nodes", `ssh web0N`, `10.0.0.7x is the web range`. Such a token is a pattern over the
old value, as `web0?` and `10.0.0.7?` are (patterns.py): after `web01 -> app01` the sentence no
longer covers the moved machine, and no text substitution knows what it should become. Each is
reported as a `pattern` residual; one that covers the new value as well (`web0X` under `web01 ->
web02`) needs no decision and is left out.

A placeholder stands for the old value's last digits (some or all of its final run of digits):
the same letter `X`, `x`, `N`, `n` or `#` once per digit (`web0X`, `webXX`, `10.0.0.7x`,
`10.0.0.1xx`; lower-case `x`/`n` only after a digit: `webx` is a word), or a bracketed word
(`web0<n>`, `web0{n}`, `web<id>`; round 24, t31 sweep finding 07: `web0[n]`, `web0(n)`,
`web0(n+1)`, after a stem ending in a digit: `node[i]` and `node(d)` are code; a batch file's
`web0%%N` and `web0%N%`, autoconf's `web0@N@`).
Interpolations (`{{ }}`, `${}`, `#{}`, `$()`) are no
placeholder here: composed_tails.py reads them. A head followed by a placeholder for a whole octet
(`10.0.0.X`) is prefix_values.py's. The token stands alone: no letter, digit, `_` or `-` before it
(nor a dot, for an address), no letter, digit or `_` after it (nor a dot and a digit). Pure:
bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from renamer import lazy_re, work

_DIGITS = lazy_re.compile(r"[0-9]+$")
_NAME_LEFT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_BRACKETED = (rb"<[A-Za-z_][A-Za-z0-9_]{0,11}>|\{[A-Za-z_][A-Za-z0-9_]{0,11}\}"
              # round 24 (t31 sweep finding 07): `web0[n]`, `web0(n)` / `web0(n+1)` in prose, a batch
              # file's loop variable `web0%%N` and variable `web0%N%`, autoconf's `web0@N@`
              rb"|\[[A-Za-z_][A-Za-z0-9_]{0,11}\]|\([A-Za-z_][A-Za-z0-9_]{0,11}(?:[+-][0-9]{1,3})?\)"
              rb"|%%[A-Za-z]|%[A-Za-z_][A-Za-z0-9_]{0,11}%|@[A-Za-z_][A-Za-z0-9_]{0,11}@")
_OPENERS = {b">": b"<", b"}": b"{", b"]": b"[", b")": b"(", b"%": b"%", b"@": b"@"}
# The token from a stem's start: name characters, `#`, then perhaps a bracketed placeholder.
_TOKEN = lazy_re.compile(rb"[A-Za-z0-9_.#-]*(?:" + _BRACKETED + rb")?")
_BRACKET = lazy_re.compile(_BRACKETED)
# After the placeholder: no name character, no interpolation (`web0#{n}`), no `.5` of an address.
_RIGHT = lazy_re.compile(rb"(?![A-Za-z0-9_{(])(?!\.[0-9])")
# A placeholder's first byte: a run of one of `XN#xn`, or a bracketed word's opening (`<{[(%@`:
# _BRACKETED's openers, round 24's among them).
_FIRST_BYTES = b"XN#xn<{[(%@"
_FIRST = frozenset(bytes([byte]) for byte in _FIRST_BYTES)


class Placeholders:
    """The stems of the old values (three characters at least), by their first three: a file
    holding none of those is asked nothing more, whatever the number of renames. Each group is
    looked for by what all its stems begin with (`10.250.50.5` for 10.250.50.54, not `10.`,
    which stands on nearly every line of a repo on 10/8: issue 30, 700,000 places looked at in
    2,000 files), and a token is read only where a stem stands right before a placeholder's first
    byte."""

    def __init__(self, olds: Iterable[str], news: Mapping[str, str] | None = None) -> None:
        by_head: dict[bytes, dict[bytes, list[tuple[str, int]]]] = {}  # head -> stem -> (old, digits)
        for old in olds:
            for stem, digits in _stems(old):
                encoded = stem.encode()
                by_head.setdefault(encoded[:3], {}).setdefault(encoded, []).append((old, digits))
        # every stem of a group starts with its longest common prefix: a token over one of them
        # starts where that prefix stands, so only those places are looked at
        self._by_head = {_common_prefix(stems): stems for stems in by_head.values()}
        self._lengths = {prefix: sorted({len(stem) for stem in stems})
                         for prefix, stems in self._by_head.items()}
        # A group of a few stems: one search for the places where one of them stands right before a
        # placeholder's first byte (led by the group's prefix, which re looks for at C speed), not
        # a Python step per place the prefix stands (homelab: `pve1`, `pve2`, `pve3` on 14,000 lines
        # under pve2's stem `pve`). A group of thousands of stems is walked place by place instead.
        self._searches = {prefix: _search(prefix, stems) for prefix, stems in self._by_head.items()
                          if len(stems) <= _SEARCHED}
        self._news = dict(news or {})

    def find(self, data: bytes) -> list[tuple[int, int, str]]:
        """(start, end, old) of each placeholder token over an old value, in file order: the token
        at each place a stem's first three characters stand (a few per file), never a search per
        stem (a move of thousands of names has thousands of stems under one head)."""
        out: set[tuple[int, int, str]] = set()
        looked = 0
        for head, stems in self._by_head.items():
            search = self._searches.get(head)
            for at in (self._walked(data, head, stems) if search is None else _places(search, data)):
                looked += 1
                if not (at and data[at - 1] in _NAME_LEFT):
                    token = _TOKEN.match(data, at).group()  # type: ignore[union-attr]
                    # the whole token (`10.0.0.7x`), and each label before a dot (`web0X` of `web0X.lab`)
                    ends = {len(token), *(i for i in range(len(token)) if token[i:i + 1] == b".")}
                    for end in ends:
                        out.update(self._placed(data, at, at + end, stems))
        if looked:
            work.add("placeholder positions", looked)
        return sorted(out)

    def _walked(self, data: bytes, head: bytes, stems: dict[bytes, list[tuple[str, int]]]) -> Iterator[int]:
        """Each place `head` stands where one of `stems` stands right before a placeholder's first
        byte (`pve2`, `pve-b2` under `pve`: none), place by place."""
        lengths = self._lengths[head]
        at = data.find(head)
        while at >= 0:
            if any(data[at + size:at + size + 1] in _FIRST and data[at:at + size] in stems
                   for size in lengths):
                yield at
            at = data.find(head, at + 1)

    def _placed(self, data: bytes, start: int, end: int,
                stems: dict[bytes, list[tuple[str, int]]]) -> list[tuple[int, int, str]]:
        at = _placeholder_start(data, start, end)
        if at is None or _RIGHT.match(data, end) is None:
            return []
        stem, placeholder = data[start:at], data[at:end]
        bracketed = placeholder[:1] in (b"<", b"{", b"[", b"(", b"%", b"@")
        if not bracketed and placeholder[:1] in (b"x", b"n") and not stem[-1:].isdigit():
            return []  # `webx`: a word
        if placeholder[:1] in (b"[", b"(") and not stem[-1:].isdigit():
            return []  # `node[i]`, `node(d)`: an index or a call in code (`web0[n]` keeps a digit)
        out = []
        for old, digits in stems.get(stem, ()):
            if start and data[start - 1] == ord(".") and _is_v4(old):
                continue  # `1.10.0.0.7x`: another address's tail
            if not bracketed and len(placeholder) != digits:
                continue
            new = self._news.get(old)
            if new is not None and _covers(stem.decode("ascii"), digits, bracketed, new):
                continue  # the set holds the machine after the move too
            out.append((start, end, old))
        return out


# Up to this many stems in a group, its places are found by one regex (_search).
_SEARCHED = 64


def _search(prefix: bytes, stems: Iterable[bytes]) -> re.Pattern[bytes]:
    """Matches (the prefix alone: the rest is a lookahead) where one of `stems`, which all begin
    with `prefix`, stands right before a placeholder's first byte."""
    rests = sorted((stem[len(prefix):] for stem in stems), key=len, reverse=True)
    return re.compile(re.escape(prefix) + b"(?=(?:" + b"|".join(map(re.escape, rests)) + b")["
                      + re.escape(_FIRST_BYTES) + b"])")


def _places(search: re.Pattern[bytes], data: bytes) -> Iterator[int]:
    """Where `search` matches, overlapping places included (a prefix may begin inside another)."""
    found = search.search(data)
    while found is not None:
        yield found.start()
        found = search.search(data, found.start() + 1)


def _common_prefix(stems: Iterable[bytes]) -> bytes:
    """What every one of `stems` begins with (the first three bytes at least: their head)."""
    first, last = min(stems), max(stems)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


def _placeholder_start(data: bytes, start: int, end: int) -> int | None:
    """Where the placeholder ending at `end` begins (a run of one of `XN#xn`, or `<word>` /
    `{word}`), after at least one byte of `start`; None where none ends there."""
    last = data[end - 1:end]
    if last in _OPENERS:
        opening = data.rfind(_OPENERS[last], start + 1, end - 1)
        return opening if opening > start and _BRACKET.fullmatch(data, opening, end) else None
    if data[end - 3:end - 1] == b"%%" and end - 3 > start and last.isalpha():
        return end - 3  # a batch file's `%%N`
    if not last or last not in b"XN#xn":
        return None
    at = end - 1
    while at > start + 1 and data[at - 1:at] == last:
        at -= 1
    return at


def _stems(old: str) -> list[tuple[str, int]]:
    """(stem, how many digits the placeholder stands for) of `old`: its final run of digits, the
    last k of them (k from 1 to the run's length) replaced; an IPv4 address's last octet only, and
    not whole (that is a head of three octets: prefix_values.py)."""
    if _is_v4(old):
        last = old.rsplit(".", 1)[1]
        return [(old[:-k], k) for k in range(1, len(last))]
    label = old.split(".")[0]
    run = _DIGITS.search(label)
    if run is None:
        return []
    return [(label[:-k], k) for k in range(1, len(run.group()) + 1) if len(label) - k >= 3]


def _covers(stem: str, digits: int, bracketed: bool, new: str) -> bool:
    """Does the placeholder after `stem` stand for `new` as well (the same stem, digits after)?"""
    label = new if _is_v4(new) else new.split(".")[0]
    rest = label[len(stem):]
    return label.startswith(stem) and rest.isdigit() and (bracketed or len(rest) == digits)


def _is_v4(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 4 and all(p.isdigit() and len(p) <= 3 for p in parts)
