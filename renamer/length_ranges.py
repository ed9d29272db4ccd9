"""Prefix-length ranges written apart from FRR's `ge`/`le` (t31-33 finding 04, t26-33 10's class).

Each names a network and the lengths of the routes it selects inside it, counted from nothing:

* GoBGP: `ip-prefix = "10.0.48.0/24"` with `masklength-range = "25..28"` in one prefix-list
  entry (TOML, YAML, JSON: the entry is the block between two `[[...]]` headers, list items or
  braces);
* RouterOS v6: `/routing filter add prefix=10.0.48.0/24 prefix-length=25-28` (one line);
* RouterOS v7: `rule="if (dst in 10.0.48.0/24 && dst-len in 25-28) ..."`, or `dst-len>=25`,
  `dst-len<=28`, `dst-len==25` (one rule line).

This module only reads them: each entry as (network's span, address, length, low, high, what
spells the bounds); prefix_lists._bounds_hit decides it as FRR's (a bound the new length passes:
the tool refuses, `tool-refuses`; else a `tied-length` residual), and a range from the network's
own length to the family's longest ("every prefix inside", `24..32`) follows the grow. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_NET = rb"((?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:]*)/([0-9]{1,3})"
_GOBGP_PREFIX = re.compile(rb"(?i)[\"']?ip-?prefix[\"']?[ \t]*[:=][ \t]*[\"']?" + _NET + rb"(?![0-9])")
_GOBGP_RANGE = re.compile(rb"(?i)[\"']?mask-?length-?range[\"']?[ \t]*[:=][ \t]*[\"']?"
                          rb"([0-9]{1,3})\.\.([0-9]{1,3})(?![0-9])")
# What ends a GoBGP entry: a TOML table header, a YAML list item, a brace.
_BOUNDARY = re.compile(rb"(?m)^[ \t]*(?:\[|-[ \t])|[{}]")
_ROS6 = re.compile(rb"(?<![A-Za-z0-9_-])prefix=[\"']?" + _NET + rb"(?![0-9])")
_ROS6_LENGTH = re.compile(rb"(?<![A-Za-z0-9_-])prefix-length=[\"']?([0-9]{1,3})(?:-([0-9]{1,3}))?(?![0-9])")
_ROS7 = re.compile(rb"(?<![A-Za-z0-9_-])dst[ \t]+in[ \t]+" + _NET + rb"(?![0-9])")
_ROS7_IN = re.compile(rb"(?<![A-Za-z0-9_-])dst-len[ \t]+in[ \t]+([0-9]{1,3})(?:-([0-9]{1,3}))?(?![0-9])")
_ROS7_CMP = re.compile(rb"(?<![A-Za-z0-9_-])dst-len[ \t]*(>=|<=|==|>|<|=)[ \t]*([0-9]{1,3})(?![0-9])")


@dataclass(frozen=True)
class LengthRange:
    start: int  # the network's `A/N` in the file
    end: int
    address: bytes
    length: bytes
    low: int | None
    high: int | None
    spelled: str
    low_at: tuple[int, int] | None = None  # where the low bound is written (a rewrite of it)
    reach: int = 0  # the end of the last bound on the network's line: a residual covers both

    @property
    def end_all(self) -> int:
        return max(self.end, self.reach)


def _in_pool(data: bytes, line_start: int) -> bool:
    """Whether the RouterOS line at `line_start` adds to an `/ipv6 pool` (the line itself, or the
    last `/menu` line above it): there `prefix-length=` is the length handed out, not a filter's."""
    line = data[line_start:data.find(b"\n", line_start) if b"\n" in data[line_start:] else len(data)]
    if line.lstrip().startswith(b"/"):
        return b"pool" in line
    menu = re.findall(rb"(?m)^[ \t]*(/[^\n]*)", data[:line_start])
    return bool(menu) and b"pool" in menu[-1]


def _line(data: bytes, at: int) -> tuple[int, int]:
    start = data.rfind(b"\n", 0, at) + 1
    end = data.find(b"\n", at)
    return start, len(data) if end < 0 else end


def ranges(data: bytes) -> Iterator[LengthRange]:
    """Every GoBGP and RouterOS entry that pairs one network with a range of lengths."""
    if b"ip-prefix" in data.lower() or b"ipprefix" in data.lower():
        for x in _GOBGP_PREFIX.finditer(data):
            before = [b.end() for b in _BOUNDARY.finditer(data, 0, x.start())]
            after = _BOUNDARY.search(data, x.end())
            low, high = (before[-1] if before else 0), (after.start() if after else len(data))
            found = [r for r in _GOBGP_RANGE.finditer(data, low, high)]
            if len(found) == 1 and len(_GOBGP_PREFIX.findall(data, low, high)) == 1:
                r = found[0]
                said = f"masklength-range {r.group(1).decode()}..{r.group(2).decode()}"
                yield LengthRange(x.start(1), x.end(2), x.group(1), x.group(2), int(r.group(1)),
                                  int(r.group(2)), said,
                                  (r.start(1), r.end(1)))  # its own line: no length key reads it
    if b"prefix-length=" in data:
        for x in _ROS6.finditer(data):
            s, e = _line(data, x.start())
            if _in_pool(data, s):
                continue  # `/ipv6 pool add .. prefix-length=56`: handed out (delegation_lengths.py)
            found = list(_ROS6_LENGTH.finditer(data, s, e))
            if len(found) == 1 and len(_ROS6.findall(data, s, e)) == 1:
                r = found[0]
                high = int(r.group(2)) if r.group(2) is not None else int(r.group(1))
                yield LengthRange(x.start(1), x.end(2), x.group(1), x.group(2), int(r.group(1)), high,
                                  f"prefix-length={r.group(1).decode()}" + (f"-{high}" if r.group(2) else ""),
                                  (r.start(1), r.end(1)), r.end())
    if b"dst-len" in data:
        for x in _ROS7.finditer(data):
            s, e = _line(data, x.start())
            if len(_ROS7.findall(data, s, e)) != 1:
                continue
            lows: list[int] = []
            highs: list[int] = []
            spelled = []
            low_at = None
            reach = 0
            for r in _ROS7_IN.finditer(data, s, e):
                lows.append(int(r.group(1)))
                highs.append(int(r.group(2) or r.group(1)))
                spelled.append(r.group().decode())
                low_at = (r.start(1), r.end(1))
                reach = max(reach, r.end())
            for r in _ROS7_CMP.finditer(data, s, e):
                op, n = r.group(1), int(r.group(2))
                if op in (b">=", b">", b"==", b"="):
                    lows.append(n + (1 if op == b">" else 0))
                if op in (b"<=", b"<", b"==", b"="):
                    highs.append(n - (1 if op == b"<" else 0))
                spelled.append(r.group().decode())
                low_at = None  # a comparison: no single text to rewrite
                reach = max(reach, r.end())
            if spelled:
                yield LengthRange(x.start(1), x.end(2), x.group(1), x.group(2), max(lows, default=None),
                                  min(highs, default=None), " and ".join(spelled),
                                  low_at if len(spelled) == 1 else None, reach)
