"""A network moved to another of any prefix length (`renames.networks`), pure and I/O free.

Every address keeps its host offset from the network address (`10.0.48.3` of 10.0.48.0/29 is
`10.0.48.3` of 10.0.48.0/28, and `10.1.0.3` of 10.1.0.0/28); the IPv4 broadcast address, which no
host can hold, becomes the new network's broadcast address where its line says `broadcast`
(`bcast`, `brd`), and is refused elsewhere (its offset names a host of a network of another
length). What depends on the length follows it: a `/29` after a moved address, the dotted mask
(255.255.255.248 -> 255.255.255.240) and the Cisco wildcard (0.0.0.7 -> 0.0.0.15) beside a moved
address, a `prefix`/`netmask`/`cidr` key's number in a stanza of moved addresses (`length_hits`).
A shrink that leaves an address in use outside the new network is refused. The reverse zones that
answer for the network follow too: those a move renames, needs and leaves, and the RFC 2317
classless names it touches, which are reported, never rewritten (`zone_change`). match.py asks these
rules of each match (`Matcher._lengthed`, `_with_lengths`, `_ranges_moved_whole`); docs/matching.md,
"Networks of another length", has them with examples.
"""

from __future__ import annotations

import bisect
import functools
import ipaddress
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from renamer import (
    forms,
    lazy_re,
    length_keys,
    near_lengths,
    new_host_lengths,
    prefix_spellings,
    templated_lengths,
    wildcard_bits,
)
from renamer.names import IPAddress, IPNetwork

# The word on an address's line that makes it a broadcast address (`broadcast 10.0.48.7`,
# `Broadcast=`, `option broadcast-address`, `ip addr add ... brd 10.0.48.7`).
_BROADCAST = lazy_re.compile(rb"(?i)(?<![a-z])(?:broadcast|bcast|brd)(?![a-z])")

# An address before it on its line (IPv4, or IPv6 with two colons): the word must come after it.
_ADDRESS_LIKE = lazy_re.compile(rb"[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9A-Fa-f]*:[0-9A-Fa-f:]*:[0-9A-Fa-f]*")
OUTSIDE = "outside-prefix"  # Match.refused: a shrink leaves this address outside the new network
BROADCAST = "broadcast"  # Match.refused: the old broadcast address where no word says it is one
MASK = "mask"  # Match.refused: a mask, wildcard or prefix length whose network is not certain
ZONE = "reverse-zone"  # Match.refused: a reverse zone a resized move cannot carry


@dataclass(frozen=True)
class PrefixMove:
    """One `renames.networks` pair."""

    old: IPNetwork
    new: IPNetwork

    @property
    def resized(self) -> bool:
        return self.old.prefixlen != self.new.prefixlen

    @property
    def has_broadcast(self) -> bool:
        """An IPv4 network of more than two addresses: its last address is no host's."""
        return self.old.version == 4 and self.old.prefixlen <= 30

    def offset_of(self, address: IPAddress) -> int | None:
        if address.version != self.old.version or address not in self.old:
            return None
        return int(address) - int(self.old.network_address)

    def mapped(self, address: IPAddress) -> IPAddress | None:
        """The address at the same offset from the new network address; None outside the old
        network or past the new one's end (a shrink). May be the new network's broadcast address,
        where no host goes: `fits` says."""
        offset = self.offset_of(address)
        if offset is None or offset >= self.new.num_addresses:
            return None
        return self.new.network_address + offset  # its own family: ip_address(int) reads a small one as IPv4

    def fits(self, address: IPAddress) -> bool:
        """Does the address have a place in the new network: the old broadcast address always
        (the new one's), any other by its offset, which must not land on the new network's
        broadcast address (a shrink: 10.0.48.7 of a /28 is the broadcast address of a /29)."""
        offset = self.offset_of(address)
        if offset is None:
            return False
        if self.is_broadcast(address):
            return True
        return offset < self.new.num_addresses - (1 if self.new_has_broadcast else 0)

    @property
    def new_has_broadcast(self) -> bool:
        return self.new.version == 4 and self.new.prefixlen <= 30

    def why_not(self, address: IPAddress) -> str:
        """Why `fits` is false for an address of the old network."""
        offset = self.offset_of(address)
        if self.old.version == 6 and offset is not None:
            # A count of addresses 22 digits long says nothing (break-it round 20p, finding 14): the
            # subnet of the new network's length that holds it, and the one the new network takes.
            bits = self.old.max_prefixlen - self.new.prefixlen
            held = ipaddress.ip_network((int(address) >> bits << bits, self.new.prefixlen))
            first = ipaddress.ip_network((int(self.old.network_address), self.new.prefixlen))
            return (f"{address} lies in {held}, outside {first}, the part of {self.old} that {self.new} "
                    "holds (each address keeps its offset)")
        if offset == self.new.num_addresses - 1:
            return (f"{address} lies {offset} addresses into {self.old}, the place of {self.new}'s "
                    "broadcast address")
        return (f"{address} lies {offset} addresses into {self.old}, and {self.new} holds "
                f"{self.new.num_addresses}")

    def is_broadcast(self, address: IPAddress) -> bool:
        return self.has_broadcast and address == self.old.broadcast_address

    def moved(self, address: IPAddress, *, broadcast: bool) -> IPAddress | None:
        """Where `address` goes: the broadcast address to the new one when `broadcast` (its line
        says so), any other to its offset; None outside the old network or outside the new one."""
        if broadcast and self.is_broadcast(address):  # a /31 or /32 has none: no place
            return self.new.broadcast_address if self.new_has_broadcast else None
        return self.mapped(address) if self.fits(address) and not self.is_broadcast(address) else None


def mask(net: IPNetwork) -> str:
    return str(net.netmask)


def wildcard(net: IPNetwork) -> str:
    return str(net.hostmask)


# Where a syntax puts the broadcast address with no word for it (break-it round 20p, finding 13):
# dnsmasq's `dhcp-range=START,END,MASK,BROADCAST,...` (the field after the netmask) and
# `dhcp-option=[tag:x,]28,ADDRESS` (DHCP option 28 is the broadcast address).
_BROADCAST_BY_SYNTAX = lazy_re.compile(
    rb"(?i)[ \t]*dhcp-range[ \t]*=[^\n]*,[ \t]*255\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}[ \t]*,[ \t]*\Z"
    rb"|[ \t]*dhcp-option(?:-force)?[ \t]*=[ \t]*(?:(?:tag|set|encap|vi-encap|vendor):[^,\n]*,[ \t]*)*"
    rb"28[ \t]*,[ \t]*\Z")


def says_broadcast(data: bytes, start: int) -> bool:
    """Does the line before `start`, after any address before it, name a broadcast address
    (`broadcast 10.0.48.7`, not `broadcast 192.168.1.255 peer 10.0.48.7`), or put one there by
    its syntax (dnsmasq's broadcast field and option 28)?"""
    line = data.rfind(b"\n", 0, start) + 1
    if _BROADCAST_BY_SYNTAX.match(data, line, start):
        return True
    after = max((x.end() for x in _ADDRESS_LIKE.finditer(data, line, start)), default=line)
    return _BROADCAST.search(data, after, start) is not None


_LENGTH_END = lazy_re.compile(rb"(?![0-9A-Za-z_/-])(?!\.[0-9A-Za-z])")


# The word before an IPv6 router advertisement's prefix: radvd's `prefix 2001:db8:a:1::/64 {`, VyOS's
# `router-advert ... prefix`, systemd-networkd's `[IPv6Prefix] Prefix=`.
_RA_PREFIX = lazy_re.compile(rb"(?im)(?:^|[ \t{;])prefix[ \t]*=?[ \t]*[\"']?\Z")


def ra_prefix(data: bytes, start: int) -> bool:
    """Whether the IPv6 prefix at `start` is a router advertisement's (its line's word before it
    says `prefix`): SLAAC takes only a /64 there (RFC 4862 5.5.3: the prefix and a 64-bit interface
    identifier make 128 bits), so a move of a /64 to another length cannot just rewrite it (f25
    breaker, finding 3: `prefix 2001:db8:a:10::/60` was written, verify OK, SLAAC gone)."""
    line_start = data.rfind(b"\n", 0, start) + 1
    return _RA_PREFIX.search(data, line_start, start) is not None


def is_length(data: bytes, start: int, end: int) -> bool:
    """Is the `/N` ending at `end`, after the address at `start`, a prefix length: not a URL's
    path (the address after `://`), not a share's (`//10.9.0.6/24`: cifs, fstab, a UNC path in
    slashes), not a word's start (`/24hours`), not a path (`/24/x`)?"""
    return data[max(0, start - 2):start] != b"//" and _LENGTH_END.match(data, end) is not None


# A dotted mask or wildcard right after an address: `A M`, `A netmask M`, `A mask M`, `A/M`; or
# a BSD hex netmask (`inet A netmask 0xffff0000`, OpenBSD's `inet A 0xffff0000 NONE`).
_MASK_AFTER = lazy_re.compile(rb"(?:[ \t]+(?:(?i:netmask|mask)[ \t]+)?|/)"
                         rb"((?:[0-9]{1,3}\.){3}[0-9]{1,3}(?![0-9.])|0[xX][0-9A-Fa-f]{8}(?![0-9A-Za-z]))")
# A BSD hex netmask (ifconfig, rc.conf, hostname.if): eight hex digits after 0x, as a whole word.
_HEX_MASK = lazy_re.compile(rb"(?<![0-9A-Za-z_])0[xX]([0-9A-Fa-f]{8})(?![0-9A-Za-z_])")


_MASK_KEY_LINE = lazy_re.compile(rb"[ \t]*(?:-[ \t]+)?:?[\"']?[A-Za-z_-]*(?i:mask)[\"']?[ \t]*(?:=>|[:=])"
                            rb"[ \t]*[\"']?")


def masked_length(data: bytes, end: int) -> int | None:
    """The prefix length a dotted netmask or Cisco wildcard right after the address ending at
    `end` spells (`255.255.0.0`, `0.0.255.255`: 16), or None (no mask there, or 0.0.0.0 and
    255.255.255.255, which read as either)."""
    found = _MASK_AFTER.match(data, end)
    if found is None:
        return None
    if found.group(1)[:2] in (b"0x", b"0X"):
        value = int(found.group(1)[2:], 16)
        inverted = value ^ 0xFFFFFFFF  # a hex mask is a netmask, never a wildcard
        return bin(value).count("1") if value and (inverted & (inverted + 1)) == 0 else None
    if not _valid(found.group(1).decode("ascii")):
        return None
    value = int(ipaddress.IPv4Address(found.group(1).decode("ascii")))
    if value in (0, 0xFFFFFFFF):
        return None
    inverted = value ^ 0xFFFFFFFF
    if (inverted & (inverted + 1)) == 0:  # ones then zeros: a netmask
        return bin(value).count("1")
    if (value & (value + 1)) == 0:  # zeros then ones: a wildcard
        return 32 - bin(value).count("1")
    # a pattern's block (`0.0.1.254`, `255.255.254.1`: 23): one wider than the moved network is a
    # supernet's, as its contiguous twin (t32-33 finding 20)
    return wildcard_bits.span(found.group(1).decode("ascii"))


@functools.lru_cache(maxsize=2)
def _stanzas_of(data: bytes) -> _Stanzas:
    return _Stanzas(data)  # one file's, read once for all its address keys


def stanza_length(data: bytes, start: int, version: int = 4) -> int | None:
    """The prefix length a key of its stanza gives the address at `start` on an address key's
    line (`network: 10.9.0.0` beside `prefix: 16` or `netmask: 255.255.0.0`), the shortest where
    several do, or None (no address key, no stanza, no length key)."""
    line_start, line_end = _line_span(data, start)
    if _ADDRESS_KEY.match(data, line_start) is None:
        return None
    stanza = _stanzas_of(data).around(start)
    if stanza is None:
        return None
    lengths = []
    for s, e in stanza[0]:
        if (s, e) == (line_start, line_end):
            continue
        key = _LENGTH_KEY.search(data, s, e) or _XML_LENGTH_KEY.search(data, s, e)
        if key is not None:
            # an IPv6 key's length (`prefix6: 64`, `<subnetv6>`) is no IPv4 address's, and an IPv6
            # address owns only a length its key or its value says is IPv6's
            family = prefix_spellings.length_family(data[s:key.start(1)], key.group(1).decode())
            if (family == 6) == (version == 6):
                lengths.append(int(key.group(1)))
            continue
        if version == 6:
            continue
        mask_key = _MASK_KEY_LINE.match(data[s:e])
        if mask_key is not None:
            masked = masked_length(b" " + data[s + mask_key.end():e], 0)
            if masked is not None:
                lengths.append(masked)
    return min(lengths, default=None)


def outside(moves: list[PrefixMove], used: list[IPAddress]) -> list[IPAddress]:
    """The addresses in use that a move cannot place in its new network (a shrink): the old
    broadcast address counts as placed (it becomes the new one's)."""
    out = []
    for address in used:
        for move in moves:
            if move.offset_of(address) is None:
                continue
            if not move.fits(address):
                out.append(address)
            break
    return out


def resize_problem(old: IPNetwork, new: IPNetwork) -> str | None:
    """Why `old: new` is no network move renamer makes, or None: the families differ, or the two
    overlap without sharing the network address (a resize in place, 10.0.48.0/29 -> /28, keeps
    every offset; any other overlap would move an address onto another moved one)."""
    if old.version != new.version:
        return f"{old} and {new} must be of one family (IPv{old.version} and IPv{new.version})"
    if old.overlaps(new) and old.network_address != new.network_address:
        return (f"{new} overlaps {old}: a second sweep would move addresses again (a network may "
                "overlap its new one only where both start at one address: a resize in place)")
    return None


# -- what depends on the length: masks, wildcards, prefix keys (issue 33 item 2) ---------------

# An IPv6 address (with at least two colons; a `/len` or a zone after it is not part of it).
_V6 = lazy_re.compile(
    rb"(?<![A-Za-z0-9.:])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]+(?:[0-9]+(?:\.[0-9]+){3})?"
                 rb"(?![A-Za-z0-9:])")
_QUAD = lazy_re.compile(rb"(?<![A-Za-z0-9.])(?:[0-9]{1,3}\.){3}[0-9]{1,3}(?![0-9])(?!\.[0-9])")
# A key whose number is a prefix length (`prefix: 29`, `PrefixLength=29`, `"cidr": "29"`, `netmask 29`).
# A family tag after the word names an IPv6 or IPv4 length (`prefix6: 64`, `netmask4`), never a length
# of its digit (t26-33, finding 15: `prefix6: 64` was read as /6).
# A length word with a tail (`mask_bits`, `cidr_len`, `netmask_bits`, `prefixlen`, `cidr_suffix`, `netbits`,
# `subnet_bits`) and `plen` are length keys too, and `=>` (Puppet, PHP, Perl, Ruby) assigns as `:` and `=`
# do (t29-33, findings 04, 13, 22: the address moved, the length stayed, no residual).
_SEP = length_keys.SEP
# A family word before the key (SaltStack's `ipv6netmask`, `ipv6prefixlen`, `ipv6ipaddr`; `ipv6_netmask`,
# `ip6_prefix`: t32-33 finding 22): the same key, of that family.
_FAMILY = rb"(?:(?:ipv6|ipv4|ip6|ip4|inet6|inet)[_-]?)?"
_LENGTH_KEY = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9_])[\"']?" + _FAMILY + rb"(?:" + length_keys.COMPOUND
                         + rb"|prefix|cidr|netmask|mask|plen|subnet[_-]?mask)"
                         rb"(?:[_-]?(?:ipv6|ipv4|v6|v4|6|4))?(?![0-9])"
                         rb"[\"']?[ \t]*" + _SEP + rb"?[ \t]*[\"']?([0-9]{1,3})(?![0-9.A-Za-z_])")
# The same as an XML element (pfSense and OPNsense's config.xml: `<subnet>29</subnet>` beside
# `<ipaddr>10.0.48.1</ipaddr>`, `<subnetv6>64</subnetv6>`; f25 breaker, finding 1: never read, the
# length stayed 29 under a move to a /28, verify OK).
_XML_LENGTH_KEY = lazy_re.compile(rb"(?i)<(?:(?:" + length_keys.COMPOUND + rb"|plen)(?:[_-]?v6)?|"
                             rb"subnet(?:v6)?|prefix(?:[_-]?len(?:gth)?)?|prefixlength|cidr|netmask|"
                             rb"mask(?:[_-]?len(?:gth)?)?|subnet[_-]?mask)>[ \t]*([0-9]{1,3})[ \t]*</")
# A key whose value is an address of the stanza's network (not a gateway's, a resolver's).
_ADDRESS_KEY = lazy_re.compile(rb"(?im)^[ \t]*(?:-[ \t]+)?:?[\"']?" + _FAMILY
                          + rb"(?:ip|ipv4|ipv6|ipaddr|ip[_-]?address"
                          rb"|address(?:es)?|addr|network|net|subnet|cidr|prefix)"
                          rb"(?:[_-]?(?:v6|v4|6|4))?[\"']?"
                          rb"(?:[ \t]*[:=]|[ \t]+[0-9])"
                          # OpenWrt's UCI: `option ipaddr '10.9.0.1'`, a route's `option target '10.5.0.0'`
                          rb"|^[ \t]*option[ \t]+(?:ipaddr|ip6addr|target)[ \t]+[\"']?[0-9]"
                          # pfSense's `<ipaddr>10.0.48.1</ipaddr>`, `<ipaddrv6>`, a route's `<network>`
                          # (a Windows DHCP export's `<ScopeId>192.168.40.0</ScopeId>`: t36-33 finding 19)
                          rb"|^[ \t]*<(?:ipaddr(?:v6)?|ip|address|network|subnet|scopeid)>[ \t]*[0-9A-Fa-f:]")
_MASK_KEY = lazy_re.compile(rb"(?i)mask|wildcard")
# A gateway key (`"gateway": "10.0.48.1"`, `gateway4:`, `default_gw =`): the gateway is on the
# link, so where a stanza's mask has no address key beside it, the gateway's network is its own
# (khaddict/homelab's `data/main.json`: `"gateway"` over `"netmask": "255.255.255.0"`).
_GATEWAY_KEY = lazy_re.compile(rb"(?im)^[ \t]*(?:-[ \t]+)?[\"']?(?:default[_-]?)?(?:gateway|gw)"
                          rb"(?:[_-]?(?:v4|4|ip|address))?[\"']?[ \t]*[:=]")
# A key naming a network with no address here (a route's `destination: "{{ remote }}"`, `to:`): the
# stanza's mask may be that network's, not the gateway's.
_ROUTE_KEY = lazy_re.compile(rb"(?i)[ \t]*(?:-[ \t]+)?[\"']?"
                        rb"(?:dest(?:ination)?|to|target|route|net(?:work)?|subnet|prefix)[\"']?[ \t]*[:=]")
# A key whose name ends in a length word after a name of its own (`lan_cidr: 24`, `ipv4_netmask =
# 24`, `vlanPrefixLength: 24`; break-it round 20p, finding 6): its number is a length too, tied to
# its network by the address key of the same name (`lan_network`, `ipv4_address`), else a residual.
_WORDS = rb"(?:" + length_keys.COMPOUND + rb"|prefix|cidr|netmask|mask|subnet[_-]?mask)"
_NAMED_LENGTH_KEY = lazy_re.compile(
    # the word first, its own name's separator or camel case behind it: a scan for the word, not
    # for every name (a name-first pattern cost twice length_hits on a homelab repo)
    rb"(?:(?<=[A-Za-z0-9][_.-])|(?<=[a-z0-9])(?=[A-Z]))(?i:" + _WORDS + rb")"
    rb"(?i:[_-]?(?:ipv6|ipv4|v6|v4|6|4))?(?![0-9])"  # `LAN_PREFIX6` (t29-33, finding 17)
    rb"[\"']?[ \t]*" + _SEP + rb"[ \t]*[\"']?([0-9]{1,3})(?![0-9.A-Za-z_])")
# One of these stands in every key _NAMED_LENGTH_KEY reads (a byte search before the regex's scan).
_WORD_TAILS = (b"idr", b"IDR", b"ask", b"ASK", b"efix", b"EFIX", *length_keys.TAIL_NEEDLES)
# A key's name at its line's start, and the same name's parts: its own and its length or address word.
_KEY_NAME = lazy_re.compile(rb"[ \t]*(?:-[ \t]+)?:?[\"']?([A-Za-z0-9_.-]+)[\"']?[ \t]*[:=]")
# (its own name in any case: `LAN_PREFIX` beside `LAN_NETWORK` in an .env, t29-33 finding 17; a weak
# tail, `lab_bits`, `LAN_LEN`, pairs by the name only)
_NAMED = lazy_re.compile(rb"(.*?[A-Za-z0-9])(?:[_.-]|(?=[A-Z]))((?i:" + _WORDS + rb"|" + length_keys.WEAK
                    + rb"|wildcard|"
                    rb"ip|ipv4|ipv6|ipaddr|ip[_-]?address|address(?:es)?|addr|network|net|subnet"
                    rb"|(?:default[_-]?)?(?:gateway|gw)))"
                    rb"(?i:[_-]?(?:ipv6|ipv4|v6|v4|6|4))?")
# A gateway word just before an address: no mask on its line is its network's (`route add -net
# 10.5.0.0 gw 10.9.0.1 netmask 255.255.255.0` is 10.5.0.0's).
# The key may be quoted, prefixed and assigned as any one-line object writes it (JSON `"gateway": "`,
# HCL/TOML/Lua/Nix `gateway = "`, Python `'gw': '`, Ruby/PHP/Perl `:gateway => "`, `default_gw`,
# `next_hop`; t36-33 finding 01: a mask after a quoted gateway followed it, not the route's `dest`).
_GATEWAY = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_-])?"
                           rb"(?:gw|via|gateway|next[_-]?hop|routers?)"
                           rb"(?:[_-]?(?:v4|4|ip|ipv4|address|addr))?\\?[\"']?[ \t]*(?:=>|[:=])?[ \t]*"
                           rb"\\?[\"']?\Z")
# A word naming a route's destination on a line (t36-33 01): a gateway there is not the mask's network.
_DESTINATION = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9])(?:-net|-host|dest(?:ination)?|dst|to|target|route)"
                               rb"(?![A-Za-z0-9])")
# nft's bitwise and: `ip saddr & MASK == NET` masks the address after it.
_AMPERSAND = lazy_re.compile(rb"[^\n&]*&[ \t]*\Z")
# A mask directly after its address (`10.0.48.0 0.0.0.7`, `A/M`, `A,M`): tied by syntax.
_ADJACENT = lazy_re.compile(rb"[ \t]*[/,]?[ \t]*")
# Lines that open a stanza of their own (an INI section, an interfaces stanza, a Cisco interface).
_OPENS = lazy_re.compile(
    rb"(?im)^[ \t]*(?:\[|iface[ \t]|auto[ \t]|allow-|mapping[ \t]|interface[ \t]|host[ \t]|"
                    rb"subnet[ \t]|shared-network[ \t])")


_STANZA_LINES = 40  # a stanza is a few lines; a longer run is a list or a dump
_ONE_KEY_ITEM = lazy_re.compile(rb"[ \t]*-[ \t]+[\"']?[A-Za-z_][\w.-]*[\"']?[ \t]*:[ \t]+[^ \t#\n]")


def _line_span(data: bytes, pos: int) -> tuple[int, int]:
    start = data.rfind(b"\n", 0, pos) + 1
    end = data.find(b"\n", pos)
    return start, len(data) if end < 0 else end


def _indent(line: bytes) -> int:
    stripped = line.lstrip(b" \t")
    width = len(line) - len(stripped)
    while stripped.startswith(b"- "):  # a YAML list item's keys sit past its dash
        rest = stripped[2:].lstrip(b" ")
        width += len(stripped) - len(rest)
        stripped = rest
    return width


class _Stanzas:
    """One file's stanzas, read once: for each line, the first and last line of the run of lines
    beside it (as far as a blank line, a line less indented than it, or a line that opens a stanza
    of its own: `[section]`, `iface`, `interface`, `subnet ... {`) and the line that opens the run
    (less indented, or an opener), its header. Each line's bounds are remembered with its
    indentation, so a file of many masks reads each line a few times, not once per mask."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts = [0, *(x.end() for x in re.finditer(rb"\n", data))]
        self._info: dict[int, tuple[int, bool, bool]] = {}
        self._items: dict[int, bool] = {}
        self._ones: dict[int, bool] = {}
        self._up: dict[tuple[int, int, bool], tuple[int, int | None]] = {}
        self._down: dict[tuple[int, int, bool], int] = {}

    def span(self, index: int) -> tuple[int, int]:
        start = self.starts[index]
        end = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.data)
        return start, end

    def _line(self, index: int) -> tuple[int, bool, bool]:
        """(indentation, blank, opens a stanza)"""
        found = self._info.get(index)
        if found is None:
            s, e = self.span(index)
            line = self.data[s:e]
            found = (_indent(line), not line.strip(), _OPENS.match(line) is not None)
            self._info[index] = found
        return found

    def _item(self, index: int, own: int) -> bool:
        """Does the line open a YAML list item whose keys sit at `own` (`  - name: lan` for keys at
        4): a sibling item is a stanza of its own (break-it round 20p, finding 5)."""
        found = self._items.get(index)
        if found is None:
            s, e = self.span(index)
            found = self.data[s:e].lstrip(b" \t").startswith(b"- ")
            self._items[index] = found
        return found and self._line(index)[0] == own

    def around(self, pos: int) -> tuple[list[tuple[int, int]], tuple[int, int] | None] | None:
        """The line spans of the stanza holding `pos` and its header's, or None where the run is
        longer than _STANZA_LINES (no stanza: a list, a dump)."""
        index = bisect.bisect_right(self.starts, pos) - 1
        own, _, opens = self._line(index)
        first, header = (index, None) if opens else self._first(index, own)
        last = self._last(index, own)
        if last - first + 1 > _STANZA_LINES:
            return None
        head = self.span(header) if header is not None else None
        return [self.span(i) for i in self._own_lines(first, last, own, index)], head

    def _own_lines(self, first: int, last: int, own: int, index: int) -> list[int]:
        """The lines first..last less those of a YAML list of mappings nested deeper than `own`
        (cloud-init's `routes: - network: .. netmask: ..` under a subnet): a nested item is a stanza
        of its own, its mask and address no key of the lines around it (t32-33 finding 15)."""
        out = []
        skip: int | None = None  # the key indentation of the nested item being skipped
        for i in range(first, last + 1):
            indent = self._line(i)[0]
            if skip is not None and indent >= skip and i != index:
                continue
            skip = None
            if i != index and indent > own and self._mapping_item(i):
                skip = indent
                continue
            out.append(i)
        return out

    def _mapping_item(self, index: int) -> bool:
        s, e = self.span(index)
        return re.match(rb"[ \t]*(?:-[ \t]+)+[\"']?[A-Za-z_][\w.-]*[\"']?[ \t]*:(?:[ \t]|$)",
                        self.data[s:e]) is not None

    def _one_key(self, index: int) -> bool:
        """Is the line a YAML list item of one key and its value, all on the line (`- netmask:
        255.255.255.0`)? A run of such items is one mapping written as a list: Salt's state
        arguments (`network.managed:` over `- ipaddr:` and `- netmask:`, t36-33 finding 19)."""
        found = self._ones.get(index)
        if found is None:
            s, e = self.span(index)
            line = self.data[s:e]
            found = _ONE_KEY_ITEM.match(line) is not None
            if found and index + 1 < len(self.starts):
                ns, ne = self.span(index + 1)
                following = self.data[ns:ne]
                dash = len(line) - len(line.lstrip(b" \t"))
                found = not following.strip() or len(following) - len(following.lstrip(b" \t")) <= dash
            self._ones[index] = found
        return found

    def _first(self, index: int, own: int) -> tuple[int, int | None]:
        walked = []
        at = index
        result: tuple[int, int | None]
        one = self._one_key(index)
        while True:
            known = self._up.get((at, own, one))
            if known is not None:
                result = known
                break
            walked.append(at)
            if self._item(at, own) and not (one and self._one_key(at) and at > 0
                                             and self._item(at - 1, own) and self._one_key(at - 1)):
                result = (at, None)
                break
            if at == 0:
                result = (0, None)
                break
            indent, blank, opens = self._line(at - 1)
            if blank:
                result = (at, None)
                break
            if indent < own or opens:
                result = (at, at - 1)
                break
            at -= 1
        for line in walked:
            self._up[(line, own, one)] = result
        return result

    def _last(self, index: int, own: int) -> int:
        walked = []
        at = index
        one = self._one_key(index)
        while True:
            known = self._down.get((at, own, one))
            if known is not None:
                result = known
                break
            walked.append(at)
            if at + 1 >= len(self.starts):
                result = at
                break
            indent, blank, opens = self._line(at + 1)
            if blank or indent < own or opens or (self._item(at + 1, own)
                                                   and not (one and self._one_key(at + 1))):
                result = at
                break
            at += 1
        for line in walked:
            self._down[(line, own, one)] = result
        return result


@dataclass(frozen=True)
class LengthHit:
    """A mask, wildcard or prefix length of a moved network's old length: its new text, or why
    it is left (`refused`)."""

    start: int
    end: int
    old: str
    new: str
    refused: str | None = None
    note: str | None = None


def _old_lengths(move: PrefixMove) -> list[tuple[str, str]]:
    """(old text, new text) of what spells the move's length: its mask and wildcard (IPv4)."""
    if move.old.version != 4:
        return []
    return [(mask(move.old), mask(move.new)), (wildcard(move.old), wildcard(move.new))]


def length_hits(data: bytes, moves: list[PrefixMove]) -> list[LengthHit]:
    """Masks, wildcards and prefix-length keys that spell a resized move's old length, each
    rewritten where the context makes its network certain (prefix_moves.py's rules, docs/
    matching.md) and refused (MASK) where the file names the moved network but nothing ties this
    one to it. One whose context names another network is no hit."""
    resized = tuple(m for m in moves if m.resized)
    if not resized:
        return []
    spellings = {old: move for move in resized for old, _ in _old_lengths(move)}
    quads = [(x.start(), x.end(), x.group().decode("ascii")) for x in _QUAD.finditer(data)]
    if any(move.old.version == 6 for move in resized):  # IPv6 addresses own length keys too
        quads = sorted(quads + [(x.start(), x.end(), x.group().decode("ascii")) for x in _V6.finditer(data)
                                if _move_of(x.group().decode("ascii"), resized) is not None
                                or _parses(x.group().decode("ascii"))])
    moved_here = {move for _, _, text in quads if (move := _move_of(text, resized)) is not None}
    # A file the sweep has moved names the new network only: a length it left, which no context
    # tied, is the residual it was before the sweep (verify must not forget it).
    if len(moved_here) < len(resized):  # (each move named already: nothing to add)
        moved_here |= {move for _, _, text in quads if (move := _new_move_of(text, resized)) is not None}
    if not moved_here:
        return []  # a file that names no moved network: its masks are another network's
    masks = {text for text in (t for _, _, t in quads) if _is_mask(text)}
    v6_lengths = {m.old.prefixlen for m in resized if m.old.version == 6}
    v6_masks = {text: n for _, _, text in quads
                if v6_lengths and (n := prefix_spellings.v6_mask_length(text)) is not None}
    masks |= set(v6_masks)
    found = _Found(quads, masks, moved_here, _Stanzas(data))
    out: list[LengthHit] = []
    for start, end, text in quads:
        if text in v6_masks and v6_masks[text] in v6_lengths:  # `/ffff:ffff:ffff:ffff::` (t26-33, 02)
            new = _decide(data, start, end, text, found, resized, _v6_masked(text, v6_masks[text]))
            if new is not None:
                out.append(new)
            continue
        if text not in spellings:
            continue
        new = _decide(data, start, end, text, found, resized, _spelled(text))
        if new is not None:
            out.append(new)
    out.extend(_pattern_wildcards(data, quads, resized))  # `A 0.0.0.254` (t31-33, finding 05)
    for x in _HEX_MASK.finditer(data) if b"0x" in data or b"0X" in data else ():
        hexed = _hexed(x.group().decode("ascii"))
        if any(hexed(move) is not None for move in resized):
            hit = _decide(data, x.start(), x.end(), x.group().decode("ascii"), found, resized, hexed)
            if hit is not None:
                out.append(hit)
    seen: set[int] = set()
    named = _NAMED_LENGTH_KEY.finditer(data) if any(w in data for w in _WORD_TAILS) else ()
    xml = _XML_LENGTH_KEY.finditer(data) if b"</" in data else ()
    indexed = _INDEXED_VALUE.finditer(data) if b"=" in data else ()  # ifcfg's `PREFIX0=24` (t32-33 15)
    for x in [*_LENGTH_KEY.finditer(data), *named, *xml, *indexed]:
        length = int(x.group(1))
        if not any(m.old.prefixlen == length for m in resized) or x.start(1) in seen:
            continue
        start, end = x.start(1), x.end(1)
        seen.add(start)
        hit = _decide(data, start, end, x.group(1).decode(), found, resized, _numbered(length))
        if hit is not None:
            out.append(hit)
    weak = length_keys.WEAK_KEY.finditer(data) if any(w in data for w in length_keys.TAIL_NEEDLES) else ()
    for x in weak:  # `lab_bits = 24` beside `lab_network`, `LEN=24` beside `NET=` (t29-33, finding 13)
        length = int(x.group(1))
        if not any(m.old.prefixlen == length for m in resized) or x.start(1) in seen:
            continue
        seen.add(x.start(1))
        hit = _decide_weak(data, x.start(), x.start(1), x.end(1), found, resized)
        if hit is not None:
            out.append(hit)
    taken = {h.start for h in out}
    # `A (/24)`, `A, prefix /24` (t31-33 11)
    for close in near_lengths.near(data, [(m.old, m.new) for m in resized]):
        if close.start not in taken:
            taken.add(close.start)
            out.append(LengthHit(close.start, close.end, close.old, close.new,
                                 None if close.certain else MASK, close.note))
    for at, start, end, text, why in new_host_lengths.slashed(data, [(m.old, m.new) for m in resized]):
        if start not in taken and is_length(data, at, end):  # t29-33, finding 20
            out.append(LengthHit(start, end, text, text, MASK, why))
    taken = {h.start for h in out}
    # `ip={{ ip }}/24,gw=10.0.48.1`: a templated address's length beside the network (lead's trial)
    for start, end, text, _, why in templated_lengths.templated(
            data, [(m.old, m.new) for m in resized], lambda at: _line_and_stanza(found.stanzas, at)):
        if start not in taken:
            taken.add(start)
            out.append(LengthHit(start, end, text, text, MASK, why))
    for start, end, text, why in new_host_lengths.dhcp_subnets(data, [(m.old, m.new) for m in resized]):
        if start not in taken:  # a DHCP subnet at the new network, the old length (t31-33, finding 12)
            out.append(LengthHit(start, end, text, text, MASK, why))
    return sorted(out, key=lambda h: h.start)


def _line_and_stanza(stanzas: _Stanzas, at: int) -> list[tuple[int, int]]:
    """The line at `at`, its stanza's lines and the line that opens it, and the lines of the block
    its parent key opens: netplan's `- "{{ ip }}/24"` under `addresses:`, whose sibling `gateway4:`
    names the network."""
    line = _line_span(stanzas.data, at)
    stanza = stanzas.around(at)
    spans, header = stanza if stanza is not None else ([], None)
    return [line, *spans, *([header] if header is not None else []), *_parent_block(stanzas, at)]


def _parent_block(stanzas: _Stanzas, at: int, reach: int = 200) -> list[tuple[int, int]]:
    """The run of lines at the indentation of the nearest less indented line above `at` (or
    deeper), as far as a blank line or a line less indented than that one."""
    index = bisect.bisect_right(stanzas.starts, at) - 1
    own = _indent(stanzas.data[slice(*stanzas.span(index))])
    parent = next((i for i in range(index - 1, max(-1, index - reach), -1)
                   if not stanzas._line(i)[1] and stanzas._line(i)[0] < own), None)
    if parent is None:
        return []
    level = stanzas._line(parent)[0]
    first = parent
    while first > 0 and parent - first < reach and not stanzas._line(first - 1)[1] \
            and stanzas._line(first - 1)[0] >= level:
        first -= 1
    last = parent
    while last + 1 < len(stanzas.starts) and last - parent < reach and not stanzas._line(last + 1)[1] \
            and stanzas._line(last + 1)[0] >= level:
        last += 1
    return [stanzas.span(i) for i in range(first, last + 1)]


def _pattern_wildcards(data: bytes, quads: list[tuple[int, int, str]],
                       moves: tuple[PrefixMove, ...]) -> list[LengthHit]:
    """Non-contiguous Cisco wildcards right after a resized move's old address (`10.0.48.0
    0.0.0.254`) and non-contiguous netmasks beside it (`A/255.255.255.1`, nft's `& 255.255.255.1 ==
    A`; t32-33 finding 11): the pattern kept, the network part at the new length, or refused where
    a shrink leaves the rule matching outside the new network (wildcard_bits.py)."""
    out = []
    for (a_start, address_end, address), (start, end, text) in itertools.pairwise(quads):
        if wildcard_bits.is_mask(text) and wildcard_bits.mask_after(data, address_end, start):
            found_at = (start, end, text, address, "netmask")
        elif wildcard_bits.is_mask(address) and wildcard_bits.mask_before(data, a_start, address_end, start):
            found_at = (a_start, address_end, address, text, "netmask")  # nft: the mask first
        elif wildcard_bits.adjacent(data, address_end, start) and wildcard_bits.is_pattern(text):
            found_at = (start, end, text, address, "wildcard")
        else:
            continue
        at, until, value, owner, kind = found_at
        move = _move_of(owner, moves)
        if move is None:
            continue
        found = (wildcard_bits.change_mask(value, move.old, move.new) if kind == "netmask"
                 else wildcard_bits.change(value, move.old, move.new))
        if found is None:
            continue
        if found.outside is not None:
            out.append(LengthHit(at, until, value, value, OUTSIDE, found.outside))
        else:
            out.append(LengthHit(at, until, value, found.new, note=(
                f"the {kind} of {owner}, {move.old}, which becomes {move.new}: its pattern kept")))
    return out


def _decide_weak(data: bytes, key_start: int, start: int, end: int, found: _Found,
                 moves: tuple[PrefixMove, ...]) -> LengthHit | None:
    """A length under a weak key (`lab_bits`, `LAN_LEN`, `LEN`: length_keys.py): the length of the
    address under the key of the same own name on its line or in its stanza (`lab_network`,
    `LAN_NET`), where that is one address; a key with no own name, of its stanza's address keys'
    network where they name one moved network only. Never a residual: such a name may count
    anything."""
    text = data[start:end].decode("ascii")
    own = length_keys.own_name(data, key_start)
    line_start, line_end = _line_span(data, start)
    stanza = found.stanzas.around(start)
    if own:
        pattern = length_keys.address_key(own)
        near = stanza[0] if stanza is not None else _same_indent(found.stanzas, line_start)
        spans = dict.fromkeys([(line_start, line_end), *near])
        named = [t for s, e in spans for k in pattern.finditer(data, s, e)
                 for ts, _, t in found.within(k.end(), e) if ts == k.end()]
        why = "the address key of the same name"
    elif stanza is not None:
        lines = [span for span in stanza[0] if _ADDRESS_KEY.match(data, span[0])]
        lines += [stanza[1]] if stanza[1] is not None else []
        family = prefix_spellings.length_family(data[line_start:start], text)
        keyed = [(t, prefix_spellings.key_family(data[s:ts]))
                 for s, e in lines for ts, _, t in found.within(s, e)]
        named = prefix_spellings.owners_of_family(family, keyed)
        why = "its stanza's address keys"
    else:
        return None
    owners = {_move_of(t, moves) for t in named}
    if not named or len(owners) != 1 or None in owners:
        return None
    move = owners.pop()
    assert move is not None
    new = _numbered(int(text))(move)
    if new is None:
        return None
    return LengthHit(start, end, text, new, note=f"the length of {named[0]}'s network, {move.old}, which "
                     f"becomes {move.new} ({why})")


@dataclass(frozen=True)
class _Found:
    """The addresses of one file, in order (masks apart), and the moves they name."""

    quads: list[tuple[int, int, str]]
    masks: set[str]
    named: set[PrefixMove]
    stanzas: _Stanzas

    def within(self, start: int, end: int) -> list[tuple[int, int, str]]:
        """The addresses (no masks) that start in [start, end): by bisection, so that a file of
        many masks costs each one its line, not the whole file."""
        low = bisect.bisect_left(self.quads, (start, -1, ""))
        high = bisect.bisect_left(self.quads, (end, -1, ""), low)
        return [q for q in self.quads[low:high] if q[2] not in self.masks]


def _spelled(text: str) -> Callable[[PrefixMove], str | None]:
    """A move's new mask or wildcard for the old one `text`, None where `text` is not its own."""
    return lambda move: next((new for old, new in _old_lengths(move) if old == text), None)


def _v6_masked(text: str, length: int) -> Callable[[PrefixMove], str | None]:
    """A move's new IPv6 netmask for the old one `text` (`ffff:ffff:ffff:ffff::`), in its spelling,
    None where `text` is not the move's old mask."""
    def new_of(move: PrefixMove) -> str | None:
        if move.old.version != 6 or move.old.prefixlen != length:
            return None
        return forms.v6_like(text, prefix_spellings.v6_netmask(move.new))
    return new_of


def _hexed(text: str) -> Callable[[PrefixMove], str | None]:
    """A move's new hex netmask for the old one `text` (`0xffffff00`), in its case and width,
    None where `text` is not the move's old mask."""
    value = int(text[2:], 16)

    def new_of(move: PrefixMove) -> str | None:
        if move.old.version != 4 or int(move.old.netmask) != value:
            return None
        digits = f"{int(move.new.netmask):08x}"
        return text[:2] + (digits.upper() if any(c in "ABCDEF" for c in text[2:]) else digits)
    return new_of


def _numbered(length: int) -> Callable[[PrefixMove], str | None]:
    """A move's new prefix length for the old one `length`, None where `length` is not its own."""
    return lambda move: str(move.new.prefixlen) if move.old.prefixlen == length else None


def is_mask(text: str) -> bool:
    """A dotted netmask or wildcard (`_is_mask`), for the matcher's passes."""
    return _is_mask(text)


def _is_mask(text: str) -> bool:
    """A dotted netmask or wildcard (ones then zeros, or zeros then ones), never a host's address
    in practice: 255.255.255.248, 0.0.0.7. (0.0.0.0 and 255.255.255.255 are both and neither.)"""
    value = int(ipaddress.IPv4Address(text)) if _valid(text) else -1
    if value < 0:
        return False
    inverted = value ^ 0xFFFFFFFF
    return (inverted & (inverted + 1)) == 0 or (value & (value + 1)) == 0


def _valid(text: str) -> bool:
    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return True


def _parses(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=4096)
def _move_of(text: str, moves: tuple[PrefixMove, ...]) -> PrefixMove | None:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return next((m for m in moves if m.offset_of(address) is not None), None)


@functools.lru_cache(maxsize=4096)
def _new_move_of(text: str, moves: tuple[PrefixMove, ...]) -> PrefixMove | None:
    """The move whose new network holds the address `text` (a file the sweep has moved)."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return next((m for m in moves if address.version == m.new.version and address in m.new), None)


def _decide(data: bytes, start: int, end: int, text: str, found: _Found, moves: tuple[PrefixMove, ...],
            new_of: Callable[[PrefixMove], str | None]) -> LengthHit | None:
    """The length at [start, end): on a line with an address, the nearest address before it (else
    after it) says whose it is; on a line with none whose key names a mask or a length, the
    stanza's address keys say; else a residual where the file names a move of this length."""
    line_start, line_end = _line_span(data, start)
    on_line = [(s, e, t) for s, e, t in found.within(line_start, line_end) if (s, e) != (start, end)]
    # a length owns the addresses of its family on its line (`"prefix6": 64` the IPv6 one of a flow
    # mapping that holds `"ip"` and `"ip6"`: t29-33, finding 17), where its key or value says one
    family = prefix_spellings.length_family(data[line_start:start], text)
    if len(on_line) > 1:
        kin = set(prefix_spellings.owners_of_family(
            family, [(t, prefix_spellings.key_family(data[line_start:s])) for s, _, t in on_line]))
        on_line = [q for q in on_line if q[2] in kin] or on_line
    # A gateway owns no mask on a line that holds another address, before or after the mask
    # (`{"mask": M, "gw": G, "dest": D}`: D's); on a line of gateways only, the gateway's network,
    # unless the line names a destination it does not spell as an address (`-net remote gw G netmask M`)
    held = [q for q in on_line if not _GATEWAY.search(data, line_start, q[0])]
    if not held and not _DESTINATION.search(data, line_start, line_end):
        held = on_line
    before = [(e, t) for s, e, t in held if s < start]
    after = [t for s, _, t in held if s > start]
    owner: str | None = before[-1][1] if before else (after[0] if after else None)
    previous = max([e for s, e, _ in on_line if s < start], default=line_start)
    if after and _AMPERSAND.match(data, previous, start):
        owner = after[0]  # nft `ip saddr & 255.255.255.0 == 10.9.0.0`: the mask of the address after it
    elif before and not _ADJACENT.fullmatch(data, before[-1][0], start):
        # an address the sweep has moved counts as its move's: the residual stands after the sweep
        owners = {_move_of(t, moves) or _new_move_of(t, moves) for _, t in before}
        if len(owners) > 1 and any(new_of(m) is not None for m in owners if m is not None):
            return LengthHit(start, end, text, text, MASK,  # break-it 20p, finding 1
                             f"{text} follows addresses of more than one network on its line "
                             f"({', '.join(t for _, t in before)}), and its syntax does not say whose it is")
    if owner is not None:
        move = _move_of(owner, moves)
        if move is None:  # the new network's host with the old length (t29-33, finding 20)
            return _new_host_old_length(start, end, text, owner, moves, new_of)
        new = new_of(move)
        if new is None:
            return None
        return LengthHit(start, end, text, new, note=f"the length of {owner}'s network on its line, "
                         f"{move.old}, which becomes {move.new}")
    key = data[line_start:start]
    paired = _paired(data, line_start, found, text) or _indexed(data, line_start, found)
    if paired is not None:  # `lan_cidr: 24` beside `lan_network: 10.9.0.0`: the key of its name
        move = _move_of(paired, moves)
        new = new_of(move) if move is not None else None
        if new is None or move is None:
            return None
        return LengthHit(start, end, text, new, note=f"the length of {paired}'s network, {move.old}, which "
                         f"becomes {move.new} (the address key of the same name)")
    if _MASK_KEY.search(key) or _LENGTH_KEY.search(data, line_start, end) \
            or _NAMED_LENGTH_KEY.search(data, line_start, end) \
            or _XML_LENGTH_KEY.search(data, line_start, line_end):
        stanza = found.stanzas.around(start)
        spans, header = stanza if stanza is not None else ([], None)
        lines = [span for span in spans if _ADDRESS_KEY.match(data, span[0])]
        lines += [header] if header is not None else []  # what opens a stanza names its network
        # Each address with its key's family: a length owns the addresses of its own family only (an
        # IPv6 length, `<subnetv6>64`, `prefix6: 64`, no IPv4 address; an untagged `<subnet>24` not
        # `<ipaddrv6>`'s, which has its `<subnetv6>`: t26-33, findings 14 and 15).
        family = prefix_spellings.length_family(data[line_start:start], text)
        keyed = [(t, prefix_spellings.key_family(data[s:ts]))
                 for s, e in lines for ts, _, t in found.within(s, e)]
        named = prefix_spellings.owners_of_family(family, keyed)
        whose = "its stanza's network"
        if not keyed:  # no address key: the gateway's, where every address of the stanza is its network's
            gateways = [t for s, e in spans if _GATEWAY_KEY.match(data, s) for _, _, t in found.within(s, e)]
            others = {_move_of(t, moves) for s, e in spans for _, _, t in found.within(s, e)}
            routed = any(_ROUTE_KEY.match(data, s) for s, _ in spans)  # `destination: "{{ net }}"`
            if gateways and len(others) == 1 and not routed:  # (a route's destination is another's)
                named, whose = gateways, "the network of its stanza's gateway"
        owners = {_move_of(t, moves) for t in named}
        if named and len(owners) == 1 and None not in owners:
            move = owners.pop()
            new = new_of(move) if move is not None else None
            if new is not None and move is not None:
                return LengthHit(start, end, text, new,
                                 note=f"the length of {whose}, {move.old}, which becomes {move.new}")
        if named and None in owners:
            # The stanza names another network's address: its length, unless it names the moved
            # network's too (or, after the sweep, the new one's): then whose is not certain.
            moved = {_move_of(t, moves) or _new_move_of(t, moves) for t in named} - {None}
            if any(new_of(m) is not None for m in moved if m is not None):
                return LengthHit(start, end, text, text, MASK,
                                 f"{text} is a length of its stanza, which names addresses of more than one "
                                 f"network ({', '.join(dict.fromkeys(named))}): whose is not certain")
            return None  # the stanza's address is another network's
    candidates = {new: move for move in found.named if (new := new_of(move)) is not None}
    if candidates:
        # One network of this length named: what it becomes, as the new value a person writes where
        # it is that network's (f28, finding 21: `255.255.255.0 -> 255.255.255.0` said nothing).
        single = next(iter(candidates.items())) if len(candidates) == 1 else None
        becomes = (f" (where it is {single[1].old}'s, write {single[0]}: it becomes {single[1].new})"
                   if single is not None else "")
        return LengthHit(start, end, text, single[0] if single is not None else text, MASK,
                         f"{text} spells the old length of a network this file names, but no address on "
                         f"its line, nor an address key of its stanza, ties it to that network{becomes}")
    return None


def _new_host_old_length(start: int, end: int, text: str, owner: str, moves: tuple[PrefixMove, ...],
                         new_of: Callable[[PrefixMove], str | None]) -> LengthHit | None:
    """`ip address 10.0.60.1 255.255.255.0` after `10.0.48.0/24: 10.0.60.0/22`: a `mask` residual
    where `owner` is a host of a move's new network and `text` spells that move's old length."""
    move = _new_move_of(owner, moves)
    if move is None or new_of(move) is None:
        return None
    found = new_host_lengths.new_host(owner, move.old.prefixlen, [(move.old, move.new)])
    if found is None:
        return None
    return LengthHit(start, end, text, text, MASK, new_host_lengths.note(owner, text, found))


def _same_indent(stanzas: _Stanzas, line_start: int) -> list[tuple[int, int]]:
    """The lines at the indentation of the line at `line_start`, in a file of no more than
    _PAIRED_LINES lines (a long run, no stanza: `locals {` of many values, group_vars)."""
    if len(stanzas.starts) > _PAIRED_LINES:
        return []
    indent = stanzas._line(bisect.bisect_right(stanzas.starts, line_start) - 1)[0]
    return [stanzas.span(i) for i in range(len(stanzas.starts)) if stanzas._line(i)[0] == indent]


def _paired(data: bytes, line_start: int, found: _Found, text: str = "") -> str | None:
    """The address of the key that shares the name of the length or mask key on the line at
    `line_start` (`lan_cidr` and `lan_network`, `ipv4_netmask` and `ipv4_address`) in its stanza,
    where exactly one does and holds one address; else None."""
    key = _KEY_NAME.match(data, line_start)
    name = _NAMED.fullmatch(key.group(1)) if key is not None else None
    if name is None or _ADDRESS_WORD.fullmatch(name.group(2)) or _GATEWAY_WORD.fullmatch(name.group(2)):
        return None
    own = name.group(1).lower()
    stanza = found.stanzas.around(line_start)
    stanzas = found.stanzas
    if stanza is not None:
        spans = stanza[0]
    elif len(stanzas.starts) <= _PAIRED_LINES:  # a long run (group_vars): the keys at its indentation
        indent = stanzas._line(bisect.bisect_right(stanzas.starts, line_start) - 1)[0]
        spans = [stanzas.span(i) for i in range(len(stanzas.starts)) if stanzas._line(i)[0] == indent]
    else:
        spans = [_line_span(data, line_start)]
    addresses = []
    gateways = []
    for s, e in spans:
        other = _KEY_NAME.match(data, s)
        parts = _NAMED.fullmatch(other.group(1)) if other is not None else None
        if parts is None or parts.group(1).lower() != own:
            continue
        assert other is not None
        named = [(t, prefix_spellings.key_family(other.group(1))) for _, _, t in found.within(s, e)]
        if _ADDRESS_WORD.fullmatch(parts.group(2)):
            addresses += named
        elif _GATEWAY_WORD.fullmatch(parts.group(2)):
            gateways += named
    addresses = addresses or gateways  # the gateway's network only where no address of the name stands
    # `LAN_PREFIX6` is `LAN_ADDRESS6`'s, `LAN_PREFIX` `LAN_ADDRESS`'s where both stand (finding 17)
    assert key is not None
    family = prefix_spellings.length_family(key.group(1), text) if text else None
    kin = (prefix_spellings.owners_of_family(family, addresses) if len(addresses) > 1
           else [t for t, _ in addresses])
    return kin[0] if len(kin) == 1 else None


_INDEXED_LENGTH = lazy_re.compile(rb"[ \t]*(?:export[ \t]+)?[\"']?(?i:netmask|prefix|mask)([0-9]{1,3})[\"']?"
                             rb"[ \t]*=")

# Its number (`PREFIX0=24`): a length only where `_indexed` finds the address of its number.
_INDEXED_VALUE = lazy_re.compile(rb"(?im)^[ \t]*(?:export[ \t]+)?[\"']?(?:netmask|prefix)[0-9]{1,3}[\"']?"
                            rb"[ \t]*=[ \t]*[\"']?([0-9]{1,3})(?![0-9.A-Za-z_])")


def _indexed(data: bytes, line_start: int, found: _Found) -> str | None:
    """RHEL's ifcfg and route-ethN numbered keys: `NETMASK0` (`PREFIX1`) is the length of the address
    of `ADDRESS0` (`IPADDR1`) of the same number in its stanza (t32-33 finding 15: a route's
    `NETMASK0` of `ADDRESS0=10.0.49.0` was a residual beside `GATEWAY0=10.0.48.2`)."""
    key = _INDEXED_LENGTH.match(data, line_start)
    if key is None:
        return None
    stanza = found.stanzas.around(line_start)
    spans = stanza[0] if stanza is not None else [_line_span(data, line_start)]
    own = re.compile(rb"[ \t]*(?:export[ \t]+)?[\"']?(?i:address|ipaddr)" + key.group(1) + rb"[\"']?[ \t]*=")
    addresses = [t for s, e in spans if own.match(data, s) for _, _, t in found.within(s, e)]
    return addresses[0] if len(addresses) == 1 else None


_PAIRED_LINES = 2000  # a file longer than this is a dump: a key's pair is looked for in its stanza only
_ADDRESS_WORD = lazy_re.compile(
    rb"(?i)ip|ipv4|ipv6|ipaddr|ip[_-]?address|address(?:es)?|addr|network|net|subnet")
# A gateway's key of the same name (`core_ipv4_gateway` beside `core_ipv4_prefix: 21`, ironicbadger/
# infra's group_vars): a gateway is on the network it serves, so where no address key of the name
# stands, the length is its network's.
_GATEWAY_WORD = lazy_re.compile(rb"(?i)(?:default[_-]?)?(?:gateway|gw)")


# -- reverse zones of any length (issue 33 item 3) -----------------------------------------------

# An RFC 2317 classless label before a reverse name (`0/26.40.168.192.in-addr.arpa`,
# `0-63.40.168.192.in-addr.arpa`): the digits, the `/` or `-`, the digits and the dot.
_CLASSLESS = lazy_re.compile(rb"(?<![A-Za-z0-9/-])([0-9]{1,3})([/-])([0-9]{1,3})\.")
# A whole classless name (a `$GENERATE` line's CNAME target).
CLASSLESS_NAME = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9/-])[0-9]{1,3}[/-][0-9]{1,3}(?:\.[0-9]{1,3}){1,3}"
                            rb"\.in-addr\.arpa")


def zone_networks(net: IPNetwork) -> list[IPNetwork]:
    """The octet (IPv4) or nibble (IPv6) aligned networks whose reverse zones answer for `net`:
    its own where its length is aligned, else its subnets at the next boundary (a /22: four /24
    zones; a /46: four /48s). An IPv4 network narrower than a /24 has no zone of its own (an
    RFC 2317 delegation, `classless_name`): none."""
    step = 8 if net.version == 4 else 4
    if net.version == 4 and net.prefixlen > 24:
        return []
    aligned = -(-net.prefixlen // step) * step
    return list(net.subnets(new_prefix=aligned)) if aligned else []


def classless_name(net: IPNetwork) -> str | None:
    """RFC 2317's name for an IPv4 network narrower than a /24 (`0/26.40.168.192.in-addr.arpa`
    for 192.168.40.0/26), None for any other."""
    if net.version != 4 or net.prefixlen <= 24:
        return None
    octets = str(net.network_address).split(".")
    return f"{octets[3]}/{net.prefixlen}.{octets[2]}.{octets[1]}.{octets[0]}.in-addr.arpa"


def zone_name(net: IPNetwork) -> str:
    """The reverse zone of an octet- (nibble-) aligned network: `40.168.192.in-addr.arpa`."""
    step = 8 if net.version == 4 else 4
    if net.version == 4:
        labels = str(net.network_address).split(".")[: net.prefixlen // step]
        return ".".join(reversed(labels)) + ".in-addr.arpa"
    nibbles = net.network_address.exploded.replace(":", "")[: net.prefixlen // step]
    return ".".join(reversed(nibbles)) + ".ip6.arpa"


@dataclass(frozen=True)
class ZoneChange:
    """How a network move changes the reverse zones that answer for it: zones an old one becomes
    (its offset kept, `renamed`), zones the new network needs that no old one becomes (`add`),
    old zones no new one holds (`remove`: they answer for addresses outside the new network), and
    the RFC 2317 classless names on either side (`classless`: reported, never rewritten)."""

    move: PrefixMove
    renamed: tuple[tuple[str, str], ...]
    add: tuple[str, ...]
    remove: tuple[str, ...]
    classless: tuple[str, ...]

    @property
    def changed(self) -> bool:
        return bool(self.renamed or self.add or self.remove or self.classless)

    def lines(self) -> list[str]:
        """The change in words, one line per kind (the sweep's report)."""
        out = [f"rename {old} -> {new}" for old, new in self.renamed]
        if self.add:
            out.append(f"add {', '.join(self.add)} (part of {self.move.new}, which no zone of "
                       f"{self.move.old} becomes)")
        if self.remove:
            out.append(f"remove {', '.join(self.remove)} (answering for addresses outside {self.move.new})")
        if self.classless:
            out.append(f"classless {' -> '.join(self.classless)} (RFC 2317: the delegation, its NS and CNAME "
                       "records in the parent zone, is edited by hand; never rewritten)")
        return out


def zone_change(move: PrefixMove) -> ZoneChange:
    """The reverse zones `move` renames, needs and leaves (ZoneChange)."""
    carried: dict[str, str] = {}
    remove = []
    for zone in zone_networks(move.old):
        at = int(move.new.network_address) + int(zone.network_address) - int(move.old.network_address)
        moved = ipaddress.ip_network((at, zone.prefixlen), strict=False)
        if int(moved.network_address) == at and moved.subnet_of(move.new):  # type: ignore[arg-type]
            carried[zone_name(zone)] = zone_name(moved)
        else:
            remove.append(zone_name(zone))
    whole = zone_networks(move.old) == [move.old] and zone_networks(move.new) == [move.new]
    if whole:
        # One zone answers for the whole old network and one for the whole new one: the sweep renames
        # the one to the other (match.py's zone forms: the network's own name, its relative owners
        # lengthened or shortened by zone_rules), whatever the offset would carry (break-it round 20p,
        # finding 10: a /48 -> /56 was reported as a zone to add and one to remove; f28, finding 13: a
        # /24 grown elsewhere to a /16 announced `0.1.10` and an added `1.10`, and wrote `1.10`).
        if zone_name(move.old) in remove:
            remove.remove(zone_name(move.old))
        carried[zone_name(move.old)] = zone_name(move.new)
    targets = set(carried.values())
    add = [name for name in map(zone_name, zone_networks(move.new)) if name not in targets]
    classless = [name for net in (move.old, move.new) if (name := classless_name(net)) is not None]
    renamed = tuple((old, new) for old, new in carried.items() if old != new)
    return ZoneChange(move, renamed, tuple(add), tuple(remove), tuple(classless))


def zone_changes(networks: Sequence[tuple[IPNetwork, IPNetwork]]) -> list[ZoneChange]:
    """Each network move's ZoneChange that changes anything."""
    changes = [zone_change(PrefixMove(old, new)) for old, new in networks]
    return [c for c in changes if c.changed]


def classless_before(data: bytes, start: int) -> int | None:
    """Where the RFC 2317 classless label (`0/26`, `0-63`) that ends just before, or holds, the
    reverse name found at `start` begins (`0/26.40.168.192.in-addr.arpa`, found from `40.168...`
    or from `26.40.168...`, an address's reverse name inside it), or None."""
    for found in _CLASSLESS.finditer(data, max(0, start - 9), start + 4):
        if found.start() <= start <= found.end():
            return found.start()
    return None


def classless_note(name: str) -> str:
    return (f"{name} is an RFC 2317 classless name: its delegation (the child zone's name, the parent "
            "zone's NS and CNAME or $GENERATE records) is edited by hand, never rewritten")


def classless_moved(name: str, networks: Sequence[tuple[IPNetwork, IPNetwork]]) -> bool:
    """Is `name` an RFC 2317 classless name (`0/26.50.168.192.in-addr.arpa`, `0-63.50...`) whose
    block starts inside a moved network?"""
    if CLASSLESS_NAME.fullmatch(name.encode("ascii", "replace")) is None:
        return False
    labels = name.split(".")
    octets = labels[1:-2]
    if len(octets) != 3:
        return False
    first = re.split(r"[/-]", labels[0])[0]
    try:
        address = ipaddress.IPv4Address(".".join([*reversed(octets), first]))
    except ValueError:
        return False
    return any(address in old for old, _ in networks if old.version == 4)
