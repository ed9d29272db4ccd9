"""host_ranges.py on its own (t33-33 finding 06): which ends make "every host" of a grown network
(a gateway's host spared at one end), and the scans whose two ends it reads itself."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.host_ranges import every_host, own_ends
from renamer.prefix_moves import PrefixMove

GROW = PrefixMove(ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("10.0.60.0/22"))


@pytest.mark.parametrize(("first", "last", "every"), [
    ("10.0.48.1", "10.0.48.254", True),
    ("10.0.48.0", "10.0.48.254", True),
    ("10.0.48.2", "10.0.48.254", True),  # after a gateway at .1
    ("10.0.48.1", "10.0.48.253", True),  # before a gateway at .254
    ("10.0.48.2", "10.0.48.253", False),  # a host fewer at both ends
    ("10.0.48.3", "10.0.48.254", False),
    ("10.0.48.10", "10.0.48.200", False),
])
def test_every_host(first: str, last: str, every: bool) -> None:
    assert every_host(GROW, ipaddress.ip_address(first), ipaddress.ip_address(last)) is every


def test_a_short_network_spares_no_gateway() -> None:
    small = PrefixMove(ipaddress.ip_network("10.0.48.0/29"), ipaddress.ip_network("10.0.70.0/28"))
    assert every_host(small, ipaddress.ip_address("10.0.48.1"), ipaddress.ip_address("10.0.48.6"))
    assert not every_host(small, ipaddress.ip_address("10.0.48.2"), ipaddress.ip_address("10.0.48.6"))


@pytest.mark.parametrize(("text", "ends"), [
    ("fping -a -q -g 10.0.48.1 10.0.48.254\n", ("10.0.48.1", "10.0.48.254")),
    ("fping --generate 2001:db8::1 2001:db8::ff\n", ("2001:db8::1", "2001:db8::ff")),
    ("prips 10.0.48.1 10.0.48.254\n", ("10.0.48.1", "10.0.48.254")),
    ("prips -d 32 10.0.48.1 10.0.48.254\n", ("10.0.48.1", "10.0.48.254")),
])
def test_scans_ends(text: str, ends: tuple[str, str]) -> None:
    data = text.encode()
    assert [(data[a[0]:a[1]].decode(), data[b[0]:b[1]].decode()) for a, b in own_ends(data)] == [ends]


@pytest.mark.parametrize("text", [
    "fping 10.0.48.1 10.0.48.254\n",  # two targets, no -g: two hosts, no range
    "fping -g 10.0.48.0/24\n",  # a network: the move's own literal
    "ping 10.0.48.1 10.0.48.254\n",
])
def test_no_scan_range(text: str) -> None:
    assert own_ends(text.encode()) == []


def test_an_openvpn_pool_with_its_mask_is_a_range_and_three_members_are_not() -> None:
    """t36-33 finding 07: `ifconfig-pool A B M` declares A-B; `pool: a, b, c` lists members."""
    from renamer.context import declared_ends
    line = b"ifconfig-pool 192.168.40.1 192.168.40.254 255.255.255.0\n"
    assert declared_ends(line) == [((14, 26), (27, 41))]
    assert declared_ends(b"pool: 10.0.0.1, 10.0.0.2, 10.0.0.3\n") == []
    assert declared_ends(b"pool: 10.0.0.1, 10.0.0.2, 255.255.0.0\n") == [((6, 14), (16, 24))]
