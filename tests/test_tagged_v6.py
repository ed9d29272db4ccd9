"""tagged_v6.py, pure logic: the places after a tag where an IPv6 address may start (t29-33,
findings 07 and 23). End to end: tests/cli/test_prefix_ipv6_t29.py."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    # an APL item list kept apart from its record (Ansible vars a zone template reads): no `APL` in
    # the file, the family number still read (d30 finding 04: a gate on the word lost it)
    ('lan_items: "1:10.0.48.0/24 2:2001:db8:a:10::/64"', [('lan_items: "1:10.0.48.0/24 2:', True)]),
])
def test_the_places_after_a_tag(text: str, found: list[tuple[str, bool]]) -> None:
    data = text.encode()
    assert [(data[:pos].decode(), numbered) for pos, numbered in tagged_v6.starts(data)] == found


# The APL family number as it was found: one search whose lookbehind was tried at every byte.
_NUMBER_AS_IT_WAS = re.compile(rb"(?<![A-Za-z0-9_.:/-])!?[12]:(?=[0-9A-Fa-f]{0,4}:)")
_PIECES = ["2:", "!2:", "1:", "!1:", "3:", "2001:db8::1", "2001:db8:a:2:", "::", ":", "!", "a", "ip6:", "x",
           ".", "/", "-", "_", " ", "\n", "db8", "10.0.48.0/24", "APL ", "2:2:", "!!2:"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=20))
def test_the_family_numbers_are_where_the_search_of_every_byte_found_them(pieces: list[str]) -> None:
    """Issue 30: the family number is found by its bytes and the byte before it tested in Python;
    the places are those of the search that tried its lookbehind at every byte."""
    data = "".join(pieces).encode()
    numbered = [pos for pos, number in tagged_v6.starts(data) if number]
    assert numbered == sorted(x.end() for x in _NUMBER_AS_IT_WAS.finditer(data)) if b":" in data else not numbered
