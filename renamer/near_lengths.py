"""A `/N` a bracket or a few words after a resized network's address, and pasted ipcalc output
(t31-33 finding 11).

* `10.0.48.0 (/24)`, `2001:db8:a:10:: (/64)`: the length in brackets right after the address is
  its own: it follows (`(/22)`), as `10.0.48.0 / 24` does (prefix_spellings.py).
* `10.0.48.0, prefix /24`, `10.0.48.0 with a /24 mask`: a `/N` of the old length a few words on
  (no other address between, on the address's line) is likely the network's, but prose may mean
  anything: a `mask` residual naming the new length, never rewritten.
* ipcalc's output (`Netmask: 255.255.255.0 = 24`, `HostMax:`, `Hosts/Net: 254`) pasted under a
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

_ADDRESS = re.compile(rb"(?<![0-9A-Za-z.:])((?:[0-9]{1,3}\.){3}[0-9]{1,3}"
                      rb"|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})(?![0-9A-Za-z.:/])")
# What may stand between the address and its length: a bracket, or a few words (no digit, no slash).
_BRACKET = re.compile(rb"[ \t]*\([ \t]*/([0-9]{1,3})[ \t]*\)")
_WORDS = re.compile(rb"[ \t,;:]+(?:[A-Za-z-]+[ \t,;:]+){1,3}/([0-9]{1,3})(?![0-9A-Za-z/.])")
_IPCALC = re.compile(rb"(?m)^[ \t]*Netmask:[ \t]+[0-9.]+[ \t]*=[ \t]*[0-9]{1,3}.*$")
_IPCALC_ADDRESS = re.compile(rb"[ \t]*Address:[ \t]+[0-9.]+[^\n]*\n")
_IPCALC_END = re.compile(rb"(?m)^[ \t]*Hosts/Net:[ \t]*[0-9]+.*$")


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
    if not resized or b"/" not in data:
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
        bracket = _BRACKET.match(data, x.end())
        words = None if bracket is not None else _WORDS.match(data, x.end())
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
                       f"/{old.prefixlen} a few words after {address}, of {old}, which becomes {new}: "
                       f"write /{new.prefixlen} by hand if it is the network's", False)


def ipcalc_blocks(data: bytes, moves: Sequence[tuple[Network, Network]]) -> Iterator[tuple[int, int, str]]:
    """(start, end, note) of each pasted ipcalc block (from `Netmask: M = N` to `Hosts/Net:`) whose
    length is a resized move's old one and which names an address of it."""
    if b"Hosts/Net:" not in data:
        return
    for x in _IPCALC.finditer(data):
        end = _IPCALC_END.search(data, x.end())
        if end is None or data.count(b"\n", x.end(), end.start()) > 12:
            continue
        start = x.start()
        above = data.rfind(b"\n", 0, max(0, start - 1)) + 1  # ipcalc prints `Address:` first
        if start > 0 and _IPCALC_ADDRESS.match(data, above, start) is not None:
            start = above
        block = data[start:end.end()]
        for old, new in moves:
            if old.prefixlen == new.prefixlen or old.version != 4:
                continue
            if re.search(rb"=[ \t]*" + str(old.prefixlen).encode() + rb"(?![0-9])", x.group()) is None:
                continue
            if str(old.network_address).encode() not in block:
                continue
            yield (start, end.end(),
                   f"ipcalc's output for {old}: every value in it (mask, HostMin, HostMax, broadcast, "
                   f"Hosts/Net) comes from the length, which becomes {new.prefixlen} ({new}); run ipcalc "
                   "for the new network and paste its output by hand")
            break
