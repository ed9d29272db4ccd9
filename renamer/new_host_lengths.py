"""A host of a resized move's new network written with the move's old length (t29-33, finding 20).

After `10.0.48.0/24: 10.0.60.0/22` a file that already names the new network's host with the old
length (a branch merged after the sweep, a hand edit that copied the old habit) configures that
host on-link for a /24 only: `Address=10.0.60.5/24` (networkd, netplan, `ip addr add`, nmconnection)
and `ip address 10.0.60.1 255.255.255.0` (IOS, `ifconfig ... netmask`) reach 10.0.61.9 through a
router, not directly. A /24 inside the /22 may be meant, so the length is not rewritten: it is said,
as the ifupdown stanza (`address 10.0.60.6` + `netmask 255.255.255.0`) is (`prefix_moves._decide`).

A host is an address with host bits set for the length beside it (`10.0.60.0/24` is a network, a
route's or a rule's, and left), where the old network lands (its offset below the old size: one
past it, `10.0.61.7/24`, stands in what a grow swallows, a collision said by sweep/collisions.py);
an address of the old network too (a resize in place) is the sweep's own match (its length
follows). A DHCP server's subnet declared at the new network with the old length (Kea `"subnet":
"10.0.60.0/24"`, dhcpd `subnet 10.0.60.0 netmask 255.255.255.0 {`, `subnet6 A/64 {`) is the same
fault for every client it serves: a `mask` residual too (`dhcp_subnets`; t31-33, finding 12). Pure:
networks and bytes in, spans and notes out; asked by `prefix_moves.length_hits` and `_decide`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from renamer import lazy_re

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Move = tuple[Network, Network]

# An address and `/N` right after it (IPv4, or IPv6 with at least two colons).
_SLASHED = lazy_re.compile(
    rb"(?<![\w.:])(?P<a>\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})"
                      rb"/(?P<n>\d{1,3})(?![\w./])")


def new_host(text: str, length: int, moves: Iterable[Move]) -> Move | None:
    """The move whose new network holds the host `text` (not its old one), where `length` is that
    move's old length and not its new one, and `text` is a host at `length` (host bits set)."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    for old, new in moves:
        if old.prefixlen == new.prefixlen or length != old.prefixlen or address.version != new.version:
            continue
        if address not in new or address in old:
            continue
        if int(address) - int(new.network_address) >= old.num_addresses:
            continue  # outside where the old network lands: a network the grow swallows (a collision)
        if int(address) & int(ipaddress.ip_network((int(address), length), strict=False).hostmask) == 0:
            return None  # the network address at that length: a subnet's, a route's
        return (old, new)
    return None


def note(owner: str, length_text: str, move: Move) -> str:
    old, new = move
    return (f"{owner} is a host of the new network {new} (the move from {old}) written with the old "
            f"length {length_text}: it is on-link for /{old.prefixlen} only; write /{new.prefixlen} "
            f"(or {ipaddress.ip_network((0, new.prefixlen)).netmask if new.version == 4 else new.prefixlen}),"
            " or keep it with `renamer: keep` where a smaller network is meant")


def slashed(data: bytes, moves: Iterable[Move]) -> list[tuple[int, int, int, str, str]]:
    """Each `/N` after a host of a new network that spells its move's old length: (address start,
    start, end, text, note), the span that of the number."""
    moves = [m for m in moves if m[0].prefixlen != m[1].prefixlen]
    if not moves or b"/" not in data:
        return []
    out = []
    for m in _SLASHED.finditer(data):
        text = m.group("a").decode("ascii")
        length = int(m.group("n"))
        if not any(length == old.prefixlen for old, _ in moves):
            continue
        move = new_host(text, length, moves)
        if move is None:
            continue
        why = note(text, f"/{length}", move)
        out.append((m.start(), m.start("n"), m.end("n"), m.group("n").decode(), why))
    return out


# A DHCP server's subnet declaration (t31-33, finding 12): Kea's `"subnet": "10.0.60.0/24"` in a file
# of `subnet4` / `subnet6` entries, ISC dhcpd's `subnet 10.0.60.0 netmask 255.255.255.0 {` and
# `subnet6 2001:db8:b:20::/64 {`.
_KEA_SUBNET = lazy_re.compile(rb"[\"']?subnet[\"']?[ \t]*:[ \t]*[\"']?(?P<a>[0-9A-Fa-f.:]+)/(?P<n>\d{1,3})"
                         rb"(?![\w./])")
_DHCPD_SUBNET = lazy_re.compile(rb"(?m)^[ \t]*subnet[ \t]+(?P<a>\d{1,3}(?:\.\d{1,3}){3})[ \t]+netmask[ \t]+"
                           rb"(?P<m>\d{1,3}(?:\.\d{1,3}){3})[ \t]*\{")
_DHCPD_SUBNET6 = lazy_re.compile(rb"(?m)^[ \t]*subnet6[ \t]+(?P<a>[0-9A-Fa-f:]+)/(?P<n>\d{1,3})[ \t]*\{")


def _new_subnet(text: str, length: int, moves: Iterable[Move]) -> Move | None:
    """The move whose new network starts at `text` declared with the old length (not the old
    network itself: that one is the sweep's own match)."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    for old, new in moves:
        if old.prefixlen == new.prefixlen or length != old.prefixlen or address.version != new.version:
            continue
        if address == new.network_address and address != old.network_address:
            return (old, new)
    return None


def subnet_note(declared: str, move: Move) -> str:
    old, new = move
    return (f"the DHCP subnet {declared} is the new network {new} (the move from {old}) declared with the "
            f"old length /{old.prefixlen}: every client gets a /{old.prefixlen} mask and is on-link for "
            f"part of {new} only; declare /{new.prefixlen}, or keep it with `renamer: keep` where a "
            "smaller scope is meant")


def dhcp_subnets(data: bytes, moves: Iterable[Move]) -> list[tuple[int, int, str, str]]:
    """Each DHCP subnet declared at a resized move's new network with its old length: (start, end,
    text, note), the span that of the length or the netmask."""
    moves = [m for m in moves if m[0].prefixlen != m[1].prefixlen]
    if not moves or b"subnet" not in data:
        return []
    out = []
    kea = b"subnet4" in data or b"subnet6" in data or b"Dhcp4" in data or b"Dhcp6" in data
    for pattern in ((_KEA_SUBNET, _DHCPD_SUBNET6) if kea else (_DHCPD_SUBNET6,)):
        for m in pattern.finditer(data):
            text, length = m.group("a").decode("ascii"), int(m.group("n"))
            move = _new_subnet(text, length, moves)
            if move is not None:
                out.append((m.start("n"), m.end("n"), m.group("n").decode(),
                            subnet_note(f"{text}/{length}", move)))
    for m in _DHCPD_SUBNET.finditer(data):
        try:
            length = ipaddress.ip_network(f"0.0.0.0/{m.group('m').decode()}").prefixlen
        except ValueError:
            continue
        move = _new_subnet(m.group("a").decode("ascii"), length, moves)
        if move is not None:
            out.append((m.start("m"), m.end("m"), m.group("m").decode(),
                        subnet_note(f"{m.group('a').decode()} netmask {m.group('m').decode()}", move)))
    return out
