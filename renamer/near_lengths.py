"""A `/N` a bracket or a few words after a resized network's address, and pasted ipcalc output
(t31-33 finding 11).

* `10.0.48.0 (/24)`, `2001:db8:a:10:: (/64)`: the length in brackets right after the address is
  its own: it follows (`(/22)`), as `10.0.48.0 / 24` does (prefix_spellings.py).
  So do `10.0.48.0 (a /24)`, `10.0.48.0 [/24]`, `10.0.48.0 — /24` (an en dash, a hyphen; t32-33
  finding 08).
* `10.0.48.0, prefix /24`, `10.0.48.0 with a /24 mask`, `10.0.48.0 with prefix length 24`: a `/N` of
  the old length a few words on, or a bare number after `length`/`prefixlen`/`mask bits` (no other
  address between, on the address's line) is likely the network's, but prose may mean anything: a
  `mask` residual naming the new length, never rewritten.
* ipcalc's output (`Netmask: 255.255.255.0 = 24`, `HostMax:`, `Hosts/Net: 254`; ipcalc-ng's
  layout and IPv6, sipcalc's `Network mask (bits) - 24`: t32-33 finding 07) pasted under a
  resized network: each value derives from the length, and a sweep rewriting its addresses by
  offset leaves a block that contradicts itself (`HostMax: 10.0.60.254` in a /22): the block is
  one `mask` residual (run ipcalc again), its addresses left as they are.

Pure: bytes and moves in, `LengthHit`s and the block's span out; `prefix_moves.length_hits` asks.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from renamer import lazy_re

_ADDRESS = re.compile(rb"(?<![0-9A-Za-z.:])((?:[0-9]{1,3}\.){3}[0-9]{1,3}"
                      rb"|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})(?![0-9A-Za-z.:/])")
# What may stand between the address and its length: a bracket, or a few words (no digit, no slash).
# A bracket of any shape, an article inside it allowed (`(/24)`, `[/24]`, `(a /24)`), or a dash (`— /24`,
# `– /24`, ` - /24`): the address's own length (t32-33 finding 08).
_DASH = rb"(?:\xe2\x80[\x93\x94]|--?)"
# a sentence's full stop may follow, and a colon that opens a clause (`is a /24: 254 hosts`, t36-33 08)
_END = rb"(?![0-9A-Za-z/]|:[0-9A-Za-z:]|\.[0-9A-Za-z])"
_BRACKETS = (
    re.compile(rb"[ \t]*[(\[{][ \t]*(?:an?[ \t]+)?/([0-9]{1,3})[ \t]*[)\]}]"),
    re.compile(rb"[ \t]*" + _DASH + rb"[ \t]*/([0-9]{1,3})" + _END),
)
_SEP = rb"(?:[ \t,;:(\[]|" + _DASH + rb")+"
_WORDS = lazy_re.compile(_SEP + rb"(?:[A-Za-z'-]+" + _SEP + rb"){1,3}/([0-9]{1,3})" + _END)
# `with prefix length 24`, `(prefixlen 24)`, `mask bits: 24`: a bare length its words name (finding 08).
_NAMED = lazy_re.compile(_SEP + rb"(?:[A-Za-z'-]+" + _SEP + rb"){0,3}?"
                    rb"(?i:(?:prefix|mask|netmask|cidr|network)?[ \t_-]*(?:length|len|bits))"
                    rb"(?:[ \t]*(?:of|is|=|:)[ \t]*|[ \t]+)([0-9]{1,3})" + _END)


# A dotted netmask the sentence writes between the address and its `/N` (`192.168.40.0 netmask
# 255.255.255.0 (a /24, 256 addresses)`): the sweep rewrites the mask, the `/24` beside it must be said
# (t36-33 finding 08).
_MASK_CLAUSE = lazy_re.compile(rb"[ \t,;:(]+(?:[A-Za-z-]+[ \t]+){0,2}"
                               rb"((?:[0-9]{1,3}\.){3}[0-9]{1,3})(?![0-9.])")


def _after_mask(data: bytes, end: int) -> int | None:
    """Where a netmask clause right after the address ending at `end` ends, or None."""
    found = _MASK_CLAUSE.match(data, end)
    if found is None:
        return None
    try:
        value = int(ipaddress.IPv4Address(found.group(1).decode("ascii")))
    except ValueError:
        return None
    inverted = value ^ 0xFFFFFFFF
    return found.end() if value not in (0, 0xFFFFFFFF) and (inverted & (inverted + 1)) == 0 else None


@dataclass(frozen=True)
class Near:
    start: int
    end: int
    old: str
    new: str
    note: str
    certain: bool  # rewrite (a bracket) or a residual (words between)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def near(data: bytes, moves: Sequence[tuple[Network, Network]]) -> Iterator[Near]:
    """Each `/N` of a resized move's old length a bracket or a few words after its address."""
    resized = [(old, new) for old, new in moves if old.prefixlen != new.prefixlen]
    if not resized:
        return
    for x in _ADDRESS.finditer(data):
        try:
            address = ipaddress.ip_address(x.group(1).decode("ascii"))
        except ValueError:
            continue
        move = next(((o, n) for o, n in resized if address.version == o.version and address in o), None)
        after = None
        if move is None:  # a file the sweep has written: the new network's address, the old length
            after = next(((o, n) for o, n in resized if address.version == n.version and address in n), None)
            move = after
        if move is None:
            continue
        old, new = move
        bracket = next((m for m in (p.match(data, x.end()) for p in _BRACKETS) if m is not None), None)
        words = None if bracket is not None else (_WORDS.match(data, x.end()) or _NAMED.match(data, x.end()))
        if bracket is None and words is None and (masked := _after_mask(data, x.end())) is not None:
            words = _WORDS.match(data, masked) or _NAMED.match(data, masked)  # a residual: never certain
        found = bracket or words
        if found is None or int(found.group(1)) != old.prefixlen:
            continue
        if b"\n" in data[x.end():found.end()]:
            continue
        if after is not None:
            yield Near(found.start(1), found.end(1), found.group(1).decode(), found.group(1).decode(),
                       f"/{old.prefixlen} after {address} of the new network {new}: the old length "
                       f"{old.prefixlen} of {old}; write /{new.prefixlen} by hand if it is the network's",
                       False)
        elif bracket is not None:
            yield Near(found.start(1), found.end(1), found.group(1).decode(), str(new.prefixlen),
                       f"the length of {address} in brackets after it: {old} becomes {new}", True)
        else:
            yield Near(found.start(1), found.end(1), found.group(1).decode(), found.group(1).decode(),
                       f"the length {old.prefixlen} a few words after {address}, of {old}, which becomes "
                       f"{new}: write {new.prefixlen} by hand if it is the network's", False)


def ipcalc_blocks(data: bytes, moves: Sequence[tuple[Network, Network]]) -> Iterator[tuple[int, int, str]]:
    """(start, end, note) of each pasted ipcalc or sipcalc block whose length line (`Netmask: M = N`,
    `Network mask (bits) - N`, `Prefix length - N`) holds a resized move's old length and which names
    an address of its old network (or of the new one: a block a sweep has half rewritten).

    The block is the run of `Key: value` / `Key - value` lines (one blank line at a time, sipcalc's
    `-[ipv4 : A/N] - 0` and `[CIDR]` heads, indented continuations) around the length line, with at
    least one value that derives from the length (HostMin, HostMax, Hosts/Net, broadcast, usable
    range, addresses in network): Debian's ipcalc (Network below Netmask), ipcalc-ng (Fedora/RHEL's
    `ipcalc`: Network above Netmask, a blank line inside; IPv6 too) and sipcalc (t32-33 finding 07)."""
    resized = [(o, n) for o, n in moves if o.prefixlen != n.prefixlen]
    if not resized or _DERIVED.search(data) is None:
        return
    lines = _lines(data)
    done = -1
    for x in _LENGTH_LINE.finditer(data):
        if x.start() < done:
            continue
        length = int(x.group(1))
        if not any(o.prefixlen == length for o, _ in resized):
            continue
        at = next(i for i, (s, e) in enumerate(lines) if s <= x.start() < e + 1)
        first, last = _block(data, lines, at)
        start, end = lines[first][0], lines[last][1]
        block = data[start:end]
        if _DERIVED.search(block) is None:
            continue
        named = set()
        for found in _BLOCK_ADDRESS.finditer(block):
            try:
                named.add(ipaddress.ip_address(found.group(1).decode("ascii")))
            except ValueError:
                continue
        for old, new in resized:
            if old.prefixlen != length or not any(a.version == old.version and (a in old or a in new)
                                                  for a in named):
                continue
            done = end
            yield (start, end,
                   f"ipcalc's output for {old}: every value in it (mask, HostMin, HostMax, broadcast, "
                   f"Hosts/Net) comes from the length, which becomes {new.prefixlen} ({new}); run ipcalc "
                   "for the new network and paste its output by hand")
            break


# ipcalc (Debian and ipcalc-ng, IPv4 and IPv6) and sipcalc: the line that prints the length.
_LENGTH_LINE = lazy_re.compile(rb"(?im)^[ \t]*(?:Netmask:[ \t]+[0-9A-Fa-f.:]+[ \t]*=[ \t]*"
                          rb"|Network mask \(bits\)[ \t]*-[ \t]*|Prefix length[ \t]*-[ \t]*)"
                          rb"([0-9]{1,3})(?![0-9])")
# A value that derives from the length.
_DERIVED = lazy_re.compile(rb"(?im)^[ \t]*(?:HostMin:|HostMax:|Hosts/Net:|Broadcast:|Broadcast address"
                      rb"|Usable range|Addresses in network|Network range)")
# A line of such a block: `Key: value`, `Key - value`, a sipcalc head, an indented continuation, blank.
_BLOCK_LINE = lazy_re.compile(rb"[ \t]*(?:[A-Za-z][A-Za-z0-9 /()._-]{0,40}?[ \t]*(?::|[ \t]-(?:[ \t]|$))"
                         rb"|-\[|\[[A-Za-z0-9 ]+\][ \t]*$|[ \t]+[0-9A-Fa-f:.]+|$)")
_BLOCK_ADDRESS = lazy_re.compile(rb"(?<![0-9A-Za-z.:])((?:[0-9]{1,3}\.){3}[0-9]{1,3}"
                            rb"|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})(?![0-9A-Za-z.:])")


def _lines(data: bytes) -> list[tuple[int, int]]:
    out, at = [], 0
    for line in data.split(b"\n"):
        out.append((at, at + len(line)))
        at += len(line) + 1
    return out


def _is_block_line(data: bytes, span: tuple[int, int]) -> bool:
    return _BLOCK_LINE.match(data[span[0]:span[1]].rstrip(b"\r")) is not None


def _blank(data: bytes, span: tuple[int, int]) -> bool:
    return not data[span[0]:span[1]].strip()


def _block(data: bytes, lines: list[tuple[int, int]], at: int) -> tuple[int, int]:
    """The first and last line of the block around line `at` (at most 24 lines each way; two blank
    lines in a row, or a line of another shape, end it)."""
    first = at
    while first > 0 and at - first < 24 and _is_block_line(data, lines[first - 1]) \
            and not (_blank(data, lines[first - 1]) and (first < 2 or _blank(data, lines[first - 2]))):
        first -= 1
    last = at
    while last + 1 < len(lines) and last - at < 24 and _is_block_line(data, lines[last + 1]) \
            and not (_blank(data, lines[last + 1])
                     and (last + 2 >= len(lines) or _blank(data, lines[last + 2]))):
        last += 1
    while first < at and _blank(data, lines[first]):
        first += 1
    while last > at and _blank(data, lines[last]):
        last -= 1
    return first, last
