"""Non-contiguous Cisco wildcards after a resized network's address (wildcard_bits.py, t31-33
finding 05), as pure logic and through the Matcher; the wildcard's meaning checked with Cisco's rule
(an address matches where it equals the base on every zero bit of the wildcard)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.match import Matcher
from renamer.prefix_moves import OUTSIDE
from renamer.wildcard_bits import change, change_mask, is_pattern, span


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


# t32-33 findings 10, 11, 20: a pattern over a sub-block, a non-contiguous netmask, one reaching above
@pytest.mark.parametrize(("old", "new", "wildcard"), [
    ("10.0.48.0/24", "10.0.60.0/22", "0.0.0.14"),  # even hosts of the first 16
    ("10.0.48.0/24", "10.0.60.0/22", "0.0.0.126"),  # even hosts of a half
    ("10.0.48.0/29", "10.0.48.0/28", "0.0.0.2"),
    ("10.0.48.0/23", "10.0.48.0/22", "0.0.0.254"),  # a /24 of the /23
])
def test_a_pattern_over_a_sub_block_keeps_its_own(old: str, new: str, wildcard: str) -> None:
    assert change(wildcard, ipaddress.IPv4Network(old), ipaddress.IPv4Network(new)) is None
    # kept, its base moved by its offset: the same hosts at the same offsets, no more
    before = _selected(str(ipaddress.IPv4Network(old).network_address), wildcard, old)
    after = _selected(str(ipaddress.IPv4Network(new).network_address), wildcard, new)
    assert after == before


@pytest.mark.parametrize(("old", "new", "mask", "expected"), [
    ("10.0.48.0/24", "10.0.60.0/22", "255.255.255.1", "255.255.252.1"),
    ("10.0.48.0/23", "10.0.48.0/22", "255.255.254.1", "255.255.252.1"),
    ("10.0.48.0/24", "10.0.48.0/23", "255.255.255.3", "255.255.254.3"),
])
def test_a_non_contiguous_netmask_follows_a_grow(old: str, new: str, mask: str, expected: str) -> None:
    found = change_mask(mask, ipaddress.IPv4Network(old), ipaddress.IPv4Network(new))
    assert found is not None and found.outside is None and found.new == expected
    inverted = str(ipaddress.IPv4Address(int(ipaddress.IPv4Address(mask)) ^ 0xFFFFFFFF))
    new_inverted = str(ipaddress.IPv4Address(int(ipaddress.IPv4Address(expected)) ^ 0xFFFFFFFF))
    size = ipaddress.IPv4Network(old).num_addresses
    before = _selected(str(ipaddress.IPv4Network(old).network_address), inverted, old)
    after = _selected(str(ipaddress.IPv4Network(new).network_address), new_inverted, new)
    assert after == {block + i for block in range(0, ipaddress.IPv4Network(new).num_addresses, size)
                     for i in before}


def test_a_non_contiguous_netmask_under_a_shrink() -> None:
    old, new = ipaddress.IPv4Network("10.0.48.0/24"), ipaddress.IPv4Network("10.0.48.0/25")
    refused = change_mask("255.255.255.1", old, new)
    assert refused is not None and refused.outside is not None and "the netmask 255.255.255.1" in refused.outside
    assert change_mask("255.255.255.129", old, new) is None  # even hosts of the lower half: inside
    assert change_mask("255.255.255.0", old, new) is None  # contiguous: prefix_moves' own


@pytest.mark.parametrize(("text", "length"), [
    ("0.0.1.254", 23), ("255.255.254.1", 23), ("0.0.0.14", 28), ("0.0.3.254", 22), ("255.255.255.1", 24),
    ("10.0.48.7", None), ("0.0.0.255", None), ("255.255.255.0", None),
])
def test_span(text: str, length: int | None) -> None:
    assert span(text) == length


@pytest.mark.parametrize(("pairs", "text", "found"), [
    # a sub-block pattern keeps its bits, the address moves by its offset
    ([("10.0.48.0/24", "10.0.60.0/22")], "access-list 110 permit ip 10.0.48.0 0.0.0.14 any\n",
     [("10.0.48.0", "10.0.60.0", None)]),
    # netmasks: iptables' A/M, nft's & M == A (and & M A), refused under a shrink
    ([("10.0.48.0/24", "10.0.60.0/22")], "-A INPUT -s 10.0.48.0/255.255.255.1 -j ACCEPT\n",
     [("10.0.48.0", "10.0.60.0", None), ("255.255.255.1", "255.255.252.1", None)]),
    ([("10.0.48.0/24", "10.0.60.0/22")], "ip saddr & 255.255.255.1 == 10.0.48.0 accept\n",
     [("255.255.255.1", "255.255.252.1", None), ("10.0.48.0", "10.0.60.0", None)]),
    ([("10.0.48.0/24", "10.0.48.0/25")], "-A INPUT -s 10.0.48.0/255.255.255.1 -j ACCEPT\n",
     [("255.255.255.1", "255.255.255.1", OUTSIDE)]),
    # a pattern reaching above the moved network: a supernet, as its contiguous twin
    ([("10.0.48.0/24", "10.0.60.0/22")], "access-list 131 permit ip 10.0.48.0 0.0.1.254 any\n",
     [("10.0.48.0", "10.0.60.0", "supernet")]),
    ([("10.0.48.0/24", "10.0.60.0/22")], "-A INPUT -s 10.0.48.0/255.255.254.1 -j ACCEPT\n",
     [("10.0.48.0", "10.0.60.0", "supernet")]),
    # two addresses side by side are no address and wildcard
    ([("10.0.48.0/24", "10.0.60.0/22")], "nameserver 10.0.48.5 10.0.48.7\n",
     [("10.0.48.5", "10.0.60.5", None), ("10.0.48.7", "10.0.60.7", None)]),
])
def test_patterns_through_the_matcher(pairs: list[tuple[str, str]], text: str,
                                      found: list[tuple[str, str, str | None]]) -> None:
    assert _found(pairs, text) == found
