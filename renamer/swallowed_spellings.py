"""A neighbour a grown network swallows, in the spellings that name a network without an address
literal (t29-33, finding 16).

`10.0.48.0/24: 10.0.48.0/23` swallows 10.0.49.0/24. The collision check (sweep/collisions.py) read
address and network literals only, so a neighbour the repo names as its reverse zone (`zone
"49.0.10.in-addr.arpa"`, `1.1.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa`), a short network (`acl iot {
10.0.49/24; };`) or a partial address (Samba's `hosts allow = 10.0.49.`, Apache's `Require ip
10.0.49`) was no collision: `--strict` exited 0 and the zone summary even told the operator to
"add 49.0.10.in-addr.arpa", the neighbour's zone, served already.

Here every such spelling the sweep itself reads (prefix_moves' reverse zones, match.py's short
networks, prefix_values' heads with a trailing dot or in an access list) is found in a file and
turned into the network it names; one inside a grow's new network and outside where its old
network lands is swallowed. A wider one (`10.in-addr.arpa`, `10.0.`) holds the new network: no
neighbour. Pure: bytes in, spans out.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from renamer import access_heads, lazy_re
from renamer.names import IPNetwork

Grow = tuple[IPNetwork, IPNetwork, int, int]  # old, new, and where the old one lands: [first, end)

# `49.0.10.in-addr.arpa` (one to three labels: a zone, not an address's name)
_V4_ZONE = lazy_re.compile(rb"(?i)(?<![0-9A-Za-z.-])((?:[0-9]{1,3}\.){1,3})in-addr\.arpa(?![0-9A-Za-z-])")
# `1.1.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa` (fewer than 32 nibbles: a zone)
_V6_ZONE = lazy_re.compile(rb"(?i)(?<![0-9A-Za-z.-])((?:[0-9a-f]\.){1,31})ip6\.arpa(?![0-9A-Za-z-])")
# `10.0.49/24`: fewer than four octets and a length
_SHORT = lazy_re.compile(rb"(?<![0-9A-Za-z.:/-])([0-9]{1,3}(?:\.[0-9]{1,3}){1,2})/([0-9]{1,2})(?![0-9./])")
# `10.0.49.` (a trailing dot, no digit after it) or `10.0.49`: an access list's item, a wildcard's head
_HEAD = lazy_re.compile(
    rb"(?<![0-9A-Za-z.:/@-])([0-9]{1,3}(?:\.[0-9]{1,3}){1,2})(\.?)(?![0-9A-Za-z_]|\.[0-9])")


@dataclass(frozen=True)
class Spelled:
    start: int
    end: int
    text: str
    network: IPNetwork
    grow: Grow


def literals(grows: Sequence[Grow]) -> tuple[bytes, ...]:
    """One of these stands in every file `swallowed` finds something in."""
    out: set[bytes] = set()
    for _, new, _, _ in grows:
        if new.version == 4:
            out |= {b"in-addr.arpa", b"IN-ADDR.ARPA"}
            out.add(str(new.network_address).split(".")[0].encode() + b".")
        else:
            out |= {b"ip6.arpa", b"IP6.ARPA"}
    return tuple(sorted(out))


def swallowed(data: bytes, grows: Sequence[Grow], rel: str = "") -> list[Spelled]:
    """Each reverse zone, short network or partial address in `data` naming a network that a grow
    swallows, in file order."""
    if not grows:
        return []
    out = []
    for start, end, network in _spellings(data, rel, {new.version for _, new, _, _ in grows}):
        grow = _swallowing(network, grows)
        if grow is not None:
            out.append(Spelled(start, end, data[start:end].decode("ascii", "replace"), network, grow))
    return sorted(out, key=lambda s: s.start)


def _swallowing(network: IPNetwork, grows: Sequence[Grow]) -> Grow | None:
    for grow in grows:
        _, new, first, end = grow
        if network.version != new.version or not network.subnet_of(new):  # type: ignore[arg-type]
            continue
        low, high = int(network.network_address), int(network.broadcast_address)
        if high < first or low >= end:  # wholly outside where the old network lands
            return grow
    return None


def _spellings(data: bytes, rel: str, versions: set[int]) -> Iterator[tuple[int, int, IPNetwork]]:
    if 4 in versions:
        lowered = data.lower()
        if b"in-addr.arpa" in lowered:
            for x in _V4_ZONE.finditer(data):
                octets = x.group(1).decode().rstrip(".").split(".")
                if all(int(o) < 256 for o in octets):
                    address = ".".join([*reversed(octets), *["0"] * (4 - len(octets))])
                    yield x.start(), x.end(), ipaddress.IPv4Network(f"{address}/{8 * len(octets)}")
        if b"/" in data:
            for x in _SHORT.finditer(data):
                octets = x.group(1).decode().split(".")
                length = int(x.group(2))
                if all(int(o) < 256 for o in octets) and 8 * len(octets) >= length > 0:
                    address = ".".join([*octets, *["0"] * (4 - len(octets))])
                    try:
                        yield x.start(), x.end(), ipaddress.IPv4Network(f"{address}/{length}")
                    except ValueError:
                        continue
        for x in _HEAD.finditer(data):
            octets = x.group(1).decode().split(".")
            if any(int(o) > 255 for o in octets):
                continue
            # an access rule's item (`hosts allow = 10.0.49.`, `Require ip 10.0.49`), or a head a
            # wildcard completes (`10.0.49.*`, MySQL's `10.0.49.%`); never prose's `10.0.49.`
            wildcard = bool(x.group(2)) and data[x.end():x.end() + 1] in (b"*", b"%")
            if not wildcard and not access_heads.in_access_list(data, x.start(), x.end(), rel):
                continue
            address = ".".join([*octets, *["0"] * (4 - len(octets))])
            yield x.start(), x.end(), ipaddress.IPv4Network(f"{address}/{8 * len(octets)}")
    if 6 in versions and b"ip6.arpa" in data.lower():
        for x in _V6_ZONE.finditer(data):
            nibbles = x.group(1).decode().lower().rstrip(".").split(".")
            value = int("".join(reversed(nibbles)).ljust(32, "0"), 16)
            yield x.start(), x.end(), ipaddress.IPv6Network((value, 4 * len(nibbles)))
