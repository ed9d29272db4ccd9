"""swallowed_spellings.py: a neighbour a grow swallows, spelled without an address (t29-33, finding 16)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.swallowed_spellings import Grow, literals, swallowed


def _grow(old: str, new: str) -> Grow:
    o, n = ipaddress.ip_network(old), ipaddress.ip_network(new)
    return (o, n, int(n.network_address), int(n.network_address) + o.num_addresses)


GROWS = [_grow("10.0.48.0/24", "10.0.48.0/23"), _grow("2001:db8:a:10::/64", "2001:db8:a:10::/60")]


@pytest.mark.parametrize(("data", "rel", "found"), [
    (b'zone "49.0.10.in-addr.arpa" { type master; };\n', "named.conf", [("49.0.10.in-addr.arpa", "10.0.49.0/24")]),
    (b'zone "49.0.10.IN-ADDR.ARPA" {};\n', "named.conf", [("49.0.10.IN-ADDR.ARPA", "10.0.49.0/24")]),
    (b'zone "1.1.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" {};\n', "named.conf",
     [("1.1.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", "2001:db8:a:11::/64")]),
    (b"acl iot { 10.0.49/24; };\n", "named.conf", [("10.0.49/24", "10.0.49.0/24")]),
    (b"acl iot { 10.0.49.128/25; };\n", "named.conf", []),  # a full literal: the matcher's
    (b"hosts allow = 10.0.49.\n", "smb.conf", [("10.0.49.", "10.0.49.0/24")]),
    (b"Require ip 10.0.49\n", "apache.conf", [("10.0.49", "10.0.49.0/24")]),
    (b"GRANT ALL ON *.* TO 'a'@'10.0.49.%';\n", "g.sql", [("10.0.49.", "10.0.49.0/24")]),
    # the moved network's own, a wider one, one outside the grown network, prose
    (b'zone "48.0.10.in-addr.arpa" {};\nzone "0.10.in-addr.arpa" {};\n', "named.conf", []),
    (b'zone "50.0.10.in-addr.arpa" {};\nacl x { 10.0.50/24; };\n', "named.conf", []),
    (b"The lab moved to 10.0.49.\n", "notes.md", []),
    (b"version 10.0.49\n", "a.conf", []),
])
def test_swallowed(data: bytes, rel: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, str(s.network)) for s in swallowed(data, GROWS, rel)] == found


def test_literals() -> None:
    assert set(literals(GROWS)) >= {b"in-addr.arpa", b"ip6.arpa", b"10."}
    assert swallowed(b'zone "49.0.10.in-addr.arpa"', []) == []
