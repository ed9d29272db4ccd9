"""What surrounds an occurrence decides whether it may be rewritten.

The exact matcher finds a value; these rules look at its neighbours:

- **Ranges.** `web01-web04`, `web01-03`, `web01..web04`, `web01 to web04`,
  `192.0.2.10–.14`, `192.0.2.6-192.0.2.10`, `192.0.2.69-71`, `web{01..03}`,
  `192.0.2.{69,70,71}`: a set of machines written by its ends (or spelled out
  in a brace set). Renaming one member breaks the set (a live prompt became
  "hosts .80 to .74"), so the occurrence is refused with reason `range` and
  left for a person, whatever `derived_names` says.
- **Accounts.** `/home/NAME`, `~NAME`, `chown NAME`, `User=NAME`,
  `ansible_user: NAME`, `NAME@host`...: a user account that happens to share
  the host's name is not the host. Kept with reason `account` unless
  `options.accounts: rewrite`.

A range is two numbered ends joined by a separator; the second end is the
same stem with another number, or (after an unspaced separator) the number
alone. `192.0.2.10 - see below` has no second end, so it is no range. A bare
numeric tail must be as wide as the first number or greater than it, so a
derived name such as `ana-ml2-1` is not read as a range.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

_TIGHT = rb"(?:-|\xe2\x80\x93|\xe2\x80\x94|\.\.|~)"  # -, en dash, em dash, .., ~
# Spaced forms need a full second end: "10.0.0.1 - 14 hosts" is prose, not a range.
_SPACED = rb"(?:[ \t]*(?:\xe2\x80\x93|\xe2\x80\x94|\.\.|~)[ \t]*|[ \t]+(?:-|to|through|thru)[ \t]+)"


# Every range has a digit right before its separator, or a brace set: a file without one (most
# files, and any file dense with plain references) is never searched rule by rule.
RANGE_HINT = re.compile(rb"[0-9](?:-|~|\.\.|\xe2\x80[\x93\x94]|[ \t]+(?:to|through|thru|-)[ \t])"
                        rb"|[0-9.A-Za-z_-]\{[0-9]")


RangeKind = Literal["host", "address"]  # ranges are of host names or addresses


@dataclass(frozen=True)
class RangeRule:
    """How one old value is found in a range: its stem (the text before its number) and number."""

    old: str
    new: str
    kind: RangeKind
    stem: bytes
    number: str
    pattern: re.Pattern[bytes]
    braces: re.Pattern[bytes]


def range_rule(old: str, new: str, kind: RangeKind) -> RangeRule | None:
    """The rule for `old`, or None when it has no number to range over (`ana-ml` or IPv6)."""
    if kind == "address":
        try:
            if ipaddress.ip_address(old).version != 4:
                return None
        except ValueError:
            return None
        stem, _, number = old.rpartition(".")
        stem += "."
        left, right = rb"(?<![A-Za-z0-9.])", rb"(?![0-9])(?!\.[0-9])"
        second = rb"(?P<s2>" + re.escape(stem.encode()) + rb"|\.)?"
        digits = rb"[0-9]{1,3}"
    else:
        found = re.fullmatch(r"(.*?[^0-9])([0-9]+)", old)
        if found is None:
            return None
        stem, number = found.group(1), found.group(2)
        left, right = rb"(?<![A-Za-z0-9_.\-])", rb"(?![A-Za-z0-9_])"
        second = rb"(?P<s2>" + re.escape(stem.encode()) + rb")?"
        digits = rb"[0-9]+"
    escaped = re.escape(stem.encode())
    pattern = re.compile(left + escaped + rb"(?P<a>" + digits + rb")(?:(?P<tight>" + _TIGHT + rb")|"
                         + _SPACED + rb")" + second + rb"(?P<b>" + digits + rb")" + right)
    braces = re.compile(left + escaped + rb"\{(?P<items>[0-9]+(?:,[0-9]+)+|[0-9]+\.\.[0-9]+)\}")
    return RangeRule(old, new, kind, stem.encode(), number, pattern, braces)


def find_ranges(data: bytes, rule: RangeRule) -> list[tuple[int, int]]:
    """Spans of the ranges in `data` with `rule.old` at one end (or inside a brace set)."""
    out = []
    pos = data.find(rule.stem)
    while pos != -1:
        found = _range_at(data, pos, rule)
        if found is not None:
            out.append(found)
        pos = data.find(rule.stem, pos + 1)
    return out


def _range_at(data: bytes, pos: int, rule: RangeRule) -> tuple[int, int] | None:
    hit = rule.pattern.match(data, pos)
    if hit is not None and _is_range(hit, rule):
        return hit.span()
    brace = rule.braces.match(data, pos)
    if brace is not None and _brace_holds(brace.group("items").decode(), rule.number):
        return brace.span()
    return None


def _is_range(hit: re.Match[bytes], rule: RangeRule) -> bool:
    a, b = hit.group("a").decode(), hit.group("b").decode()
    if int(a) == int(b):
        return False
    full = hit.group("s2") is not None and hit.group("s2") != b"."
    if not full:
        if hit.group("s2") is None and hit.group("tight") is None:
            return False  # a spaced separator then a bare number: prose
        if rule.kind == "host" and len(a) != len(b):
            return False  # web01-2024 (a year), ana-ml2-10: a name, not a set of machines
        if int(b) < int(a) and not len(a) == len(b) >= 2:
            return False  # ana-ml2-1: a derived name, not the range 2 down to 1 (web04-01 is one)
    if rule.kind == "address" and int(b) > 255:
        return False
    # At either end, or inside: a rewrite of one end breaks the set, and a set that still holds
    # the old member no longer covers the machine that moved.
    low, high = sorted((int(a), int(b)))
    return low <= int(rule.number) <= high and (len(rule.number) in (len(a), len(b))
                                                 or rule.kind == "address")


def _brace_holds(items: str, number: str) -> bool:
    if ".." in items:
        low, high = (int(x) for x in items.split(".."))
        return min(low, high) <= int(number) <= max(low, high)
    return any(int(item) == int(number) and len(item) == len(number) for item in items.split(","))


# -- accounts ----------------------------------------------------------------------------------

# Where a user account's name begins: each alternative ends right before the name.
_ACCOUNT = re.compile(
    rb"(?:(?<=[\s\"'=:(,])|^)(?:/home/|/Users/|/var/home/|/export/home/)"
    rb"|(?:(?<=[\s\"'=:(,])|^)~(?=[A-Za-z_])"
    rb"|(?i:\b[a-z]:\\+users\\+)"  # C:\Users\NAME, also C:\\Users\\NAME inside a string
    rb"|\b(?:chown|chgrp)[ \t]+(?:-[A-Za-z]+[ \t]+)*"
    rb"|\b(?:sudo|runuser)[ \t]+(?:-[A-Za-z]+[ \t]+)*-u[ \t]*|\bsu[ \t]+(?:-l?[ \t]+)?"
    rb"|^[ \t]*(?:User|Group)[ \t]*=[ \t]*"
    rb"|<key>(?:UserName|GroupName)</key>\s*<string>"
    rb"|(?:(?<=[\s{,])|^)[\"']?(?:ansible_user|ansible_ssh_user|remote_user|become_user|user|username)"
    rb"[\"']?[ \t]*[:=][ \t]*[\"']?",
    re.MULTILINE,
)
_GROUP = re.compile(rb"\bchown[ \t]+(?:-[A-Za-z]+[ \t]+)*[A-Za-z0-9_.\-]+:")  # chown user:NAME
# Every alternative above holds one of these: lines without one are never searched.
_MARKERS = (b"/home/", b"/Users/", b"~", b"sers\\", b"SERS\\", b"chown", b"chgrp", b"-u", b"su ",
            b"su\t", b"User", b"Group", b"user")


def account_starts(data: bytes, near: Iterable[int] | None = None) -> set[int]:
    """Offsets where a user account's name would begin (after `/home/`, `chown `, `User=`...).

    `near`: only those that could be one of these offsets. A start comes from a marker on its
    own line or the line before (each search reaches the end of the next line), so only those
    lines are searched for markers: a file's few matches, not its every `user` or `~`."""
    out: set[int] = set()
    searched: set[int] = set()
    for low, high in _windows(data, near):
        for marker in _MARKERS:
            _account_starts_at(data, marker, low, high, searched, out)
    return out


def _windows(data: bytes, near: Iterable[int] | None) -> list[tuple[int, int]]:
    """[line before, end of line] around each offset, merged; the whole of `data` without any."""
    if near is None:
        return [(0, len(data))]
    out: list[tuple[int, int]] = []
    for pos in sorted(near):
        line = data.rfind(b"\n", 0, pos) + 1
        low = data.rfind(b"\n", 0, max(0, line - 1)) + 1 if line else 0
        high = data.find(b"\n", pos)
        high = len(data) if high == -1 else high
        if out and low <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], high))
        else:
            out.append((low, high))
    return out


def _account_starts_at(data: bytes, marker: bytes, low: int, high: int, searched: set[int],
                       out: set[int]) -> None:
    pos = data.find(marker, low, high)
    while pos != -1:
        line = data.rfind(b"\n", 0, pos) + 1
        if line not in searched:
            searched.add(line)
            # To the end of the next line: a plist's <string> follows its <key> line.
            end = data.find(b"\n", pos)
            end = len(data) if end == -1 else data.find(b"\n", end + 1)
            end = len(data) if end == -1 else end
            for regex in (_ACCOUNT, _GROUP):
                out.update(hit.end() for hit in regex.finditer(data, line, end))
        pos = data.find(marker, pos + 1, high)


def is_account(data: bytes, start: int, end: int, starts: set[int]) -> bool:
    """Does the name at data[start:end] stand for a user account, not the host?"""
    if data[end:end + 1] == b"@" and data[start - 1:start] != b"@":
        return True  # NAME@host: the user on the left of @ (root@NAME is the host)
    return start in starts
