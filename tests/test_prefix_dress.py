"""prefix_dress.py, pure logic: a length after an address in another dress than `/N` (t29-33,
findings 03 and 15). End to end: tests/cli/test_prefix_keys_t29.py."""

from __future__ import annotations

import ipaddress

import pytest

from renamer import prefix_dress


@pytest.mark.parametrize(("before", "address", "after", "found"), [
    ('{"s": "', "10.0.48.0", '\\/24"}', ("\\/", 24)),  # JSON's escaped solidus
    ("s/", "10.0.48.0", "\\/24/x/", ("\\/", 24)),  # sed: its delimiter after it
    ('"http:\\/\\/', "10.0.48.3", '\\/29"', None),  # a URL's host: its path
    ('"', "10.0.48.0", '\\/24\\/x"', None),  # an escaped path
    ("/subnets/", "10.0.48.0", "%2F24/hosts", ("%2F", 24)),  # an encoded slash, a real one after
    ("?q=", "10.0.48.0", "%2f24&x", ("%2f", 24)),
    ("http%3A%2F%2F", "10.0.48.3", "%2F29", None),  # an encoded URL's host
    ("/", "10.0.48.0", "%2F24%2Fx", None),
    ("/api/app/subnets/cidr/", "10.0.48.0", "/24/", ("/", 24)),  # phpIPAM
    ("/subnets/search/", "2001:db8:a::", "/48/", ("/", 48)),
    ("/api/hosts/", "10.0.48.0", "/24/", None),  # a path
    ("subnet: lab-", "10.0.48.0", "-24\n", ("-", 24)),  # Proxmox VE SDN id
    ("subnet: lab-", "2001:db8:a:10::", "-64\n", ("-", 64)),
    ("range ", "2001:db8:a:10::", "-64\n", ("-", 64)),  # no IPv6 range reads `::-64`
    ("range ", "10.0.48.0", "-24\n", None),  # .0 to .24: a range of last octets
    ("host z-", "10.0.48.5", "-24\n", None),  # no network address of a /24
    ("subnet: lab-", "10.0.48.0", "-24-x\n", None),
    ("backup_", "10.0.48.0", "_24 ", ("_", 24)),
    ("backup_", "10.0.48.0", "_24.5", None),
    ("", "10.0.48.0", "_40", None),  # past the family's length
    ('    "', "10.0.48.0", '"/24;', ('"/', 24)),  # Varnish VCL: the length outside the quotes
    ('    ! "', "2001:db8:a::", '" / 48;', ('" / ', 48)),
    ("    ", "10.0.48.0", '"/24;', None),  # no quote opens before the address
    ('"', "10.0.48.0", '"/24hours', None),  # a word
])
def test_a_dressed_length(before: str, address: str, after: str, found: tuple[str, int] | None) -> None:
    data = (before + address + after).encode()
    got = prefix_dress.dressed_length(data, len(before), len(before) + len(address), ipaddress.ip_address(address))
    assert (None if got is None else (got.between, got.value)) == found
    if got is not None:
        assert data[len(before) + len(address):got.end].decode() == got.text
