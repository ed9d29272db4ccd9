"""Ranges of last octets under a resize (octet_ranges.py, t31-33 finding 01), through the Matcher:
the whole old network becomes the whole new one; a range a shrink in place leaves half outside is
refused; ranges of hosts inside keep their offsets. The ends checked with Python's ipaddress."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.match import Matcher
from renamer.octet_ranges import whole_new
from renamer.prefix_moves import OUTSIDE, PrefixMove


def _found(pairs: list[tuple[str, str]], text: str) -> list[tuple[str, str, str | None]]:
    matcher = Matcher(networks=[(ipaddress.ip_network(a), ipaddress.ip_network(b)) for a, b in pairs])
    return [(m.old, m.new, m.refused) for m in matcher.find(text.encode())]


@pytest.mark.parametrize(("old", "new", "text"), [
    ("10.0.48.0/24", "10.0.60.0/22", "10.0.60.0-10.0.63.255"),
    ("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0-127"),
    ("10.0.48.0/29", "10.0.48.0/28", "10.0.48.0-15"),
    ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0-255"),
])
def test_whole_new(old: str, new: str, text: str) -> None:
    move = PrefixMove(ipaddress.IPv4Network(old), ipaddress.IPv4Network(new))
    assert whole_new(move) == text
    first, _, last = text.partition("-")
    last = last if "." in last else f"{first.rsplit('.', 1)[0]}.{last}"
    assert (ipaddress.IPv4Address(first), ipaddress.IPv4Address(last)) == (
        move.new.network_address, move.new.broadcast_address)


@pytest.mark.parametrize(("pairs", "text", "found"), [
    # the whole old network, moved, grown, shrunk, in place
    ([("10.0.48.0/24", "10.0.60.0/22")], "LAN (all of it): 10.0.48.0-255\n",
     [("10.0.48.0-255", "10.0.60.0-10.0.63.255", None)]),
    ([("10.0.48.0/24", "10.0.48.0/23")], "nmap -sn 10.0.48.0-255\n", [("10.0.48.0-255", "10.0.48.0-10.0.49.255", None)]),
    ([("10.0.48.0/29", "10.0.48.0/28")], "hosts 10.0.48.0 - .7\n", [("10.0.48.0 - .7", "10.0.48.0-15", None)]),
    ([("10.0.48.0/24", "10.0.48.0/25")], "scan 10.0.48.0-255\n", [("10.0.48.0-255", "10.0.48.0-127", None)]),
    # a shrink in place: the first end stays, the other falls outside
    ([("10.0.48.0/24", "10.0.48.0/25")], "The DHCP pool is 10.0.48.100-200 (leases).\n",
     [("10.0.48.100-200", "10.0.48.100-200", OUTSIDE)]),
    ([("10.0.48.0/24", "10.0.48.0/26")], "nmap -sn 10.0.48.10-100\n", [("10.0.48.10-100", "10.0.48.10-100", OUTSIDE)]),
    # inside the new network: nothing to say
    ([("10.0.48.0/24", "10.0.48.0/26")], "nmap -sn 10.0.48.10-50\n", []),
    ([("10.0.48.0/23", "10.0.48.0/24")], "pool 10.0.48.100-200\n", []),
    # another network's range
    ([("10.0.48.0/24", "10.0.48.0/25")], "pool 10.0.49.100-200\n", []),
])
def test_octet_ranges(pairs: list[tuple[str, str]], text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found(pairs, text) == found
