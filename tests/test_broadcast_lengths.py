"""broadcast_lengths: the length of the subnet a broadcast address closes (t36-33 finding 02)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.broadcast_lengths import subnet_length

BRD = ipaddress.ip_address("192.168.40.255")


def _at(text: str) -> int | None:
    data = text.encode()
    return subnet_length(data, data.rindex(b"192.168.40.255"), BRD, 24)


@pytest.mark.parametrize(("text", "length"), [
    ("ip addr add 192.168.40.130/25 brd 192.168.40.255 dev eth1\n", 25),
    ("ifconfig eth1 192.168.40.200 netmask 255.255.255.192 broadcast 192.168.40.255\n", 26),
    ("iface eth1 inet static\n  address 192.168.40.130\n  netmask 255.255.255.128\n  broadcast 192.168.40.255\n", 25),
    ("subnet 192.168.40.224 netmask 255.255.255.224 {\n  option broadcast-address 192.168.40.255;\n}\n", 27),
    ("[Address]\nAddress=192.168.40.130/25\nBroadcast=192.168.40.255\n", 25),
    ("IPADDR=192.168.40.130\nPREFIX=25\nBROADCAST=192.168.40.255\n", 25),
    # the whole network's: no longer subnet
    ("ip addr add 192.168.40.1/24 brd 192.168.40.255 dev eth0\n", None),
    ("iface eth0 inet static\n  netmask 255.255.255.0\n  broadcast 192.168.40.255\n", None),
    ("broadcast 192.168.40.255\n", None),
    # a /25 whose broadcast is not this address is no witness (the lower half)
    ("ip addr add 192.168.40.5/25 brd 192.168.40.255\n", None),
    # lengths that disagree: not certain
    ("iface eth1 inet static\n  netmask 255.255.255.128\n  prefix 26\n  broadcast 192.168.40.255\n", 0),
    ("iface eth1 inet static\n  netmask 255.255.255.0\n  prefix 25\n  broadcast 192.168.40.255\n", 0),
])
def test_the_length_beside_a_broadcast(text: str, length: int | None) -> None:
    assert _at(text) == length


def test_another_stanza_past_a_blank_line_gives_no_length() -> None:
    text = "iface eth9 inet static\n  netmask 255.255.255.128\n\niface eth0 inet static\n  broadcast 192.168.40.255\n"
    assert _at(text) is None
