"""A host renumbered onto an address no host can hold (t31 round 24, finding 27).

An address rename (`renames.addresses`) moves one host: `10.0.0.70 -> 10.0.1.255` is a valid
address, but where the file writes a length or a mask beside it (`addresses: [10.0.0.70/24]`,
`Address=10.0.0.70/24`, `ip address 10.0.0.70 255.255.255.0`, `inet 10.0.0.70 netmask 0xffffff00`)
the new one lands on the network address or the broadcast address of that network
(`10.0.1.255/24`, `10.0.2.0/24`): no interface can hold it (the kernel takes the broadcast as
the interface's own, DHCP servers refuse it, peers never answer). The same holds where the file
declares the network holding the new address (`subnet 10.0.1.0/24`, `dhcp-range=...,10.0.1.0/24`
style literals with zero host bits): the new address at that network's first or last place.

Each such occurrence is refused `no-host` (the sweep refuses before its first write, file:line and
the reason, sweep/refusals.py) and left as a residual verify fails on. IPv4 /31 and /32 have no
network or broadcast address (RFC 3021); an IPv6 network's first address is its Subnet-Router
anycast address (RFC 4291), a /127 and /128 none. Only an occurrence that is a host at the written
length (host bits set) is asked: `10.0.0.0/24` is a network, a route's, not a host. Pure: matches
and bytes in, matches out; asked by `Matcher.find`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import replace

from renamer import interface_keys, lazy_re, prefix_spellings
from renamer.occurrences import Match

NO_HOST = "no-host"
GATEWAY = "gateway"  # interface_stanzas.py's reason: the gateway left off-link
HINT = ("an address rename lands a host on the network or broadcast address of the length written "
        "beside it (or of the network the file declares around it), or on the gateway written beside it "
        "(`GATEWAY=`, `gateway`, `defaultGateway`): no host can hold it; the sweep is "
        "refused, nothing written: choose another new address (renames.addresses), then sweep again")

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# A dotted or BSD hex mask right after the address: `A M`, `A netmask M`, `A mask M`.
_MASK_AFTER = lazy_re.compile(rb"[ \t]+(?:(?i:netmask|mask)[ \t]+)?"
                         rb"(?P<m>(?:255|254|252|248|240|224|192|128|0)(?:\.(?:255|254|252|248|240|224|192|128|0))"
                         rb"{3}(?![0-9.])|0[xX][0-9A-Fa-f]{8}(?![0-9A-Za-z]))")
# A network literal the file declares: an address with a length (host bits checked below).
_NETWORK = lazy_re.compile(
    rb"(?<![\w.:])(?P<a>\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})"
                      rb"/(?P<n>\d{1,3})(?![\w./])")


def role(address: Address, length: int) -> str | None:
    """What `address` is at `length` where no host can be: "the network address", "the broadcast
    address", "the Subnet-Router anycast address"; None where a host can hold it."""
    bits = address.max_prefixlen
    if not 0 < length <= bits:
        return None
    network = ipaddress.ip_network((int(address), length), strict=False)
    if address.version == 4:
        if length >= 31:
            return None
        if address == network.network_address:
            return "the network address"
        if address == network.broadcast_address:
            return "the broadcast address"
        return None
    if length >= 127:
        return None
    return "the Subnet-Router anycast address" if address == network.network_address else None


def _off_link(old: Address, new: Address, length: int, gateways: list[tuple[str, int, str]]) -> str | None:
    """Where the renamed own address leaves the network a gateway written beside it stands in (at
    the length written for it): that gateway's line and why; else None."""
    try:
        old_net = ipaddress.ip_network((old, length), strict=False)
        new_net = ipaddress.ip_network((new, length), strict=False)
    except ValueError:
        return None
    if old_net == new_net:
        return None
    for gateway, number, written in gateways:
        was, now = _parse(written), _parse(gateway)
        if was is not None and now is not None and was.version == old.version and was in old_net \
                and now not in new_net:
            return f"line {number}'s gateway {now} would be outside {new_net}"
    return None


def _parse(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _mask_length(text: bytes) -> int | None:
    try:
        if text[:2].lower() == b"0x":
            value = int(text[2:], 16)
            return ipaddress.ip_network(f"0.0.0.0/{ipaddress.IPv4Address(value)}").prefixlen
        return ipaddress.ip_network(f"0.0.0.0/{text.decode('ascii')}").prefixlen
    except ValueError:
        return None


def _length_at(data: bytes, m: Match, v6: bool) -> tuple[int, str] | None:
    """The length written right after the match (`/24`, ` 255.255.255.0`, `netmask 0xffffff00`)."""
    bracketed = m.start > 0 and data[m.start - 1:m.start] == b"["
    found = prefix_spellings.length_after(data, m.end, v6=v6, bracketed=bracketed)
    if found is not None and data[max(0, m.start - 2):m.start] != b"//":
        return found.value, f"{found.between}{found.value}"
    if not v6:
        mask = _MASK_AFTER.match(data, m.end)
        if mask is not None:
            length = _mask_length(mask.group("m"))
            if length is not None:
                return length, mask.group(0).decode("ascii").strip()
    return None


def _declared(data: bytes) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The networks the file declares (an address with zero host bits and a length)."""
    out = []
    for found in _NETWORK.finditer(data):
        try:
            network = ipaddress.ip_network(f"{found.group('a').decode()}/{found.group('n').decode()}")
        except ValueError:
            continue  # host bits set: a host's address with its length, not a network
        if network.prefixlen < network.max_prefixlen:
            out.append(network)
    return out


def parsed(texts: Iterable[str]) -> frozenset[Address]:
    """The addresses among `texts` (an address rename's old values), parsed."""
    out = set()
    for text in texts:
        try:
            out.add(ipaddress.ip_address(text))
        except ValueError:
            continue
    return frozenset(out)


def refused(data: bytes, matches: list[Match], renamed: frozenset[Address]) -> list[Match]:
    """`matches` with each rewritten address of an address rename (`renamed`: the old values)
    that lands on an address no host can hold, at the length written beside it or in a network
    the file declares around it, refused `no-host` with a note."""
    open_ = [i for i, m in enumerate(matches) if m.kind == "address" and m.refused is None
             and m.kept is None and m.new != m.old and _parse(m.old) in renamed]
    if not open_:
        return matches
    out = list(matches)
    declared: list[ipaddress.IPv4Network | ipaddress.IPv6Network] | None = None
    for i in open_:
        m = out[i]
        try:
            old = ipaddress.ip_address(m.old)
            new = ipaddress.ip_address(m.new.split("/")[0])
        except ValueError:
            continue
        written = _length_at(data, m, new.version == 6)
        if written is None:  # `prefixLength = 24`, `PREFIX=24`, `netmask` beside it (t32 round 25, 16)
            written = interface_keys.length_of(data, m)
        why = None
        gateways = interface_keys.gateways_of(data, m, out)
        for gateway, number, _ in gateways:  # t32 round 25, finding 17
            if _parse(gateway) == new:
                why = (f"{m.old} -> {m.new} is the gateway written beside it (line {number}): "
                       "the router holds it")
                break
        if why is not None:
            out[i] = replace(m, refused=NO_HOST, note=why)
            continue
        if written is not None and (off := _off_link(old, new, written[0], gateways)) is not None:
            out[i] = replace(m, refused=GATEWAY, note=off)  # as interface_stanzas.py says for netplan
            continue
        if written is not None:
            length, text = written
            if role(old, length) is None and (what := role(new, length)) is not None:
                why = f"{m.new} is {what} of {ipaddress.ip_network((int(new), length), strict=False)} " \
                      f"(the length written beside it, {text})"
        else:
            declared = _declared(data) if declared is None else declared
            if any(old in n and role(old, n.prefixlen) for n in declared):
                continue  # the old value is itself a network's first or last: not a host's rename
            around = [n for n in declared if new in n]
            for network in sorted(around, key=lambda n: -n.prefixlen):
                what = role(new, network.prefixlen)
                if what is not None:
                    why = f"{m.new} is {what} of {network}, which this file declares"
                    break
        if why is not None:
            out[i] = replace(m, refused=NO_HOST, note=f"{m.old} -> {why}: no host can hold it")
    return out
