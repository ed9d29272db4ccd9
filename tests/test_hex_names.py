"""An IPv4 address as a boot loader's hex file name (break-it round 25, finding 12): pure logic; the
CLI behaviour is tests/cli/test_hex_names.py."""

from __future__ import annotations

import ipaddress

import pytest

from renamer import hex_names
from renamer.hex_names import path_rename, path_unplaced, text_spans

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


# --- a moved network's hex names (issue 33, t36-33 finding 12) ---------------------------------

def _moves(old: str, new: str) -> list[tuple[ipaddress.IPv4Network, ipaddress.IPv4Network]]:
    return [(ipaddress.IPv4Network(old), ipaddress.IPv4Network(new))]


def test_a_moved_network_s_hex_names_follow_by_offset() -> None:
    moves = _moves("192.168.40.0/24", "10.20.0.0/22")
    assert path_rename("pxelinux.cfg/C0A82805", [], moves) == ("pxelinux.cfg/0A140005", 14, "192.168.40.5",
                                                                "10.20.0.5")
    assert path_rename("t/grub.cfg-C0A82805", [], moves) == ("t/grub.cfg-0A140005", 12, "192.168.40.5",
                                                              "10.20.0.5")
    renamed = path_rename("pxelinux.cfg/C0A828", [], moves)
    assert renamed is not None and renamed[0] == "pxelinux.cfg/0A1400" and renamed[2:] == ("192.168.40.0/24",
                                                                                            "10.20.0.0/24")
    assert path_rename("pxelinux.cfg/C0A829", [], moves) is None  # 192.168.41.0/24: not moved
    assert path_rename("grub.cfg-C0A828", [], moves) is None  # GRUB asks for whole addresses only
    assert text_spans(b"cp x pxelinux.cfg/C0A82805\n", [], moves) == [(18, 26, "C0A82805", "0A140005")]


def test_what_a_move_cannot_carry_is_said() -> None:
    shrink = _moves("192.168.40.0/24", "10.20.0.0/25")
    assert path_rename("pxelinux.cfg/C0A828C8", [], shrink) is None
    unplaced = path_unplaced("pxelinux.cfg/C0A828C8", shrink)
    assert unplaced is not None and unplaced[1] == "C0A828C8" and "cannot" in unplaced[2]
    assert path_unplaced("pxelinux.cfg/C0A828", shrink) is not None  # a /24 block in a /25
    wide = path_unplaced("pxelinux.cfg/C0A8", _moves("192.168.40.0/24", "10.20.0.0/22"))
    assert wide is not None and "192.168.0.0/16" in wide[2]
    assert path_unplaced("pxelinux.cfg/C0A8", _moves("192.168.40.0/24", "192.168.44.0/22")) is None
    assert path_unplaced("pxelinux.cfg/0A630005", shrink) is None
    # an unaligned landing: a /28 block moved to a network that starts mid-digit cannot be named
    assert path_rename("pxelinux.cfg/C0A8288", [], _moves("192.168.40.0/24", "10.20.0.0/24")) is not None
