"""prefix_spellings.py, pure logic: where a length stands after an address in each spelling, the
IPv4-mapped shift, IPv6 masks as addresses, a key's family, and whether offset 0 is written as the
network (t26-33, findings 02, 07, 12, 14, 15, 18, 23). End to end: tests/cli/test_prefix_lengths_t26.py."""

from __future__ import annotations

import ipaddress

import pytest

from renamer import prefix_spellings as ps


@pytest.mark.parametrize(("text", "v6", "found"), [
    ("A/24 x", False, (4, "/", 24)),
    ("A /24 x", False, (5, " /", 24)),
    ("A / 24;", False, (6, " / ", 24)),
    ("A\t/22\n", False, (5, "\t/", 22)),
    ("A%eth0/48 x", True, (9, "%eth0/", 48)),
    ("A%en0 /48", True, (9, "%en0 /", 48)),
    ("A%eth0/48", False, None),  # no zone ID on an IPv4 address
    ("A / 10.9.0.6", False, None),  # another address
    ("A /24hours", False, None),
    ("A /24/x", False, None),
    ("A /", False, None),
    ("A x/24", False, None),
])
def test_the_length_after_an_address(text: str, v6: bool, found: tuple[int, str, int] | None) -> None:
    got = ps.length_after(text.encode(), 1, v6=v6)
    assert (None if got is None else (got.end, got.between, got.value)) == found


@pytest.mark.parametrize(("text", "shift"), [
    ("::ffff:10.0.48.0", 96), ("::FFFF:10.0.48.0", 96), ("0:0:0:0:0:ffff:10.0.48.0", 96),
    ("64:ff9b::10.0.48.0", 96), ("x 10.0.48.0", 0), ("2001:db8::10.0.48.0", 0), ("::10.0.48.0", 0),
])
def test_a_mapped_head_shifts_the_length_by_96(text: str, shift: int) -> None:
    assert ps.mapped_shift(text.encode(), text.index("10.0.48.0")) == shift


@pytest.mark.parametrize(("text", "length"), [
    ("ffff:ffff:ffff:ffff::", 64), ("FFFF:FFFF:FFFF:FFF0:0:0:0:0", 60), ("ffff:ffff:ffff::", 48),
    ("ffff::", 16), ("::", None), ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", None), ("2001:db8::", None),
    ("ffff:0:ffff::", None), ("255.255.255.0", None),
])
def test_an_ipv6_mask_spelled_as_an_address(text: str, length: int | None) -> None:
    assert ps.v6_mask_length(text) == length
    if length is not None:
        assert ps.v6_netmask(ipaddress.IPv6Network(f"::/{length}")) == ipaddress.IPv6Address(text)


@pytest.mark.parametrize(("key", "family"), [
    (b"  prefix6: ", 6), (b"      <subnetv6>", 6), (b"  address6: ", 6), (b"\toption ip6addr '", 6),
    (b"  ipv6_address: ", 6), (b"  ipv4_netmask = ", 4), (b"  prefix: ", None), (b"      <subnet>", None),
    (b"  address: ", None), (b"  lan_cidr: ", None), (b"  - {address: 2001:db8:a6::1, prefix: ", None),
    (b'  "prefix6": "', 6), (b"  - {address: 10.0.0.1, prefix_v6: ", 6),
])
def test_a_key_says_its_family_by_its_name(key: bytes, family: int | None) -> None:
    assert ps.key_family(key) == family


def test_a_length_owns_the_addresses_of_its_family() -> None:
    named = [("192.168.1.1", None), ("2001:db8:a::1", 6)]
    assert ps.owners_of_family(None, named) == ["192.168.1.1"]  # `<subnet>` not `<ipaddrv6>`'s
    assert ps.owners_of_family(6, named) == ["2001:db8:a::1"]
    assert ps.owners_of_family(4, [("2001:db8:a::1", None), ("10.0.0.1", None)]) == ["10.0.0.1"]
    assert ps.owners_of_family(None, [("2001:db8:a::1", 6)]) == ["2001:db8:a::1"]  # nothing else to own it
    assert ps.length_family(b"  prefix: ", "64") == 6 and ps.length_family(b"  mask ", "255.255.0.0") == 4


@pytest.mark.parametrize(("old", "new", "changes"), [
    ("10.0.48.0/31", "10.0.60.0/30", True), ("10.0.48.0/32", "10.0.48.0/29", True),
    ("2001:db8::/127", "2001:db8::/126", True), ("10.0.48.0/30", "10.0.48.0/31", False),
    ("10.0.48.0/29", "10.0.48.0/28", False), ("10.0.48.0/31", "10.0.60.0/31", False),
])
def test_a_host_at_offset_0_changes_role(old: str, new: str, changes: bool) -> None:
    was = ipaddress.ip_network(old)
    assert ps.host_becomes_network(was, ipaddress.ip_network(new), was.network_address) is changes


@pytest.mark.parametrize(("line", "length", "network"), [
    ("ip route 10.0.48.0/31 via x", 31, True), ("AllowedIPs = 10.0.48.0/31", 31, True),
    (" network 10.0.48.0 0.0.0.1 area 0", None, True), ("Address=10.0.48.0/31", 31, False),
    (" ip address 10.0.48.0 255.255.255.254", None, False), ("Gateway=10.0.48.0", None, False),
    ("- 10.0.48.0", None, False), ("10.0.48.0/30", 30, False), ("ip saddr 10.0.48.0 accept", None, False),
    ("route add -host 10.0.48.0 gw x", None, False), ("ip saddr 10.0.48.0/31 accept", 31, True),
    ("  ip: 10.0.48.0/31", 31, False), ("ipv4_address = 10.0.48.0/31", 31, False), ("route add -net 10.0.48.0 netmask 255.255.255.254", None, True),
])
def test_offset_0_written_as_the_network(line: str, length: int | None, network: bool) -> None:
    data = line.encode()
    assert ps.written_as_network(data, data.index(b"10.0.48.0"), length, 31) is network


@pytest.mark.parametrize(("text", "bracketed", "found"), [
    ("[A]/64 x", True, (6, "]/", 64)),  # Postfix, Dovecot: the length outside the bracket
    ("[A]/128", True, (7, "]/", 128)),
    ("[A]:8080/x", True, None),  # a port, then a path: no length
    ("[A]/64", False, None),  # no bracket before the address: not read
    ("[A]/1234", True, None),
])
def test_the_length_outside_a_bracketed_address(text: str, bracketed: bool,
                                               found: tuple[int, str, int] | None) -> None:
    """t29-33, finding 23: `[2001:db8:a:10::]/64` kept its length while the address moved."""
    got = ps.length_after(text.encode(), 2, v6=True, bracketed=bracketed)
    assert (None if got is None else (got.end, got.between, got.value)) == found


@pytest.mark.parametrize(("line", "found"), [
    ("inet6 2001:db8:a:10::7 64\n", (" ", 64)),  # OpenBSD hostname.if(5)
    ("inet6 alias 2001:db8:a:10::8 64\n", (" ", 64)),
    ("inet6 2001:db8:a:10::7\t48 vltime 3600\n", ("\t", 48)),
    ("  inet6 2001:db8:a:10::7 64 # lan\r\n", (" ", 64)),
    ("!ifconfig em0 inet6 2001:db8:a:10::7 64\n", (" ", 64)),
    ("inet6 2001:db8:a:10::7 prefixlen 64\n", None),  # a keyword: read as a key, not here
    ("inet6 2001:db8:a:10::7 129\n", None),  # no IPv6 length
    ("inet6 2001:db8:a:10::7 64.5\n", None),
    ("server 2001:db8:a:10::7 64\n", None),  # no `inet6` before it: a number of something else
    ("ping6 2001:db8:a:10::7 64\n", None),
])
def test_openbsd_writes_the_ipv6_length_as_a_bare_number(line: str, found: tuple[str, int] | None) -> None:
    """t29-33, finding 08: `inet6 ADDRESS 64` kept 64 under a move to /60."""
    data = line.encode()
    start = data.index(b"2001:")
    end = start + len("2001:db8:a:10::7")
    got = ps.bare_length(data, start, end)
    assert (None if got is None else (got.between, got.value)) == found
