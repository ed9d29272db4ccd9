"""Validation of host names, addresses and networks, shared by config and DNS inventory."""

from __future__ import annotations

import ipaddress
import re

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)\Z")


def host_name_problem(name: str) -> str | None:
    """Why `name` is not an RFC 1123 host name (labels may be joined by dots), or None."""
    if not name:
        return "empty host name"
    if len(name.rstrip(".")) > 253:
        return "host name longer than 253 characters"
    labels = name[:-1].split(".") if name.endswith(".") else name.split(".")
    for label in labels:
        if not _LABEL.match(label):
            return f"invalid host name {name!r} (RFC 1123: labels of letters, digits and '-')"
    return None


def parse_address(text: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def parse_network(text: str) -> IPNetwork | None:
    try:
        return ipaddress.ip_network(text, strict=True)
    except ValueError:
        return None


def reverse_name(address: IPAddress) -> str:
    """The PTR owner name without the trailing dot: 54.50.250.10.in-addr.arpa."""
    return address.reverse_pointer


def reverse_zone(network: IPNetwork) -> str | None:
    """The reverse zone of an octet- (or nibble-) aligned network, e.g. 250.10.in-addr.arpa."""
    if isinstance(network, ipaddress.IPv4Network):
        if network.prefixlen % 8 or network.prefixlen == 0:
            return None
        octets = str(network.network_address).split(".")[: network.prefixlen // 8]
        return ".".join(reversed(octets)) + ".in-addr.arpa"
    if network.prefixlen % 4 or network.prefixlen == 0:
        return None
    nibbles = network.network_address.exploded.replace(":", "")[: network.prefixlen // 4]
    return ".".join(reversed(nibbles)) + ".ip6.arpa"
