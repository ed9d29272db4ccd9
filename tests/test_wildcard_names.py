"""wildcard_names.WildcardNames: the address a wildcard DNS name spells (pure logic; the CLI cases
are tests/cli/test_wildcard_names.py)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.wildcard_names import WildcardNames


def _names(addresses: dict[str, str], networks: dict[str, str] | None = None) -> WildcardNames:
    return WildcardNames(addresses.items(), [(ipaddress.ip_network(a), ipaddress.ip_network(b))
                                             for a, b in (networks or {}).items()])


@pytest.mark.parametrize(("text", "found"), [
    (b"grafana.10.0.0.70.nip.io", [("10.0.0.70", "10.0.1.70")]),
    (b"grafana-10-0-0-70.nip.io", [("10-0-0-70", "10-0-1-70")]),
    (b"a.b.10-0-0-70.sslip.io", [("10-0-0-70", "10-0-1-70")]),
    (b"0a000046.nip.io", [("0a000046", "0a000146")]),
    (b"APP-0A000046.NIP.IO", [("0A000046", "0A000146")]),
    (b"Host(`app.10.0.0.70.traefik.me`)", [("10.0.0.70", "10.0.1.70")]),
    (b"1.10.0.0.70.xip.io", [("10.0.0.70", "10.0.1.70")]),  # the last four numbers, as the service reads
])
def test_a_wildcard_name_spelling_a_renamed_address_follows(text: bytes, found: list[tuple[str, str]]) -> None:
    assert [(m.old, m.new) for m in _names({"10.0.0.70": "10.0.1.70"}).find(text)] == found


@pytest.mark.parametrize("text", [
    b"10.0.0.71.nip.io", b"10.0.0.70.nip.io.example.com", b"10.0.0.70.nip.iox", b"x0a000046.nip.io",
    b"10.0.0.70.example.io", b"web-10-0-0-70.lab.example",
])
def test_noop_what_no_service_decodes_to_a_renamed_address(text: bytes) -> None:
    assert _names({"10.0.0.70": "10.0.1.70"}).find(text) == []


def test_a_resized_move_is_a_residual_and_a_network_move_maps_by_offset() -> None:
    [refused] = _names({}, {"10.0.0.0/24": "10.2.0.0/23"}).find(b"10-0-0-70.nip.io")
    assert (refused.refused, refused.new) == ("wildcard-dns", "10.2.0.0/23")
    [moved] = _names({}, {"192.168.2.0/24": "192.168.4.0/24"}).find(b"c0a80205.nip.io")
    assert (moved.old, moved.new) == ("c0a80205", "c0a80405")
    assert _names({}).literals == () and not _names({}).might_hold(b"10.0.0.70.nip.io")


@pytest.mark.parametrize(("text", "found"), [
    (b"www.fd00--70.sslip.io", [("fd00--70", "fd00--71")]),
    (b"fd00-0-0-0-0-0-0-70.sslip.io", [("fd00-0-0-0-0-0-0-70", "fd00-0-0-0-0-0-0-71")]),
    (b"2001-db8-1--5.sslip.io", [("2001-db8-1--5", "2001-db8-2--5")]),  # a moved /64
])
def test_an_ipv6_sslip_name_follows(text: bytes, found: list[tuple[str, str]]) -> None:
    names = _names({"fd00::70": "fd00::71"}, {"2001:db8:1::/64": "2001:db8:2::/64"})
    assert [(m.old, m.new) for m in names.find(text)] == found


@pytest.mark.parametrize("text", [b"fd00--70.nip.io", b"fd00--72.sslip.io", b"x-fd00--70.sslip.io"])
def test_noop_an_ipv6_label_no_service_reads_as_a_renamed_address(text: bytes) -> None:
    assert _names({"fd00::70": "fd00::71"}).find(text) == []
