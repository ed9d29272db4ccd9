"""Prefix-length ranges written apart from FRR's `ge`/`le` (t31-33 finding 04, t32-33 finding 04,
t26-33 10's class).

Each names a network and the lengths of the routes it selects inside it, counted from nothing:

* GoBGP: `ip-prefix = "10.0.48.0/24"` with `masklength-range = "25..28"` in one prefix-list
  entry (TOML, YAML, JSON: the entry is the block between two `[[...]]` headers, list items or
  braces);
* RouterOS v6: `/routing filter add prefix=10.0.48.0/24 prefix-length=25-28` (one line);
* RouterOS v7: `rule="if (dst in 10.0.48.0/24 && dst-len in 25-28) ..."`, or `dst-len>=25`,
  `dst-len<=28`, `dst-len==25` (one rule line);
* OpenBGPD: `prefix 10.0.48.0/24 prefixlen 25 - 28` (`>< H` exclusive, `>= 25`, `<= 28`, `= 25`) and
  `maxlen 28`; the GoBGP CLI `gobgp policy prefix add NAME 10.0.48.0/24 25..28`;
* an IOS-XR prefix-set entry with no permit/deny word (`10.0.48.0/24 ge 25 le 28,`) and `eq` (NX-OS
  `permit 10.0.48.0/24 eq 25`, IOS-XR): FRR's `permit A/N ge/le` lines are prefix_lists.py's own;
* Calico BGPFilter: `cidr: 10.0.48.0/24` with `prefixLength: {min: 25, max: 28}` in one rule;
* Huawei/H3C `ip ip-prefix L index 10 permit 10.0.48.0 24 greater-equal 25 less-equal 28`, Nokia SR OS
  `prefix 10.0.48.0/24 prefix-length-range 25-28` (`through 28`), Cumulus NVUE `match 10.0.48.0/24
  max-prefix-len 28` (`min-prefix-len 25`).

This module only reads them: each entry as (network's span, address, length, low, high, what
spells the bounds); prefix_lists._bounds_hit decides it as FRR's (a bound the new length passes:
the tool refuses, `tool-refuses`; else a `tied-length` residual), and a range from the network's
own length to the family's longest ("every prefix inside", `24..32`) follows the grow. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from renamer import lazy_re

_NET = rb"((?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:]*)/([0-9]{1,3})"
_GOBGP_PREFIX = lazy_re.compile(rb"(?i)[\"']?ip-?prefix[\"']?[ \t]*[:=][ \t]*[\"']?" + _NET + rb"(?![0-9])")
_GOBGP_RANGE = lazy_re.compile(rb"(?i)[\"']?mask-?length-?range[\"']?[ \t]*[:=][ \t]*[\"']?"
                          rb"([0-9]{1,3})\.\.([0-9]{1,3})(?![0-9])")
# What ends a GoBGP entry: a TOML table header, a YAML list item, a brace.
_BOUNDARY = lazy_re.compile(rb"(?m)^[ \t]*(?:\[|-[ \t])|[{}]")
_ROS6 = lazy_re.compile(rb"(?<![A-Za-z0-9_-])prefix=[\"']?" + _NET + rb"(?![0-9])")
_ROS6_LENGTH = lazy_re.compile(
    rb"(?<![A-Za-z0-9_-])prefix-length=[\"']?([0-9]{1,3})(?:-([0-9]{1,3}))?(?![0-9])")
_ROS7 = lazy_re.compile(rb"(?<![A-Za-z0-9_-])dst[ \t]+in[ \t]+" + _NET + rb"(?![0-9])")
_ROS7_IN = lazy_re.compile(rb"(?<![A-Za-z0-9_-])dst-len[ \t]+in[ \t]+([0-9]{1,3})(?:-([0-9]{1,3}))?(?![0-9])")
_ROS7_CMP = lazy_re.compile(rb"(?<![A-Za-z0-9_-])dst-len[ \t]*(>=|<=|==|>|<|=)[ \t]*([0-9]{1,3})(?![0-9])")


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


# OpenBGPD (t32-33 finding 04): `prefix A/N prefixlen L - H`, `prefixlen L >< H` (exclusive),
# `prefixlen >= L` (`>`, `<=`, `<`, `=`), `prefix A/N maxlen H` (from the network's own length).
_BGPD = lazy_re.compile(rb"(?<![A-Za-z0-9_-])prefix[ \t]+" + _NET + rb"(?![0-9])[ \t]+(?:prefixlen[ \t]+(?:"
                   rb"([0-9]{1,3})[ \t]*(-|><)[ \t]*([0-9]{1,3})|(>=|<=|=|>|<)[ \t]*([0-9]{1,3}))"
                   rb"|maxlen[ \t]+([0-9]{1,3}))(?![0-9])")
# The GoBGP CLI: `gobgp policy prefix add NAME A/N L..H`.
_GOBGP_CLI = lazy_re.compile(rb"(?<![A-Za-z0-9_-])prefix[ \t]+(?:add|del)[ \t]+\S+[ \t]+" + _NET +
                        rb"[ \t]+([0-9]{1,3})\.\.([0-9]{1,3})(?![0-9])")
# An IOS-XR prefix-set entry (no permit/deny word: `10.0.48.0/24 ge 25 le 28,`) and any entry with
# `eq` (NX-OS `permit A/N eq 25`, IOS-XR `A/N eq 25`): FRR's own lines are prefix_lists.py's.
_BARE = lazy_re.compile(
    rb"(?im)^[ \t]*(?:(?:ip|ipv6)[ \t]+prefix-list[ \t]+\S+[ \t]+)?(?:seq[ \t]+[0-9]+[ \t]+)?"
                   rb"((?:permit|deny)[ \t]+)?" + _NET +
                   rb"((?:[ \t]+(?:ge|le|eq)[ \t]+[0-9]{1,3})+)[ \t]*,?[ \t]*(?:#[^\n]*)?\r?$")
_BARE_BOUND = lazy_re.compile(rb"(ge|le|eq)[ \t]+([0-9]{1,3})")
# Calico BGPFilter: `cidr: A/N` with `prefixLength: {min: L, max: H}` (flow or block) in one rule.
_CALICO_CIDR = lazy_re.compile(rb"(?m)^([ \t]*(?:-[ \t]+)?)cidr[ \t]*:[ \t]*[\"']?" + _NET + rb"(?![0-9])")
_CALICO_LENGTH = lazy_re.compile(rb"(?<![A-Za-z0-9_-])prefixLength[ \t]*:")
_CALICO_BOUND = lazy_re.compile(rb"(?<![A-Za-z0-9_-])(min|max)[ \t]*:[ \t]*([0-9]{1,3})(?![0-9])")


# Huawei / H3C: `ip ip-prefix NAME index 10 permit 10.0.48.0 24 greater-equal 25 less-equal 28` (the
# length after a blank); Nokia SR OS: `prefix 10.0.48.0/24 prefix-length-range 25-28`, `through 28`;
# Cumulus NVUE: `... match 10.0.48.0/24 max-prefix-len 28` (`min-prefix-len 25`) on one line.
_HUAWEI = lazy_re.compile(rb"(?i)ip(?:v6)?[ \t]+ip(?:v6)?-prefix[ \t]+\S+[ \t]+(?:index[ \t]+[0-9]+[ \t]+)?"
                     rb"(?:permit|deny)[ \t]+((?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:]*)[ \t]+"
                     rb"([0-9]{1,3})((?:[ \t]+(?:greater-equal|less-equal)[ \t]+[0-9]{1,3})+)"
                     rb"(?![ \t]*[0-9A-Za-z])")
_HUAWEI_BOUND = lazy_re.compile(rb"(greater-equal|less-equal)[ \t]+([0-9]{1,3})")
_SROS = lazy_re.compile(rb"(?<![A-Za-z0-9_-])prefix[ \t]+" + _NET + rb"[ \t]+(?:prefix-length-range[ \t]+"
                   rb"([0-9]{1,3})-([0-9]{1,3})|through[ \t]+([0-9]{1,3}))(?![0-9./])")
_NVUE = lazy_re.compile(rb"(?<![A-Za-z0-9_-])match[ \t]+" + _NET + rb"((?:[ \t]+(?:max|min)-prefix-len[ \t]+"
                   rb"[0-9]{1,3})+)(?![0-9])")
_NVUE_BOUND = lazy_re.compile(rb"(max|min)-prefix-len[ \t]+([0-9]{1,3})")


def _others(data: bytes) -> Iterator[LengthRange]:
    if b"-prefix" in data and b"-equal" in data:
        for x in _HUAWEI.finditer(data):
            found = {w: int(v) for w, v in _HUAWEI_BOUND.findall(x.group(3))}
            yield LengthRange(x.start(1), x.end(2), x.group(1), x.group(2), found.get(b"greater-equal"),
                              found.get(b"less-equal"), x.group(3).decode().strip(), None, x.end())
    if b"prefix-length-range" in data or b"through" in data:
        for x in _SROS.finditer(data):
            if x.group(3) is not None:
                said = f"prefix-length-range {x.group(3).decode()}-{x.group(4).decode()}"
                yield LengthRange(x.start(1), x.end(2), x.group(1), x.group(2), int(x.group(3)),
                                  int(x.group(4)), said, (x.start(3), x.end(3)), x.end())
            else:
                yield LengthRange(x.start(1), x.end(2), x.group(1), x.group(2), None, int(x.group(5)),
                                  f"through {x.group(5).decode()}", None, x.end())
    if b"prefix-len" in data:
        for x in _NVUE.finditer(data):
            found = {w: int(v) for w, v in _NVUE_BOUND.findall(x.group(3))}
            yield LengthRange(x.start(1), x.end(2), x.group(1), x.group(2), found.get(b"min"),
                              found.get(b"max"), x.group(3).decode().strip(), None, x.end())


def _bgpd(data: bytes) -> Iterator[LengthRange]:
    for x in _BGPD.finditer(data):
        low: int | None
        high: int | None
        if x.group(3) is not None:
            low, high = int(x.group(3)), int(x.group(5))
            if x.group(4) == b"><":
                low, high = low + 1, high - 1
            at = (x.start(3), x.end(3)) if x.group(4) == b"-" else None
        elif x.group(6) is not None:
            op, n = x.group(6), int(x.group(7))
            low = n + (op == b">") if op in (b">=", b">", b"=") else None
            high = n - (op == b"<") if op in (b"<=", b"<", b"=") else None
            at = (x.start(7), x.end(7)) if op == b">=" else None
        else:
            low, high, at = None, int(x.group(8)), None
        spelled = data[x.end(2) + 1:x.end()].decode().strip()
        yield LengthRange(x.start(1), x.end(2), x.group(1), x.group(2), low, high, spelled, at, x.end())


def _bare(data: bytes) -> Iterator[LengthRange]:
    for x in _BARE.finditer(data):
        bounds = [(w.decode(), int(v)) for w, v in _BARE_BOUND.findall(x.group(4))]
        if x.group(1) is not None and all(w != "eq" for w, _ in bounds):
            continue  # `permit A/N ge L le H`: prefix_lists.py's FRR rule reads it
        lows = [v for w, v in bounds if w in ("ge", "eq")]
        highs = [v for w, v in bounds if w in ("le", "eq")]
        spelled = " ".join(f"{w} {v}" for w, v in bounds)
        yield LengthRange(x.start(2), x.end(3), x.group(2), x.group(3), max(lows, default=None),
                          min(highs, default=None), spelled, None, x.end(4))


_CALICO_FLOW = lazy_re.compile(rb"(?<![A-Za-z0-9_-])cidr[ \t]*:[ \t]*[\"']?" + _NET + rb"(?![0-9])[^\n{}]*?"
                          rb"prefixLength[ \t]*:[ \t]*\{([^{}\n]*)\}")


def _calico(data: bytes) -> Iterator[LengthRange]:
    for x in _CALICO_FLOW.finditer(data):  # one flow mapping: `{cidr: A/N, prefixLength: {min: 25}}`
        found = {b.group(1): b for b in _CALICO_BOUND.finditer(data, x.start(3), x.end(3))}
        if found:
            low = int(found[b"min"].group(2)) if b"min" in found else None
            high = int(found[b"max"].group(2)) if b"max" in found else None
            at = (found[b"min"].start(2), found[b"min"].end(2)) if b"min" in found else None
            yield LengthRange(x.start(1), x.end(2), x.group(1), x.group(2), low, high,
                              "prefixLength " + x.group(3).decode().strip(), at)
    for x in _CALICO_CIDR.finditer(data):
        own = len(x.group(1))
        end = x.end()
        while end < len(data):  # the rule: the lines after `cidr:` indented at least as its key
            nxt = data.find(b"\n", end + 1)
            line = data[end + 1:len(data) if nxt < 0 else nxt]
            if line.strip() and len(line) - len(line.lstrip(b" \t")) < own:
                break
            if line.lstrip().startswith(b"-") and len(line) - len(line.lstrip(b" \t")) <= own - 2:
                break
            end = len(data) if nxt < 0 else nxt
        start = data.rfind(b"\n", 0, x.start()) + 1
        while start > 0:  # and the lines before it in the same rule (`- action: Accept`)
            before = data.rfind(b"\n", 0, start - 1) + 1
            line = data[before:start - 1]
            indent = len(line) - len(line.lstrip(b" \t"))
            if not line.strip() or indent < own - (2 if x.group(1).strip() else 0):
                break
            if line.lstrip().startswith(b"-"):
                start = before
                break
            start = before
        length = _CALICO_LENGTH.search(data, start, end)
        if length is None or len(_CALICO_CIDR.findall(data, start, end)) != 1:
            continue
        stop = data.find(b"}", length.end(), end)
        block_end = stop + 1 if stop >= 0 and b"{" in data[length.end():stop] else end
        bounds = {b.group(1): b for b in _CALICO_BOUND.finditer(data, length.end(), block_end)}
        if not bounds:
            continue
        low = int(bounds[b"min"].group(2)) if b"min" in bounds else None
        high = int(bounds[b"max"].group(2)) if b"max" in bounds else None
        spelled = "prefixLength " + ", ".join(f"{k.decode()}: {v.group(2).decode()}"
                                              for k, v in bounds.items())
        at = (bounds[b"min"].start(2), bounds[b"min"].end(2)) if b"min" in bounds else None
        yield LengthRange(x.start(2), x.end(3), x.group(2), x.group(3), low, high, spelled, at)


def ranges(data: bytes) -> Iterator[LengthRange]:
    """Every GoBGP, RouterOS, OpenBGPD, IOS-XR/NX-OS and Calico entry that pairs one network with a
    range of lengths."""
    if b"prefixlen" in data or b"maxlen" in data:
        yield from _bgpd(data)
    if b".." in data and b"prefix" in data:
        for x in _GOBGP_CLI.finditer(data):
            yield LengthRange(x.start(1), x.end(2), x.group(1), x.group(2), int(x.group(3)),
                              int(x.group(4)), f"{x.group(3).decode()}..{x.group(4).decode()}",
                              (x.start(3), x.end(3)), x.end())
    if b"ge" in data or b"le" in data or b"eq" in data:
        yield from _bare(data)
    if b"prefixLength" in data:
        yield from _calico(data)
    yield from _others(data)
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
