"""Unit tests of dressed_addresses: padded, octal and hex dotted quads (t36-33 finding 11)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.dressed_addresses import DressedAddresses

MOVE = [(ipaddress.ip_network("192.168.40.0/24"), ipaddress.ip_network("10.20.0.0/22"))]


@pytest.mark.parametrize("text", ["192.168.040.005", "192.168.040.000", "192.168.40.05", "0300.0250.050.05",
                                  "0xc0.0xa8.0x28.0x05", "0XC0.0XA8.0X28.0X5", "192.168.0x28.5",
                                  "0192.0168.040.005", "192.168.0050.1"])
def test_a_dressed_address_of_a_moved_network_is_refused(text: str) -> None:
    data = f"ping -c1 {text}\n".encode()
    found = DressedAddresses([], MOVE).find(data)
    assert [(m.old, m.refused) for m in found] == [(text, "dressed-address")]
    assert found[0].new == text  # nothing rewritten
    assert found[0].note is not None and "192.168.40." in found[0].note


@pytest.mark.parametrize("text", ["192.168.40.5", "192.168.041.005", "10.0.0.05", "1.05.0.1", "0x0a.0.0.1",
                                  "192.168.40.5.1", "v192.168.040.005", "192.168.040.005.2", "0400.1.1.1"])
def test_other_quads_are_left(text: str) -> None:
    assert DressedAddresses([], MOVE).find(f"x {text} y\n".encode()) == []


def test_octal_reading_alone_counts() -> None:
    # `0300.0250.050.012` is 192.168.40.10 to inet_aton; decimal (300.250...) is no address
    found = DressedAddresses([], MOVE).find(b"host 0300.0250.050.012\n")
    assert found and "inet_aton" in (found[0].note or "")


def test_a_renamed_address_in_hex_dress_is_refused_its_padded_dress_is_the_loose_pass() -> None:
    dressed = DressedAddresses([("10.0.0.70", "10.0.1.70")])
    assert [m.old for m in dressed.find(b"a 0x0a.0x00.0x00.0x46 b 10.000.000.070\n")] == ["0x0a.0x00.0x00.0x46"]


def test_literals_gate_the_file() -> None:
    dressed = DressedAddresses([], MOVE)
    assert dressed.holds_literal(b"0300.0250.050.05") and dressed.holds_literal(b"192.168.040.5")
    assert not dressed.holds_literal(b"192.168.40.5 10.1.2.3")
    assert DressedAddresses([]).literals == ()
