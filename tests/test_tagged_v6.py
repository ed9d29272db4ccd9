"""tagged_v6.py, pure logic: the places after a tag where an IPv6 address may start (t29-33,
findings 07 and 23). End to end: tests/cli/test_prefix_ipv6_t29.py."""

from __future__ import annotations

import pytest

from renamer import tagged_v6


@pytest.mark.parametrize(("text", "found"), [
    ('"v=spf1 ip6:2001:db8:a:10::/64 -all"', [('"v=spf1 ip6:', False)]),  # SPF
    ("postmaster@[IPv6:2001:db8:a:10::25]", [("postmaster@[IPv6:", False)]),  # RFC 5321 literal
    ("x IN APL 1:10.0.48.0/24 2:2001:db8:a:10::/64", [("x IN APL 1:10.0.48.0/24 2:", True)]),  # APL
    ("x IN APL !2:2001:db8:c::/48", [("x IN APL !2:", True)]),  # a negated item
    ("inet6:2001:db8::1 tcp6:2001:db8::2", [("inet6:", False), ("inet6:2001:db8::1 tcp6:", False)]),
    ("ip6:::1", [("ip6:", False)]),
    ("Connect:IPv6:2001:db8:a:10::25 RELAY", [("Connect:IPv6:", False)]),  # sendmail's access map
    ("2001:db8:a:2:2001:db8::1", []),  # no number tag after a colon: inside an address
    ("cafe:2001:db8::1", []),  # a word of hex digits may be the address's first group: never split
    ("ab:2001:db8::1", []),
    ("key: 2001:db8::1", []),  # a blank after the colon: the address starts as any other
    ("a.ip6:2001:db8::1", []),  # a dotted name's label, a path: no tag
    ("/x/ip6:2001:db8::1", []),
    ("12:30:45", []),  # a time: a digit before the number
    ("3:2001:db8::/32", []),  # no APL family 3
    ("ip6:10.0.48.0/24", []),  # an IPv4 address after it is read as any IPv4 address
])
def test_the_places_after_a_tag(text: str, found: list[tuple[str, bool]]) -> None:
    data = text.encode()
    assert [(data[:pos].decode(), numbered) for pos, numbered in tagged_v6.starts(data)] == found
