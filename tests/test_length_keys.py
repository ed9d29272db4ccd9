"""length_keys.py, pure vocabulary, and prefix_moves.length_hits reading it: length keys with a tail,
weak tails tied by an own name or a stanza, `=>` (t29-33, findings 04, 13, 17, 22). End to end:
tests/cli/test_prefix_keys_t29.py."""

from __future__ import annotations

import ipaddress

import pytest

from renamer import length_keys, prefix_moves

MOVE = prefix_moves.PrefixMove(ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("10.0.60.0/22"))
V6 = prefix_moves.PrefixMove(ipaddress.ip_network("2001:db8:a::/48"), ipaddress.ip_network("2001:db8:b::/56"))


@pytest.mark.parametrize(("text", "own"), [
    ("lab_bits", b"lab"), ("LAN_LEN", b"LAN"), ("labBits", b"lab"), ("LEN", b""), ("x.lab-suffix", b"x.lab"),
])
def test_the_own_name_of_a_weak_key(text: str, own: bytes) -> None:
    data = text.encode()
    tail = next(x for x in length_keys.WEAK_KEY.finditer(data + b"=24"))
    assert length_keys.own_name(data, tail.start()) == own


@pytest.mark.parametrize(("text", "own", "matches"), [
    ('lab_network = "', b"lab", True), ("LAN_NET=", b"LAN", True), ("labAddress: ", b"lab", True),
    ("'lab_ip' => '", b"lab", True), ("wan_network: ", b"lab", False), ("slab_network: ", b"lab", False),
])
def test_an_address_key_of_an_own_name(text: str, own: bytes, matches: bool) -> None:
    assert (length_keys.address_key(own).search(text.encode()) is not None) == matches


def _hits(text: str, *moves: prefix_moves.PrefixMove) -> list[tuple[str, str, str | None]]:
    data = text.encode()
    return [(data[h.start:h.end].decode(), h.new, h.refused) for h in prefix_moves.length_hits(data, list(moves))]


@pytest.mark.parametrize("key", ["mask_bits", "maskbits", "cidr_bits", "netbits", "net_bits", "netmask_bits",
                                 "network_bits", "subnet_bits", "cidr_len", "cidr_suffix", "plen", "prefixlen",
                                 "prefix_length", "masklen", "mask-length", "netlen"])
def test_a_length_key_with_a_tail_is_read(key: str) -> None:
    assert _hits(f"lan:\n  network: 10.0.48.0\n  {key}: 24\n", MOVE) == [("24", "22", None)]
    assert _hits(f"wan:\n  network: 192.0.2.0\n  {key}: 24\n", MOVE) == []  # another network's


@pytest.mark.parametrize(("text", "found"), [
    ("lab_network = \"10.0.48.0\"\nlab_bits = 24\n", [("24", "22", None)]),
    ("LAN_NET=10.0.48.0\nLAN_LEN=24\n", [("24", "22", None)]),
    ("Environment=LAN_NET=10.0.48.0 LAN_LEN=24\n", [("24", "22", None)]),
    ("NET=10.0.48.0\nLEN=24\n", [("24", "22", None)]),  # no own name: its stanza's address key
    ("wan_network = \"192.0.2.0\"\nwan_bits = 24\nlan_network = \"10.0.48.0\"\n", []),
    ("network: 10.0.48.0\n\nbuffer:\n  max_len: 24\n  key_bits: 24\n", []),  # never a residual
    ("GATEWAY=10.0.48.1\nLEN=24\n", []),
])
def test_a_weak_key_is_tied_by_its_name_or_its_stanza(text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _hits(text, MOVE) == found


@pytest.mark.parametrize(("text", "found"), [
    ("  ipaddress => '10.0.48.8',\n  prefix    => 24,\n", [("24", "22", None)]),  # Puppet
    ("$lan = ['network' => '10.0.48.0', 'prefix' => 24];\n", [("24", "22", None)]),  # PHP
    ("lan = { :network => '10.0.48.0', :netmask => '255.255.255.0' }\n",
     [("255.255.255.0", "255.255.252.0", None)]),  # Ruby symbols
    ("LAN_NETWORK=10.0.48.0\nLAN_PREFIX=24\nLAN_NETMASK=255.255.255.0\n",
     [("24", "22", None), ("255.255.255.0", "255.255.252.0", None)]),  # upper case .env
])
def test_arrows_and_upper_case_pairs(text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _hits(text, MOVE) == found


def test_a_flow_line_length_owns_its_family() -> None:
    text = '{"ip": "10.0.48.1", "prefix": 24, "ip6": "2001:db8:a::1", "prefix6": 48}\n'
    assert _hits(text, MOVE, V6) == [("24", "22", None), ("48", "56", None)]
    assert _hits("LAN_ADDRESS=10.0.48.1\nLAN_ADDRESS6=2001:db8:a::1\nLAN_PREFIX6=48\n", MOVE, V6) == [
        ("48", "56", None)]


def test_a_weak_key_in_a_long_block_pairs_by_its_indentation() -> None:
    """A `locals {` of more lines than a stanza holds: the key of the same own name at its indentation."""
    others = "".join(f'  v{i}_network = "192.0.2.{i}"\n  v{i}_bits = 24\n' for i in range(30))
    text = f'locals {{\n{others}  lab_network = "10.0.48.0"\n  lab_bits    = 24\n}}\n'
    assert _hits(text, MOVE) == [("24", "22", None)]
