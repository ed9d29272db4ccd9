"""An IPv4 address as a boot loader's hex file name (break-it round 25, finding 12): pure logic; the
CLI behaviour is tests/cli/test_hex_names.py."""

from __future__ import annotations

import pytest

from renamer import hex_names

PAIRS = (("10.0.0.70", "10.0.1.90"), ("2001:db8::1", "2001:db8::2"), ("192.168.1.10", "192.168.2.20"))


def test_to_hex() -> None:
    assert hex_names.to_hex("10.0.0.70") == "0A000046"
    assert hex_names.to_hex("10.0.1.90") == "0A00015A"


@pytest.mark.parametrize(("rel", "moved"), [
    ("tftp/pxelinux.cfg/0A000046", ("tftp/pxelinux.cfg/0A00015A", 19, "10.0.0.70", "10.0.1.90")),
    ("pxelinux.cfg/0A000046", ("pxelinux.cfg/0A00015A", 14, "10.0.0.70", "10.0.1.90")),
    ("boot/grub/grub.cfg-C0A8010A", ("boot/grub/grub.cfg-C0A80214", 20, "192.168.1.10", "192.168.2.20")),
    ("tftp/pxelinux.cfg/0A0000", None),  # a prefix file serves a network, not this host
    ("tftp/pxelinux.cfg/0a000046", None),  # lower case: no loader asks for it
    ("tftp/pxelinux.cfg/0A000047", None),  # another address
    ("docs/0A000046", None),  # not a boot loader's folder
    ("tftp/pxelinux.cfg/0A000046.bak", None),
])
def test_path_rename(rel: str, moved: tuple[str, int, str, str] | None) -> None:
    assert hex_names.path_rename(rel, PAIRS) == moved


@pytest.mark.parametrize(("data", "found"), [
    (b"cp x /srv/tftp/pxelinux.cfg/0A000046\n", [(28, 36, "0A000046", "0A00015A")]),
    (b"copy x C:\\tftp\\pxelinux.cfg\\0A000046\r\n", [(28, 36, "0A000046", "0A00015A")]),
    (b"dest: boot/grub/grub.cfg-C0A8010A\n", [(25, 33, "C0A8010A", "C0A80214")]),
    (b"dest: pxelinux.cfg/0A0000\n", []),
    (b"dest: pxelinux.cfg/0A000046.bak\n", []),
    (b"checksum 0A000046\n", []),  # a hex word elsewhere: no loader's name
])
def test_text_spans(data: bytes, found: list[tuple[int, int, str, str]]) -> None:
    assert hex_names.text_spans(data, PAIRS) == found
