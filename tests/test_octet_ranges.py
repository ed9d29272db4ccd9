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


# t32-33 finding 12: any dash joins a range (en dash, em dash, minus sign, figure dash, hyphens)
EN, EM, MINUS, FIGURE = "\u2013", "\u2014", "\u2212", "\u2012"


@pytest.mark.parametrize(("pairs", "text", "found"), [
    # a shrink in place: the other end falls outside, whatever the dash
    ([("10.0.48.0/24", "10.0.48.0/25")], f"| 10.0.48.100{EN}200 |\n",
     [(f"10.0.48.100{EN}200", f"10.0.48.100{EN}200", OUTSIDE)]),
    ([("10.0.48.0/24", "10.0.48.0/25")], f"pool 10.0.48.100 {EM} .200\n",
     [(f"10.0.48.100 {EM} .200", f"10.0.48.100 {EM} .200", OUTSIDE)]),
    ([("10.0.48.0/24", "10.0.48.0/26")], f"nmap -sn 10.0.48.10{MINUS}100\n",
     [(f"10.0.48.10{MINUS}100", f"10.0.48.10{MINUS}100", OUTSIDE)]),
    ([("10.0.48.0/24", "10.0.48.0/25")], f"pool 10.0.48.100{FIGURE}10.0.48.200\n",
     [("10.0.48.200", "10.0.48.200", OUTSIDE)]),
    # the whole old network: its ends rewritten apart, the dash as written
    ([("10.0.48.0/24", "10.0.60.0/22")], f"| 10.0.48.0{EN}255 |\n",
     [("10.0.48.0", "10.0.60.0", None), ("255", "10.0.63.255", None)]),
    ([("10.0.48.0/24", "10.0.48.0/25")], f"scan 10.0.48.0{EN}255\n", [("255", "127", None)]),
    ([("10.0.48.0/24", "10.0.60.0/22")], f"hosts 10.0.48.0 {EM} .255\n",
     [("10.0.48.0", "10.0.60.0", None), (".255", "10.0.63.255", None)]),
    ([("10.0.48.0/24", "10.0.60.0/22")], f"pool 10.0.48.0{EN}10.0.48.255\n",
     [("10.0.48.0", "10.0.60.0", None), ("10.0.48.255", "10.0.63.255", None)]),
    ([("10.0.48.0/23", "10.0.48.0/24")], f"pool 10.0.48.0{EN}10.0.49.255\n", [("10.0.49.255", "10.0.48.255", None)]),
    # hosts inside keep their offsets
    ([("10.0.48.0/24", "10.0.60.0/22")], f"pool 10.0.48.100{EN}200\n", [("10.0.48.100", "10.0.60.100", None)]),
    ([("10.0.48.0/24", "10.0.48.0/25")], f"pool 10.0.48.10{EN}50\n", []),
])
def test_any_dash(pairs: list[tuple[str, str]], text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found(pairs, text) == found
