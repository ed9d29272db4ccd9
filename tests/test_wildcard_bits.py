"""Non-contiguous Cisco wildcards after a resized network's address (wildcard_bits.py, t31-33
finding 05), as pure logic and through the Matcher; the wildcard's meaning checked with Cisco's rule
(an address matches where it equals the base on every zero bit of the wildcard)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.match import Matcher
from renamer.prefix_moves import OUTSIDE
from renamer.wildcard_bits import change, is_pattern


def _matches(base: str, wildcard: str, address: str) -> bool:
    b, w, a = (int(ipaddress.IPv4Address(v)) for v in (base, wildcard, address))
    return (a & ~w) == (b & ~w)


def _selected(base: str, wildcard: str, within: str) -> set[int]:
    """The offsets in `within` the rule matches."""
    net = ipaddress.IPv4Network(within)
    return {i for i in range(net.num_addresses) if _matches(base, wildcard, str(net[i]))}


@pytest.mark.parametrize(("text", "pattern"), [
    ("0.0.0.254", True), ("0.0.3.254", True), ("0.0.0.126", True),
    ("0.0.0.255", False), ("255.255.255.0", False), ("0.0.0.0", False), ("255.255.255.255", False),
    ("10.0.48.1", True), ("not", False),
])
def test_is_pattern(text: str, pattern: bool) -> None:
    assert is_pattern(text) is pattern


@pytest.mark.parametrize(("old", "new", "base", "new_base", "wildcard", "expected"), [
    ("10.0.48.0/24", "10.0.60.0/22", "10.0.48.0", "10.0.60.0", "0.0.0.254", "0.0.3.254"),  # even hosts
    ("10.0.48.0/24", "10.0.60.0/22", "10.0.48.1", "10.0.60.1", "0.0.0.254", "0.0.3.254"),  # odd hosts
    ("10.0.48.0/29", "10.0.48.0/28", "10.0.48.0", "10.0.48.0", "0.0.0.6", "0.0.0.14"),
    ("10.0.48.0/24", "10.0.48.0/23", "10.0.48.0", "10.0.48.0", "0.0.0.252", "0.0.1.252"),  # every 4th
])
def test_a_grow_keeps_the_pattern_over_the_whole_new_network(old: str, new: str, base: str, new_base: str,
                                                            wildcard: str, expected: str) -> None:
    found = change(wildcard, ipaddress.IPv4Network(old), ipaddress.IPv4Network(new))
    assert found is not None and found.outside is None
    assert found.new == expected
    size = ipaddress.IPv4Network(old).num_addresses
    before = _selected(base, wildcard, old)
    after = _selected(new_base, found.new, new)
    # the same pattern of offsets, repeated over every block of the old size in the new network
    assert after == {block + i for block in range(0, ipaddress.IPv4Network(new).num_addresses, size)
                     for i in before}


def test_a_shrink_keeps_a_wildcard_inside_and_refuses_one_reaching_out() -> None:
    old, new = ipaddress.IPv4Network("10.0.48.0/24"), ipaddress.IPv4Network("10.0.48.0/25")
    assert change("0.0.0.126", old, new) is None  # even hosts of .0-.127: all inside the /25
    refused = change("0.0.0.254", old, new)
    assert refused is not None and refused.outside is not None
    assert "outside" in refused.outside
    assert _selected("10.0.48.0", "0.0.0.254", "10.0.48.128/25")  # it did match the lost half


def test_a_wildcard_reaching_above_the_network_is_not_its_own() -> None:
    assert change("0.0.1.254", ipaddress.IPv4Network("10.0.48.0/24"), ipaddress.IPv4Network("10.0.60.0/22")) is None


def _found(pairs: list[tuple[str, str]], text: str) -> list[tuple[str, str, str | None]]:
    matcher = Matcher(networks=[(ipaddress.ip_network(a), ipaddress.ip_network(b)) for a, b in pairs])
    return [(m.old, m.new, m.refused) for m in matcher.find(text.encode())]


@pytest.mark.parametrize(("pairs", "text", "found"), [
    ([("10.0.48.0/24", "10.0.60.0/22")], "access-list 110 permit ip 10.0.48.0 0.0.0.254 any\n",
     [("10.0.48.0", "10.0.60.0", None), ("0.0.0.254", "0.0.3.254", None)]),
    ([("10.0.48.0/24", "10.0.60.0/22")], " permit udp 10.0.48.1 0.0.0.254 host 10.9.0.1 eq 53\n",
     [("10.0.48.1", "10.0.60.1", None), ("0.0.0.254", "0.0.3.254", None)]),
    ([("10.0.48.0/24", "10.0.48.0/25")], "access-list 110 permit ip 10.0.48.0 0.0.0.254 any\n",
     [("0.0.0.254", "0.0.0.254", OUTSIDE)]),
    # another network's wildcard, and a contiguous one (prefix_moves' own rule)
    ([("10.0.48.0/24", "10.0.60.0/22")], "access-list 110 permit ip 10.9.0.0 0.0.0.254 any\n", []),
    ([("10.0.48.0/24", "10.0.60.0/22")], "access-list 111 permit ip 10.0.48.0 0.0.0.255 any\n",
     [("10.0.48.0", "10.0.60.0", None), ("0.0.0.255", "0.0.3.255", None)]),
])
def test_through_the_matcher(pairs: list[tuple[str, str]], text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found(pairs, text) == found
