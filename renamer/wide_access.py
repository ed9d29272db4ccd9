"""A wider network that a network move leaves, in an access rule or on a route (t36-33, finding 04).

Under `192.168.40.0/24: 10.20.0.0/22`, nginx `allow 192.168.0.0/16;`, Postfix `mynetworks =
192.168.0.0/16`, Apache `Require ip 192.168`, hosts.allow `192.168.`, Traefik `trusted_proxies: [
192.168.0.0/16]`, IOS `ip route 192.168.0.0 255.255.0.0 Tunnel0`, IPv6 `allow 2001:db8::/32;`
(under a /48 that moves out of it) admitted (or routed) the old network and do not hold the new one
after the sweep. No byte of them spells the old network's address, so the matcher (which makes a
`supernet` of a wider literal written from that address, `10.80.0.0/16`) never saw them and verify
said OK while the moved hosts lost their access.

`WideNets` knows, for each move, the blocks wider than the old network (/8 to its length less one;
IPv6 /16 up) that hold it and do not hold the whole new network: a rule naming one of them covers
the old network and not the new one. Their spellings are the first pass's literals (the block's
address with its slash, or a blank before a dotted mask; the leading octets of a /16 or /24 block,
Apache's and TCP wrappers' partial address). `wide_matches` reads each such literal in an access
rule's context (access_nets.in_access_rule: `allow`, `deny`, `mynetworks`, `trusted_*`, `Require
ip`, iptables `-s`, ...), on a route line (mask_nets.ROUTE: IOS `ip route`/`ipv6 route`, OpenVPN
`route`, `route add`) or, for a partial address, as an item of an access list (access_heads.py), and
makes it a residual `wide-set`: nothing of it rewritten (the operator adds the new network beside it
or widens it; either is a policy decision). A literal the matcher already holds (spelled from the
old network's own address) stays the matcher's. Not read: host bits set in the wider literal
(`192.168.1.1/16`), IPv6 literals not in their canonical compressed form, /8 partial addresses
(`10.`). Pure: bytes in, matches out.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from renamer import access_heads, except_blocks, lazy_re, mask_nets
from renamer.access_nets import NET, in_access_rule, in_route_rule, network_of
from renamer.occurrences import Match

REASON = "wide-set"
HINT = ("a wider network in an access rule or on a route that holds the moved network's old range and "
        "not its new one: after the sweep it no longer admits (or routes) the moved hosts; add the new "
        "network beside it (or widen it) by hand, or keep it with a keep rule")

Net = ipaddress.IPv4Network | ipaddress.IPv6Network
_AFTER_SLASH = lazy_re.compile(rb"/(?P<len>[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9.])|[0-9]{1,3}(?![0-9.]))")
_AFTER_BLANK = lazy_re.compile(rb"[ \t]+(?:(?i:netmask|mask)[ \t]+)?(?P<mask>[0-9]{1,3}(?:\.[0-9]{1,3}){3})"
                               rb"(?![0-9.])")
_V6_ROUTE = lazy_re.compile(rb"(?im)^[ \t]*(?:ipv6[ \t]+route|ip[ \t]+-6[ \t]+route"
                            rb"|route[ \t]+(?:-6|-A[ \t]*inet6)|Destination[ \t]*=)")


_PEER_ROUTES = lazy_re.compile(rb"(?i)[ \t]*(?:list[ \t]+|option[ \t]+)?[\"']?allowed[-_]?ips[\"']?"
                               rb"[ \t]*[=:]")


_ITEM = lazy_re.compile(rb"(?P<indent>[ \t]*)-[ \t]")
_NETWORK = lazy_re.compile(rb"(?<![0-9.])[0-9]{1,3}(?:\.[0-9]{1,3}){3}/[0-9]{1,2}(?![0-9])"  # SPF's ip4:
                           rb"|(?<![0-9A-Fa-f:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}/[0-9]{1,3}(?![0-9])"
                           rb"|(?<![\w.])[0-9]{1,3}(?:\.[0-9]{1,3}){0,2}\.(?![\w.])")


def _line_at(data: bytes, at: int) -> tuple[int, int]:
    """(start, end) of the line holding offset `at` (its end before the line break)."""
    at = max(0, min(at, len(data)))
    start = data.rfind(b"\n", 0, at) + 1
    end = data.find(b"\n", at)
    return start, len(data) if end < 0 else end


def list_admits(data: bytes, start: int, end: int,
                address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether another network of the list the literal at `start:end` stands in holds `address`
    (its line, its list's items, the statements beside it that say the same: `_siblings`). A list
    prepared for a move (`ip4:192.0.2.0/24 ip4:198.51.100.0/24`) admits the host before and after
    (t37-break, finding 09)."""
    host = ipaddress.ip_network(address)
    return WideNets._admitted_beside(data, start, end, host)


def _qualifier(data: bytes, line_start: int, at: int) -> bytes:
    """What is written right before a literal, back to a blank or a separator: SPF's `ip4:` or
    `-ip4:`, `!`, or nothing."""
    begin = at
    while begin > line_start and data[begin - 1:begin] not in (b" ", b"\t", b",", b"\"", b"'", b"[", b"(",
                                                                b"=", b";"):
        begin -= 1
    return data[begin:at]


def _siblings(data: bytes, first: tuple[int, int]) -> list[tuple[int, int]]:
    """The lines of the list or run of statements `first` is one of (see `_admitted_beside`)."""
    item = _ITEM.match(data, first[0])
    words = _words(data[first[0]:first[1]])
    out: list[tuple[int, int]] = []
    for step in (-1, 1):
        at = first
        for _ in range(64):
            if (step < 0 and at[0] == 0) or (step > 0 and at[1] >= len(data)):
                break
            at = _line_at(data, at[0] - 1) if step < 0 else _line_at(data, at[1] + 1)
            text = data[at[0]:at[1]]
            if item is not None:
                other = _ITEM.match(data, at[0])
                if other is None or other.group("indent") != item.group("indent"):
                    break
            elif not text.strip() or _words(text) != words or words == (b"", b""):
                break
            out.append(at)
    return out


def _words(line: bytes) -> tuple[bytes, bytes]:
    """A statement's verb and target: its first word (two where it is an option: `-A INPUT`) and
    the word after `-j`/`--jump`, so `allow X;` runs on with `allow Y;`, not with `deny Y;`."""
    parts = line.split()
    if not parts:
        return b"", b""
    head = b" ".join(parts[:2]) if parts[0].startswith(b"-") else parts[0]
    jump = next((parts[i + 1] for i, w in enumerate(parts[:-1]) if w in (b"-j", b"--jump")), b"")
    return head, jump


def _network(text: bytes) -> Net | None:
    """A CIDR literal, or a partial address's network (Samba's `10.`, `192.168.`)."""
    try:
        if b"/" in text:
            return ipaddress.ip_network(text.decode(), strict=False)
        octets = text.rstrip(b".").split(b".")
        if len(octets) > 3 or any(int(o) > 255 for o in octets):
            return None
        address = ".".join([*(o.decode() for o in octets), *["0"] * (4 - len(octets))])
        return ipaddress.ip_network(f"{address}/{8 * len(octets)}")
    except ValueError:
        return None


def left_blocks(old: Net, new: Net) -> list[Net]:
    """The networks wider than `old` that hold it and do not hold all of `new` (widest first)."""
    if old.version != new.version:
        return []
    floor = 8 if old.version == 4 else 16
    out: list[Net] = []
    for length in range(floor, old.prefixlen):
        block = old.supernet(new_prefix=length)
        if not new.subnet_of(block):  # type: ignore[arg-type]
            out.append(block)
    return out


class WideNets:
    """The moves' left blocks, and the literals a file naming one of them holds."""

    def __init__(self, moves: Iterable[tuple[Net, Net]]) -> None:
        self.blocks: dict[Net, Net] = {}  # left block -> the old network it holds (the first move's)
        self._denied: dict[Net, tuple[bytes, ...]] = {}  # old network -> `!old`, `!new` as written
        self._moved_to: dict[Net, Net] = {}  # old network -> where it moves
        literals: set[bytes] = set()
        heads: dict[bytes, Net] = {}
        for old, new in moves:
            self._denied.setdefault(old, (f"!{old}".encode(), f"!{new}".encode()))
            self._moved_to.setdefault(old, new)
            for block in left_blocks(old, new):
                self.blocks.setdefault(block, old)
                literals.add(f"{block.network_address}/".encode())
                if block.version == 4:
                    literals.add(f"{block.network_address} ".encode())
                    literals.add(f"{block.network_address}\t".encode())
                    if block.prefixlen in (16, 24):
                        head = ".".join(str(block.network_address).split(".")[:block.prefixlen // 8]).encode()
                        heads.setdefault(head, block)
        self.heads = heads
        self.literals = tuple(sorted(literals | set(heads)))
        self._spelled_literals = tuple(sorted(literals))
        # a head alone (`192.168`, `192.168.`), not the start of a longer address (`192.168.40.10`)
        self._head = (re.compile(rb"(?<![0-9.])(?:" + b"|".join(re.escape(h) for h in sorted(heads)) +
                                 rb")(?:\.(?![0-9.])|(?![0-9.]))") if heads else None)

    def might_hold(self, data: bytes) -> bool:
        """Does `data` hold a literal one of the left blocks begins with (a cheap test)?"""
        if not self.blocks:
            return False
        if any(literal in data for literal in self._spelled_literals):
            return True
        return (self._head is not None and any(h in data for h in self.heads)
                and self._head.search(data) is not None)

    def wide_matches(self, data: bytes, matches: list[Match], rel: str = "") -> list[Match]:
        """`matches` with each left block named in an access rule or on a route added as a refused
        match (where no match covers it already)."""
        if not self.might_hold(data):
            return matches
        added: list[Match] = []
        taken = [(m.start, m.end) for m in matches]
        excepted: list[tuple[list[Net], list[Net]]] | None = None  # each cidr's excepts, read once
        for start, end, block in self._found(data, rel):
            if any(s < end and start < e for s, e in taken):
                continue  # the matcher's (a literal spelled from the old network's address) or decided
            line_start = data.rfind(b"\n", 0, start) + 1
            if any(denied in data[line_start:start] for denied in self._denied.get(self.blocks[block], ())):
                continue  # `!10.0.48.0/24, 10.0.0.0/16` (first match): the moved network was kept out
            if _PEER_ROUTES.match(data, line_start) is not None:
                # WireGuard's AllowedIPs: the networks sent to a peer, often computed around the LAN
                # (everything less it): holding the old range after the move is what it is for;
                # host_access.py reads these lists (the new network landing inside an entry)
                continue
            if self._admitted_beside(data, start, end, self._moved_to[self.blocks[block]]):
                continue  # `mynetworks = 192.168.0.0/16 10.0.0.0/8`: the list admits the new network too
            if b"xcept" in data or b"not" in data or b"Not" in data:
                if excepted is None:
                    excepted = [(inc, [n for _, _, n in exc])
                                for inc, exc, _ in except_blocks.key_rules(data)]
                old = self.blocks[block]
                if any(block in inc and any(old.subnet_of(n) for n in exc)  # type: ignore[arg-type]
                       for inc, exc in excepted):
                    # `cidr: 192.168.0.0/16, except: [192.168.42.0/24]` (t37-break, finding 10): the
                    # set never held the moved network; its except is except_moves' to judge
                    continue
            taken.append((start, end))
            text = data[start:end].decode("ascii", "replace")
            old = self.blocks[block]
            named = f"{text} ({block})" if text != str(block) else text
            note = (f"{named}, {block.num_addresses} addresses, holds the moved network {old} and not "
                    "where it moves")
            added.append(Match(start, end, text, text, "network", refused=REASON, note=note))
        if not added:
            return matches
        return sorted([*matches, *added], key=lambda m: m.start)

    @staticmethod
    def _admitted_beside(data: bytes, start: int, end: int, new: Net) -> bool:
        """Whether the list the literal stands in names a network holding all of `new` beside it
        (t37-break, finding 08: the everyday "all private ranges" list `192.168.0.0/16 10.0.0.0/8`
        still admits hosts moved from one to the other): the literal's line; the items of a YAML
        or bulleted list it is one of (lines of its indentation starting with `- `); and the
        statements next to it that say the same (nginx `allow X;` over `allow Y;`, iptables
        `-A INPUT -s X -j ACCEPT` over the same with Y), up to a blank line."""
        first = _line_at(data, start)
        # on its own line, only the literals of its statement (nginx's `allow X; deny Y;`) written
        # with its qualifier (SPF's `-ip4:` fails where `ip4:` passes; `!net` keeps out)
        own = (data.rfind(b";", first[0], start) + 1 or first[0],
               data.find(b";", end, first[1]) if data.find(b";", end, first[1]) >= 0 else first[1])
        qualifier = _qualifier(data, first[0], start)
        lines = [own, *_siblings(data, first)]
        for line_start, line_end in lines:
            for x in _NETWORK.finditer(data, line_start, line_end):
                if line_start == own[0] and ((x.start() < end and start < x.end())
                                             or _qualifier(data, line_start, x.start()) != qualifier):
                    continue
                if data[x.start() - 1:x.start()] == b"!":  # `!10.0.0.0/8`: kept out
                    continue
                beside = _network(x.group())
                if beside is not None and beside.version == new.version \
                        and new.subnet_of(beside):  # type: ignore[arg-type]
                    return True
        return False

    def _found(self, data: bytes, rel: str) -> Iterable[tuple[int, int, Net]]:
        for block in self.blocks:
            address = str(block.network_address).encode()
            at = data.find(address)
            while at >= 0:
                end = at + len(address)
                before = data[at - 1:at] if at else b""
                if not (before and (before.isalnum() or before in b".:")):
                    span = self._spelled(data, at, end, block)
                    if span is not None:
                        yield at, span, block
                at = data.find(address, end)
        for head, block in self.heads.items():
            at = data.find(head)
            while at >= 0:
                end = at + len(head)
                before = data[at - 1:at] if at else b""
                after = data[end:end + 1]
                tail = end + 1 if after == b"." and not data[end + 1:end + 2].isdigit() else end
                if not (before and (before.isdigit() or before == b".")) \
                        and not data[tail:tail + 1].isdigit() and data[tail:tail + 1] != b"." \
                        and access_heads.in_access_list(data, at, tail, rel):
                    yield at, tail, block
                at = data.find(head, end)

    def _spelled(self, data: bytes, at: int, end: int, block: Net) -> int | None:
        """The end of the literal at `at` where it spells `block` in a rule's or route's context."""
        span = _spelling_end(data, end, block)
        if span is None:
            return None
        if block.version == 6:
            line_start = data.rfind(b"\n", 0, at) + 1
            if not (in_route_rule(data, at) or _V6_ROUTE.match(data, line_start) is not None):
                return None
        elif not in_route_rule(data, at):
            return None
        return span

# Aggregates that name address space, not a network in use (RFC 1918, ULA, the IPv6 documentation
# block): a literal of one of them holding the new network is no collision (t36-33, finding 05).
_AGGREGATES = frozenset(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7", "fd00::/8", "2000::/3"))


def covering_blocks(networks: Iterable[tuple[Net, Net]]) -> dict[Net, tuple[Net, Net]]:
    """The networks wider than each new network that hold it and do not overlap its old one (what a
    literal of the repo naming one of them would overlap only after the move), aggregates aside:
    block -> (old, new)."""
    out: dict[Net, tuple[Net, Net]] = {}
    for old, new in networks:
        for block in left_blocks(new, old):
            if not block.overlaps(old) and block not in _AGGREGATES:
                out.setdefault(block, (old, new))
    return out


def covering_literals(networks: Iterable[tuple[Net, Net]]) -> list[bytes]:
    """What a file naming a covering block holds (its address, then a slash or a blank)."""
    out: list[bytes] = []
    for block in covering_blocks(networks):
        out.append(f"{block.network_address}/".encode())
        if block.version == 4:
            out.append(f"{block.network_address} ".encode())
    return out


def covering(data: bytes, networks: Iterable[tuple[Net, Net]]) -> list[tuple[int, int, Net, Net, Net]]:
    """Each literal in `data` naming a covering block (its address, or an IPv4 address inside it
    with its length: an interface's `10.60.0.1/20`), outside an access rule (which admits the new
    network, a set rather than a network in use): (start, end, block, old, new), in file order."""
    blocks = covering_blocks(networks)
    out: list[tuple[int, int, Net, Net, Net]] = []
    for block, (old, new) in blocks.items():
        address = str(block.network_address).encode()
        at = data.find(address)
        while at >= 0:
            end = at + len(address)
            before = data[at - 1:at] if at else b""
            if not (before and (before.isalnum() or before in b".:")):
                span = _spelling_end(data, end, block)
                if span is not None and not in_access_rule(data, at):
                    out.append((at, span, block, old, new))
            at = data.find(address, end)
    # an interface's address with the block's length (`address 10.60.0.1/20`: the VLAN's gateway)
    for found in NET.finditer(data) if b"/" in data else ():
        if b"." in found.group("len"):
            continue
        net = network_of(found)
        if net is None or net.network_address == ipaddress.IPv4Address(found.group("addr").decode()) \
                or net not in blocks or in_access_rule(data, found.start()):
            continue
        old, new = blocks[net]
        out.append((found.start(), found.end(), net, old, new))
    return sorted(out, key=lambda x: x[0])


def _spelling_end(data: bytes, end: int, block: Net) -> int | None:
    """The end of `block`'s literal whose address ends at `end` (a slash and its length or mask, or,
    for IPv4, a blank and a dotted mask), None where the length is another's."""
    found = _AFTER_SLASH.match(data, end)
    if found is not None:
        length = found.group("len")
        prefix = mask_nets.length_of(length) if b"." in length else int(length)
    elif block.version == 4 and (found := _AFTER_BLANK.match(data, end)) is not None:
        prefix = mask_nets.length_of(found.group("mask"))
    else:
        return None
    return found.end() if prefix == block.prefixlen else None
