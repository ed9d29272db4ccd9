"""host_roles: which new addresses of an address rename land where no host can be, at the length
written beside them or in a network the file declares (pure logic; the sweep's refusal end to end
is tests/cli/test_host_roles.py's)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.host_roles import NO_HOST, parsed, refused, role
from renamer.occurrences import Match


def _refused(text: str, old: str, new: str) -> list[str | None]:
    data = text.encode()
    out, at = [], data.find(old.encode())
    while at >= 0:
        out.append(Match(at, at + len(old), old, new, "address"))
        at = data.find(old.encode(), at + 1)
    return [m.refused for m in refused(data, out, parsed([old]))]


@pytest.mark.parametrize(("address", "length", "expected"), [
    ("10.0.1.255", 24, "the broadcast address"),
    ("10.0.2.0", 24, "the network address"),
    ("10.0.1.127", 25, "the broadcast address"),
    ("10.0.1.255", 16, None),  # a host of the /16
    ("10.0.1.0", 31, None),  # RFC 3021: both addresses of a /31 are hosts
    ("10.0.1.0", 32, None),
    ("fd00::1:0", 112, "the Subnet-Router anycast address"),
    ("fd00::1:ffff", 112, None),  # IPv6 has no broadcast address
    ("fd00::1:0", 127, None),
])
def test_role(address: str, length: int, expected: str | None) -> None:
    assert role(ipaddress.ip_address(address), length) == expected


@pytest.mark.parametrize(("text", "old", "new"), [
    ("addresses: [10.0.0.70/24]\n", "10.0.0.70", "10.0.1.255"),
    ("Address=10.0.0.71/24\r\n", "10.0.0.71", "10.0.2.0"),
    (" ip address 10.0.0.70 255.255.255.0\n", "10.0.0.70", "10.0.1.255"),
    ("ifconfig_em0=\"inet 10.0.0.70 netmask 0xffffff00\"\n", "10.0.0.70", "10.0.1.0"),
    ("address 10.0.0.70/25\n", "10.0.0.70", "10.0.1.127"),
    ("Address=fd00::70/64\n", "fd00::70", "fd00:0:0:1::"),
    ("subnet 10.0.1.0/24\nhost web01 10.0.0.70\n", "10.0.0.70", "10.0.1.255"),  # the file's network
])
def test_a_host_on_a_network_or_broadcast_address_is_refused(text: str, old: str, new: str) -> None:
    assert _refused(text, old, new) == [NO_HOST]


@pytest.mark.parametrize(("text", "old", "new"), [
    ("addresses: [10.0.0.70/16]\n", "10.0.0.70", "10.0.1.255"),  # a host of the /16
    ("addresses: [10.0.0.70/24]\n", "10.0.0.70", "10.0.1.70"),
    ("dhcp-host=aa:bb:cc:dd:ee:01,web01,10.0.0.70\n", "10.0.0.70", "10.0.1.255"),  # no length: unknown
    ("route 10.0.0.0/24 via 10.0.0.1\n", "10.0.0.0", "10.0.1.0"),  # a network renamed as a network
    ("https://10.0.0.70/24hours\n", "10.0.0.70", "10.0.1.255"),  # a URL path, no length
    ("peer 10.0.0.70/31\n", "10.0.0.70", "10.0.1.0"),  # /31: a host
])
def test_a_host_place_or_no_length_is_left_alone(text: str, old: str, new: str) -> None:
    assert _refused(text, old, new) == [None]
