"""Delegation lengths outside Kea tied to a resized prefix (outside pass t31-33, findings 14 and 20),
pure and I/O free; `prefix_pools.pool_hits` adds these hits to its own.

A router that hands out IPv6 prefixes from a pool names the pool's network and, under a key of its
own, the length of each prefix it hands out. A network move that changes the pool's length
(`renames.networks`) rewrites the pool and leaves that length, whose meaning changes with it:

* RouterOS `/ipv6 pool add prefix=2001:db8:a::/48 prefix-length=56` (on one line);
* VyOS `dhcpv6-server ... subnet 2001:db8:a::/48 prefix-delegation start 2001:db8:a:: prefix-length
  56`, as a `set` command or inside the `subnet A/N { ... }` block of config.boot;
* OpenWrt's `option ip6assign '60'` (the length each interface takes) beside `option ula_prefix
  'fd12:3456:789a::/48'` or `option ip6prefix` in the same file (`/etc/config/network`);
* JunOS `access address-assignment pool P family inet6 prefix A/N` with `range R prefix-length L` (two
  `set` lines of one pool, or `prefix A/N;` in the `pool P { }` block around `prefix-length L;`);
  Cisco IOS `ipv6 local pool NAME A/N L` (one line; not in an ASA's file, whose third number counts
  addresses); dibbler's `pd-pool A/N` with `pd-length L` in one `pd-class { }` (t32-33 finding 03).

As Kea's pd-pools (prefix_pools.py): a length shorter than the new pool's can hand out nothing (RouterOS
and VyOS refuse such a pool, netifd assigns the interface no prefix): refused (`tool-refuses`), the
file left as it is; a shrink that leaves it valid hands out fewer prefixes: the pool literal is a
`tied-length` residual saying how many (decided by hand, never the pool alone). After the sweep (the
pool at its new network) a length shorter than the pool is refused the same way.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator, Sequence

from renamer import lazy_re
from renamer.names import IPNetwork
from renamer.prefix_moves import LengthHit, PrefixMove

TOOL = "tool-refuses"  # as prefix_pools.TOOL
TIED = "tied-length"  # as prefix_pools.TIED

_CIDR6 = rb"([0-9A-Fa-f]*:[0-9A-Fa-f:]*/[0-9]{1,3})(?![0-9])"
# RouterOS: `prefix=A/N` and `prefix-length=L` on one line, in either order.
_ROS_LENGTH = lazy_re.compile(rb"(?<![A-Za-z0-9_-])prefix-length[ \t]*=[ \t]*\"?([0-9]{1,3})(?![0-9]|-[0-9])")
# a `/routing filter` rule (its `chain=`), whose prefix-length= is a match, no pool's (t33-33 finding 19)
_ROS_FILTER = lazy_re.compile(rb"(?<![A-Za-z0-9_-])chain[ \t]*=")
_ROS_PREFIX = lazy_re.compile(rb"(?<![A-Za-z0-9_-])prefix[ \t]*=[ \t]*\"?" + _CIDR6)
# VyOS: `prefix-length L` (no `=`) under `prefix-delegation`; its `subnet A/N` on the line or around.
_VYOS_LENGTH = lazy_re.compile(rb"(?<![A-Za-z0-9_-])prefix-length[ \t]+\"?([0-9]{1,3})(?![0-9])")
_VYOS_SUBNET = lazy_re.compile(rb"(?<![A-Za-z0-9_-])subnet[ \t]+\"?" + _CIDR6)
# OpenWrt UCI.
_IP6ASSIGN = lazy_re.compile(rb"(?m)^[ \t]*option[ \t]+ip6assign[ \t]+[\"']?([0-9]{1,3})[\"']?[ \t]*\r?$")
_UCI_POOL = lazy_re.compile(rb"(?m)^[ \t]*option[ \t]+(?:ula_prefix|ip6prefix)[ \t]+[\"']?" + _CIDR6)
_MOST_LINES = 200  # how far up a VyOS block's `subnet` header is looked for
# JunOS address-assignment pools (t32-33 finding 03): `set access address-assignment pool P family inet6
# prefix A/N` beside `... pool P family inet6 range R prefix-length L`, or the hierarchy's `prefix A/N;`
# in the `pool P { ... }` block around `prefix-length L;`.
_JUNOS_SET_LENGTH = lazy_re.compile(
    rb"address-assignment[ \t]+pool[ \t]+(\S+)[ \t]+family[ \t]+inet6[ \t]+range"
                               rb"[ \t]+\S+[ \t]+prefix-length[ \t]+([0-9]{1,3})(?![0-9])")
_JUNOS_SET_PREFIX = rb"address-assignment[ \t]+pool[ \t]+%s[ \t]+family[ \t]+inet6[ \t]+prefix[ \t]+" + _CIDR6
_JUNOS_LENGTH = lazy_re.compile(rb"(?m)^[ \t]*prefix-length[ \t]+([0-9]{1,3})[ \t]*;")
_JUNOS_POOL = lazy_re.compile(rb"(?<![A-Za-z0-9_-])pool[ \t]+\S+[ \t]*\{")
_JUNOS_PREFIX = lazy_re.compile(rb"(?m)^[ \t]*prefix[ \t]+" + _CIDR6 + rb"[ \t]*;")
# Cisco IOS: `ipv6 local pool NAME A/N ASSIGNED-LENGTH` (an ASA's third number counts addresses).
_IOS_POOL = lazy_re.compile(rb"(?m)^[ \t]*ipv6[ \t]+local[ \t]+pool[ \t]+\S+[ \t]+" + _CIDR6 +
                       rb"[ \t]+([0-9]{1,3})(?![0-9])")
# dibbler: `pd-pool A/N` and `pd-length L` in one `pd-class { }`.
_DIBBLER_LENGTH = lazy_re.compile(rb"(?m)^[ \t]*pd-length[ \t]+([0-9]{1,3})(?![0-9])")
_DIBBLER_POOL = lazy_re.compile(rb"(?m)^[ \t]*pd-pool[ \t]+" + _CIDR6)
_DIBBLER_CLASS = lazy_re.compile(rb"(?<![A-Za-z0-9_-])pd-class[ \t]*\{")
# WIDE dhcp6c (t33-33 finding 15): `sla-len L;` in a `prefix-interface IF { }` of the `id-assoc pd N { }`
# whose `prefix A/N ...;` is the delegated prefix: each interface gets a /(N + L).
_SLA_LEN = lazy_re.compile(rb"(?m)^[ \t]*sla-len[ \t]+([0-9]{1,3})[ \t]*;")
_IA_PD = lazy_re.compile(rb"(?<![A-Za-z0-9_-])id-assoc[ \t]+pd(?:[ \t]+[0-9]+)?[ \t]*\{")
_IA_PREFIX = lazy_re.compile(rb"(?m)^[ \t]*prefix[ \t]+" + _CIDR6)
_IA_INTERFACE = lazy_re.compile(rb"(?<![A-Za-z0-9_-])prefix-interface[ \t]+([^\s{;]+)[ \t]*\{")


def network_of(text: bytes) -> IPNetwork | None:
    try:
        return ipaddress.ip_network(text.decode("ascii"), strict=False)
    except ValueError:
        return None


def named_move(net: IPNetwork | None, moves: Sequence[PrefixMove]) -> tuple[PrefixMove, bool] | None:
    """The resized move whose old network `net` is (False), or whose new network it is (True)."""
    for move in moves:
        if net is None or not move.resized or net.version != move.old.version:
            continue
        if net == move.old:
            return move, False
        if net == move.new:
            return move, True
    return None


def _line(data: bytes, pos: int) -> tuple[int, int]:
    end = data.find(b"\n", pos)
    return data.rfind(b"\n", 0, pos) + 1, len(data) if end < 0 else end


def _judge(data: bytes, length: re.Match[bytes], pool: re.Match[bytes], found: tuple[PrefixMove, bool],
           what: str, group: int = 1) -> Iterator[LengthHit]:
    move, after = found
    value, text = int(length.group(group)), length.group(group).decode()
    if value < move.new.prefixlen:
        yield LengthHit(length.start(group), length.end(group), text, text, TOOL,
                        f"{what} {value} is tied to the pool {move.old}, which becomes {move.new}: no "
                        f"/{value} fits in a /{move.new.prefixlen}, the pool can hand out nothing: set it "
                        f"by hand (at least {move.new.prefixlen}), or choose a longer new network")
    elif not after and move.new.prefixlen > move.old.prefixlen:
        literal = pool.group(1).decode()
        line = data.count(b"\n", 0, length.start()) + 1
        yield LengthHit(pool.start(1), pool.end(1), literal, literal, TIED,
                        f"{what} {value} (line {line}) is tied to the pool {move.old}, which hands out "
                        f"{2 ** (value - move.old.prefixlen)} /{value} prefixes, as {move.new} it would "
                        f"hand out {2 ** (value - move.new.prefixlen)}: decide the pool and its length "
                        "together by hand")


_ROS_SECTION = lazy_re.compile(rb"(?m)^[ \t]*(/[a-z0-9][a-z0-9 -]*?)[ \t]*\r?$")


def _ros_section(data: bytes, pos: int) -> bytes | None:
    """The RouterOS export section (`/ipv6 pool`, `/routing filter`) a line at `pos` is under."""
    heads = list(_ROS_SECTION.finditer(data, 0, _line(data, pos)[0]))
    return re.sub(rb"\s+", b" ", heads[-1].group(1)) if heads else None


def _vyos_subnet(data: bytes, line_start: int, line_end: int) -> re.Match[bytes] | None:
    """The `subnet A/N` of a VyOS `prefix-length` line: on the line (a `set` command), or the
    header of the `{ }` block the line is in (config.boot)."""
    on_line = _VYOS_SUBNET.search(data, line_start, line_end)
    if on_line is not None:
        return on_line
    depth, end = 0, line_start
    for _ in range(_MOST_LINES):
        if end <= 0:
            return None
        begin = data.rfind(b"\n", 0, end - 1) + 1
        depth += data.count(b"}", begin, end) - data.count(b"{", begin, end)
        if depth < 0:
            header = _VYOS_SUBNET.search(data, begin, end)
            if header is not None:
                return header
            depth = 0
        end = begin
    return None


def _block(data: bytes, pos: int, opener: re.Pattern[bytes]) -> tuple[int, int] | None:
    """The `{ }` block around `pos` whose header (the text before its brace) `opener` matches,
    innermost such block first; None where none is found within `_MOST_LINES` lines up."""
    depth, at = 0, pos
    for _ in range(_MOST_LINES * 80):
        at -= 1
        if at < 0:
            return None
        c = data[at:at + 1]
        if c == b"}":
            depth += 1
        elif c == b"{":
            if depth:
                depth -= 1
                continue
            head = data.rfind(b"\n", 0, at) + 1
            if opener.search(data, head, at + 1):
                depth_in, end = 1, at + 1
                while end < len(data) and depth_in:
                    depth_in += {b"{": 1, b"}": -1}.get(data[end:end + 1], 0)
                    end += 1
                return at, end
    return None


def _vendor_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """JunOS address-assignment pools, Cisco IOS `ipv6 local pool`, dibbler `pd-pool`/`pd-length`
    (t32-33 finding 03)."""
    if b"address-assignment" in data:
        for x in _JUNOS_SET_LENGTH.finditer(data):
            pools = list(re.finditer(_JUNOS_SET_PREFIX % re.escape(x.group(1)), data))
            found = named_move(network_of(pools[0].group(1)), moves) if len(pools) == 1 else None
            if found is not None:
                yield from _judge(data, x, pools[0], found, "JunOS's address-assignment range prefix-length",
                                  group=2)
        for x in _JUNOS_LENGTH.finditer(data):
            block = _block(data, x.start(), _JUNOS_POOL)
            pools = list(_JUNOS_PREFIX.finditer(data, *block)) if block is not None else []
            found = named_move(network_of(pools[0].group(1)), moves) if len(pools) == 1 else None
            if found is not None:
                yield from _judge(data, x, pools[0], found, "JunOS's address-assignment range prefix-length")
    if b"local" in data and b"ASA Version" not in data:
        for x in _IOS_POOL.finditer(data):
            found = named_move(network_of(x.group(1)), moves)
            if found is not None and int(x.group(2)) >= found[0].old.prefixlen:  # else an ASA's count
                yield from _judge(data, x, x, found, "Cisco IOS's ipv6 local pool assigned length", group=2)
    if b"pd-length" in data:
        for x in _DIBBLER_LENGTH.finditer(data):
            block = _block(data, x.start(), _DIBBLER_CLASS)
            pools = list(_DIBBLER_POOL.finditer(data, *block)) if block is not None else []
            for pool in pools:
                found = named_move(network_of(pool.group(1)), moves)
                if found is not None:
                    yield from _judge(data, x, pool, found, "dibbler's pd-class pd-length")


def _sla_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """dhcp6c's `sla-len`: the interface prefix is the delegated prefix's length plus it, so any
    resize of the prefix changes every interface's length (no grow or shrink keeps it)."""
    for x in _SLA_LEN.finditer(data):
        block = _block(data, x.start(), _IA_PD)
        if block is None:
            continue
        pools = [p for p in _IA_PREFIX.finditer(data, *block) if _block(data, p.start(), _IA_PD) == block
                 and _block(data, p.start(), _IA_INTERFACE) is None]
        where = _block(data, x.start(), _IA_INTERFACE)
        head = _IA_INTERFACE.search(data, data.rfind(b"\n", 0, where[0]) + 1, where[0] + 1) if where else None
        name = f" {head.group(1).decode(errors='replace')}" if head is not None else ""
        for pool in pools:
            found = named_move(network_of(pool.group(1)), moves)
            if found is None:
                continue
            move, after = found
            sla = int(x.group(1))
            was, now = move.old.prefixlen + sla, move.new.prefixlen + sla
            if after:  # the pool already at its new network (verify): the length decides alone
                if now > 128:
                    yield LengthHit(x.start(1), x.end(1), x.group(1).decode(), x.group(1).decode(), TOOL,
                                    f"dhcp6c's sla-len {sla} beside the prefix {move.new} gives the "
                                    f"interface{name} a /{now}, longer than 128: dhcp6c configures no prefix")
                continue
            fix = 64 - move.new.prefixlen
            hint = f"set it to {fix} by hand to keep a /{was}" if was == 64 and fix >= 0 else \
                "set it by hand"
            yield LengthHit(x.start(1), x.end(1), x.group(1).decode(), x.group(1).decode(), TOOL,
                            f"dhcp6c's sla-len {sla} is tied to the delegated prefix {move.old} (its "
                            f"id-assoc pd), which becomes {move.new}: the interface{name} would get a /{now} "
                            f"instead of a /{was}"
                            + (" (no SLAAC on a prefix other than a /64)" if was == 64 else "")
                            + f": {hint}, or keep the prefix's length")


def delegation_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """Each RouterOS, VyOS, OpenWrt, JunOS, Cisco IOS or dibbler delegation length tied to a resized
    IPv6 pool (module doc)."""
    yield from _vendor_hits(data, moves)
    if b"sla-len" in data:
        yield from _sla_hits(data, moves)
    if b"prefix-length" in data:
        for x in _ROS_LENGTH.finditer(data):
            if _ROS_FILTER.search(data, *_line(data, x.start())) or \
                    _ros_section(data, x.start()) == b"/routing filter":
                continue
            pool = _ROS_PREFIX.search(data, *_line(data, x.start()))
            found = named_move(network_of(pool.group(1)), moves) if pool is not None else None
            if pool is not None and found is not None:
                yield from _judge(data, x, pool, found, "RouterOS's pool prefix-length")
        for x in _VYOS_LENGTH.finditer(data):
            pool = _vyos_subnet(data, *_line(data, x.start()))
            found = named_move(network_of(pool.group(1)), moves) if pool is not None else None
            if pool is not None and found is not None:
                yield from _judge(data, x, pool, found, "VyOS's prefix-delegation prefix-length")
    if b"ip6assign" in data:
        pools = [(p, f) for p in _UCI_POOL.finditer(data) if (f := named_move(network_of(p.group(1)), moves))]
        for x in _IP6ASSIGN.finditer(data):
            for pool, found in pools:
                yield from _judge(data, x, pool, found, "OpenWrt's ip6assign")
