"""A network moved to another of any prefix length (`renames.networks`), pure and I/O free.

Every address keeps its host offset from the network address (`10.0.48.3` of 10.0.48.0/29 is
`10.0.48.3` of 10.0.48.0/28, and `10.1.0.3` of 10.1.0.0/28); the IPv4 broadcast address, which no
host can hold, becomes the new network's broadcast address where its line says `broadcast` (or
`brd`), and is refused elsewhere (its offset names a host in a wider network). What depends on the
length follows it: a `/29` suffix of the moved network, the dotted mask (255.255.255.248 ->
255.255.255.240) and the Cisco wildcard (0.0.0.7 -> 0.0.0.15) beside a moved address, a
`prefix`/`netmask`/`cidr` key's number in a stanza of moved addresses (sweep: match.py and
masks.py). A shrink that leaves an address in use outside the new network is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from renamer.names import IPAddress, IPNetwork

# The word on an address's line that makes it a broadcast address (`broadcast 10.0.48.7`,
# `Broadcast=`, `option broadcast-address`, `ip addr add ... brd 10.0.48.7`).
_BROADCAST = re.compile(rb"(?i)(?<![a-z])(?:broadcast|bcast|brd)(?![a-z])")

OUTSIDE = "outside-prefix"  # Match.refused: a shrink leaves this address outside the new network
BROADCAST = "broadcast"  # Match.refused: the old broadcast address where no word says it is one
MASK = "mask"  # Match.refused: a mask, wildcard or prefix length whose network is not certain


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
        if broadcast and self.is_broadcast(address):
            return self.new.broadcast_address
        return self.mapped(address) if self.fits(address) and not self.is_broadcast(address) else None


def mask(net: IPNetwork) -> str:
    return str(net.netmask)


def wildcard(net: IPNetwork) -> str:
    return str(net.hostmask)


def says_broadcast(data: bytes, start: int) -> bool:
    """Does the line before `start` name a broadcast address?"""
    line = data.rfind(b"\n", 0, start) + 1
    return _BROADCAST.search(data, line, start) is not None


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
