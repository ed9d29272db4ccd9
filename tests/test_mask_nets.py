"""mask_nets: a network literal written as an address and a separate mask or wildcard (t32 round 25,
finding 03), and the first pass's question for it (access_nets.AccessNets; pure logic: the sweep's
decision end to end is tests/cli/test_mask_nets.py's)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.access_nets import AccessNets, in_route_rule
from renamer.mask_nets import SPACED, length_of, might_hold
from renamer.occurrences import Match
from renamer.sweep.access_sets import REASON, access_matches


@pytest.mark.parametrize(("mask", "length"), [
    (b"255.255.255.248", 29), (b"0.0.0.7", 29), (b"255.0.0.0", 8), (b"0.0.255.255", 16),
    (b"255.255.255.254", 31), (b"0.0.0.1", 31),
    (b"0.0.0.0", None), (b"255.255.255.255", None),  # any / this host: never a network
    (b"255.255.0.255", None), (b"0.0.0.6", None), (b"255.255.255.0.1", None), (b"010.0.0.7", None),
    (b"254.0.0.0", None),  # a /7: wider than any literal the first pass asks for
])
def test_length_of_a_netmask_or_wildcard(mask: bytes, length: int | None) -> None:
    assert length_of(mask) == length


@pytest.mark.parametrize("line", [
    b'push "route 10.0.0.64 255.255.255.240"\n', b"route 10.0.0.64 255.255.255.240\n",
    b"iroute 10.0.0.64 255.255.255.240\n", b"access-list 10 permit 10.0.0.64 0.0.0.15\n",
    b" deny   tcp 10.0.0.64 0.0.0.15 any eq 22\r\n", b"route ADD 10.0.0.64 MASK 255.255.255.240 10.0.0.1\n",
    b"route add -net 10.0.0.64 netmask 255.255.255.240 gw 10.0.0.1\n",
    b"ip route 10.0.0.64 255.255.255.240 10.0.0.1\n",
])
def test_a_network_holding_a_renamed_address_with_its_mask_apart_is_asked(line: bytes) -> None:
    nets = AccessNets([("10.0.0.70", "10.0.1.90")])
    assert nets.holds_literal(line) and nets.might_hold(line), line
    found = SPACED.search(line)
    assert found is not None and in_route_rule(line, found.start())


@pytest.mark.parametrize("line", [
    b"route 10.0.0.0 255.255.252.0\n",  # holds the new address too: admits the host as before
    b" ip address 10.0.0.64 255.255.255.240\n",  # an interface's own address, no rule
    b"access-list 10 permit 10.0.0.70 0.0.0.0\n",  # a host wildcard: the exact rule's own
    b"access-list 10 permit 10.0.5.0 0.0.0.255\n",  # does not hold it
    b"nameserver 10.0.0.64 10.0.0.1\n",  # two addresses, no mask
])
def test_what_is_no_set_around_a_renamed_address(line: bytes) -> None:
    assert not AccessNets([("10.0.0.70", "10.0.1.90")]).might_hold(line), line


def test_every_spaced_network_holding_a_renamed_address_begins_with_a_literal() -> None:
    """The gate's soundness, as for the slash spelling: each length's network address, then a blank."""
    nets = AccessNets([("172.16.5.70", "192.168.9.70")])
    old = ipaddress.IPv4Address("172.16.5.70")
    for length in range(8, 32):
        net = ipaddress.IPv4Network(f"{old}/{length}", strict=False)
        for text in (f"{net.network_address} {net.netmask}", f"{net.network_address} {net.hostmask}"):
            line = f"permit {text}\n".encode()
            assert any(lit in line for lit in nets.spaced), text
            assert might_hold(line) and nets.might_hold(line), text


def _decided(text: bytes, old: str, new: str) -> list[Match]:
    matches, at = [], text.find(old.encode())
    while at >= 0:
        matches.append(Match(at, at + len(old), old, new, "address"))
        at = text.find(old.encode(), at + 1)
    return access_matches(text, matches, [(old, new)])


def test_a_network_starting_at_the_renamed_address_is_an_access_set_anywhere() -> None:
    for text in (b"ip route 10.0.0.72 255.255.255.248 10.0.0.1\n", b" network 10.0.0.72 0.0.0.7 area 0\n",
                 b"route ADD 10.0.0.72 MASK 255.255.255.248\r\n"):
        found = _decided(text, "10.0.0.72", "10.0.1.92")
        assert [m.refused for m in found] == [REASON], text
        assert "(10.0.0.72/29) holding 10.0.0.72" in (found[0].note or ""), found


def test_a_host_with_its_mask_is_left_to_the_exact_rules() -> None:
    for text in (b" ip address 10.0.0.70 255.255.255.0\n", b'ifconfig_em0="inet 10.0.0.70 netmask 255.255.255.0"\n',
                 b"access-list 10 permit 10.0.0.70 0.0.0.0\n"):
        assert [m.refused for m in _decided(text, "10.0.0.70", "10.0.1.90")] == [None], text
