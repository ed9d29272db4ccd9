"""nat_maps.py: 1:1 network maps under a resized move (t29-33, finding 06)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.match import Matcher

GROW = [(ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("10.0.60.0/22")),
        (ipaddress.ip_network("2001:db8:a:10::/64"), ipaddress.ip_network("2001:db8:a:10::/60"))]


def _found(line: bytes, networks: list = GROW) -> list[tuple[str, str, str | None]]:  # type: ignore[type-arg]
    return [(m.old, m.new, m.refused) for m in Matcher(networks=networks).find(line)]


@pytest.mark.parametrize("line", [
    b"-A POSTROUTING -s 10.0.48.0/24 -j NETMAP --to 172.31.5.0/24\n",
    b"-A PREROUTING -d 172.31.5.0/24 -j NETMAP --to 10.0.48.0/24\n",
    b"-A POSTROUTING -j SNPT --src-pfx 2001:db8:a:10::/64 --dst-pfx 2001:db8:ff:10::/64\n",
    b"ip6 saddr 2001:db8:a:10::/64 snat ip6 prefix to 2001:db8:ff:10::/64\n",
    b"ip saddr 10.0.48.0/24 snat ip prefix to 172.31.5.0/24\n",
    b"add chain=srcnat action=netmap src-address=10.0.48.0/24 to-addresses=172.31.5.0/24\n",
    b"set security nat static rule-set rs rule r1 then static-nat prefix 10.0.48.0/24\n",
    b"ip nat inside source static network 10.0.48.0 172.31.5.0 /24\n",
    b"binat on em0 from 10.0.48.0/24 to any -> 172.31.5.0/24\n",
    b"bimap em0 10.0.48.0/24 -> 172.31.5.0/24\n",
])
def test_a_map_line_of_a_resized_network_is_tied(line: bytes) -> None:
    found = _found(line)
    assert found and all(refused == "tied-length" and old == new for old, new, refused in found), found


@pytest.mark.parametrize("line", [
    b"-A POSTROUTING -s 10.0.48.0/24 -j MASQUERADE\n",  # no map
    b"-A POSTROUTING -s 10.0.48.0/24 -j SNAT --to-source 172.31.5.1\n",  # many to one
    b"ip saddr 10.0.48.0/24 snat to 172.31.5.1\n",
])
def test_a_line_that_maps_nothing_one_to_one_follows_the_move(line: bytes) -> None:
    found = _found(line)
    assert found and all(refused is None and old != new for old, new, refused in found), found


def test_both_sides_moved_to_one_length_follow() -> None:
    networks = [*GROW, (ipaddress.ip_network("172.31.4.0/24"), ipaddress.ip_network("172.31.8.0/22"))]
    found = _found(b"-s 10.0.48.0/24 -j NETMAP --to 172.31.4.0/24\n", networks)
    assert [(old, new) for old, new, refused in found if refused is None] == [
        ("10.0.48.0/24", "10.0.60.0/22"), ("172.31.4.0/24", "172.31.8.0/22")], found


def test_a_move_that_keeps_its_length_is_no_concern() -> None:
    same = [(ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("10.0.60.0/24"))]
    assert _found(b"-s 10.0.48.0/24 -j NETMAP --to 172.31.5.0/24\n", same) == [("10.0.48.0", "10.0.60.0", None)]


@pytest.mark.parametrize("line", [
    # OpenBSD pf's `binat-to`: before, a `range` residual naming 198.51.100.0 the range's other end (t31-33 06)
    b"pass out on egress from 10.0.48.0/24 to any binat-to 198.51.100.0/24\n",
    b"match out on em0 inet from 10.0.48.0/24 to any binat-to 172.31.5.0/24\n",
    b"pass out on egress inet6 from 2001:db8:a:10::/64 to any binat-to 2001:db8:ff:10::/64\n",
])
def test_pf_binat_to_is_a_map(line: bytes) -> None:
    found = _found(line)
    assert [refused for _, _, refused in found] == ["tied-length"], found


@pytest.mark.parametrize(("line", "found"), [
    # OSPF's `area N range NETWORK MASK`: a network and its mask, never a range of two ends (t31-33 06)
    (b" area 0 range 10.0.48.0 255.255.255.0\n",
     [("10.0.48.0", "10.0.60.0", None), ("255.255.255.0", "255.255.252.0", None)]),
    (b" area 0 range 10.0.48.0 255.255.255.0 not-advertise\n",
     [("10.0.48.0", "10.0.60.0", None), ("255.255.255.0", "255.255.252.0", None)]),
    # a range whose ends are addresses stays a range
    (b"range 10.0.48.10 10.0.48.20;\n", [("10.0.48.10", "10.0.60.10", None), ("10.0.48.20", "10.0.60.20", None)]),
])
def test_an_ospf_area_range_is_a_network_and_its_mask(line: bytes, found: list[tuple[str, str, str | None]]) -> None:
    assert _found(line) == found
