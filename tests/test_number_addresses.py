"""number_addresses.NumberAddresses: a renamed IPv4 address spelled as one number (pure logic; the
CLI cases are tests/cli/test_number_addresses.py)."""

from __future__ import annotations

import pytest

from renamer.number_addresses import NumberAddresses


@pytest.mark.parametrize(("text", "found"), [
    (b"http://184169014/", ["184169014"]),
    (b"ping 0xafa3236\nping 0x0AFA3236\n", ["0xafa3236", "0x0AFA3236"]),
    (b'{"ip": 184169014}', ["184169014"]),
])
def test_a_single_number_spelling_is_refused(text: bytes, found: list[str]) -> None:
    numbers = NumberAddresses([("10.250.50.54", "10.251.50.54")])
    matches = numbers.find(text)
    assert [m.old for m in matches] == found
    assert all(m.refused == "number-address" and m.new == "10.251.50.54" for m in matches)


@pytest.mark.parametrize("text", [
    b"184169015", b"1184169014", b"1841690140", b"x184169014", b"184169014.5", b"0xafa32360", b"afa3236",
])
def test_noop_a_longer_or_other_number(text: bytes) -> None:
    assert NumberAddresses([("10.250.50.54", "10.251.50.54")]).find(text) == []


def test_small_values_and_ipv6_have_no_literals() -> None:
    assert NumberAddresses([("0.1.2.3", "0.1.2.4"), ("fd00::1", "fd00::2")]).literals == ()


def test_a_moved_networks_numbers_are_said_never_written() -> None:
    """Round 7 (q33-counts): a number inside a moved IPv4 network is a residual; outside, none."""
    import ipaddress as _ip

    from renamer.number_addresses import NumberAddresses as _Numbers

    numbers = _Numbers([], [(_ip.ip_network("10.0.48.0/24"), _ip.ip_network("10.9.0.0/24"))])
    data = b"a 167784453 b 0x0a003005 c 167784999 d 8080 e 1677844530\n"
    assert numbers.holds_literal(data) and numbers.might_hold(data)
    found = [(m.old, m.refused, m.new) for m in numbers.find(data)]
    assert found == [("167784453", "number-address", "167784453"), ("0x0a003005", "number-address", "0x0a003005")]
