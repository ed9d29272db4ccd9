"""What surrounds an occurrence decides whether it may be rewritten: ranges.

The exact matcher finds a value; these rules look at its neighbours (accounts,
`NAME@host`, are `accounts.py`'s):

- **Ranges.** `web01-web04`, `web01-03`, `web01..web04`, `web01 to web04`,
  `192.0.2.10–.14`, `192.0.2.6-192.0.2.10`, `192.0.2.69-71`, `web{01..03}`,
  `192.0.2.{69,70,71}`: a set of machines written by its ends (or spelled out
  in a brace set). Renaming one member breaks the set (a live prompt became
  "hosts .80 to .74"), so the occurrence is refused with reason `range` and
  left for a person, whatever `derived_names` says.

A range is two numbered ends joined by a separator; the second end is the
same stem with another number, or (after an unspaced separator) the number
alone. Each end may be dressed (`` `web01` ``, `**web01**`, quotes, brackets)
and a host's end may be an FQDN (`web01.lab.example-web05.lab.example`).
`192.0.2.10 - see below` has no second end, so it is no range. A bare
numeric tail must be as wide as the first number or greater than it, so a
derived name such as `ana-ml2-1` is not read as a range.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Literal

_TIGHT = rb"(?:-|\xe2\x80\x93|\xe2\x80\x94|\xe2\x80\xa6|\.\.|~)"  # -, en dash, em dash, ellipsis, .., ~
# Spaced forms need a full second end: "10.0.0.1 - 14 hosts" is prose, not a range.
_SPACED = (rb"(?:[ \t]*(?:\xe2\x80\x93|\xe2\x80\x94|\xe2\x80\xa6|\.\.|~)[ \t]*"
           rb"|[ \t]+(?:-|to|through|thru)[ \t]+)")
# Every range has a digit right before its separator, or a brace set: a file without one (most
# files, and any file dense with plain references) is never searched rule by rule.
RANGE_HINT = re.compile(rb"[0-9](?:-|~|\.\.|\xe2\x80[\x93\x94\xa6]|[ \t]+(?:to|through|thru|-)[ \t])"
                        rb"|[0-9.A-Za-z_-]\{[0-9]")
_CLOSE = rb"(?:`|\*\*|\*|__|_|'|\"|\]|>)?"  # what dresses a range's first end after it
_OPEN = rb"(?:`|\*\*|\*|__|_|'|\"|\[|<)?"  # and its second end before it
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
    # Each end may be dressed (`web01`, **web01**, "web01", [web01]) and a host's end may be an
    # FQDN (web01.lab.example): still a range, each end a member of the set.
    domain = rb"(?:\.[A-Za-z][A-Za-z0-9-]*)*" if kind == "host" else rb""
    pattern = re.compile(left + escaped + rb"(?P<a>" + digits + rb")" + domain + _CLOSE
                         + rb"(?:(?P<tight>" + _TIGHT + rb")|" + _SPACED + rb")" + _OPEN + second
                         + rb"(?P<b>" + digits + rb")" + right)
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
